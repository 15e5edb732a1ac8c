package diff

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/rlsim/rlsim/importer"
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// Side is one config of a diff: a product's config, imported as --config
// imports it, or a scenario file whose limits, lanes and chain are taken.
type Side struct {
	Label
	config   *run.Config         // a product's config, or nil
	scenario *scenarios.Scenario // a scenario file's, or nil
	Warnings []string            // the config's parts the scenario cannot say (importer's problems)
}

// LoadSide reads arg as one side. It is a scenario when it is a built-in
// (NAME or builtin:NAME) or a .yaml/.yml file no product's reader
// recognises; any other file is a product's config, of the product from
// names ("" or "auto": detected). An error is an *run.InputError naming arg.
func LoadSide(arg, from string) (*Side, error) {
	if scenarioArg(arg) {
		s, err := run.Load(arg)
		if err != nil {
			return nil, run.BadInput(err)
		}
		if s.Config == nil {
			return nil, run.BadInputf("%s: a contention study has no limits to compare", arg)
		}
		return &Side{Label: Label{Arg: arg, Kind: "scenario"}, scenario: s}, nil
	}
	src, err := importer.SourceFile(arg)
	if err != nil {
		return nil, run.BadInput(err)
	}
	m, err := importer.Import(src, from)
	if err != nil {
		return nil, run.BadInput(err)
	}
	side := &Side{Label: Label{Arg: arg, Kind: m.Product}, config: &run.Config{Path: arg, From: from, Model: m}}
	for _, p := range m.Problems {
		side.Warnings = append(side.Warnings, p.String())
	}
	return side, nil
}

