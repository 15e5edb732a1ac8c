package sweep

import (
	"slices"
	"strings"
	"testing"
)

// decimalsOf: the digits s writes after the point, less its exponent, never
// below 0 (1e-3 needs three, 2.5e1 none).
func TestDecimalsOf(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want int
	}{
		{"10", 0}, {"1.25", 2}, {"1e-3", 3}, {"1E-3", 3}, {"2.5e1", 0}, {"2.55e1", 1},
		{"1.5e-2", 3}, {"1e3", 0}, {"0.10", 2}, {"-0.5", 1}, {"1e+2", 0},
	} {
		if got := decimalsOf(tc.s); got != tc.want {
			t.Errorf("decimalsOf(%q) = %d, want %d", tc.s, got, tc.want)
		}
	}
}

// shorten keeps a flag of up to 80 bytes whole and cuts a longer one to 80
// and "...".
func TestShorten(t *testing.T) {
	at, past := strings.Repeat("a", 80), strings.Repeat("a", 81)
	if got := shorten(at); got != at {
		t.Errorf("shorten of 80 bytes = %q, want it whole", got)
	}
	if got := shorten(past); got != at+"..." {
		t.Errorf("shorten of 81 bytes = %q, want the first 80 and ...", got)
	}
}

// ParseVary: a range's decimals are those of from and step (the larger), not
// of to; a range's values step from from, so to need not be on the grid; a
// list keeps its values as written, in order.
func TestParseVaryDecimalsAndOrder(t *testing.T) {
	for _, tc := range []struct {
		arg  string
		want []string
	}{
		{"x=0.5..2/0.5", []string{"0.5", "1.0", "1.5", "2.0"}},
		{"x=1..2.00/0.5", []string{"1.0", "1.5", "2.0"}},
		{"x=1.00..2/1", []string{"1.00", "2.00"}},
		{"x=0..1/0.3", []string{"0.0", "0.3", "0.6", "0.9"}},
		{"x=0..0.9/0.3", []string{"0.0", "0.3", "0.6", "0.9"}}, // 0.9 reached despite 0.3's rounding
		{"x=30,10,20", []string{"30", "10", "20"}},
		{"x=100ms..300ms/100ms", []string{"100ms", "200ms", "300ms"}},
		{"x=1m..3m/1m", []string{"1m0s", "2m0s", "3m0s"}},
	} {
		v, err := ParseVary(tc.arg)
		if err != nil || !slices.Equal(v.Values, tc.want) || v.Path != "x" {
			t.Errorf("ParseVary(%q) = %q %q, %v; want path x, %q", tc.arg, v.Path, v.Values, err, tc.want)
		}
	}
	for _, tc := range []struct{ arg, want string }{
		{"x=1, ,2", "--vary x=1, ,2: an empty value in the list"},
		{"x=", "--vary x=: want path=v1,v2,..."},
		{"x=1ms..1s/1", "a range of durations wants durations at both ends and as the step, like 100ms..1s/100ms"},
		{"x=1s..2s/-1s", "want from <= to and a positive step"},
		{"x=1..2/-1", "want from <= to and a positive step"},
	} {
		if _, err := ParseVary(tc.arg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseVary(%q) = %v, want %q", tc.arg, err, tc.want)
		}
	}
}
