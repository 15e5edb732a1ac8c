package scenarios

import (
	"reflect"
	"strings"
	"testing"
)

// A bool takes true or false only, and a number any finite int or float;
// every other node is one problem naming what was wanted and what was got.
func TestDecodeBoolsAndNumbers(t *testing.T) {
	boolean, number := reflect.TypeFor[bool](), reflect.TypeFor[float64]()
	for _, tc := range []struct {
		typ  reflect.Type
		src  string
		want any    // the value decoded when no problem
		err  string // the problem's message; "" for none
	}{
		{boolean, "x: true\n", true, ""},
		{boolean, "x: false\n", false, ""},
		{boolean, "x: yes\n", nil, `want true or false, got "yes"`},
		{boolean, "x: 1\n", nil, `want true or false, got "1"`},
		{boolean, "x: [true]\n", nil, "want true or false, got a list"},
		{boolean, "x: {a: true}\n", nil, "want true or false, got a mapping"},
		{number, "x: 1.5\n", 1.5, ""},
		{number, "x: -3\n", -3.0, ""},
		{number, "x: 1e3\n", 1000.0, ""},
		{number, "x: .nan\n", nil, `want a number, got ".nan"`},
		{number, "x: .inf\n", nil, `want a number, got ".inf"`},
		{number, "x: ten\n", nil, `want a number, got "ten"`},
		{number, "x: [1]\n", nil, "want a number, got a list"},
		{number, "x: {a: 1}\n", nil, "want a number, got a mapping"},
	} {
		v, errs := decodeAs(t, tc.typ, "", tc.src)
		if tc.err == "" {
			if errs != nil || v.Interface() != tc.want {
				t.Errorf("%v from %q: %v (%v), want %v", tc.typ, tc.src, v.Interface(), errs, tc.want)
			}
			continue
		}
		if len(errs) != 1 || errs[0].Msg != tc.err || errs[0].Path != "x" || errs[0].Line != 1 {
			t.Errorf("%v from %q: %v, want one problem at x, line 1: %s", tc.typ, tc.src, errs, tc.err)
		}
		if !v.IsZero() {
			t.Errorf("%v from %q: kept %v despite the problem", tc.typ, tc.src, v.Interface())
		}
	}
}

// A field given twice in one mapping is a problem at the second's line, and
// the first value is the one kept; an alias reads its anchor's value.
func TestDecodeFieldTwiceAndAliases(t *testing.T) {
	type pair struct {
		A int `yaml:"a"`
		B int `yaml:"b"`
	}
	v, errs := decodeAs(t, reflect.TypeFor[pair](), "", "x:\n  a: 1\n  b: 2\n  a: 3\n")
	if len(errs) != 1 || errs[0].Msg != "given twice" || errs[0].Path != "x.a" || errs[0].Line != 4 {
		t.Errorf("a given twice: %v, want one problem at x.a, line 4: given twice", errs)
	}
	if got := v.Interface().(pair); got != (pair{A: 1, B: 2}) {
		t.Errorf("a given twice: decoded %+v, want the first a (1) and b 2", got)
	}
	list, errs := decodeAs(t, reflect.TypeFor[[][]int](), "", "x: [&l [4, 5], *l, [6]]\n")
	if want := [][]int{{4, 5}, {4, 5}, {6}}; errs != nil || !reflect.DeepEqual(list.Interface(), want) {
		t.Errorf("a list through an alias: %v (%v), want %v", list.Interface(), errs, want)
	}
	scalar, errs := decodeAs(t, reflect.TypeFor[[]int](), "", "x: [&n 7, *n, *n]\n")
	if want := []int{7, 7, 7}; errs != nil || !reflect.DeepEqual(scalar.Interface(), want) {
		t.Errorf("a scalar through an alias: %v (%v), want %v", scalar.Interface(), errs, want)
	}
}

// nodesSource is a list of lists decoding to exactly nodes values (the
// struct, the outer list, and each inner list with its strings), the inner
// lists of 999 strings written once and aliased.
func nodesSource(nodes int) string {
	const inner = 1 + 999
	full := (nodes - 2) / inner
	rest := nodes - 2 - full*inner // one more list of rest-1 numbers, when rest > 0
	items := make([]string, 0, full+1)
	items = append(items, "&l ["+strings.TrimSuffix(strings.Repeat("a, ", 999), ", ")+"]")
	for range full - 1 {
		items = append(items, "*l")
	}
	if rest > 0 {
		items = append(items, "["+strings.TrimSuffix(strings.Repeat("b, ", rest-1), ", ")+"]")
	}
	return "x: [" + strings.Join(items, ", ") + "]\n"
}

// A file decodes up to maxNodes values, aliases counted at each use; past it
// is a single problem however far past it goes.
func TestDecodeNodeBudget(t *testing.T) {
	for _, tc := range []struct {
		nodes    int
		problems int
	}{{maxNodes, 0}, {maxNodes + 2, 1}} {
		src := nodesSource(tc.nodes)
		_, errs := decodeAs(t, reflect.TypeFor[[][]string](), "", src)
		if len(errs) != tc.problems {
			t.Errorf("%d values: %d problems (%v), want %d", tc.nodes, len(errs), errs, tc.problems)
			continue
		}
		for _, e := range errs {
			if !strings.Contains(e.Msg, "too many values") {
				t.Errorf("%d values: %q, want too many values", tc.nodes, e.Msg)
			}
		}
	}
}
