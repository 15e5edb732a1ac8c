package sweep

import (
	"strings"
	"testing"

	"github.com/rlsim/rlsim/run"
)

// FuzzParseVary: any flag is read or refused, never a panic; a vary read has
// one to MaxPoints values, none empty, none twice.
func FuzzParseVary(f *testing.F) {
	for _, s := range []string{"limits[0].limit=10..50/10", "x=1,2,3", "x=0.1..0.3/0.1", "x=1s..2s/100ms", "x=1..1e9/1e-9", "x=..", "=", "x=1..2/-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, arg string) {
		v, err := ParseVary(arg)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "--vary ") {
				t.Errorf("ParseVary(%q): error %q does not name the flag", arg, err)
			}
			return
		}
		if len(v.Values) < 1 || len(v.Values) > MaxPoints {
			t.Errorf("ParseVary(%q): %d values", arg, len(v.Values))
		}
		seen := map[string]bool{}
		for _, x := range v.Values {
			if x == "" || seen[x] {
				t.Errorf("ParseVary(%q): value %q empty or twice in %q", arg, x, v.Values)
			}
			seen[x] = true
		}
	})
}

// FuzzParseWhere: any condition is read or refused naming the flag, never a panic.
func FuzzParseWhere(f *testing.F) {
	for _, s := range []string{"class users success >= 99%", "lane gcra peak_ratio <= 1.2", "class a p99 < 1s", "x", "class  >= "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		w, err := ParseWhere(s, []string{"gcra"}, []string{"users", "a"})
		if err != nil {
			if !strings.Contains(err.Error(), "--where ") {
				t.Errorf("ParseWhere(%q): error %q does not name the flag", s, err)
			}
			return
		}
		if w.Figure < 0 || w.Figure >= len(run.Figures) {
			t.Errorf("ParseWhere(%q): figure %d", s, w.Figure)
		}
	})
}
