package conform

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// Attempt is one attempt as the exact lane met it in the simulation, with the
// exact lane's decision.
type Attempt struct {
	At      time.Duration // virtual time
	Key     string        // the limit's key for the attempt's client
	Cost    int64
	Client  int   // global client index
	Request int64 // the client's request number
	Try     int   // 1 for the first attempt
	// Admitted and RetryAfter are the exact lane's decision; RetryAfter is set
	// on a refusal, algorithms.Never when no wait would do.
	Admitted   bool
	RetryAfter time.Duration
}

// LaneTraffic is what one lane met: its policy and its attempts in the order
// decided, and what the limit decides when its store fails.
type LaneTraffic struct {
	Lane     sim.LaneKind
	Policy   algorithms.Policy
	Attempts []Attempt
	// OnStoreError and Fallback are the limit's (sim.Limit): a failed call to
	// Redis admits (open), refuses (closed) or is decided by a fallback
	// limiter of the connection's own (local).
	OnStoreError sim.FailMode
	Fallback     algorithms.Policy
}

// Traffic simulates cfg without its topology (one exact limiter per lane)
// through lanes and returns what each lane met. cfg must be Suitable.
func Traffic(ctx context.Context, cfg sim.Config, lanes []sim.LaneKind, maxEvents int64) ([]LaneTraffic, error) {
	cfg.Topology = nil
	cfg.Lanes = lanes
	cfg.Limits = slices.Clone(cfg.Limits)
	cfg.Limits[0].State = sim.StateLocal
	sink := &collector{byLane: map[sim.LaneKind][]Attempt{}}
	res, err := sim.Run(ctx, cfg, sim.Options{Trace: sink, MaxEvents: maxEvents})
	if err != nil {
		return nil, err
	}
	var out []LaneTraffic
	for _, lr := range res.Lanes {
		out = append(out, LaneTraffic{Lane: lr.Lane, Policy: lr.Policy, Attempts: sink.byLane[lr.Lane],
			OnStoreError: cfg.Limits[0].OnStoreError, Fallback: cfg.Limits[0].Fallback})
	}
	return out, nil
}

// collector keeps the limiter's decisions from the trace.
type collector struct {
	byLane map[sim.LaneKind][]Attempt
}

func (c *collector) Record(r *sim.TraceRecord) error {
	if r.Event != sim.TraceAdmit && r.Event != sim.TraceRefuse {
		return nil
	}
	a := Attempt{At: r.At, Key: r.Key, Cost: max(r.Cost, 1), Client: r.Client, Request: r.Request,
		Try: r.Attempt, Admitted: r.Event == sim.TraceAdmit}
	if !a.Admitted {
		a.RetryAfter = r.RetryAfter
	}
	c.byLane[r.Lane] = append(c.byLane[r.Lane], a)
	return nil
}

// Suitable reports every reason the scenario in file cannot be replayed
// against a limiter script, as *scenarios.FieldError: the scripts decide one
// limit, with a policy fixed for the run.
func Suitable(file string, cfg *sim.Config) error {
	var errs scenarios.Errors
	add := func(path, msg string) { errs = append(errs, &scenarios.FieldError{File: file, Path: path, Msg: msg}) }
	switch {
	case len(cfg.Limits) != 1:
		add("limits", fmt.Sprintf("conform checks a chain of one limit, got %d", len(cfg.Limits)))
	case cfg.Limits[0].Shadow:
		add("limits[0].enforce", "conform checks an enforced limit, not a shadow one")
	case cfg.Limits[0].Endpoint != "":
		add("limits[0].endpoint", "conform checks a limit that counts every request")
	}
	if len(cfg.Rules) > 0 {
		add("rules", "conform checks a policy fixed for the run; the scripts take no rule pushes")
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// ConformLanes are the lanes of cfg (its own or the defaults) that have a
// reference script, in order; only, when set, narrows them to one lane.
func ConformLanes(cfg *sim.Config, only sim.LaneKind) ([]sim.LaneKind, error) {
	if only != sim.LaneDefault {
		if !slices.Contains(ScriptLanes(), only) {
			return nil, fmt.Errorf("lane %s has no limiter script to compare with (want one of %v)", only, laneNames(ScriptLanes()))
		}
		return []sim.LaneKind{only}, nil
	}
	lanes := cfg.Lanes
	if len(lanes) == 0 {
		lanes = sim.DefaultLanes()
	}
	var out []sim.LaneKind
	for _, l := range lanes {
		if slices.Contains(ScriptLanes(), l) {
			out = append(out, l)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("lanes: none of %v has a limiter script (want one of %v)", laneNames(lanes), laneNames(ScriptLanes()))
	}
	return out, nil
}

func laneNames(lanes []sim.LaneKind) []string {
	var names []string
	for _, l := range lanes {
		names = append(names, l.String())
	}
	return names
}

// maxExact is 2^53: Lua's doubles hold every integer up to it exactly.
var maxExact = new(big.Int).Lsh(big.NewInt(1), 53)

// checkExact reports an error unless every integer the reference scripts
// compute for p, up to time end and cost maxCost, is exact in a double.
func checkExact(p algorithms.Policy, end time.Duration, maxCost int64) error {
	g := new(big.Int).GCD(nil, nil, big.NewInt(p.Limit), big.NewInt(int64(p.Window)))
	l := new(big.Int).Quo(big.NewInt(p.Limit), g)
	w := new(big.Int).Quo(big.NewInt(int64(p.Window)), g)
	// GCRA and token bucket: now×L + (burst+cost)×W; counters: limit×window.
	a := new(big.Int).Mul(big.NewInt(int64(end+2*p.Window)), l)
	a.Add(a, new(big.Int).Mul(big.NewInt(p.EffectiveBurst()+maxCost), w))
	b := new(big.Int).Mul(big.NewInt(p.Limit+maxCost), big.NewInt(int64(p.Window)))
	if a.Cmp(maxExact) >= 0 || b.Cmp(maxExact) >= 0 {
		return fmt.Errorf("policy %d per %v (burst %d) over %v needs integers above 2^53, which Lua's doubles do not hold exactly",
			p.Limit, p.Window, p.EffectiveBurst(), end)
	}
	return nil
}
