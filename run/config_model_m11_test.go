package run

import (
	"strings"
	"testing"

	"github.com/rlsim/rlsim/importer"
)

// A config from a model keeps the model, its product and its label; the
// command that runs it again names the config and its product, which a
// --from of auto or none leaves out.
func TestConfigFromModelKeepsItsProduct(t *testing.T) {
	const path = "../importer/testdata/nginx/minimal.conf"
	src, err := importer.SourceFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := importer.Import(src, "auto")
	if err != nil {
		t.Fatal(err)
	}
	c := ConfigFromModel(m, "pasted config")
	if c.Path != "pasted config" || c.From != m.Product || c.Model != m || c.label() != "pasted config" {
		t.Errorf("ConfigFromModel: path %q, from %q, model %p, label %q; want the label, %q, %p",
			c.Path, c.From, c.Model, c.label(), m.Product, m)
	}
	if got, want := (Overrides{Config: c}).Command("demo", 3), "rlsim run demo --seed 3 --config 'pasted config' --from "+m.Product; got != want {
		t.Errorf("Command = %q, want %q", got, want)
	}
	for _, from := range []string{"auto", "", m.Product} {
		c, err := ImportConfig(path, from, false)
		if err != nil {
			t.Fatal(err)
		}
		if c.From != from || c.Path != path || c.label() != "--config "+path {
			t.Errorf("ImportConfig(from %q): from %q, path %q, label %q", from, c.From, c.Path, c.label())
		}
		cmd := (Overrides{Config: c}).Command("demo", 3)
		if has := strings.Contains(cmd, " --from "); has != (from == m.Product) {
			t.Errorf("ImportConfig(from %q): command %q", from, cmd)
		}
	}
}
