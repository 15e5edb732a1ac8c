package scenarios

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/rlsim/rlsim/contention"
	"github.com/rlsim/rlsim/sim"
)

// numberPatterns are the paths, [] for any list index, of every field of the
// format that holds a number: found in the schema's types, not listed.
func numberPatterns() []string {
	var out []string
	var walk func(t reflect.Type, path string)
	walk = func(t reflect.Type, path string) {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch t {
		case reflect.TypeFor[Duration](), reflect.TypeFor[Rate](), reflect.TypeFor[threshold]():
			out = append(out, path)
			return
		}
		switch t.Kind() {
		case reflect.Struct:
			for i := range t.NumField() {
				walk(t.Field(i).Type, join(path, yamlName(t.Field(i))))
			}
		case reflect.Slice:
			walk(t.Elem(), path+"[]")
		case reflect.Int, reflect.Int64, reflect.Uint64, reflect.Float64:
			out = append(out, path)
		}
	}
	walk(reflect.TypeFor[fileSpec](), "")
	slices.Sort(out)
	return slices.Compact(out)
}

// numberBases are the files of testdata/numbers, which write every number
// field with a valid value, and for each pattern the first path they write it at.
func numberBases(t testing.TB) (map[string][]byte, map[string]string, map[string]string) {
	srcs, paths, in := map[string][]byte{}, map[string]string{}, map[string]string{}
	for _, name := range []string{"comparison.yaml", "contention.yaml", "products.yaml", "health.yaml", "concurrency.yaml", "contract.yaml"} {
		src, err := os.ReadFile(filepath.Join("testdata", "numbers", name))
		if err != nil {
			t.Fatal(err)
		}
		srcs[name] = src
		var doc yaml.Node
		if err := yaml.Unmarshal(src, &doc); err != nil {
			t.Fatal(err)
		}
		var walk func(n *yaml.Node, path, pattern string)
		walk = func(n *yaml.Node, path, pattern string) {
			switch n.Kind {
			case yaml.MappingNode:
				for i := 0; i+1 < len(n.Content); i += 2 {
					k := n.Content[i].Value
					walk(n.Content[i+1], join(path, k), join(pattern, k))
				}
			case yaml.SequenceNode:
				for i, c := range n.Content {
					walk(c, fmt.Sprintf("%s[%d]", path, i), pattern+"[]")
				}
			case yaml.ScalarNode:
				if _, ok := paths[pattern]; !ok {
					paths[pattern], in[pattern] = path, name
				}
			}
		}
		walk(doc.Content[0], "", "")
	}
	return srcs, paths, in
}

// FuzzEveryNumber writes a value into one number field of the base files, by
// --set: Parse refuses it naming the flag, or what it accepts starts: the
// simulation runs until its end or its budget, never failing on its input.
// The seed corpus gives every field NaN, an infinity, a huge and a negative value.
func FuzzEveryNumber(f *testing.F) {
	patterns := numberPatterns()
	srcs, paths, in := numberBases(f)
	for i, p := range patterns {
		if _, ok := paths[p]; !ok {
			f.Fatalf("no file of testdata/numbers writes %s: add it, with a valid value", p)
		}
		for _, v := range []string{"NaN", "-.Inf", "9223372036854775807", "-1"} {
			f.Add(uint16(i), v)
		}
	}
	f.Fuzz(func(t *testing.T, field uint16, value string) {
		p := patterns[int(field)%len(patterns)]
		path, file := paths[p], in[p]
		set, err := ParseSet(path + "=" + value)
		if err != nil {
			return // a value with "=" or the like: ParseSet's own tests
		}
		s, err := Parse(file, srcs[file], set)
		if err != nil {
			var es Errors
			if !errors.As(err, &es) {
				t.Fatalf("--set %s=%q: %v, want Errors", path, value, err)
			}
			for _, e := range es {
				if strings.Contains(e.File, "(--set ") || strings.Contains(e.Msg, "(with --set ") || strings.Contains(e.Msg, "more problems") {
					return
				}
			}
			t.Fatalf("--set %s=%q refused without naming the flag:\n%v", path, value, err)
		}
		const budget = 200_000
		if s.CheckBudget(budget) != nil {
			return
		}
		var be *sim.BudgetError
		switch {
		case s.Config != nil:
			_, err = sim.Run(context.Background(), *s.Config, sim.Options{MaxEvents: budget})
		case s.Contention != nil:
			c := *s.Contention
			c.MaxEvents = budget
			_, err = contention.Run(context.Background(), c)
		}
		if err != nil && !errors.As(err, &be) {
			t.Fatalf("--set %s=%q: parsed, then the run failed: %v", path, value, err)
		}
	})
}
