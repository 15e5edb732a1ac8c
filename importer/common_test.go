package importer

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/rlsim/rlsim/scenarios"
)

// importSample imports testdata/<product>/<file> as product (its includes
// read from the disk) and holds the import to the promises every product
// keeps: auto-detection names the product, the rendered scenario parses,
// and rendering is deterministic. It returns the model and the scenario.
func importSample(t *testing.T, product, file string) (*Model, *scenarios.Scenario) {
	t.Helper()
	src, err := SourceFile(filepath.Join("testdata", product, file))
	if err != nil {
		t.Fatal(err)
	}
	if got := Detected(src); got != product {
		t.Errorf("%s detected as %q, want %s", file, got, product)
	}
	m, err := Import(src, product)
	if err != nil {
		t.Fatalf("import %s: %v", file, err)
	}
	out := Render(m)
	s, err := scenarios.Parse(file+".yaml", out)
	if err != nil {
		t.Fatalf("the scenario imported from %s does not parse: %v\n%s", file, err, out)
	}
	m2, err := Import(src, product)
	if err != nil || !bytes.Equal(Render(m2), out) {
		t.Errorf("importing %s twice gave two scenarios (%v)", file, err)
	}
	return m, s
}

// fuzzImport is the property every product's fuzz target checks: reading
// arbitrary bytes as product never panics, and whatever imports without
// error renders a scenario that parses.
func fuzzImport(f *testing.F, product string, seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	if dir := filepath.Join("testdata", product); dirExists(dir) {
		files, _ := filepath.Glob(filepath.Join(dir, "*"))
		for _, name := range files {
			if data, err := os.ReadFile(name); err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Import(Source{Path: "fuzz.conf", Data: data}, product)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || len(se.Problems) == 0 {
				t.Fatalf("an import error that is not a SyntaxError with problems: %v", err)
			}
			return
		}
		if _, err := scenarios.Parse("fuzz.yaml", Render(m)); err != nil {
			t.Fatalf("imported without error but the scenario does not parse: %v\n%s", err, Render(m))
		}
	})
}

func dirExists(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.IsDir()
}
