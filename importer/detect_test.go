package importer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every detector names its own product's samples and no other's: a config
// of one product is never read as another's.
func TestDetectorsKeepToTheirProduct(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("testdata", "*"))
	checked := 0
	for _, dir := range dirs {
		product := filepath.Base(dir)
		if product == "fuzz" {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.*"))
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil || strings.HasSuffix(file, ".md") {
				continue
			}
			for _, p := range products {
				if got := p.detect(file, data); got != (p.name == product) {
					t.Errorf("%s: the %s detector says %v", file, p.name, got)
				}
			}
			checked++
		}
	}
	if checked < 8 {
		t.Errorf("only %d samples checked", checked)
	}
}
