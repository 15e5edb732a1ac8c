package algorithms

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// docDefaults is the "Field value" list a config type's doc comment in file
// states after "defaults of", read from the source.
func docDefaults(t *testing.T, file, typ string) map[string]float64 {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var doc string
	ast.Inspect(f, func(n ast.Node) bool {
		if g, ok := n.(*ast.GenDecl); ok && g.Tok == token.TYPE && g.Specs[0].(*ast.TypeSpec).Name.Name == typ {
			doc = g.Doc.Text()
		}
		return doc == ""
	})
	_, list, ok := strings.Cut(strings.Join(strings.Fields(doc), " "), "defaults of")
	if !ok {
		t.Fatalf("%s's doc states no defaults: %q", typ, doc)
	}
	out := map[string]float64{}
	for _, m := range regexp.MustCompile(`([A-Z][A-Za-z]+) ([0-9][0-9.]*)`).FindAllStringSubmatch(list, -1) {
		v, err := strconv.ParseFloat(strings.TrimSuffix(m[2], "."), 64)
		if err != nil {
			t.Fatal(err)
		}
		out[m[1]] = v
	}
	return out
}

// fieldNumber is the number in field name of struct v.
func fieldNumber(v reflect.Value, name string) float64 {
	f := v.FieldByName(name)
	if f.CanInt() {
		return float64(f.Int())
	}
	return f.Float()
}

// The defaults a zero config takes are the ones its doc comment states, each
// of them (read from the source, so a default changed in one place only
// fails), and a field set is kept as it is.
func TestConfigDefaultsAreTheDocumentedOnes(t *testing.T) {
	for _, tc := range []struct {
		file, typ string
		zero, set any
		defaults  func(any) any
	}{
		{"gradient2.go", "Gradient2Config", Gradient2Config{},
			Gradient2Config{Initial: 3, Min: 2, Max: 9, Smoothing: 0.7, QueueSize: 1, LongWindow: 7, RTTTolerance: 1.1},
			func(c any) any { return c.(Gradient2Config).WithDefaults() }},
		{"vegas.go", "VegasConfig", VegasConfig{},
			VegasConfig{Initial: 3, Max: 9, Smoothing: 0.5, ProbeMultiplier: 7, Seed: 4},
			func(c any) any { return c.(VegasConfig).WithDefaults() }},
	} {
		want := docDefaults(t, tc.file, tc.typ)
		if len(want) < 4 {
			t.Fatalf("%s: only %v read from the doc", tc.typ, want)
		}
		got := reflect.ValueOf(tc.defaults(tc.zero))
		for name, v := range want {
			if !got.FieldByName(name).IsValid() {
				t.Errorf("%s: the doc's default %s names no field", tc.typ, name)
			} else if g := fieldNumber(got, name); g != v {
				t.Errorf("%s{}.WithDefaults().%s = %v, the doc says %v", tc.typ, name, g, v)
			}
		}
		if kept := tc.defaults(tc.set); !reflect.DeepEqual(kept, tc.set) {
			t.Errorf("%s: WithDefaults of %+v = %+v, want it kept", tc.typ, tc.set, kept)
		}
	}
}
