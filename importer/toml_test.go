package importer

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// flat writes a TOML tree as dotted keys = values, for comparison.
func flat(n *cnode, prefix string, out *[]string) {
	switch n.kind {
	case cMap:
		for i, k := range n.keys {
			flat(n.vals[i], prefix+"."+k, out)
		}
	case cList:
		for i, it := range n.items {
			flat(it, fmt.Sprintf("%s[%d]", prefix, i), out)
		}
	default:
		*out = append(*out, fmt.Sprintf("%s=%#v@%d", prefix, n.val, n.line))
	}
}

func TestTOMLValues(t *testing.T) {
	// Each expectation from the TOML v1.0.0 specification's examples.
	doc := `# comment
title = "a \"quoted\" \u00e9 \t"   # trailing comment
lit = 'C:\path'
"quoted key" = 1
a.b.c = true
hex = 0xff
oct = 0o17
bin = 0b101
big = 1_000
neg = -7
f = 6.25e-1
inf = -inf
ml = """
one \
  two"""
mll = '''
x'''
arr = [ 1, 2,
  3, # comment inside
]
inline = { x = 1, y.z = "w" }
[t."d.e"]
k = false
[[aot]]
n = 1
[[aot]]
n = 2
`
	root, errs := parseTOML("t.toml", []byte(doc))
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	var got []string
	flat(root, "", &got)
	want := []string{
		`.title="a \"quoted\" é \t"@2`, `.lit="C:\\path"@3`, `.quoted key=1@4`, `.a.b.c=true@5`,
		`.hex=255@6`, `.oct=15@7`, `.bin=5@8`, `.big=1000@9`, `.neg=-7@10`, `.f=0.625@11`, `.inf=-Inf@12`,
		`.ml="one two"@13`, `.mll="x"@16`, `.arr[0]=1@18`, `.arr[1]=2@18`, `.arr[2]=3@19`,
		`.inline.x=1@21`, `.inline.y.z="w"@21`, `.t.d.e.k=false@23`, `.aot[0].n=1@25`, `.aot[1].n=2@27`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("parsed:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if v := root.get("inf").val.(float64); !math.IsInf(v, -1) {
		t.Errorf("-inf = %v", v)
	}
}

func TestTOMLErrorsAtTheirLines(t *testing.T) {
	for _, c := range []struct {
		doc    string
		line   int
		phrase string
	}{
		{"a = 1\na = 2\n", 2, "defined twice"},
		{"[x]\n[x]\n", 2, "defined twice"},
		{"a = \"open\n", 1, "not closed"},
		{"a = 01\n", 1, "not a TOML value"},
		{"a = 1__0\n", 1, "not a TOML value"},
		{"a = 1979-05-27\n", 1, "dates"},
		{"\n\nx = { a = 1\n", 3, "inline table"},
		{"a = [1, 2\n", 2, "not closed"},
		{"a = 1 b = 2\n", 1, "one key = value a line"},
		{"t = {a = 1}\n[t]\n", 2, "redefines"},
		{"a.b = 1\n[a]\n", 2, "dotted keys"},
		{"a = \"\\q\"\n", 1, "not a TOML escape"},
		{"= 1\n", 1, "want a key"},
	} {
		_, errs := parseTOML("e.toml", []byte(c.doc))
		if len(errs) == 0 || errs[0].At.Line != c.line || !strings.Contains(errs[0].Message, c.phrase) {
			t.Errorf("%q: errors %v, want the first at line %d saying %q", c.doc, errs, c.line, c.phrase)
		}
	}
	// Every error at once: the parser resumes at the next line.
	_, errs := parseTOML("e.toml", []byte("a = \nb = 1\nc = ?\nd = 2\n"))
	if len(errs) != 2 || errs[0].At.Line != 1 || errs[1].At.Line != 3 {
		t.Errorf("errors %v, want two, at lines 1 and 3", errs)
	}
}

// FuzzTOML: arbitrary input never panics and every error lies within the
// document's lines.
func FuzzTOML(f *testing.F) {
	for _, s := range []string{"a = 1\n", "[a.b]\nc = 'x'\n[[d]]\n", "x = [1, [2, {a = 3}]]\n", "s = \"\"\"\nq\\\n  r\"\"\"\n", "a = { b = 1, c.d = [] }\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, errs := parseTOML("f.toml", data)
		lines := strings.Count(string(data), "\n") + 1
		for _, e := range errs {
			if e.At.Line < 1 || e.At.Line > lines {
				t.Fatalf("error %v outside the document's %d lines", e, lines)
			}
		}
	})
}
