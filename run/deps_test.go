package run

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestDependenciesPointOneWay reads the imports of every package's non-test
// files: each may import only the rlsim packages below it (README, Layout).
func TestDependenciesPointOneWay(t *testing.T) {
	const module = "github.com/rlsim/rlsim/"
	below := map[string][]string{
		"algorithms":        {},
		"sim/engine":        {},
		"sim/window":        {},
		"sim":               {"algorithms", "sim/engine", "sim/window"},
		"contention":        {"algorithms", "sim"},
		"scenarios":         {"algorithms", "sim", "contention"},
		"run":               {"algorithms", "sim", "contention", "scenarios"},
		"run/sweep":         {"algorithms", "sim", "contention", "scenarios", "run"},
		"report/chart":      {"algorithms", "sim"},
		"report/textlayout": {},
		"report":            {"algorithms", "sim", "contention", "scenarios", "run", "report/chart", "report/textlayout"},
		"report/sweep":      {"algorithms", "sim", "contention", "scenarios", "run", "run/sweep", "report", "report/chart", "report/textlayout"},
		"tui":               {"algorithms", "sim", "scenarios", "report/chart", "report/textlayout"},
		"web":               {"algorithms", "sim", "contention", "scenarios", "run", "run/sweep", "report", "report/sweep", "report/chart", "report/textlayout"},
		"conform":           {"algorithms", "sim", "contention", "scenarios", "run"},
		"replay":            {"algorithms", "sim", "contention", "scenarios", "run", "run/sweep", "report", "report/sweep", "report/chart", "report/textlayout"},
	}
	for pkg, allowed := range below {
		files, err := filepath.Glob(filepath.Join("..", pkg, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", pkg, err)
		}
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			f, err := parser.ParseFile(token.NewFileSet(), file, src, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				dep, ok := strings.CutPrefix(path, module)
				if ok && !slices.Contains(allowed, dep) {
					t.Errorf("%s imports %s, which is not below it", file, dep)
				}
			}
		}
	}
}
