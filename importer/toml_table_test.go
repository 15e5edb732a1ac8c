package importer

import (
	"math"
	"strings"
	"testing"
)

// parseOne parses doc and flattens it, or returns its first error's line and message.
func parseOne(doc string) (string, []Problem) {
	root, errs := parseTOML("v.toml", []byte(doc))
	var got []string
	flat(root, "", &got)
	return strings.Join(got, " "), errs
}

func TestTOMLEachValueForm(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		// Integers: bases, signs, underscores between digits (hex digits too).
		{"v = 0", `.v=0@1`},
		{"v = +5", `.v=5@1`},
		{"v = -0", `.v=0@1`},
		{"v = 0xDEAD_beef", `.v=3735928559@1`},
		{"v = 0o7_7", `.v=63@1`},
		{"v = 0b1_0", `.v=2@1`},
		{"v = 9_223_372_036_854_775_807", `.v=9223372036854775807@1`},
		// Floats.
		{"v = 1e3", `.v=1000@1`},
		{"v = 1E-2", `.v=0.01@1`},
		{"v = -1.5", `.v=-1.5@1`},
		{"v = 1_0.2_5", `.v=10.25@1`},
		{"v = +inf", `.v=+Inf@1`},
		{"v = inf", `.v=+Inf@1`},
		// Strings and their escapes.
		{`v = "\b\t\n\f\r\e\"\\"`, `.v="\b\t\n\f\r\x1b\"\\"@1`},
		{`v = "\U0001F600"`, `.v="😀"@1`},
		{`v = "a#b"`, `.v="a#b"@1`},
		{`v = 'a"b\n'`, `.v="a\"b\\n"@1`},
		{"v = \"\"\"\r\nx\"\"\"", `.v="x"@1`},
		{"v = \"\"\"a\"\"\"\"\"", `.v="a\"\""@1`},
		{"v = \"\"\"a \\   \n\n   b\"\"\"", `.v="a b"@1`},
		{"v = \"\"\"a\\tb\nc\"\"\"\nw = 1", `.v="a\tb\nc"@1 .w=1@3`},
		{"v = '''a\nb'''\nw = 1", `.v="a\nb"@1 .w=1@3`},
		{"v = '''a''''' ", `.v="a''"@1`},
		{"v = '''\nx\\y'''", `.v="x\\y"@1`},
		// Booleans, arrays, inline tables, keys.
		{"v = [ ]", ``},
		{"v = [[1], [2, 3]]", `.v[0][0]=1@1 .v[1][0]=2@1 .v[1][1]=3@1`},
		{"v = [\n# c\n1\n,\n2,\n]\nw = true", `.v[0]=1@3 .v[1]=2@5 .w=true@7`},
		{"v = {}", ``},
		{"v = { a.b = 1 , c = [true] }", `.v.a.b=1@1 .v.c[0]=true@1`},
		{"'a.b' = 1\n\"c d\".e = 2", `.a.b=1@1 .c d.e=2@2`},
		{"A-b_9 = 1\na . b = 2", `.A-b_9=1@1 .a.b=2@2`},
		{"\n\n  v = 1 # c\r\n\tw = 2", `.v=1@3 .w=2@4`},
		// Tables: headers, implicit tables given a header later, arrays of tables.
		{"[a.b]\nx = 1\n[a]\ny = 2", `.a.b.x=1@2 .a.y=2@4`},
		{"[[t]]\n[t.u]\nx = 1\n[[t]]\nx = 2", `.t[0].u.x=1@3 .t[1].x=2@5`},
		{"[ a . 'b' ]\nx = 1", `.a.b.x=1@2`},
	} {
		got, errs := parseOne(c.doc)
		if len(errs) > 0 || got != c.want {
			t.Errorf("%q: %s, errors %v; want %s", c.doc, got, errs, c.want)
		}
	}
}

func TestTOMLNaNForms(t *testing.T) {
	for _, w := range []string{"nan", "+nan", "-nan"} {
		root, errs := parseTOML("n.toml", []byte("v = "+w))
		if f, ok := root.get("v").val.(float64); len(errs) > 0 || !ok || !math.IsNaN(f) {
			t.Errorf("v = %s: %v, %v; want NaN", w, root.get("v").val, errs)
		}
	}
}

