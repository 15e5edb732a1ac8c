package run

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/importer"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// TestConfigScenarioSourceRunsAsLoaded holds Config.Scenario's promise: the
// Source it gives, parsed alone as rlsim run would read the saved file, is
// the scenario it loaded with the config's sets, for every built-in with
// limits and every sample config of every product read.
func TestConfigScenarioSourceRunsAsLoaded(t *testing.T) {
	samples, err := filepath.Glob("../importer/testdata/*/*.*")
	if err != nil {
		t.Fatal(err)
	}
	var configs []*Config
	for _, path := range samples {
		src, err := importer.SourceFile(path)
		if err != nil {
			continue // a folder of included files
		}
		m, err := importer.Import(src, "auto")
		if err != nil {
			continue // a sample of a syntax error
		}
		configs = append(configs, ConfigFromModel(m, filepath.Base(path)))
	}
	if len(configs) < 6 {
		t.Fatalf("%d sample configs read, want one of each sample at least", len(configs))
	}
	merged := 0
	for _, b := range scenarios.Builtins() {
		for _, c := range configs {
			s, err := c.Scenario(BuiltinPrefix+b.Name, nil, nil)
			if err != nil {
				continue // a contention study, or a lane the scenario's topology refuses, as run --config refuses it
			}
			merged++
			again, err := scenarios.Parse(s.File, s.Source)
			if err != nil {
				t.Errorf("%s with %s: the merged YAML does not parse: %v\n%s", b.Name, c.Path, err, s.Source)
				continue
			}
			if !reflect.DeepEqual(again.Config, s.Config) {
				t.Errorf("%s with %s: the merged YAML is another scenario:\nloaded %+v\nmerged %+v", b.Name, c.Path, *s.Config, *again.Config)
			}
			if again.Description != s.Description {
				t.Errorf("%s with %s: description %q, want %q", b.Name, c.Path, again.Description, s.Description)
			}
		}
	}
	if merged < len(configs)*len(scenarios.Builtins())/2 {
		t.Errorf("%d scenarios merged of %d, want most", merged, len(configs)*len(scenarios.Builtins()))
	}
}

// TestConfigScenarioSets checks that a --set after the config changes the
// config's limit, and a config from a model names its label in problems.
func TestConfigScenarioSets(t *testing.T) {
	src, err := importer.SourceFile("../importer/testdata/nginx/minimal.conf")
	if err != nil {
		t.Fatal(err)
	}
	m, err := importer.Import(src, "nginx")
	if err != nil {
		t.Fatal(err)
	}
	c := ConfigFromModel(m, "the pasted config")
	set, err := scenarios.ParseSet("limits[0].limit=3")
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.Scenario("editor.yaml", []byte("clients:\n  - name: a\n    arrivals:\n      - kind: burst\n        count: 5\n"), []scenarios.Set{set})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Config.Limits[0].Policy.Limit; got != 3 {
		t.Errorf("limits[0].limit = %d after --set limits[0].limit=3, want 3", got)
	}
	if len(s.Config.Lanes) != 1 || s.Config.LaneName(0) != "nginx" {
		t.Errorf("lanes %v, want the config's one, nginx", s.Config.Lanes)
	}
	if want := "editor's clients against the limits and lanes of the pasted config (nginx)"; s.Description != want {
		t.Errorf("description %q, want %q", s.Description, want)
	}
	bad, _ := scenarios.ParseSet("limits[0].limit=0")
	_, err = c.Scenario("editor.yaml", []byte("clients:\n  - name: a\n    arrivals:\n      - kind: burst\n        count: 5\n"), []scenarios.Set{bad})
	if err == nil || !strings.Contains(err.Error(), "limits[0]") {
		t.Errorf("limit 0: error %v, want one at limits[0]", err)
	}
}

// A scenario given back with a config written in, given a config again,
// holds the new config's parts and one header, not two.
func TestConfigScenarioAgain(t *testing.T) {
	var cs []*Config
	for _, path := range []string{"../importer/testdata/nginx/problems.conf", "../importer/testdata/haproxy/minimal.cfg"} {
		src, err := importer.SourceFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := importer.Import(src, "auto")
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, ConfigFromModel(m, "the pasted config"))
	}
	first, err := cs[0].Scenario(BuiltinPrefix+"demo", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	again, err := cs[1].Scenario("editor.yaml", first.Source, nil)
	if err != nil {
		t.Fatal(err)
	}
	src := string(again.Source)
	if n := strings.Count(src, headerStart); n != 1 || strings.Contains(src, "nginx") || !strings.Contains(src, "algorithm: haproxy") {
		t.Errorf("%d headers, want 1, and haproxy's lanes only:\n%s", n, src)
	}
	if !strings.Contains(src, "# One limit of 10 requests per second") {
		t.Errorf("the scenario's own comments are gone:\n%s", src)
	}
}

// The fields a config replaces that no built-in has: a scenario's chain and
// overrides go, a config's chain and store state come, a topology is added
// only to a scenario without one; the merged YAML is the loaded scenario.
func TestConfigScenarioEveryField(t *testing.T) {
	shared := &importer.Model{Product: "kong", Files: []string{"kong.yml"}, Chain: "charge_until_refused", Limits: []importer.Limit{
		{Name: "a", Key: "ip", Limit: 5, Window: time.Second, State: "shared"},
		{Name: "b", Key: "global", Limit: 50, Window: time.Minute},
	}}
	local := &importer.Model{Product: "nginx", Files: []string{"nginx.conf"}, Limits: []importer.Limit{{Name: "c", Key: "ip", Limit: 7, Window: time.Second}}}
	clients := "clients:\n  - name: a\n    count: 3\n    arrivals: [{kind: constant, rate: 20/s}]\n"
	for _, tc := range []struct {
		name, yaml string
		m          *importer.Model
		chain      bool // the chain charges until refused
		replicas   int  // 0: no topology
	}{
		{"own chain and overrides go", "duration: 2s\nchain: charge_until_refused\nlimits: [{key: global, limit: 9, window: 1s}]\nlanes: [gcra, leaky_bucket]\noverrides:\n  - {lane: leaky_bucket, limit: 10, burst: 20}\n" + clients, local, false, 0},
		{"the config's chain and topology come", "duration: 2s\nlimits: [{key: global, limit: 9, window: 1s}]\n" + clients, shared, true, 3},
		{"the scenario's topology stays", "duration: 2s\nlimits: [{key: global, limit: 9, window: 1s}]\ntopology: {replicas: 2}\n" + clients, shared, true, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := ConfigFromModel(tc.m, "the pasted config")
			s, err := c.Scenario("editor.yaml", []byte(tc.yaml), nil)
			if err != nil {
				t.Fatal(err)
			}
			cfg := s.Config
			if got := cfg.Chain == sim.ChainChargeUntilRefused; got != tc.chain || len(cfg.Overrides) != 0 {
				t.Errorf("chain charges until refused %v, %d overrides; want %v, none", got, len(cfg.Overrides), tc.chain)
			}
			replicas := 0
			if cfg.Topology != nil {
				replicas = cfg.Topology.Replicas[0].Count
			}
			if replicas != tc.replicas {
				t.Errorf("%d replicas, want %d", replicas, tc.replicas)
			}
			again, err := scenarios.Parse(s.File, s.Source)
			if err != nil {
				t.Fatalf("the merged YAML does not parse: %v\n%s", err, s.Source)
			}
			if !reflect.DeepEqual(again.Config, s.Config) {
				t.Errorf("the merged YAML is another scenario:\n%s", s.Source)
			}
		})
	}
}
