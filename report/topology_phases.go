package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// maxPhaseSteps is how many steps of a lane's phases the finding tells; the
// rest are counted, and the JSON has them all.
const maxPhaseSteps = 14

// phaseFindings tells each lane's phases (the moments that changed what the
// fleet did) in time order: the store timing out, limits failing open or
// closed, replicas leaving the rotation, the store answering again.
func phaseFindings(r sim.Result) []string {
	return byLanes(r, func(l sim.LaneResult) string { return phaseFinding(l.Topology) })
}

// phaseStep is a run of consecutive phases of one kind (and one limit): the
// replicas or shards it names, from its first phase's time.
type phaseStep struct {
	at    time.Duration
	kind  sim.PhaseKind
	limit string
	where []int
	// stores names, with named stores, the store of each shard ("" for
	// topology.store); nil with one store.
	stores []string
}

// phaseFinding is "in order: t=…: …; t=…: …", "" without phases.
func phaseFinding(t *sim.TopologyResult) string {
	steps := phaseSteps(t.Phases)
	if len(steps) == 0 {
		return ""
	}
	stores := shardStores(t.Shards)
	var told []string
	for _, s := range steps[:min(len(steps), maxPhaseSteps)] {
		s.stores = stores
		told = append(told, "t="+phaseTime(s.at)+" "+s.words())
	}
	out := "in order: " + strings.Join(told, "; ")
	if n := len(steps) - maxPhaseSteps; n > 0 {
		out += fmt.Sprintf("; then %d more %s (topology.phases in the JSON)", n, map[bool]string{true: "step", false: "steps"}[n == 1])
	}
	if t.PhasesCut {
		out += fmt.Sprintf(" (the run kept its first %d phases)", len(t.Phases))
	}
	return out
}

// phaseSteps folds consecutive phases of one kind and limit into one step.
func phaseSteps(phases []sim.Phase) []phaseStep {
	var steps []phaseStep
	for _, p := range phases {
		where := p.Replica
		if p.Kind == sim.PhaseStoreTimeouts || p.Kind == sim.PhaseStoreRefusing || p.Kind == sim.PhaseStoreAnswering {
			where = p.Shard
		}
		if n := len(steps); n > 0 && steps[n-1].kind == p.Kind && steps[n-1].limit == p.Limit {
			if where >= 0 {
				steps[n-1].where = append(steps[n-1].where, where)
			}
			continue
		}
		s := phaseStep{at: p.At, kind: p.Kind, limit: p.Limit}
		if where >= 0 {
			s.where = []int{where}
		}
		steps = append(steps, s)
	}
	return steps
}

// words says what step s was.
func (s phaseStep) words() string {
	limit := scenarios.Escape(s.limit)
	switch s.kind {
	case sim.PhaseStoreTimeouts:
		return "calls to " + s.store() + " timing out"
	case sim.PhaseStoreRefusing:
		return s.store() + " refusing calls"
	case sim.PhaseStoreAnswering:
		return s.store() + " answering again"
	case sim.PhaseFailOpen:
		return limit + " failing open"
	case sim.PhaseFailClosed:
		return limit + " failing closed"
	case sim.PhaseFailLocal:
		return limit + " falling back to its local limit"
	case sim.PhaseBreakerOpen:
		return "the breaker opening on " + s.replicas()
	case sim.PhaseBreakerHalfOpen:
		return "the breaker half-open, probing, on " + s.replicas()
	case sim.PhaseBreakerClosed:
		return "the breaker closing on " + s.replicas()
	case sim.PhaseReplicaOut:
		return s.replicas() + " out of the rotation"
	case sim.PhaseReplicaIn:
		return s.replicas() + " back in the rotation"
	case sim.PhaseNoHealthyReplica:
		return "no replica left in the rotation: 503 for everyone"
	case sim.PhaseStoreRestart:
		return "the store restarting empty"
	}
	return s.kind.String()
}

// store names the store, or the shards the step is on.
func (s phaseStep) store() string {
	if s.stores != nil {
		return s.namedStores()
	}
	switch len(s.where) {
	case 0:
		return "the store"
	case 1:
		return "shard " + numberList(s.where)
	}
	return "shards " + numberList(s.where)
}

// namedStores names the stores of the step's shards, with a shard's number
// where its store has several: "store abuse", "shard 3 (store abuse)", "the
// main store" (topology.store).
func (s phaseStep) namedStores() string {
	if len(s.where) == 0 {
		return "every store"
	}
	var out []string
	for _, sh := range s.where {
		if sh < 0 || sh >= len(s.stores) {
			out = append(out, "shard "+strconv.Itoa(sh))
			continue
		}
		w := storeWords(s.stores[sh])
		if slices.Index(s.stores, s.stores[sh]) != sh || sh+1 < len(s.stores) && s.stores[sh+1] == s.stores[sh] {
			w = "shard " + strconv.Itoa(sh) + " (" + w + ")"
		}
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return list(out)
}

// storeWords names a store in a sentence: "store abuse", or "the main
// store" for topology.store.
func storeWords(name string) string {
	if name == "" {
		return "the main store"
	}
	return "store " + scenarios.Escape(name)
}

// shardStores is the store of each shard when some shard is of a named
// store, else nil.
func shardStores(shards []sim.ShardResult) []string {
	if !slices.ContainsFunc(shards, func(s sim.ShardResult) bool { return s.Store != "" }) {
		return nil
	}
	out := make([]string, len(shards))
	for i, s := range shards {
		out[i] = s.Store
	}
	return out
}

// replicas names the replicas of the step, each once: "replica 2",
// "replicas 0, 1 and 3".
func (s phaseStep) replicas() string {
	seen := map[int]bool{}
	var reps []int
	for _, r := range s.where {
		if !seen[r] {
			seen[r] = true
			reps = append(reps, r)
		}
	}
	if len(reps) == 1 {
		return "replica " + numberList(reps)
	}
	return "replicas " + numberList(reps)
}

// numberList is "3", "0 and 1", "0, 1 and 3".
func numberList(ns []int) string {
	words := make([]string, len(ns))
	for i, n := range ns {
		words[i] = strconv.Itoa(n)
	}
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// phaseTime is an instant of the run as the findings print one: in seconds
// with up to two decimals past a minute too (FormatDuration rounds those to
// whole seconds).
func phaseTime(d time.Duration) string {
	if d < time.Minute {
		return FormatDuration(d)
	}
	return strconv.FormatFloat(float64(d.Round(10*time.Millisecond))/float64(time.Second), 'f', -1, 64) + "s"
}
