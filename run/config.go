package run

import (
	"errors"
	"fmt"

	"github.com/rlsim/rlsim/importer"
	"github.com/rlsim/rlsim/scenarios"
)

// Config is a product's config given with --config: its limits, lanes and
// chain take the place of each scenario's own, so the scenario's clients meet
// the config's limits.
type Config struct {
	Path  string          // the file, as given
	From  string          // the product, "" or "auto": detected
	Model *importer.Model // the import
	name  string          // how problems name it; "": --config Path
}

// ConfigFromModel is a config imported by the caller (the playground's
// pasted config), named label in problems and in the scenario's description.
func ConfigFromModel(m *importer.Model, label string) *Config {
	return &Config{Path: label, From: m.Product, Model: m, name: label}
}

// ImportConfig reads the product config at path for --config; strict
// refuses a config with any part the scenario cannot say. The problems of a
// config imported anyway are in the Model, for the caller to show.
func ImportConfig(path, from string, strict bool) (*Config, error) {
	return importFile(path, from, strict, "--config: ")
}

// ImportFile is ImportConfig for rlsim import, whose errors name the file
// alone (it is the command's argument, not a --config).
func ImportFile(path, from string, strict bool) (*Config, error) {
	return importFile(path, from, strict, "")
}

func importFile(path, from string, strict bool, prefix string) (*Config, error) {
	src, err := importer.SourceFile(path)
	if err != nil {
		return nil, BadInputf("%s%v", prefix, err)
	}
	m, err := importer.Import(src, from)
	if err != nil {
		return nil, BadInputf("%s%v", prefix, err)
	}
	if strict && len(m.Problems) > 0 {
		return nil, BadInput(problemsError(m))
	}
	return &Config{Path: path, From: from, Model: m}, nil
}

func problemsError(m *importer.Model) error {
	errs := make([]error, len(m.Problems))
	for i, p := range m.Problems {
		errs[i] = errors.New(p.String() + " (--strict)")
	}
	return errors.Join(errs...)
}

func (c *Config) label() string {
	if c.name != "" {
		return c.name
	}
	return "--config " + c.Path
}

// sets are the ConfigSets that write c into a scenario: its limits and lanes,
// its chain (the default when it has none), no overrides (they name the
// scenario's lanes), and, when c keeps state in a store and the scenario
// has no topology, the import's example fleet.
func (c *Config) sets(hasTopology bool) []scenarios.Set {
	parts := importer.Parts(c.Model)
	sets := []scenarios.Set{
		scenarios.ConfigSet("limits", parts["limits"], c.label()),
		scenarios.ConfigSet("lanes", parts["lanes"], c.label()),
		scenarios.ConfigSet("chain", parts["chain"], c.label()),
		scenarios.ConfigSet("overrides", "", c.label()),
	}
	if t, ok := parts["topology"]; ok && !hasTopology {
		sets = append(sets, scenarios.ConfigSet("topology", t, c.label()))
	}
	return sets
}

// load loads arg with c written into it, then sets (so a --set changes
// the config's limits as it would the file's).
func (c *Config) load(arg string, sets []scenarios.Set) (*scenarios.Scenario, error) {
	s, _, err := c.loadWith(func(sets ...scenarios.Set) (*scenarios.Scenario, error) { return Load(arg, sets...) }, sets)
	return s, err
}

// loadWith is load for a scenario that load reads, with the sets given;
// hasTopology is whether the scenario had its own.
func (c *Config) loadWith(load func(...scenarios.Set) (*scenarios.Scenario, error), sets []scenarios.Set) (s *scenarios.Scenario, hasTopology bool, err error) {
	s, err = load()
	if err != nil {
		return nil, false, err
	}
	if s.Config == nil {
		return nil, false, &scenarios.FieldError{File: s.File, Msg: "a contention study has no limits for " + c.label() + " to replace"}
	}
	hasTopology = s.Config.Topology != nil
	s, err = load(append(c.sets(hasTopology), sets...)...)
	if err != nil {
		return nil, false, err
	}
	// The scenario's own description speaks of its own limits and lanes.
	s.Description = c.description(s.Name)
	return s, hasTopology, nil
}

func (c *Config) description(name string) string {
	return fmt.Sprintf("%s's clients against the limits and lanes of %s (%s)", name, c.Path, c.Model.Product)
}
