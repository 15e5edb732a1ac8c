package importer

import (
	"strconv"
	"strings"
	"testing"
)

// TestEnvoyPercentEveryDenominator: a fractional percent is all at or over
// its denominator and none at or under 0, HUNDRED (also unset or 0),
// TEN_THOUSAND (1) and MILLION (2) each; another denominator is told and
// read as HUNDRED; an absent one is none.
func TestEnvoyPercentEveryDenominator(t *testing.T) {
	for _, c := range []struct {
		den     string
		scale   int64
		problem bool
	}{
		{"", 100, false}, {"HUNDRED", 100, false}, {"0", 100, false}, {"TEN_THOUSAND", 10000, false}, {"1", 10000, false},
		{"MILLION", 1000000, false}, {"2", 1000000, false}, {"BILLION", 100, true},
	} {
		for _, num := range []int64{0, 1, c.scale - 1, c.scale, c.scale + 1} {
			doc := "p:\n  default_value:\n    numerator: " + itoa(num) + "\n"
			if c.den != "" {
				doc += "    denominator: " + c.den + "\n"
			}
			f, root := nodeFileOf(t, doc)
			r := &envoyReader{f: f, m: f.m}
			all, none := r.percent(f.get(root, "p"), "filter_enabled")
			if all != (num >= c.scale) || none != (num <= 0) {
				t.Errorf("%d/%s: all %v none %v, want %v %v", num, c.den, all, none, num >= c.scale, num <= 0)
			}
			told := len(f.m.Problems) == 1 && strings.Contains(f.m.Problems[0].Message, "filter_enabled.denominator: \""+c.den+"\" is not HUNDRED")
			if told != c.problem || (!c.problem && len(f.m.Problems) > 0) {
				t.Errorf("%d/%s: problems %v", num, c.den, f.m.Problems)
			}
		}
	}
	f, root := nodeFileOf(t, "p:\n  numerator: 100\n")
	r := &envoyReader{f: f, m: f.m}
	if all, none := r.percent(f.get(root, "p"), "x"); !all || none {
		t.Errorf("a bare FractionalPercent of 100: all %v none %v", all, none)
	}
	if all, none := r.percent(nil, "x"); all || !none {
		t.Errorf("absent: all %v none %v, want none", all, none)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
