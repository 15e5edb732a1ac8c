package replay

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/rlsim/rlsim/importer"
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// StateNames are the values of --state.
var StateNames = []string{"local", "divided", "shared"}

// source names where the limits came from, for errors: --scenario FILE or --config FILE.
func (opts Flags) source() string {
	if opts.Config != "" {
		return "--config " + opts.Config
	}
	return "--scenario " + opts.Scenario
}

// scenario is the scenario --scenario names, or the one --config's product
// config imports as (importer.Render, read as a scenario file is: rlsim
// import's output), its problems in ro.ConfigWarnings as rlsim run --config warns of them.
func (opts Flags) scenario(ro *Options) (*scenarios.Scenario, error) {
	if opts.Config == "" {
		return run.Load(opts.Scenario)
	}
	if opts.Scenario != "" {
		return nil, errors.New("give --scenario or --config, not both")
	}
	c, err := run.ImportConfig(opts.Config, cmp.Or(opts.From, "auto"), false)
	if err != nil {
		return nil, err
	}
	sc, warnings, err := imported(opts.Config, c.Model)
	ro.ConfigWarnings = append(ro.ConfigWarnings, warnings...)
	ro.configFormats = c.Model.LogFormats
	return sc, err
}

// imported is the scenario a product config's model imports as (rlsim
// import's output, importer.Render, parsed as a scenario file), and the
// model's problems as warnings.
func imported(path string, m *importer.Model) (*scenarios.Scenario, []string, error) {
	var warnings []string
	for _, p := range m.Problems {
		warnings = append(warnings, p.String())
	}
	sc, err := scenarios.Parse(path, importer.Render(m))
	return sc, warnings, err
}

// fleet applies --replicas, --routing, --hash-key, --state and --seed (given:
// not zero) to
// ro.Fleet (the scenario's topology, if any): a flag given replaces
// the scenario's setting; --state places the limits the scenario does not
// (all of them without one).
func (opts Flags) fleet(ro *Options) []error {
	var errs []error
	f := &ro.Fleet
	if opts.From != "" && opts.From != "auto" && opts.Config == "" {
		errs = append(errs, errors.New("--from: needs --config"))
	}
	if opts.Replicas != 0 {
		if opts.Replicas < 1 || opts.Replicas > MaxReplicas {
			errs = append(errs, fmt.Errorf("--replicas: want a whole number from 1 to %d", MaxReplicas))
		}
		f.Replicas = opts.Replicas
	}
	if opts.Routing != "" {
		r, ok := sim.ParseRouting(opts.Routing)
		if !ok {
			errs = append(errs, fmt.Errorf("--routing: unknown %q (want %s)", opts.Routing, strings.Join(sim.RoutingNames(), ", ")))
		}
		f.Routing = r
	}
	if opts.HashKey != "" {
		k, err := ParseKey(opts.HashKey)
		if err != nil {
			errs = append(errs, fmt.Errorf("--hash-key: %v", err))
		}
		f.HashKey = k
	}
	if opts.State != "" {
		switch opts.State {
		case "local":
			f.Place = Place{}
		case "divided":
			f.Place = Place{Divided: true}
		case "shared":
			f.Place = Place{State: sim.StateShared}
		default:
			errs = append(errs, fmt.Errorf("--state: unknown %q (want %s)", opts.State, strings.Join(StateNames, ", ")))
		}
	}
	for _, g := range []struct{ flag, v string }{{"--routing", opts.Routing}, {"--hash-key", opts.HashKey}, {"--state", opts.State}} {
		if g.v != "" && !f.on() {
			errs = append(errs, fmt.Errorf("%s: needs --replicas above 1 (or a scenario's topology)", g.flag))
		}
	}
	if opts.HashKey != "" && f.Routing != sim.RoutingHash {
		errs = append(errs, errors.New("--hash-key: needs --routing hash"))
	}
	switch {
	case opts.Seed != 0:
		f.Seed = opts.Seed
	case ro.Config == nil || ro.Config.Topology == nil:
		f.Seed = 1 // --seed's default; a scenario's topology routes by the scenario's seed, as run does
	}
	return errs
}

// laneChoices are the lanes --lane may name: ReplayableLanes and the scenario's.
func (o *Options) laneChoices() []string {
	names := ReplayableLanes()
	if o.Config != nil {
		for _, n := range o.Config.LaneNames() {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	return names
}
