package scenarios

import (
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// decodeAs decodes src into a struct of one field x of type typ, tagged tag,
// and returns the value and the problems.
func decodeAs(t *testing.T, typ reflect.Type, tag, src string) (reflect.Value, Errors) {
	t.Helper()
	st := reflect.StructOf([]reflect.StructField{{Name: "X", Type: typ, Tag: reflect.StructTag(`yaml:"x"` + tag)}})
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(src), &root); err != nil {
		t.Fatal(err)
	}
	errs := &errorList{file: "f.yaml"}
	v := reflect.New(st).Elem()
	(&decoder{errs: errs, lines: map[string]int{}}).decode(root.Content[0], v, "", "")
	if err := errs.err(); err != nil {
		return v.Field(0), err.(Errors)
	}
	return v.Field(0), nil
}

// Each kind of field takes only its own kind of node, and a node of another
// kind is one problem at the field's path and line saying what it wants; a
// YAML tag is refused whatever the kind; null is the field left as it was.
func TestDecodeRefusesTheWrongKindOfNode(t *testing.T) {
	str, num, big, list := reflect.TypeFor[string](), reflect.TypeFor[int](), reflect.TypeFor[uint64](), reflect.TypeFor[[]int]()
	for _, tc := range []struct {
		typ  reflect.Type
		src  string
		want string // the problem's start; "" for none
	}{
		{str, "x: abc\n", ""},
		{str, "\nx: [a]\n", "want a string"},
		{num, "x: 12\n", ""},
		{num, "x: 1.5\n", "want a whole number"},
		{num, "x: {a: 1}\n", "want a whole number"},
		{big, "x: 18446744073709551615\n", ""},
		{big, "x: -1\n", "want a whole number"},
		{big, "x: [1]\n", "want a whole number"},
		{list, "x: [1, 2]\n", ""},
		{list, "x: 5\n", "want a list"},
		{list, "\n\nx: !!seq [1]\n", "YAML tags like !!seq are not part of the scenario format"},
		{num, "x: !!int 3\n", "YAML tags like !!int are not part of the scenario format"},
		{num, "x: null\n", ""},
	} {
		v, errs := decodeAs(t, tc.typ, "", tc.src)
		line := strings.Count(tc.src[:strings.Index(tc.src, "x:")], "\n") + 1
		if tc.want == "" {
			if errs != nil {
				t.Errorf("%v from %q: %v, want none", tc.typ, tc.src, errs)
			}
			continue
		}
		if len(errs) != 1 || errs[0].Path != "x" || errs[0].Line != line || !strings.HasPrefix(errs[0].Msg, tc.want) {
			t.Errorf("%v from %q: %+v, want one problem at f.yaml:%d x starting %q", tc.typ, tc.src, errs, line, tc.want)
		}
		if !v.IsZero() {
			t.Errorf("%v from %q: the field in error holds %v, want it left zero", tc.typ, tc.src, v)
		}
	}
}
