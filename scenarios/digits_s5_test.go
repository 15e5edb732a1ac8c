package scenarios

import "testing"

// groupDigits puts a separator before every group of three digits but the first.
func TestGroupDigits_s5(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{
		{0, "0"},
		{7, "7"},
		{500, "500"},
		{1500, "1,500"},
		{500000, "500,000"},
		{12500000, "12,500,000"},
		{500000000, "500,000,000"},
		{-500000, "-500,000"},
	} {
		if got := groupDigits(c.n); got != c.want {
			t.Errorf("groupDigits(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}
