package importer

import (
	"fmt"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// nodeFileOf reads doc, a mapping, for the nodeFile readers.
func nodeFileOf(t *testing.T, doc string) (*nodeFile, *yaml.Node) {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(doc), &n); err != nil {
		t.Fatal(err)
	}
	return &nodeFile{name: "n.yaml", m: &Model{}}, n.Content[0]
}

// TestNodeReadersAbsentNullAliasAndWrongKind: every scalar reader takes an
// absent key and a null alike (absent, no problem), follows an alias, and
// tells a value of the wrong kind at its line, naming the field.
func TestNodeReadersAbsentNullAliasAndWrongKind(t *testing.T) {
	doc := "null1: ~\nnull2: null\nlist: [1, 2]\nmap: {a: 1}\nword: many\nseven: &seven 7\nalias: *seven\nyes: &yes true\nyalias: *yes\nhalf: 2.5\n"
	f, root := nodeFileOf(t, doc)
	line := func(key string) int {
		for i, l := range strings.Split(doc, "\n") {
			if strings.HasPrefix(l, key+":") {
				return i + 1
			}
		}
		t.Fatalf("no key %s", key)
		return 0
	}
	type read func(n *yaml.Node) (any, bool)
	readers := map[string]read{
		"number": func(n *yaml.Node) (any, bool) { return f.number(n, "field") },
		"count":  func(n *yaml.Node) (any, bool) { return f.count(n, "field") },
		"boolean": func(n *yaml.Node) (any, bool) {
			v := f.boolean(n, "field", true)
			return v, n != nil && f.str(n) != ""
		},
	}
	for name, r := range readers {
		for _, key := range []string{"absent", "null1", "null2"} {
			f.m.Problems = nil
			if v, ok := r(f.get(root, key)); (name != "boolean" && ok) || (name == "boolean" && v != true) || len(f.m.Problems) != 0 {
				t.Errorf("%s of %s = %v, %v, problems %v; want absent, the default, no problem", name, key, v, ok, f.m.Problems)
			}
		}
		for _, key := range []string{"list", "map", "word"} {
			f.m.Problems = nil
			r(f.get(root, key))
			if len(f.m.Problems) != 1 || f.m.Problems[0].At.Line != line(key) || !strings.HasPrefix(f.m.Problems[0].Message, "field: ") {
				t.Errorf("%s of %s: problems %v, want one at line %d naming the field", name, key, f.m.Problems, line(key))
			}
		}
	}
	f.m.Problems = nil
	if v, ok := f.number(f.get(root, "alias"), "x"); !ok || v != 7 {
		t.Errorf("number through an alias = %v, %v", v, ok)
	}
	if v, ok := f.count(f.get(root, "alias"), "x"); !ok || v != 7 {
		t.Errorf("count through an alias = %v, %v", v, ok)
	}
	if v := f.boolean(f.get(root, "yalias"), "x", false); !v {
		t.Errorf("boolean through an alias = false")
	}
	if v, ok := f.number(f.get(root, "half"), "x"); !ok || v != 2.5 {
		t.Errorf("number 2.5 = %v, %v", v, ok)
	}
	if _, ok := f.count(f.get(root, "half"), "x"); ok || len(f.m.Problems) != 1 || !strings.Contains(f.m.Problems[0].Message, "x: 2.5 is not a whole number from 1") {
		t.Errorf("count 2.5: ok %v, problems %v", ok, f.m.Problems)
	}
	for _, key := range []string{"null1", "list", "map", "absent"} {
		if s := f.str(f.get(root, key)); s != "" {
			t.Errorf("str of %s = %q, want empty", key, s)
		}
	}
}

// TestNodeNumberAndCountBounds: a number up to 1e15 in size, NaN refused, a
// larger one out of range (1e400 too, which overflows a float64); a count
// from 1, whole, up to number's bound.
func TestNodeNumberAndCountBounds(t *testing.T) {
	for _, c := range []struct {
		text       string
		number     bool
		count      bool
		countValue int64
	}{
		{"1e15", true, true, 1e15}, {"-1e15", true, false, 0}, {"1.0000000000000002e15", false, false, 0},
		{".nan", false, false, 0}, {"0", true, false, 0}, {"1", true, true, 1}, {"-1", true, false, 0},
		{"0.999", true, false, 0}, {" 3 ", true, true, 3}, {"1e400", false, false, 0}, {"-1e400", false, false, 0},
	} {
		f, root := nodeFileOf(t, fmt.Sprintf("v: %q\n", c.text))
		if _, ok := f.number(f.get(root, "v"), "v"); ok != c.number {
			t.Errorf("number(%s) ok = %v, want %v", c.text, ok, c.number)
		}
		f.m.Problems = nil
		if v, ok := f.count(f.get(root, "v"), "v"); ok != c.count || v != c.countValue || ok == (len(f.m.Problems) > 0) {
			t.Errorf("count(%s) = %d, %v (problems %v), want %d, %v", c.text, v, ok, f.m.Problems, c.countValue, c.count)
		}
	}
}

// TestNodeNumberNamesItsProblem: a number too large is told as out of range,
// not as "not a number"; text that is no number as not one.
func TestNodeNumberNamesItsProblem(t *testing.T) {
	for text, want := range map[string]string{
		"2e15": `v: 2e15 is out of range (at most 1e15 in size)`, "1e400": `v: 1e400 is out of range (at most 1e15 in size)`,
		"ten": `v: "ten" is not a number`, ".nan": `v: ".nan" is not a number`,
	} {
		f, root := nodeFileOf(t, fmt.Sprintf("v: %s\n", text))
		f.number(f.get(root, "v"), "v")
		if len(f.m.Problems) != 1 || !strings.Contains(f.m.Problems[0].Message, want) {
			t.Errorf("number(%s): problems %+v, want one saying %q", text, f.m.Problems, want)
		}
	}
}
