package diff

import (
	"fmt"
	"strings"
	"testing"
)

// TestFailOnHoldsAtEveryBoundary parses METRIC OP VALUE for every op and asks
// holds below, at and above the value, against Go's own comparison.
func TestFailOnHoldsAtEveryBoundary(t *testing.T) {
	want := map[string]func(a, b float64) bool{
		">": func(a, b float64) bool { return a > b }, ">=": func(a, b float64) bool { return a >= b },
		"<": func(a, b float64) bool { return a < b }, "<=": func(a, b float64) bool { return a <= b },
		"==": func(a, b float64) bool { return a == b }, "!=": func(a, b float64) bool { return a != b },
	}
	if len(want) != len(Ops) {
		t.Fatalf("Ops = %v, the test knows %d", Ops, len(want))
	}
	for _, op := range Ops {
		for _, value := range []int64{0, 3} {
			f, err := ParseFailOn(fmt.Sprintf("refused_delta %s %d", op, value), "scenario")
			if err != nil {
				t.Fatal(err)
			}
			if f.Op != op || f.Value != float64(value) || f.Metric != "refused_delta" {
				t.Fatalf("ParseFailOn(%s %d) = %+v", op, value, f)
			}
			for _, got := range []float64{float64(value) - 1, float64(value), float64(value) + 1} {
				if h := f.holds(got); h != want[op](got, float64(value)) {
					t.Errorf("refused_delta %s %d holds(%v) = %v, want %v", op, value, got, h, !h)
				}
			}
		}
	}
}

// TestKeyStatusEachCase: newly refused only from none to some, newly admitted
// only from some to none.
func TestKeyStatusEachCase(t *testing.T) {
	for _, c := range []struct {
		cur, prop int64
		want      string
	}{{0, 0, ""}, {0, 1, "newly refused"}, {0, 5, "newly refused"}, {1, 0, "newly admitted"},
		{4, 0, "newly admitted"}, {1, 1, ""}, {1, 2, ""}, {2, 1, ""}} {
		k := KeyDiff{RefusedCurrent: c.cur, RefusedProposed: c.prop}
		if got := k.status(); got != c.want {
			t.Errorf("status of %d -> %d = %q, want %q", c.cur, c.prop, got, c.want)
		}
	}
}

// TestSignedAndWhere: a positive difference carries its plus sign, zero and
// negatives none; a pair is named by its lanes (one when alike) and limit.
func TestSignedAndWhere(t *testing.T) {
	for _, v := range []int64{-3, -1, 0, 1, 7} {
		want := fmt.Sprint(v)
		if v > 0 {
			want = "+" + want
		}
		if got := signed(v); got != want {
			t.Errorf("signed(%d) = %q, want %q", v, got, want)
		}
	}
	for _, c := range []struct {
		cur, prop, limit, want string
	}{
		{"a", "a", "", "lane a"},
		{"a", "b", "", "lane a → b"},
		{"a", "a", "per_ip", "lane a, limit per_ip"},
		{"a", "b", "per_ip", "lane a → b, limit per_ip"},
	} {
		p := Pair{Current: c.cur, Proposed: c.prop, Limit: c.limit}
		if got := p.where(); got != c.want {
			t.Errorf("where of %+v = %q, want %q", c, got, c.want)
		}
	}
}

// TestFailResultMessageListsWhatHeld: the message names only the values that
// met the expression, in order, and is empty when none did.
func TestFailResultMessageListsWhatHeld(t *testing.T) {
	f, err := ParseFailOn("newly_refused >= 2", "scenario")
	if err != nil {
		t.Fatal(err)
	}
	r := FailResult{FailOn: f, Values: []PairValue{
		{Where: "lane a", Shown: "1", Holds: false},
		{Where: "lane b", Shown: "2", Holds: true},
		{Where: "lane c", Shown: "9", Holds: true},
	}}
	want := "newly_refused >= 2: 2 (lane b), 9 (lane c)"
	if got := r.Message(); got != want {
		t.Errorf("Message = %q, want %q", got, want)
	}
	r.Values[1].Holds, r.Values[2].Holds = false, false
	if got := r.Message(); got != "" {
		t.Errorf("Message with nothing held = %q, want empty", got)
	}
	if got := formatValue(f); got != "2" || strings.Contains(got, ".") {
		t.Errorf("formatValue of a count = %q, want 2", got)
	}
}
