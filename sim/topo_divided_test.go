package sim

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// loginWorld is one attacker sending n login attempts at one instant to a
// global limit of limit per 15 minutes, burst burst (0: the limit).
func loginWorld(n int, limit, burst int64, lanes []LaneKind) Config {
	return Config{
		Duration: 20 * time.Minute, Lanes: lanes,
		Limits:  []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: limit, Window: 15 * time.Minute, Burst: burst}}},
		Clients: []ClientGroup{{Count: 1, Arrivals: []Arrival{{Kind: ArrivalBurst, Count: n}}}},
	}
}

var windowLanes = []LaneKind{LaneFixedWindow, LaneSlidingLog, LaneSlidingWindowCounter, LaneTokenBucket, LaneGCRA}

// A divided limit never lets the fleet admit more than the limit, however
// few requests per window there are per replica: 5 per 15 minutes over 8
// replicas admits 5, not 8 (each replica's share rounded up to 1). The burst
// is divided too: a burst of 20 over 4 replicas admits 20, not 4 × 20.
func TestDividedLimitNeverExceedsTheLimit(t *testing.T) {
	for _, tc := range []struct {
		limit, burst int64
		replicas     int
		want         int64
	}{
		{limit: 5, replicas: 8, want: 5},
		{limit: 5, replicas: 5, want: 5},
		{limit: 7, replicas: 3, want: 7},
		{limit: 1, replicas: 4, want: 1},
		{limit: 5, burst: 20, replicas: 4, want: 20},
		{limit: 5, burst: 3, replicas: 8, want: 3},
	} {
		t.Run(fmt.Sprintf("%d burst %d over %d", tc.limit, tc.burst, tc.replicas), func(t *testing.T) {
			cfg := withTopology(loginWorld(1000, tc.limit, tc.burst, windowLanes), Topology{Replicas: replicas(tc.replicas)},
				func(l *Limit) { l.LocalLimit = LocalDivided })
			cfg.Duration = time.Minute // one window: the burst, then nothing refills past it
			for _, lr := range mustRun(t, cfg, Options{}).Lanes {
				want := tc.want
				if tc.burst == 0 || lr.Lane == LaneFixedWindow || lr.Lane == LaneSlidingLog || lr.Lane == LaneSlidingWindowCounter {
					want = tc.limit // the windowed lanes have no burst
				}
				if lr.Admitted != want {
					t.Errorf("%v: admitted %d of 1000 at one instant, want %d", lr.Lane, lr.Admitted, want)
				}
			}
		})
	}
}

// DividedShare splits a limit into shares that differ by at most one and sum
// to it, the larger on the higher replicas; a replica past the count has none.
func TestDividedShare(t *testing.T) {
	for _, tc := range []struct {
		limit int64
		n     int
		want  []int64
	}{
		{5, 8, []int64{0, 0, 0, 1, 1, 1, 1, 1}},
		{40, 8, []int64{5, 5, 5, 5, 5, 5, 5, 5}},
		{10, 4, []int64{2, 2, 3, 3}},
		{1, 1, []int64{1}},
	} {
		var sum int64
		for i, w := range tc.want {
			got := DividedShare(tc.limit, tc.n, i)
			sum += got
			if got != w {
				t.Errorf("DividedShare(%d, %d, %d) = %d, want %d", tc.limit, tc.n, i, got, w)
			}
		}
		if sum != tc.limit {
			t.Errorf("shares of %d over %d sum to %d", tc.limit, tc.n, sum)
		}
		if got := DividedShare(tc.limit, tc.n, tc.n); got != 0 {
			t.Errorf("DividedShare(%d, %d, %d) = %d, want 0 (past the count)", tc.limit, tc.n, tc.n, got)
		}
	}
}

// fleetPeak is the most admissions of lane in any window w, counted from the
// trace; aligned counts only windows starting at a multiple of w.
func fleetPeak(tr []TraceRecord, lane int, w time.Duration, aligned bool) int64 {
	var at []time.Duration
	for _, r := range tr {
		if r.Event == TraceAdmit && r.LaneIndex == lane {
			at = append(at, r.At)
		}
	}
	var most int64
	lo := 0
	for hi := range at {
		for at[hi]-at[lo] >= w || (aligned && at[lo]/w != at[hi]/w) {
			lo++
		}
		most = max(most, int64(hi-lo+1))
	}
	return most
}

// dividedWorld is one global limit divided over a fleet that the autoscaler
// resizes, hit by Poisson clients, all drawn from r.
func dividedWorld(r *rand.Rand) Config {
	limit := 1 + r.Int64N(30)
	w := time.Duration(1+r.IntN(5)) * time.Second
	const duration = 20 * time.Second
	steps := []ReplicaStep{{Count: 1 + r.IntN(12)}}
	dense := r.IntN(3) == 0 // steps closer than a window apart, more than maxHeld of them
	for at := time.Duration(0); len(steps) < 12; {
		gap := 3 * w
		if dense {
			gap = w / 20
		}
		at += time.Duration(1 + r.Int64N(int64(gap)))
		if at >= duration {
			break
		}
		steps = append(steps, ReplicaStep{At: at, Count: 1 + r.IntN(12)})
	}
	return Config{
		Duration: duration, Seed: r.Uint64(), Lanes: []LaneKind{LaneSlidingLog, LaneFixedWindow},
		Limits: []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: limit, Window: w}, LocalLimit: LocalDivided}},
		Clients: []ClientGroup{{Count: 1 + r.IntN(8),
			Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 1 + r.Int64N(40), Per: time.Second}}}}},
		Topology: &Topology{Replicas: steps, Routing: Routing(r.IntN(3))},
	}
}

