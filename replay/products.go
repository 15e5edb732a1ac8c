package replay

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// ProductLanes are the product lanes a log can replay through, by their
// scenario-file names (the registry's rate-limiter lanes of a product): named
// with --lane they decide with the product's default settings; from a
// scenario (or --config), with that lane's own.
var ProductLanes = productLanes()

func productLanes() []string {
	var names []string
	for _, name := range sim.LanesOf(sim.RateLimiter) {
		if k, _ := sim.ParseLane(name); k.Info().Product != "" {
			names = append(names, name)
		}
	}
	return names
}

// laneSpec is how one lane of a replay decides: a plain registry lane (cfg
// nil), or lane index of scenario cfg, with its variant's lane options and
// product settings.
type laneSpec struct {
	name  string
	kind  sim.LaneKind
	cfg   *sim.Config
	index int
}

// plain reports whether s is a textbook lane with no settings or policies of its own:
// replay's own keyed table decides it, as before product lanes.
func (s laneSpec) plain() bool {
	if s.kind.Info().Product != "" {
		return false
	}
	if s.cfg == nil || s.index >= len(s.cfg.Variants) {
		return !s.overridden()
	}
	v := s.cfg.Variants[s.index]
	return v.Options.None() && v.Product == (sim.ProductSettings{}) && !s.overridden()
}

// product reports whether s is a product lane.
func (s laneSpec) product() bool { return s.kind.Info().Product != "" }

// spec is the lane named name: a lane of o.Config by its name (variants
// too), else a rate-limiter lane of the registry.
func (o *Options) spec(name string) (laneSpec, error) {
	if o.Config != nil {
		for i, n := range o.Config.LaneNames() {
			if n == name {
				k := o.Config.LanesRun()[i]
				if k.Info().Class != sim.RateLimiter {
					break
				}
				return laneSpec{name: name, kind: k, cfg: o.Config, index: i}, nil
			}
		}
	}
	k, ok := sim.ParseLane(name)
	if !ok || k.Info().Class != sim.RateLimiter {
		return laneSpec{}, fmt.Errorf("unknown lane %q (want one of %s)", name, strings.Join(ReplayableLanes(), ", "))
	}
	if k.Info().Product != "" {
		return laneSpec{name: name, kind: k, cfg: &sim.Config{Lanes: []sim.LaneKind{k}}}, nil
	}
	return laneSpec{name: name, kind: k}, nil
}

// ReplayableLanes are every lane --lane may name without a scenario:
// LaneNames, then ProductLanes.
func ReplayableLanes() []string { return append(slices.Clone(LaneNames), ProductLanes...) }

// limitOf is the index of the limit whose settings limit j takes: a --vary
// value's limit is the limit varied.
func (o *Options) limitOf(j int) int {
	if o.Sweep != nil && j >= o.Sweep.first && o.Sweep.first > 0 {
		return o.Sweep.Limit
	}
	return j
}

// laneDecider is lane s's limiter for limit j (l): replay's keyed table for a
// plain lane on one limiter, else the lane's rule placed in the fleet.
func (o *Options) laneDecider(s laneSpec, j int, l Limit, route *int32, every time.Duration) (decider, error) {
	if s.plain() && !o.Fleet.on() {
		if o.boxed {
			return newBoxed(s.kind.String(), l.Policy)
		}
		return newDecider(s.kind.String(), l.Policy)
	}
	src := o.limitOf(j)
	p := l.Policy
	if s.cfg != nil && j == src && j < len(s.cfg.Limits) {
		p = s.cfg.LanePolicy(s.index, j) // the lane's override, if it has one
	}
	build := func(p algorithms.Policy, start time.Time) (sim.KeyRule, error) {
		if s.cfg == nil {
			return s.kind.PerKey(p)
		}
		return s.cfg.LaneRuleAt(s.index, src, p, start)
	}
	kind := s.kind
	if s.cfg != nil {
		kind = s.cfg.LanesRun()[s.index]
	}
	n := 1
	if o.Fleet.on() {
		n = o.Fleet.Replicas
	}
	return newPlaced(kind, p, o.Fleet.place(src), n, route, every, build)
}

// overridden reports whether some limit of s's scenario has a policy of s's own.
func (s laneSpec) overridden() bool {
	if s.cfg == nil {
		return false
	}
	for j, l := range s.cfg.Limits {
		if s.cfg.LanePolicy(s.index, j) != l.Policy {
			return true
		}
	}
	return false
}
