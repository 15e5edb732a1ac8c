package scenarios

import (
	"errors"
	"fmt"
	"testing"
)

// FieldError reads "file:line: field.path: what is wrong", the line left out
// when it is 0 and the path when it is "".
func TestFieldErrorText(t *testing.T) {
	for _, tc := range []struct {
		e    FieldError
		want string
	}{
		{FieldError{"a.yaml", 14, "clients[2].retry.jitter", "unknown value"}, "a.yaml:14: clients[2].retry.jitter: unknown value"},
		{FieldError{"a.yaml", 0, "duration", "missing"}, "a.yaml: duration: missing"},
		{FieldError{"a.yaml", 3, "", "not YAML"}, "a.yaml:3: not YAML"},
		{FieldError{"a.yaml", 0, "", "empty"}, "a.yaml: empty"},
		{FieldError{"a.yaml", 1, "x", "m"}, "a.yaml:1: x: m"},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("%+v.Error() = %q, want %q", tc.e, got, tc.want)
		}
	}
	es := Errors{{File: "f", Line: 1, Msg: "a"}, {File: "f", Line: 2, Msg: "b"}}
	if got := es.Error(); got != "f:1: a\nf:2: b" {
		t.Errorf("Errors.Error() = %q, want one per line", got)
	}
}

// errorList keeps maxErrors problems; exactly maxErrors have no count of the
// rest, one more adds "and 1 more problems". The problems come sorted by line,
// ties in the order found; none is a nil error.
func TestErrorListCapAndOrder(t *testing.T) {
	if err := (&errorList{file: "f"}).err(); err != nil {
		t.Errorf("err() of no problems = %v, want nil", err)
	}
	for _, tc := range []struct {
		n         int
		wantLen   int
		wantMore  string
		wantCount int
	}{
		{maxErrors, maxErrors, "", maxErrors},
		{maxErrors + 1, maxErrors + 1, "and 1 more problems", maxErrors + 1},
		{maxErrors + 7, maxErrors + 1, "and 7 more problems", maxErrors + 7},
	} {
		l := &errorList{file: "f"}
		for i := range tc.n {
			l.add(i+1, "p", fmt.Sprint(i))
		}
		if l.count() != tc.wantCount {
			t.Errorf("%d problems: count() = %d, want %d", tc.n, l.count(), tc.wantCount)
		}
		var es Errors
		if !errors.As(l.err(), &es) || len(es) != tc.wantLen {
			t.Fatalf("%d problems: err() = %d entries, want %d", tc.n, len(es), tc.wantLen)
		}
		last := es[len(es)-1]
		if tc.wantMore == "" && last.Msg == fmt.Sprint(maxErrors-1) {
			continue
		}
		if last.Msg != tc.wantMore || last.File != "f" || last.Line != 0 {
			t.Errorf("%d problems: last = %+v, want %q of file f, no line", tc.n, last, tc.wantMore)
		}
	}
	l := &errorList{file: "f"}
	l.add(9, "c", "third")
	l.add(2, "a", "first")
	l.add(9, "d", "fourth")
	l.add(0, "z", "no line")
	l.add(2, "b", "second")
	var got []string
	var es Errors
	errors.As(l.err(), &es)
	for _, e := range es {
		got = append(got, e.Msg)
	}
	if want := "[no line first second third fourth]"; fmt.Sprint(got) != want {
		t.Errorf("errors in order %v, want %s (by line, ties as found)", got, want)
	}
}

// BudgetError says the estimate and the budget with thousands separators.
func TestBudgetErrorText(t *testing.T) {
	e := &BudgetError{File: "big.yaml", Estimate: 12_500_000, Budget: 1000}
	if got, want := e.Error(), "big.yaml: about 12,500,000 events estimated, over the budget of 1,000"; got != want {
		t.Errorf("BudgetError = %q, want %q", got, want)
	}
}