// checkDividedWorld fails t if the fleet of cfg admitted more than the limit
// in any window (sliding log) or any aligned window (fixed window).
func checkDividedWorld(t *testing.T, cfg Config) {
	t.Helper()
	tr := &traceLog{}
	mustRun(t, cfg, Options{Trace: tr})
	p := cfg.Limits[0].Policy
	for i, lane := range cfg.Lanes {
		if got := fleetPeak(tr.recs, i, p.Window, lane == LaneFixedWindow); got > p.Limit {
			t.Errorf("%v, %d per %v over %v, %v: the fleet admitted %d in one window", lane, p.Limit, p.Window, cfg.Topology.Replicas, cfg.Topology.Routing, got)
		}
	}
}

// A limit divided over a fleet admits at most the limit in any window (sliding
// log; any aligned window, fixed window), on random traffic, routing and
// autoscaler steps: a replica keeps obeying the share it had for one window
// after a step, and one that joins admits nothing for a window, so admissions
// before a step still count after it.
func TestDividedFleetAtMostTheLimitInAnyWindow(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 4))
	for range 40 {
		checkDividedWorld(t, dividedWorld(r))
	}
}

// FuzzDividedFleet is TestDividedFleetAtMostTheLimitInAnyWindow on worlds drawn
// from the fuzzer's seeds.
func FuzzDividedFleet(f *testing.F) {
	for _, s := range [][2]uint64{{1, 2}, {23, 4}, {7, 7}, {0, 0}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b uint64) {
		checkDividedWorld(t, dividedWorld(rand.New(rand.NewPCG(a, b))))
	})
}

// perSecond is how many attempts the fleet admitted in each aligned second.
func perSecond(tr []TraceRecord, seconds int) []int64 {
	out := make([]int64, seconds)
	for _, r := range tr {
		if s := int(r.At / time.Second); r.Event == TraceAdmit && s < seconds {
			out[s]++
		}
	}
	return out
}

// A divided fallback is the fleet's fallback limit shared by the replicas of
// the moment: 8 per second over 2 replicas, then over 4 from t=5s, admits 8 a
// second before and after the step (4 then 2 per replica); the second after
// the step admits less, the replicas that stay still held to the 4 they
// used. A whole fallback lets every replica admit 8: 16 a second, then 32 at
// the step.
func TestDividedFallbackFollowsTheFleet(t *testing.T) {
	world := func(divided bool) Config {
		lim := Limit{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 100, Window: time.Second},
			State: StateShared, OnStoreError: FailLocal, Fallback: algorithms.Policy{Limit: 8, Window: time.Second}}
		if divided {
			lim.LocalLimit = LocalDivided
		}
		return Config{
			Duration: 10 * time.Second, Lanes: []LaneKind{LaneSlidingLog, LaneFixedWindow}, Limits: []Limit{lim},
			Clients: []ClientGroup{{Count: 1, Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 1000, Per: time.Second}}}}},
			Topology: &Topology{Replicas: []ReplicaStep{{Count: 2}, {At: 5 * time.Second, Count: 4}},
				Store: Store{Outages: []Outage{{From: 0, To: 10 * time.Second}}}},
		}
	}
	for _, tc := range []struct {
		divided bool
		want    []int64
	}{
		{true, []int64{8, 8, 8, 8, 8, 4, 8, 8, 8, 8}},
		{false, []int64{16, 16, 16, 16, 16, 32, 32, 32, 32, 32}},
	} {
		for _, lane := range world(tc.divided).Lanes {
			cfg := world(tc.divided)
			cfg.Lanes = []LaneKind{lane}
			tr := &traceLog{}
			mustRun(t, cfg, Options{Trace: tr})
			if got := perSecond(tr.recs, 10); fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("%v divided=%v: admitted %v a second, want %v", lane, tc.divided, got, tc.want)
			}
		}
	}
}

// divided is for what a replica counts alone: a local limit or a fallback.
func TestValidateDividedPlacement(t *testing.T) {
	for _, tc := range []struct {
		name string
		l    Limit
		ok   bool
	}{
		{"local", Limit{State: StateLocal}, true},
		{"fallback", Limit{State: StateShared, OnStoreError: FailLocal, Fallback: algorithms.Policy{Limit: 4, Window: time.Second}}, true},
		{"shared failing closed", Limit{State: StateShared, OnStoreError: FailClosed}, false},
		{"synced", Limit{State: StateSynced, SyncInterval: time.Second}, false},
	} {
		cfg := hotKey(1, nil)
		cfg.Topology = &Topology{Replicas: replicas(2)}
		l := &cfg.Limits[0]
		l.State, l.OnStoreError, l.Fallback, l.SyncInterval, l.LocalLimit = tc.l.State, tc.l.OnStoreError, tc.l.Fallback, tc.l.SyncInterval, LocalDivided
		err := cfg.Validate()
		var fes FieldErrors
		errors.As(err, &fes)
		if tc.ok && err != nil || !tc.ok && (len(fes) != 1 || fes[0].Field != "limits[0].local_limit") {
			t.Errorf("%s: Validate() = %v, want ok %v (limits[0].local_limit)", tc.name, err, tc.ok)
		}
	}
}
