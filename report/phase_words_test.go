package report

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// Each phase kind's words, folded into steps by kind and limit, with the
// replicas or shards each step names.
func TestPhaseFindingWordsEachStep(t *testing.T) {
	s := time.Second
	ph := func(at time.Duration, k sim.PhaseKind, replica, shard int, limit string) sim.Phase {
		return sim.Phase{At: at, Kind: k, Replica: replica, Shard: shard, Limit: limit}
	}
	phases := []sim.Phase{
		ph(1*s, sim.PhaseStoreTimeouts, 3, -1, ""),
		ph(2*s, sim.PhaseStoreRefusing, -1, 2, ""),
		ph(2*s, sim.PhaseStoreRefusing, -1, 0, ""),
		ph(3*s, sim.PhaseFailOpen, -1, -1, "per\x1buser"),
		ph(3*s, sim.PhaseFailOpen, -1, -1, "global"),
		ph(4*s, sim.PhaseFailClosed, -1, -1, "global"),
		ph(5*s, sim.PhaseFailLocal, -1, -1, "global"),
		ph(6*s, sim.PhaseBreakerOpen, 1, 0, ""),
		ph(6*s, sim.PhaseBreakerOpen, 1, 1, ""),
		ph(7*s, sim.PhaseBreakerHalfOpen, 0, 0, ""),
		ph(7*s, sim.PhaseBreakerHalfOpen, 2, 0, ""),
		ph(7*s, sim.PhaseBreakerHalfOpen, 3, 0, ""),
		ph(8*s, sim.PhaseBreakerClosed, 2, 0, ""),
		ph(9*s, sim.PhaseReplicaOut, 0, -1, ""),
		ph(9*s, sim.PhaseReplicaOut, 1, -1, ""),
		ph(10*s, sim.PhaseNoHealthyReplica, -1, -1, ""),
		ph(61*s+4*time.Millisecond, sim.PhaseStoreRestart, -1, -1, ""),
		ph(90*s+126*time.Millisecond, sim.PhaseReplicaIn, 1, -1, ""),
		ph(91*s, sim.PhaseStoreAnswering, -1, 4, ""),
	}
	want := "in order: " +
		"t=1s calls to the store timing out; " +
		"t=2s shards 2 and 0 refusing calls; " +
		"t=3s per\\x1buser failing open; " + // escaped for the terminal
		"t=3s global failing open; " +
		"t=4s global failing closed; " +
		"t=5s global falling back to its local limit; " +
		"t=6s the breaker opening on replica 1; " +
		"t=7s the breaker half-open, probing, on replicas 0, 2 and 3; " +
		"t=8s the breaker closing on replica 2; " +
		"t=9s replicas 0 and 1 out of the rotation; " +
		"t=10s no replica left in the rotation: 503 for everyone; " +
		"t=61s the store restarting empty; " +
		"t=90.13s replica 1 back in the rotation; " +
		"t=91s shard 4 answering again"
	got := phaseFinding(&sim.TopologyResult{Phases: phases})
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if phaseFinding(&sim.TopologyResult{}) != "" {
		t.Error("no phases, no finding")
	}
}

// At most maxPhaseSteps steps are told; the rest counted, one or many.
func TestPhaseFindingCountsTheStepsPastTheMost(t *testing.T) {
	for _, extra := range []int{0, 1, 2} {
		var phases []sim.Phase
		for i := range maxPhaseSteps + extra {
			k := sim.PhaseReplicaOut
			if i%2 == 1 {
				k = sim.PhaseReplicaIn
			}
			phases = append(phases, sim.Phase{At: time.Duration(i) * time.Second, Kind: k, Replica: 0, Shard: -1})
		}
		got := phaseFinding(&sim.TopologyResult{Phases: phases, PhasesCut: extra == 2})
		if n := strings.Count(got, "t="); n != maxPhaseSteps {
			t.Errorf("%d steps: %d told, want %d", maxPhaseSteps+extra, n, maxPhaseSteps)
		}
		tail := map[int]string{
			0: fmt.Sprintf("t=%ds replica 0 back in the rotation", maxPhaseSteps-1),
			1: "; then 1 more step (topology.phases in the JSON)",
			2: fmt.Sprintf("; then 2 more steps (topology.phases in the JSON) (the run kept its first %d phases)", maxPhaseSteps+2),
		}[extra]
		if !strings.HasSuffix(got, tail) {
			t.Errorf("%d steps: %q does not end %q", maxPhaseSteps+extra, got, tail)
		}
	}
}

func TestPhaseTimeAndNumberLists(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{1500 * time.Millisecond, FormatDuration(1500 * time.Millisecond)},
		{time.Minute - time.Millisecond, FormatDuration(time.Minute - time.Millisecond)},
		{time.Minute, "60s"},
		{61*time.Second + 5*time.Millisecond, "61.01s"},
		{125*time.Second + 994*time.Millisecond, "125.99s"},
		{125*time.Second + 995*time.Millisecond, "126s"},
	} {
		if got := phaseTime(c.d); got != c.want {
			t.Errorf("phaseTime(%v) = %q, want %q", c.d, got, c.want)
		}
	}
	for _, c := range []struct {
		ns   []int
		want string
	}{{nil, ""}, {[]int{3}, "3"}, {[]int{0, 1}, "0 and 1"}, {[]int{0, 1, 3}, "0, 1 and 3"}} {
		if got := numberList(c.ns); got != c.want {
			t.Errorf("numberList(%v) = %q, want %q", c.ns, got, c.want)
		}
	}
}
