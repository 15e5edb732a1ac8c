package replay

import (
	"strings"
	"testing"
)

// A "$" or "${" that ends the format is an error at its byte, not a panic.
func TestNginxFormatEndingInADollar(t *testing.T) {
	for _, c := range []struct{ format, want string }{
		{"$remote_addr $", `invalid variable name "" at byte 14`},
		{"$", `invalid variable name "" at byte 1`},
		{"$remote_addr ${", "the variable at byte 13 has no closing }"},
		{"${}", `invalid variable name "" at byte 3`},
	} {
		f, err := NginxFormat(c.format)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NginxFormat(%q) = %v, %v; want an error saying %q", c.format, f, err, c.want)
		}
	}
}
