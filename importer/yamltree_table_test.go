package importer

import (
	"strings"
	"testing"
)

func TestYAMLTreeScalarsAndStructure(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{"a: 1_000", `.a=1000@1`},
		{"a: 0x1F", `.a=31@1`},
		{"a: 0o17", `.a=15@1`},
		{"a: -3", `.a=-3@1`},
		{"a: 1.5", `.a=1.5@1`},
		{"a: 1e3", `.a=1000@1`},
		{"a: true\nb: False", `.a=true@1 .b=false@2`},
		{"a: ~\nb: null\nc:", `.a=<nil>@1 .b=<nil>@2 .c=<nil>@3`},
		{"a: '1'\nb: \"true\"", `.a="1"@1 .b="true"@2`},
		{"a:\n  - 1\n  - x", `.a[0]=1@2 .a[1]="x"@3`},
		{"a:\n  b:\n    c: 1", `.a.b.c=1@3`},
		// A value's line is its key's.
		{"a:\n\n  7", `.a=7@1`},
		// Aliases copy the anchored value at the alias's line; merge keys fill in what is missing.
		{"x: &v 5\ny: *v", `.x=5@1 .y=5@2`},
		{"x: &v 5\ny:\n  - 1\n  - *v", `.x=5@1 .y[0]=1@3 .y[1]=5@4`},
		{"base: &b\n  p: 1\n  q: 2\nm:\n  <<: *b\n  q: 3", `.base.p=1@2 .base.q=2@3 .m.p=1@2 .m.q=3@6`},
		{"base: &b\n  p: 1\nm:\n  p: 0\n  <<: *b", `.base.p=1@2 .m.p=0@4`},
		{"", ``},
	} {
		root, errs := parseYAMLTree("t.yaml", []byte(c.doc))
		var got []string
		if root != nil {
			flat(root, "", &got)
		}
		// %#v of the interface: int64 prints bare, a string quoted, nil as <nil>.
		g := strings.ReplaceAll(strings.Join(got, " "), "interface {}(nil)", "<nil>")
		if len(errs) > 0 || g != c.want {
			t.Errorf("%q: %s, errors %v; want %s", c.doc, g, errs, c.want)
		}
	}
}

func TestYAMLTreeRefusals(t *testing.T) {
	for _, c := range []struct {
		doc    string
		line   int
		phrase string
	}{
		{"a: 1\nb: 2\na: 3", 3, `mapping key "a" already defined`},
		{"a: [1", 1, "YAML: "},
		{"a: 1\n b: 2", 2, "YAML: "},
	} {
		_, errs := parseYAMLTree("t.yaml", []byte(c.doc))
		if len(errs) == 0 || errs[0].At.Line != c.line || !strings.Contains(errs[0].Message, c.phrase) || errs[0].At.File != "t.yaml" {
			t.Errorf("%q: %v, want t.yaml:%d %q", c.doc, errs, c.line, c.phrase)
		}
	}
	// Two duplicates: both named.
	if _, errs := parseYAMLTree("t.yaml", []byte("a: 1\na: 2\nb: 1\nb: 2")); len(errs) != 2 || errs[1].At.Line != 4 {
		t.Errorf("two duplicate keys: %v", errs)
	}
	// A billion laughs is refused, not expanded.
	bomb := "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
	prev := "a"
	for _, n := range []string{"b", "c", "d", "e", "f", "g"} {
		bomb += n + ": &" + n + " [" + strings.Repeat("*"+prev+", ", 9) + "*" + prev + "]\n"
		prev = n
	}
	if _, errs := parseYAMLTree("t.yaml", []byte(bomb)); len(errs) != 1 || !strings.Contains(errs[0].Message, "too many nodes") {
		t.Errorf("alias bomb: %v", errs)
	}
}