func TestTOMLEachRefusal(t *testing.T) {
	for _, c := range []struct {
		doc    string
		line   int
		phrase string
	}{
		{"v = 0x", 1, "not a TOML value"},
		{"v = 0x-1", 1, "not a TOML value"},
		{"v = 0b+1", 1, "not a TOML value"},
		{"v = 0b2", 1, "not a TOML value"},
		{"v = +01", 1, "not a TOML value"},
		{"v = _1", 1, "not a TOML value"},
		{"v = 1_", 1, "not a TOML value"},
		{"v = 1._5", 1, "not a TOML value"},
		{"v = .5", 1, "not a TOML value"},
		{"v = 5.", 1, "not a TOML value"},
		{"v = 5.e3", 1, "not a TOML value"},
		{"v = 1e3x", 1, "not a TOML value"},
		{"v = 9_223_372_036_854_775_808", 1, "not a TOML value"},
		{"v = yes", 1, "a string needs quotes"},
		{"v = 07:32:00", 1, "dates and times"},
		{"v = 2024-01-02T03:04:05Z", 1, "dates and times"},
		{"v = ", 1, "a value is missing"},
		{"v =", 1, "a value is missing"},
		{"v = \"a\x01\"", 1, "control character"},
		{"v = \"a\x7f\"", 1, "control character"},
		{"v = \"\\u00\"", 1, "hex digits"},
		{"v = \"\\uD800\"", 1, "not a Unicode scalar value"},
		{"v = \"\\", 1, "ends in a backslash"},
		{"v = 'open\n'", 1, "literal string is not closed"},
		{"\nv = \"\"\"open", 2, `"""string""" is not closed`},
		{"\nv = '''open", 2, `'''string''' is not closed`},
		{"v = [1 2]", 1, "want , or ]"},
		{"v = [1,", 1, "not closed with ]"},
		{"v = { a = 1\n}", 1, "inline table"},
		{"v = { a = 1 b = 2 }", 1, "want , or }"},
		{"v = {a = 1}\nv.b = 2", 2, "already defined"},
		{"v = 1\nv.b = 2", 2, "already defined"},
		{"v = 1\n[v]", 2, "redefines a key"},
		{"v = 1\n[v.w]", 2, "already a value"},
		{"v = {a = {}}\n[v.a.b]", 2, "inline table"},
		{"[a]\nb.c = 1\n[a.b]", 3, "dotted keys"},
		{"[a]\nx = 1\n[[a]]", 3, "not an array of tables"},
		{"[a]\n[b]\n[a]", 3, "defined twice"},
		{"[a\nx = 1", 1, `want "]"`},
		{"[[a]\nx = 1", 1, `want "]]"`},
		{"a.", 1, "a key ends the file"},
		{"a = 1 # ok\nb", 2, `want "="`},
		{"[x]\n\"a\" = 1\n'a' = 2", 3, "defined twice"},
		{"v = \"\\u00e9", 1, "not closed"},
		{"[a.b]\nx = 1\n[a]\nb.y = 2", 4, "already defined"},
		{"v = [{}]\n[v.a]", 2, "already a value"},
		{"v = 1 abcdefghijklmnopqrstuvwxyz", 1, `"abcdefghijklmnopqrst…" after the value`},
	} {
		_, errs := parseOne(c.doc)
		if len(errs) == 0 || errs[0].At.Line != c.line || !strings.Contains(errs[0].Message, c.phrase) || errs[0].At.File != "v.toml" {
			t.Errorf("%q: errors %v, want the first at v.toml:%d saying %q", c.doc, errs, c.line, c.phrase)
		}
	}
}

func TestTOMLNestingBound(t *testing.T) {
	deep := func(n int) string { return "v = " + strings.Repeat("[", n) + strings.Repeat("]", n) }
	if _, errs := parseOne(deep(tomlMaxDepth + 1)); len(errs) > 0 {
		t.Errorf("%d nested arrays: %v", tomlMaxDepth+1, errs)
	}
	if _, errs := parseOne(deep(tomlMaxDepth + 2)); len(errs) != 1 || !strings.Contains(errs[0].Message, "deeper than") {
		t.Errorf("%d nested arrays: %v, want one error", tomlMaxDepth+2, errs)
	}
}

func TestTOMLKeysByCase(t *testing.T) {
	root, _ := parseTOML("k.toml", []byte("[HTTP.Middlewares]\nRate = 1"))
	if n := root.get("http").get("middlewares").get("rate"); n == nil || n.val != int64(1) {
		t.Errorf("get matches without regard to case: %v", n)
	}
	if root.exact("http") != nil || root.exact("HTTP") == nil {
		t.Error("exact matches case")
	}
	var scalar *cnode
	if scalar.get("x") != nil || (&cnode{val: 1}).get("x") != nil || (&cnode{val: 1}).exact("x") != nil {
		t.Error("a nil node or a scalar has no keys")
	}
}