// scenarioArg reports whether arg names a scenario rather than a product's config.
func scenarioArg(arg string) bool {
	if strings.HasPrefix(arg, run.BuiltinPrefix) {
		return true
	}
	if _, builtin := scenarios.BuiltinSource(arg); builtin && !strings.ContainsAny(arg, `/\`) && !strings.Contains(arg, ".") {
		return true
	}
	if !strings.HasSuffix(arg, ".yaml") && !strings.HasSuffix(arg, ".yml") {
		return false
	}
	src, err := importer.SourceFile(arg)
	return err != nil || importer.Detected(src) == "" // unreadable: Load says why
}

// on is the scenario at arg with this side's limits, lanes and chain
// written into it in place of its own (a config's as --config writes them;
// a scenario file's limits, lanes and their variants, chain, overrides,
// header style, rule pushes and lane settings), and no checks: --fail-on
// says what is checked.
func (s *Side) on(arg string) (*scenarios.Scenario, error) {
	var sc *scenarios.Scenario
	if s.config != nil {
		list, err := run.Overrides{Config: s.config}.Load([]string{arg})
		if err != nil {
			return nil, err
		}
		sc = list[0]
	} else {
		var err error
		if sc, err = run.Load(arg); err != nil {
			return nil, run.BadInput(err)
		}
		if sc.Config == nil {
			return nil, run.BadInputf("%s: a contention study has no clients to compare limits on", arg)
		}
		c, from := sc.Config, s.scenario.Config
		c.Limits, c.Lanes, c.Variants, c.Chain, c.Overrides = from.Limits, from.Lanes, from.Variants, from.Chain, from.Overrides
		c.HeaderStyle, c.Rules, c.AIMD, c.Throttle, c.Vegas = from.HeaderStyle, from.Rules, from.AIMD, from.Throttle, from.Vegas
		sc.Description = fmt.Sprintf("%s's clients against the limits and lanes of %s", sc.Name, s.Arg)
	}
	sc.Checks = nil
	return sc, nil
}

// ScenarioOptions say how to run a diff on a scenario's clients.
type ScenarioOptions struct {
	Scenario  string  // the scenario: a file or a built-in's name
	Seed      *uint64 // nil: the scenario's own, on both sides
	MaxEvents int64   // the event budget of each side, checked before either runs; 0: none
	Lane      string  // --lane: "NAME" or "CURRENT=PROPOSED"; "": pair as pairNames does
	Top       int     // keys per top list (default 10)
	FailOn    []FailOn
}

// Scenario runs o.Scenario's clients, with the same seed, against each
// side's limits and lanes, and compares each pair of lanes key by key.
func Scenario(ctx context.Context, cur, prop *Side, o ScenarioOptions) (*Report, error) {
	top := o.Top
	if top <= 0 {
		top = 10
	}
	sides := []*Side{cur, prop}
	var scs []*scenarios.Scenario
	for i, s := range sides {
		sc, err := s.on(o.Scenario)
		if err != nil {
			return nil, sideError(i, s, err)
		}
		scs = append(scs, sc)
	}
	pairs, unpaired, err := pairNames(scs[0].Config.LaneNames(), scs[1].Config.LaneNames(), o.Lane, "lane")
	if err != nil {
		return nil, run.BadInputf("--lane: %v", err)
	}
	// Each side runs only its paired lanes; both are checked, the budget
	// too, before either runs.
	var errs []error
	for i, sc := range scs {
		var lanes []string
		for _, p := range pairs {
			if !slices.Contains(lanes, p[i]) {
				lanes = append(lanes, p[i])
			}
		}
		ov := run.Overrides{Seed: o.Seed, MaxEvents: o.MaxEvents, Lanes: strings.Join(lanes, ",")}
		if err := ov.Apply([]*scenarios.Scenario{sc}); err != nil {
			errs = append(errs, sideError(i, sides[i], err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, run.BadInput(err)
	}
	var results []*sim.Result
	var counts []*counter
	for i, sc := range scs {
		c := &counter{}
		out, err := run.Scenario(ctx, sc, run.Options{MaxEvents: o.MaxEvents,
			Collect: func(sim.Config) sim.TraceSink { return c }})
		if err != nil {
			return nil, sideError(i, sides[i], err)
		}
		results, counts = append(results, out.Result), append(counts, c)
	}
	r := &Report{Version: Version, Mode: "scenario", Current: cur.Label, Proposed: prop.Label, On: o.Scenario,
		Unpaired: append([]string{}, unpaired...), Notes: []string{}}
	for _, names := range pairs {
		lc, lp := laneIndex(results[0], names[0]), laneIndex(results[1], names[1])
		fc, fp := counts[0].lane(lc), counts[1].lane(lp)
		p := Pair{Current: names[0], Proposed: names[1]}
		compare(&p, fc, fp, p99(fp), top)
		a, b := &results[0].Lanes[lc], &results[1].Lanes[lp]
		p.PeakCurrent, p.PeakProposed = a.Peak.Count, b.Peak.Count
		p.PeakDelta = p.PeakProposed - p.PeakCurrent
		p.StoreCallsCurrent, p.StoreCallsProposed = storeCalls(a), storeCalls(b)
		p.StoreCallsDelta = p.StoreCallsProposed - p.StoreCallsCurrent
		p.checks = checkValues(results[1], names[1])
		r.Pairs = append(r.Pairs, p)
	}
	r.evaluate(o.FailOn)
	return r, nil
}

// sideError names the side an error is about: i 0 the current, 1 the proposed.
func sideError(i int, s *Side, err error) error {
	role := [2]string{"current", "proposed"}[i]
	if run.IsBadInput(err) {
		return run.BadInputf("the %s side, %s: %v", role, s.Arg, err)
	}
	return fmt.Errorf("the %s side, %s: %w", role, s.Arg, err)
}

func laneIndex(r *sim.Result, name string) int {
	i := slices.IndexFunc(r.Lanes, func(l sim.LaneResult) bool { return l.Name == name })
	if i < 0 {
		panic("diff.Scenario: lane " + name + " did not run")
	}
	return i
}

func storeCalls(l *sim.LaneResult) int64 {
	if l.Topology == nil {
		return 0
	}
	return l.Topology.StoreCalls
}

// checkValues measures every scenario check's metric on lane of r, as
// rlsim run measures a check with no class: p99_time_to_success per class.
func checkValues(r *sim.Result, lane string) []checkValue {
	var checks []scenarios.Check
	for _, m := range scenarios.MetricNames() {
		checks = append(checks, scenarios.Check{Lane: lane, Metric: scenarios.Metric(m), Op: ">=", Text: "0"})
	}
	var out []checkValue
	for _, cr := range run.Checks(checks, r) {
		if !cr.None {
			out = append(out, checkValue{metric: string(cr.Metric), class: cr.Class, got: cr.Got})
		}
	}
	return out
}

// counter counts each lane's trace by key and class: a unit's requests
// (first attempts a limit answered) and its refusals (429s). Each lane
// counts on its own sink, so lanes may run at once.
type counter struct {
	lanes []*laneCounter
}

type laneCounter struct{ figs keyFigures }

func (c *counter) ForLanes(n int) []sim.TraceSink {
	c.grow(n)
	sinks := make([]sim.TraceSink, n)
	for i, l := range c.lanes {
		sinks[i] = l
	}
	return sinks
}

func (c *counter) grow(n int) {
	for len(c.lanes) < n {
		c.lanes = append(c.lanes, &laneCounter{figs: keyFigures{}})
	}
}

func (c *counter) Record(r *sim.TraceRecord) error {
	c.grow(r.LaneIndex + 1)
	return c.lanes[r.LaneIndex].Record(r)
}

func (c *counter) lane(i int) keyFigures {
	c.grow(i + 1)
	return c.lanes[i].figs
}

func (l *laneCounter) Record(r *sim.TraceRecord) error {
	switch r.Event {
	case sim.TraceAdmit, sim.TraceDelay, sim.TraceRefuse, sim.TraceDrop:
	default:
		return nil
	}
	u := unit{key: r.Key, class: r.Class}
	f := l.figs[u]
	if r.Attempt == 1 {
		f.requests++
	}
	if r.Event == sim.TraceRefuse {
		f.refused++
	}
	l.figs[u] = f
	return nil
}
