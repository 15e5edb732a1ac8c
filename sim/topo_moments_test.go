package sim

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// traceRecords keeps every trace record of a run.
type traceRecords []TraceRecord

func (t *traceRecords) Record(r *TraceRecord) error { *t = append(*t, *r); return nil }

// mostIn is the most of times (sorted) in any window [t, t+w), by brute force.
func mostIn(times []time.Duration, w time.Duration) int64 {
	var most int64
	for i, t := range times {
		j, _ := slices.BinarySearch(times, t+w)
		most = max(most, int64(j-i))
	}
	return most
}

// admitTimes is, per lane, the instants of its TraceAdmit records, sorted.
func admitTimes(log traceRecords) map[LaneKind][]time.Duration {
	out := map[LaneKind][]time.Duration{}
	for _, r := range log {
		if r.Event == TraceAdmit {
			out[r.Lane] = append(out[r.Lane], r.At)
		}
	}
	for _, ts := range out {
		slices.Sort(ts)
	}
	return out
}

// jitteryStore is users on four replicas checking one global limit of 50 per
// second in an atomic store whose round trips are exponential: answers come
// back out of the order the store decided them.
func jitteryStore(seed uint64) Config {
	cfg := racyWorld(seed, 40, 0, false)
	cfg.Lanes = []LaneKind{LaneFixedWindow, LaneSlidingLog, LaneSlidingWindowCounter, LaneTokenBucket, LaneGCRA}
	cfg.Topology.Store.Latency = Service{Kind: ServiceExponential, Mean: 5 * time.Millisecond}
	return cfg
}

// An atomic store decides attempts one by one, in the order its calls arrive:
// the limit's own figures (the lane's peak, the fleet's peak) count each
// admission at that decision, so an atomic sliding log never reads over its
// limit, and one exact limiter deciding the same attempts at the same instants
// admits exactly what the store did (no overshoot, in every lane). What the
// backend saw (Arrived) is the trace's admissions, timed as they reached it,
// and on some seed it is over the limit: jitter bunches admissions.
func TestAtomicStoreCountsAtTheStoresDecision(t *testing.T) {
	bunched := false
	for seed := range uint64(6) {
		var log traceRecords
		res := mustRun(t, jitteryStore(seed), Options{Trace: &log})
		times := admitTimes(log)
		for _, l := range res.Lanes {
			lt := l.Topology.Limits[0]
			if l.Lane == LaneSlidingLog && (l.Peak.Count > 50 || lt.Fleet.Count > 50 || l.TimeOverLimit > 0) {
				t.Errorf("seed %d: an atomic sliding log read peak %d, fleet peak %d, %v over the limit of 50", seed, l.Peak.Count, lt.Fleet.Count, l.TimeOverLimit)
			}
			if l.Lane == LaneSlidingLog && l.SlidingLogDisagreement != 0 {
				t.Errorf("seed %d: the atomic sliding log disagrees with the cross-check on %v of decisions", seed, l.SlidingLogDisagreement)
			}
			if lt.Overshoot != 0 || lt.Exact.Count != lt.Fleet.Count {
				t.Errorf("seed %d, %v: overshoot %d (fleet %d, exact %d) behind an atomic store", seed, l.Lane, lt.Overshoot, lt.Fleet.Count, lt.Exact.Count)
			}
			if l.Peak.Count != lt.Fleet.Count {
				t.Errorf("seed %d, %v: lane peak %d, fleet peak %d of the one limit", seed, l.Lane, l.Peak.Count, lt.Fleet.Count)
			}
			if got := mostIn(times[l.Lane], time.Second); lt.Arrived.Count != got {
				t.Errorf("seed %d, %v: Arrived %d, the trace's admissions %d in a window", seed, l.Lane, lt.Arrived.Count, got)
			}
			if l.Lane == LaneSlidingLog && lt.Arrived.Count > 50 {
				bunched = true
			}
		}
	}
	if !bunched {
		t.Error("on no seed did the backend see more than the limit behind a jittery store")
	}
}

// With a store that answers at once, the two moments are one: Arrived is Fleet.
func TestInstantStoreArrivesAsDecided(t *testing.T) {
	cfg := jitteryStore(1)
	cfg.Topology.Store.Latency = Service{}
	for _, l := range mustRun(t, cfg, Options{}).Lanes {
		if lt := l.Topology.Limits[0]; lt.Arrived != lt.Fleet {
			t.Errorf("%v: Arrived %+v, Fleet %+v", l.Lane, lt.Arrived, lt.Fleet)
		}
	}
}

