package importer

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A config of MaxConfigSize bytes is read; one byte more is refused before
// it is read, naming the file and the bound.
func TestConfigSizeUpToTheMost(t *testing.T) {
	dir := t.TempDir()
	at := filepath.Join(dir, "at.conf")
	over := filepath.Join(dir, "over.conf")
	data := make([]byte, MaxConfigSize)
	if err := os.WriteFile(at, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(over, append(data, 0), 0o644); err != nil {
		t.Fatal(err)
	}
	if src, err := SourceFile(at); err != nil || len(src.Data) != MaxConfigSize {
		t.Errorf("a config of exactly %d bytes: %v", MaxConfigSize, err)
	}
	if _, err := SourceFile(over); err == nil || !strings.Contains(err.Error(), over+": larger than 10 MB") {
		t.Errorf("one byte over: %v, want an error naming the file and 10 MB", err)
	}
	if _, err := Import(Source{Path: "big.conf", Data: append(data, 0)}, "nginx"); err == nil || !strings.Contains(err.Error(), "big.conf: larger than 10 MB") {
		t.Errorf("Import of one byte over: %v", err)
	}
}

// A YAML config that does not parse is a SyntaxError of the product it was
// read as.
func TestSyntaxErrorNamesItsProduct(t *testing.T) {
	for _, product := range []string{"kong", "envoy", "traefik"} {
		_, err := Import(Source{Path: "bad.yaml", Data: []byte("a: [1\n")}, product)
		var se *SyntaxError
		if !errors.As(err, &se) || se.Product != product || len(se.Problems) == 0 {
			t.Errorf("%s: %#v, want a SyntaxError of %s", product, err, product)
		}
	}
}
