package importer

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestPartsAreTheRenderedFields: each part is the value of the top-level
// field of the same name in the rendered scenario; chain and topology are
// present exactly when the scenario has them. Every sample of every product.
func TestPartsAreTheRenderedFields(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*", "*"))
	sawChain, sawTopology := false, false
	for _, name := range files {
		if st, err := os.Stat(name); err != nil || st.IsDir() {
			continue
		}
		src, err := SourceFile(name)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Import(src, "auto")
		if err != nil {
			continue // a sample of refusals
		}
		var whole map[string]any
		if err := yaml.Unmarshal(Render(m), &whole); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		parts := Parts(m)
		for _, field := range []string{"limits", "lanes", "chain", "topology"} {
			text, ok := parts[field]
			want, has := whole[field]
			if ok != has {
				t.Errorf("%s: part %s present %v, in the scenario %v", name, field, ok, has)
				continue
			}
			if !ok {
				continue
			}
			var got any
			if err := yaml.Unmarshal([]byte(field+":\n"+indentAll(text)), &got); field != "chain" && err != nil {
				t.Fatalf("%s: part %s does not parse: %v\n%s", name, field, err, text)
			}
			if field == "chain" {
				got = map[string]any{"chain": text}
			}
			if !reflect.DeepEqual(got.(map[string]any)[field], want) {
				t.Errorf("%s: part %s = %v, the scenario's %v", name, field, got, want)
			}
		}
		sawChain = sawChain || parts["chain"] != ""
		sawTopology = sawTopology || parts["topology"] != ""
	}
	if !sawChain || !sawTopology {
		t.Errorf("no sample had a chain (%v) or a topology (%v)", sawChain, sawTopology)
	}
}

// indentAll indents every line of s by two spaces, to sit under a key.
func indentAll(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = "  " + l
	}
	return strings.Join(lines, "\n") + "\n"
}

// TestProductsAndPick: Products are the readers' names, sorted, each picked
// by --from; an unknown --from names them all, and a file no reader
// recognises says so; a missing file's error names it without "open".
func TestProductsAndPick(t *testing.T) {
	names := Products()
	if len(names) != len(products) || !slices.IsSorted(names) {
		t.Fatalf("Products() = %v, want the %d readers sorted", names, len(products))
	}
	for _, want := range []string{"envoy", "haproxy", "kong", "nginx", "traefik"} {
		if !slices.Contains(names, want) {
			t.Errorf("Products() = %v, no %s", names, want)
		}
	}
	for _, n := range names {
		if p, err := pick(Source{Path: "x"}, n); err != nil || p.name != n {
			t.Errorf("pick(--from %s) = %q, %v", n, p.name, err)
		}
	}
	_, err := pick(Source{Path: "x"}, "squid")
	if err == nil || err.Error() != "--from squid: unknown (want auto, "+strings.Join(names, ", ")+")" {
		t.Errorf("pick(--from squid): %v", err)
	}
	for _, from := range []string{"", "auto"} {
		_, err = pick(Source{Path: "notes.txt", Data: []byte("hello\n")}, from)
		if err == nil || !strings.HasPrefix(err.Error(), "notes.txt: not a config rlsim can tell (it reads "+strings.Join(names, ", ")+")") {
			t.Errorf("pick(%q) of a text: %v", from, err)
		}
	}
	missing := filepath.Join(t.TempDir(), "none.conf")
	if _, err := SourceFile(missing); err == nil || err.Error() != missing+": no such file or directory" {
		t.Errorf("SourceFile(missing) = %v, want %q", err, missing+": no such file or directory")
	}
}
