package importer

import (
	"strings"
	"testing"
)

// A parameter of ngxConfBuffer bytes or more is refused as nginx refuses it
// (ngx_conf_read_token): a quoted one with the hint that its quote is
// missing, another with its first ten bytes; each at the line it started on.
func TestNginxTooLongParameter(t *testing.T) {
	long := strings.Repeat("x", ngxConfBuffer)
	for _, c := range []struct{ in, want string }{
		{"a;\nb \"" + long + "\";", `t:2: too long parameter, probably missing terminating quote character`},
		{"a;\nb '" + long + "';", `t:2: too long parameter, probably missing terminating quote character`},
		{"a;\nb \"x\n\n" + long + "\";", `t:2: too long parameter, probably missing terminating quote character`},
		{"a;\n\nb " + long + ";", `t:3: too long parameter "xxxxxxxxxx"... started`},
	} {
		s := &ngxScanner{file: "t", data: []byte(c.in), line: 1}
		var err error
		for range 3 {
			if _, _, _, err = s.next(); err != nil {
				break
			}
		}
		if err == nil || err.Error() != c.want {
			t.Errorf("%.12q…: %v, want %s", c.in, err, c.want)
		}
	}
	// Just under the bound: read.
	s := &ngxScanner{file: "t", data: []byte("b " + long[:ngxConfBuffer-3] + ";"), line: 1}
	if words, _, _, err := s.next(); err != nil || len(words) != 2 {
		t.Errorf("a parameter under the bound: %d words, %v", len(words), err)
	}
}