// exactAdmits replays a lane's attempts (its admit and refuse records, in
// the trace's order: a synced limit decides each at its attempt's instant)
// through one exact limiter of lane's algorithm, and is the instants it admits.
func exactAdmits(t *testing.T, log traceRecords, lane LaneKind, p algorithms.Policy) []time.Duration {
	t.Helper()
	var decide func(now time.Duration) bool
	switch lane {
	case LaneTokenBucket:
		a, err := algorithms.NewTokenBucket(p)
		if err != nil {
			t.Fatal(err)
		}
		var s algorithms.TokenBucketState
		decide = func(now time.Duration) bool { return a.Decide(&s, now, 1).Admitted() }
	case LaneSlidingLog:
		a, err := algorithms.NewSlidingLog(p)
		if err != nil {
			t.Fatal(err)
		}
		var s algorithms.SlidingLogState
		decide = func(now time.Duration) bool { return a.Decide(&s, now, 1).Admitted() }
	case LaneFixedWindow:
		a, err := algorithms.NewFixedWindow(p)
		if err != nil {
			t.Fatal(err)
		}
		var s algorithms.FixedWindowState
		decide = func(now time.Duration) bool { return a.Decide(&s, now, 1).Admitted() }
	default:
		t.Fatalf("no exact limiter for %v", lane)
	}
	var out []time.Duration
	for _, r := range log {
		if r.Lane == lane && (r.Event == TraceAdmit || r.Event == TraceRefuse) && decide(r.At) {
			out = append(out, r.At)
		}
	}
	return out
}

// Synced overshoot is measured against one exact limiter deciding the same
// attempts, not against the limit: on one replica a synced limit decides as
// the exact limiter does (a token bucket's burst above the limit is no
// overshoot), on several it admits more in its busiest window than the exact
// limiter does in its own, by the overshoot, recounted here from the trace.
func TestSyncedOvershootIsAgainstTheExactLimiter(t *testing.T) {
	p := algorithms.Policy{Limit: 20, Window: time.Second}
	for _, lane := range []LaneKind{LaneTokenBucket, LaneSlidingLog, LaneFixedWindow} {
		for _, n := range []int{1, 4} {
			t.Run(fmt.Sprintf("%v %d replicas", lane, n), func(t *testing.T) {
				cfg := Config{
					Duration: 5 * time.Second, Seed: 3, Lanes: []LaneKind{lane},
					Limits: []Limit{{Key: KeyGlobal, Policy: p, State: StateSynced, SyncInterval: 500 * time.Millisecond}},
					Clients: []ClientGroup{{Name: "users", Count: 20,
						Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 5, Per: time.Second}}}}},
					Topology: &Topology{Replicas: replicas(n), Routing: RoutingRandom},
				}
				var log traceRecords
				l := mustRun(t, cfg, Options{Trace: &log}).Lanes[0]
				lt := l.Topology.Limits[0]
				exact := mostIn(exactAdmits(t, log, lane, p), time.Second)
				fleet := mostIn(admitTimes(log)[lane], time.Second)
				if lt.Exact.Count != exact || lt.Fleet.Count != fleet {
					t.Errorf("Exact %d, Fleet %d; recounted from the trace %d, %d", lt.Exact.Count, lt.Fleet.Count, exact, fleet)
				}
				if want := max(0, fleet-exact); lt.Overshoot != want {
					t.Errorf("overshoot %d, want %d (fleet %d, exact %d)", lt.Overshoot, want, fleet, exact)
				}
				switch {
				case n == 1 && lt.Overshoot != 0:
					t.Errorf("one replica overshot by %d", lt.Overshoot)
				case n > 1 && lt.Overshoot <= 0:
					t.Errorf("%d replicas syncing every 500ms did not overshoot (fleet %d, exact %d)", n, fleet, exact)
				}
				if lane == LaneTokenBucket && n == 1 && lt.Fleet.Count <= p.Limit {
					t.Errorf("fleet peak %d: the bucket's burst should take it past the limit, to show overshoot is not measured against it", lt.Fleet.Count)
				}
			})
		}
	}
}

// arrivalsByKey is, per lane, the most cost of one key the trace has reaching
// the backend in any window w: admitted at once at At, late at At+Delay (when
// the release falls within the run).
func arrivalsByKey(log traceRecords, w, end time.Duration) map[LaneKind]int64 {
	type lk struct {
		lane LaneKind
		key  string
	}
	times := map[lk][]admission{}
	for _, r := range log {
		at := r.At
		switch r.Event {
		case TraceAdmit:
		case TraceDelay:
			if at += r.Delay; at > end {
				continue
			}
		default:
			continue
		}
		k := lk{r.Lane, r.Key}
		times[k] = append(times[k], admission{at, r.Cost})
	}
	out := map[LaneKind]int64{}
	for k, as := range times {
		slices.SortStableFunc(as, func(a, b admission) int { return int(a.at - b.at) })
		var sum int64
		lo := 0
		for _, a := range as {
			sum += a.cost
			for as[lo].at <= a.at-w {
				sum -= as[lo].cost
				lo++
			}
			out[k.lane] = max(out[k.lane], sum)
		}
	}
	return out
}

