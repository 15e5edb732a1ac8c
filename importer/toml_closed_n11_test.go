package importer

import (
	"fmt"
	"strings"
	"testing"
)

// TestTOMLInlineTablesClosedAtEveryDepth: an inline table and every table its
// dotted keys make, however deep, are closed: a header or a dotted key later
// that adds to any of them is refused at its line; a table beside them is not.
func TestTOMLInlineTablesClosedAtEveryDepth(t *testing.T) {
	for depth := 1; depth <= 4; depth++ {
		keys := make([]string, depth)
		for i := range keys {
			keys[i] = fmt.Sprintf("k%d", i)
		}
		inline := "v = {" + strings.Join(keys, ".") + " = 1}\n"
		for d := 0; d < depth; d++ {
			table := "v." + strings.Join(keys[:d], ".")
			table = strings.TrimSuffix(table, ".")
			for _, later := range []string{"[" + table + ".extra]", table + ".extra = 2"} {
				_, errs := parseOne(inline + later)
				if len(errs) == 0 || errs[0].At.Line != 2 {
					t.Errorf("%q: errors %v, want one at line 2", inline+later, errs)
				}
			}
		}
		if _, errs := parseOne(inline + "[w.extra]\nx = 1"); len(errs) > 0 {
			t.Errorf("a table beside the inline one: %v", errs)
		}
	}
}

// TestTOMLArrayOfTablesOnlyAfterItsOwn: [[x]] extends an array of tables, never
// a static array, a table or a value of the same name.
func TestTOMLArrayOfTablesOnlyAfterItsOwn(t *testing.T) {
	for _, doc := range []string{"x = [1, 2]\n[[x]]", "x = []\n[[x]]", "x = 1\n[[x]]", "[x]\n[[x]]", "x = {}\n[[x]]"} {
		_, errs := parseOne(doc)
		if len(errs) == 0 || errs[0].At.Line != 2 {
			t.Errorf("%q: errors %v, want one at line 2", doc, errs)
		}
	}
	if _, errs := parseOne("[[x]]\na = 1\n[[x]]\na = 2"); len(errs) > 0 {
		t.Errorf("two [[x]]: %v", errs)
	}
}
