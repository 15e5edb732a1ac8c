package run

import (
	"go/build/constraint"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// layers is rlsim's packages from the bottom up: a package may import only
// rlsim packages of a layer below its own. It is the one table of the
// dependencies: TestDependenciesPointOneWay holds the code to it and README's
// Layout to it, every package must be in it, and README's sentence on the
// dependencies is written from it (layersText).
var layers = [][]string{
	{"algorithms", "sim/engine", "sim/window", "report/textlayout", "internal/golden", "internal/accesslog", "bench/goloop", "cmd/rlsim/internal/initquiet", "importer"},
	{"sim", "internal/toylane", "bench/replayparse"},
	{"contention", "report/chart"},
	{"scenarios"},
	{"run"},
	{"run/sweep", "report", "tui", "conform"},
	{"report/sweep", "web", "replay"},
	{"report/output", "report/diff"},
	{"cmd/rlsim"},
}

const module = "github.com/rlsim/rlsim/"

// TestDependenciesPointOneWay reads the imports of every package's non-test
// files: each may import only the rlsim packages of the layers below it.
func TestDependenciesPointOneWay(t *testing.T) {
	layerOf := map[string]int{}
	for i, l := range layers {
		for _, pkg := range l {
			layerOf[pkg] = i
		}
	}
	for _, pkg := range packages(t) {
		at, ok := layerOf[pkg]
		if !ok {
			t.Errorf("package %s is in no layer: add it to layers (run/deps_test.go) and to README's Layout", pkg)
			continue
		}
		for file, deps := range imports(t, pkg) {
			for _, dep := range deps {
				if below, ok := layerOf[dep]; !ok || below >= at {
					t.Errorf("%s imports %s, which is not below it (layers %d and %d)", file, dep, at, below)
				}
			}
		}
	}
	for pkg := range layerOf {
		if !slices.Contains(packages(t), pkg) {
			t.Errorf("layers names %s, which is no package", pkg)
		}
	}
}

// README's Layout has a row for every package, and its sentence on the
// dependencies is the table's.
func TestREADMELayoutIsTheLayers(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	for _, l := range layers {
		for _, pkg := range l {
			if !strings.Contains(readme, "| `"+pkg+"/` |") {
				t.Errorf("README's Layout has no row for %s/", pkg)
			}
		}
	}
	if want := layersText(); !strings.Contains(readme, want) {
		t.Errorf("README's Layout should say, from run/deps_test.go's layers:\n%s", want)
	}
}

// layersText is README's sentence on the dependencies, from layers.
func layersText() string {
	var b strings.Builder
	b.WriteString("Dependencies point one way, in layers from the bottom up; a package imports\nonly rlsim packages of the layers below its own (a test holds every package to\nthis list, which it writes from one table):\n\n")
	for i, l := range layers {
		names := make([]string, len(l))
		for j, pkg := range l {
			names[j] = "`" + pkg + "`"
		}
		b.WriteString(strconv.Itoa(i+1) + ". " + strings.Join(names, ", ") + "\n")
	}
	return b.String()
}

// packages are the directories, from the module's root, holding a Go package
// (a non-test file not excluded by a build constraint), testdata aside.
func packages(t *testing.T) []string {
	t.Helper()
	seen := map[string]bool{}
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != "..":
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || ignored(t, path):
			return nil
		}
		dir, _ := filepath.Rel("..", filepath.Dir(path))
		seen[filepath.ToSlash(dir)] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for p := range seen {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// ignored reports whether file is built only under the ignore tag (a program
// run with go run, not a package).
func ignored(t *testing.T, file string) bool {
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(src), "\n") {
		if constraint.IsGoBuild(line) {
			expr, err := constraint.Parse(line)
			return err == nil && !expr.Eval(func(tag string) bool { return tag != "ignore" })
		}
		if strings.HasPrefix(line, "package ") {
			break
		}
	}
	return false
}

// imports are the rlsim packages each non-test file of pkg imports.
func imports(t *testing.T, pkg string) map[string][]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", pkg, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") || ignored(t, file) {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if dep, ok := strings.CutPrefix(path, module); ok {
				out[file] = append(out[file], dep)
			}
		}
	}
	return out
}