// placedExactly is a random world placed so that every limit decides as one
// exact limiter: every limit in an atomic store with jittery round trips on
// several replicas, or local or synced on one replica.
func placedExactly(seed uint64) Config {
	r := rand.New(rand.NewPCG(seed, 23))
	cfg := randomWorld(r, DefaultLanes(), true)
	if r.IntN(4) == 0 {
		cfg.Rules = []RuleChange{{At: 2 * time.Second, Limit: 1, Policy: algorithms.Policy{Limit: 3, Window: time.Second}}}
	}
	switch r.IntN(4) {
	case 0:
		return withTopology(cfg, Topology{Replicas: replicas(1)}, func(l *Limit) { l.State = StateLocal })
	case 1:
		every := time.Duration(10+r.IntN(990)) * time.Millisecond
		return withTopology(cfg, Topology{Replicas: replicas(1)}, func(l *Limit) { l.State, l.SyncInterval = StateSynced, every })
	}
	kind := ServiceKind(r.IntN(2))
	mean := time.Duration(r.IntN(20_000)) * time.Microsecond
	return withTopology(cfg, Topology{Replicas: replicas(1 + r.IntN(8)), Routing: Routing(r.IntN(2)),
		Store: Store{Latency: Service{Kind: kind, Mean: mean}}}, func(l *Limit) { l.State = StateShared })
}

// checkPlacedExactly: a limit placed exactly has no overshoot (its exact twin
// peaks where it does), and what the backend saw is the trace's.
func checkPlacedExactly(t *testing.T, seed uint64) {
	cfg := placedExactly(seed)
	var log traceRecords
	res := mustRun(t, cfg, Options{Trace: &log})
	d := cfg.withDefaults()
	arrived := arrivalsByKey(log, cfg.Limits[0].Policy.Window, d.Duration+d.Drain)
	for _, l := range res.Lanes {
		if l.Topology == nil {
			continue
		}
		for i, lt := range l.Topology.Limits {
			if lt.Overshoot != 0 || lt.Exact.Count != lt.Fleet.Count {
				t.Errorf("seed %d, %v, limit %d (%v): overshoot %d, fleet %d, exact %d", seed, l.Lane, i, lt.State, lt.Overshoot, lt.Fleet.Count, lt.Exact.Count)
			}
		}
		if lt := l.Topology.Limits[0]; lt.Arrived.Count != arrived[l.Lane] {
			t.Errorf("seed %d, %v: Arrived %d, the trace's %d", seed, l.Lane, lt.Arrived.Count, arrived[l.Lane])
		}
		if lt := l.Topology.Limits[0]; l.Lane == LaneSlidingLog && l.Peak.Count > l.Peak.Limit {
			t.Errorf("seed %d: an exactly placed sliding log peaked at %d over its limit of %d", seed, l.Peak.Count, l.Peak.Limit)
		} else if l.Peak.Count != lt.Fleet.Count {
			t.Errorf("seed %d, %v: lane peak %d, fleet peak %d of the first limit", seed, l.Lane, l.Peak.Count, lt.Fleet.Count)
		}
	}
}

func TestExactlyPlacedLimitsHaveNoOvershoot(t *testing.T) {
	for seed := range uint64(12) {
		checkPlacedExactly(t, seed)
	}
}

func FuzzExactlyPlacedLimitsHaveNoOvershoot(f *testing.F) {
	for seed := range uint64(4) {
		f.Add(seed + 100)
	}
	f.Fuzz(checkPlacedExactly)
}

// A rule push starts a synced limit afresh, as it does the single limiter:
// admissions pushed under the old policy are not charged to the new state at
// the next sync. On one replica the synced limit then decides as the plain
// lane, attempt for attempt, across the push (seed 118 of the fuzz target
// found it).
func TestSyncedRulePushStartsAfresh(t *testing.T) {
	cfg := placedExactly(118)
	if cfg.Limits[0].State != StateSynced || len(cfg.Rules) == 0 {
		t.Fatalf("world 118 is no longer a synced world with a rule push: %v, %v", cfg.Limits[0].State, cfg.Rules)
	}
	plain := cfg
	plain.Topology = nil
	a, b := mustRun(t, cfg, Options{}), mustRun(t, plain, Options{})
	for i := range a.Lanes {
		x, y := &a.Lanes[i], &b.Lanes[i]
		if x.Topology != nil && (x.Verdicts != y.Verdicts || x.Admitted != y.Admitted) {
			t.Errorf("%v: synced on one replica admitted %d, the plain lane %d (verdicts differ: %v)", x.Lane, x.Admitted, y.Admitted, x.Verdicts != y.Verdicts)
		}
	}
}
