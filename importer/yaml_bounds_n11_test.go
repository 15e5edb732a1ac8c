package importer

import (
	"strings"
	"testing"
)

// aliasDoc is a mapping of a list of k scalars, anchored, and a list of m
// aliases to it, and extra scalar keys: 3 + k + m(k+2) + extra nodes as
// the converter counts them (the root, each value, each item, each alias and
// what it expands to).
func aliasDoc(k, m, extra int) (string, int) {
	var b strings.Builder
	b.WriteString("a: &a [" + strings.TrimSuffix(strings.Repeat("x,", k), ",") + "]\n")
	b.WriteString("b: [" + strings.TrimSuffix(strings.Repeat("*a,", m), ",") + "]\n")
	for i := range extra {
		b.WriteString("c" + strings.Repeat("c", i) + ": x\n")
	}
	return b.String(), 3 + k + m*(k+2) + extra
}

// TestYAMLNodeBoundExactly: a document expanding to yamlMaxNodes nodes is
// read, one more is refused as too many; nesting to depth 200 is read, 201 refused.
func TestYAMLNodeBoundExactly(t *testing.T) {
	if testing.Short() {
		t.Skip("a million nodes")
	}
	for _, c := range []struct {
		k, m, extra int
		refused     bool
	}{{1021, 1024, 0, false}, {1021, 1024, 1, true}} {
		doc, nodes := aliasDoc(c.k, c.m, c.extra)
		if want := yamlMaxNodes + c.extra; nodes != want {
			t.Fatalf("the document counts %d nodes, want %d", nodes, want)
		}
		_, problems := parseYAMLTree("t.yaml", []byte(doc))
		refused := len(problems) == 1 && strings.Contains(problems[0].Message, "too many nodes")
		if refused != c.refused || (!c.refused && len(problems) > 0) {
			t.Errorf("%d nodes: problems %v, want refused %v", nodes, problems, c.refused)
		}
	}
	for _, c := range []struct {
		depth   int
		refused bool
	}{{200, false}, {201, true}} {
		doc := strings.Repeat("[", c.depth) + "x" + strings.Repeat("]", c.depth) + "\n"
		_, problems := parseYAMLTree("t.yaml", []byte(doc))
		if refused := len(problems) > 0; refused != c.refused {
			t.Errorf("depth %d: problems %v, want refused %v", c.depth, problems, c.refused)
		}
	}
}
