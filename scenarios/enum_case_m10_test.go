package scenarios

import (
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// decodeEnum decodes value into a string field of the enum named e, by a
// struct built for it, and returns the problems.
func decodeEnum(t *testing.T, e, value string) Errors {
	t.Helper()
	typ := reflect.StructOf([]reflect.StructField{{Name: "X", Type: reflect.TypeFor[string](), Tag: reflect.StructTag(`yaml:"x" enum:"` + e + `"`)}})
	var root yaml.Node
	if err := yaml.Unmarshal([]byte("x: '"+strings.ReplaceAll(value, "'", "''")+"'\n"), &root); err != nil {
		t.Fatal(err)
	}
	errs := &errorList{file: "f.yaml"}
	v := reflect.New(typ).Elem()
	(&decoder{errs: errs, lines: map[string]int{}}).decode(root.Content[0], v, "", "")
	if err := errs.err(); err != nil {
		return err.(Errors)
	}
	if got := v.Field(0).String(); got != value {
		t.Errorf("enum %s: %q decoded as %q", e, value, got)
	}
	return nil
}

// Every enum of the format takes its values exactly as sim names them: each
// name decodes, and the same name in upper case (or with a capital first) is
// refused as an unknown value, at its field, unless it is itself a name.
func TestEveryEnumIsCaseSensitive(t *testing.T) {
	var names []string
	for e := range enums {
		names = append(names, e)
	}
	sort.Strings(names)
	for _, e := range names {
		valid := enums[e]()
		if len(valid) == 0 {
			t.Errorf("enum %s has no values", e)
		}
		for _, v := range valid {
			if errs := decodeEnum(t, e, v); errs != nil {
				t.Errorf("enum %s: %q refused: %v", e, v, errs)
			}
			for _, other := range []string{strings.ToUpper(v), strings.ToUpper(v[:1]) + v[1:]} {
				if other == v || slices.Contains(valid, other) {
					continue
				}
				errs := decodeEnum(t, e, other)
				if len(errs) != 1 || errs[0].Path != "x" || !strings.Contains(errs[0].Msg, "unknown") {
					t.Errorf("enum %s: %q gave %v, want one unknown-value problem at x", e, other, errs)
				}
			}
		}
	}
}
