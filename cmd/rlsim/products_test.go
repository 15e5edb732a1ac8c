package main

import (
	"os"
	"testing"
)

// Every product lane runs deterministically: the same scenario and seed give
// byte-identical JSON and trace, another seed another JSON (the products'
// numbers file has every product lane and Poisson-free clients, so the seed
// changes nothing there: haproxy-penalty's Poisson users tell seeds apart).
func TestProductLanesAreDeterministic(t *testing.T) {
	for _, src := range []string{"../../scenarios/testdata/numbers/products.yaml", "haproxy-penalty", "traefik-burst", "kong-local-pods"} {
		dir := t.TempDir()
		_, a, _ := execute(t, "run", src, "--format", "json", "--trace", dir+"/a.csv")
		_, b, errOut := execute(t, "run", src, "--format", "json", "--trace", dir+"/b.csv")
		if a == "" || a != b {
			t.Errorf("%s: two runs with the same seed differ (or are empty); stderr %s", src, errOut)
		}
		if ta, tb := readFile(t, dir+"/a.csv"), readFile(t, dir+"/b.csv"); ta == "" || ta != tb {
			t.Errorf("%s: two traces with the same seed differ (or are empty)", src)
		}
	}
	_, a, _ := execute(t, "run", "haproxy-penalty", "--format", "json")
	_, c, _ := execute(t, "run", "haproxy-penalty", "--format", "json", "--seed", "2")
	if a == c {
		t.Error("haproxy-penalty: seed 2 gave the same JSON as seed 1")
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
