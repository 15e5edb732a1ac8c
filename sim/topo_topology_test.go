package sim

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// withTopology is cfg with topology t and every limit placed by place.
func withTopology(cfg Config, t Topology, place func(*Limit)) Config {
	cfg.Topology = &t
	cfg.Limits = append([]Limit(nil), cfg.Limits...)
	for i := range cfg.Limits {
		place(&cfg.Limits[i])
	}
	return cfg
}

func replicas(n int) []ReplicaStep { return []ReplicaStep{{Count: n}} }

// The reference twin: one replica with a shared, atomic, zero-latency store
// decides exactly as today's single limiter, attempt for attempt, in every
// lane, on random traffic with retries, pacing clients and rule pushes; so
// does one replica with local state.
func TestOneReplicaSharedAtomicStoreIsTheSingleLimiter(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 12))
	places := map[string]func(*Limit){
		"shared": func(l *Limit) { l.State = StateShared },
		"local":  func(l *Limit) { l.State = StateLocal },
	}
	for i := range 20 {
		base := randomWorld(r, DefaultLanes(), true)
		base.Clients[0].Pace = i%3 == 0
		if i%4 == 0 {
			base.Rules = []RuleChange{{At: 2 * time.Second, Limit: 1, Policy: algorithms.Policy{Limit: 3, Window: time.Second}}}
		}
		want := mustRun(t, base, Options{})
		for name, place := range places {
			got := mustRun(t, withTopology(base, Topology{Replicas: replicas(1)}, place), Options{})
			for j := range want.Lanes {
				w, g := &want.Lanes[j], &got.Lanes[j]
				if w.Verdicts != g.Verdicts || w.Admitted != g.Admitted || w.Refused != g.Refused || w.Succeeded != g.Succeeded {
					t.Errorf("world %d, %s, %v: admitted %d refused %d, the single limiter %d %d (verdicts differ: %v)",
						i, name, g.Lane, g.Admitted, g.Refused, w.Admitted, w.Refused, w.Verdicts != g.Verdicts)
				}
				if (g.Topology == nil) != (g.Lane.Info().Class == ConcurrencyLimiter) {
					t.Errorf("world %d, %s, %v: Topology = %v", i, name, g.Lane, g.Topology)
				}
			}
		}
	}
}

// hotKey is one client sending n requests at one instant to one global limit
// of 10 per second, through lanes.
func hotKey(n int, lanes []LaneKind) Config {
	return Config{
		Duration: 2 * time.Second, Lanes: lanes,
		Limits:  []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 10, Window: time.Second}}},
		Clients: []ClientGroup{{Count: 1, Arrivals: []Arrival{{Kind: ArrivalBurst, Count: n}}}},
	}
}

// N local replicas behind round robin on one hot key admit exactly N × limit in
// a window: each replica admits its own limit. Divided, the fleet admits the
// limit (a multiple of N here).
func TestLocalReplicasAdmitNTimesTheLimit(t *testing.T) {
	lanes := []LaneKind{LaneFixedWindow, LaneSlidingLog, LaneSlidingWindowCounter, LaneTokenBucket, LaneGCRA}
	for _, n := range []int{1, 2, 4, 8} {
		for _, divided := range []bool{false, true} {
			t.Run(fmt.Sprintf("%d replicas divided=%v", n, divided), func(t *testing.T) {
				cfg := withTopology(hotKey(1000, lanes), Topology{Replicas: replicas(n)}, func(l *Limit) {
					l.Policy.Limit = 40
					if divided {
						l.LocalLimit = LocalDivided
					}
				})
				want, perReplica := int64(n*40), int64(40)
				if divided {
					want, perReplica = 40, int64(40/n)
				}
				for _, lr := range mustRun(t, cfg, Options{}).Lanes {
					lt := lr.Topology.Limits[0]
					if lr.Admitted != want || lt.Fleet.Count != want || lt.Replica.Count != perReplica {
						t.Errorf("%v: admitted %d, fleet peak %d, replica peak %d; want %d, %d, %d",
							lr.Lane, lr.Admitted, lt.Fleet.Count, lt.Replica.Count, want, want, perReplica)
					}
					if lt.Overshoot != want-40 {
						t.Errorf("%v: overshoot %d, want %d", lr.Lane, lt.Overshoot, want-40)
					}
				}
			})
		}
	}
}

// racyWorld is users behind round robin on four replicas hitting one global
// limit in a shared store with a constant round trip.
func racyWorld(seed uint64, rate int64, latency time.Duration, racy bool) Config {
	cfg := Config{
		Duration: 5 * time.Second, Seed: seed, Lanes: []LaneKind{LaneFixedWindow, LaneSlidingLog, LaneTokenBucket, LaneGCRA},
		Limits: []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 50, Window: time.Second}, State: StateShared}},
		Clients: []ClientGroup{{Name: "users", Count: 10,
			Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: rate, Per: time.Second}}}}},
	}
	cfg.Topology = &Topology{Replicas: replicas(4), Store: Store{Latency: Service{Mean: latency}, Racy: racy}}
	return cfg
}

// The racy read-then-write check never admits less than the atomic one, and
// its excess grows with latency × rate.
func TestRacyStoreOverAdmitsMoreAsLatencyGrows(t *testing.T) {
	type at struct {
		lane    LaneKind
		latency time.Duration
	}
	for seed := range uint64(4) {
		slower := map[at]int64{} // excess at the lower rate
		for _, rate := range []int64{20, 80} {
			prev := map[LaneKind]int64{}
			for _, latency := range []time.Duration{0, time.Millisecond, 10 * time.Millisecond, 50 * time.Millisecond} {
				atomic := mustRun(t, racyWorld(seed, rate, latency, false), Options{})
				racy := mustRun(t, racyWorld(seed, rate, latency, true), Options{})
				for j, a := range atomic.Lanes {
					x := racy.Lanes[j]
					excess := x.Admitted - a.Admitted
					if excess < 0 {
						t.Errorf("seed %d, %d/s, %v, %v: racy admitted %d, atomic %d", seed, rate, latency, a.Lane, x.Admitted, a.Admitted)
					}
					if excess < prev[a.Lane] {
						t.Errorf("seed %d, %d/s, %v, %v: excess %d fell from %d at a shorter latency", seed, rate, latency, a.Lane, excess, prev[a.Lane])
					}
					prev[a.Lane] = excess
					if low, ok := slower[at{a.Lane, latency}]; ok && excess < low {
						t.Errorf("seed %d, %v, %v: excess %d at %d/s, %d at a lower rate", seed, latency, a.Lane, excess, rate, low)
					}
					slower[at{a.Lane, latency}] = excess
					if latency == 0 && excess != 0 {
						t.Errorf("seed %d, %v: an instantaneous racy store admitted %d more", seed, a.Lane, excess)
					}
				}
			}
			for k, excess := range prev {
				if excess == 0 {
					t.Errorf("seed %d, %d/s, %v: no excess at 50ms", seed, rate, k)
				}
			}
		}
	}
}

// syncedWorld is users spread over replicas by round robin, counted by one
// global limit synced every interval.
func syncedWorld(r *rand.Rand, lane LaneKind) (cfg Config, offered float64) {
	rate, count := 1+r.Int64N(20), 1+r.IntN(20)
	cfg = Config{
		Duration: 5 * time.Second, Seed: r.Uint64(), Lanes: []LaneKind{lane},
		Limits: []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 5 + r.Int64N(40), Window: time.Duration(200+r.IntN(1800)) * time.Millisecond},
			State: StateSynced, SyncInterval: time.Duration(10+r.IntN(990)) * time.Millisecond}},
		Clients: []ClientGroup{{Name: "users", Count: count,
			Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: rate, Per: time.Second}}}}},
	}
	cfg.Topology = &Topology{Replicas: replicas(1 + r.IntN(8)), Routing: Routing(r.IntN(2))}
	return cfg, float64(rate) * float64(count)
}

// Synced counting's overshoot, beyond what the single limiter allows in a
// window, stays within rate × interval × replicas (rate: the attempts offered
// per second); with one replica there is none.
func TestSyncedOvershootStaysWithinRateIntervalReplicas(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 1))
	bound := map[LaneKind]func(p algorithms.Policy) int64{
		LaneSlidingLog:  func(p algorithms.Policy) int64 { return p.Limit },
		LaneFixedWindow: func(p algorithms.Policy) int64 { return 2 * p.Limit },
		LaneTokenBucket: func(p algorithms.Policy) int64 { return p.EffectiveBurst() + p.Limit },
		LaneGCRA:        func(p algorithms.Policy) int64 { return p.EffectiveBurst() + p.Limit },
	}
	for i := range 40 {
		for lane, single := range bound {
			cfg, offered := syncedWorld(r, lane)
			lim := cfg.Limits[0]
			n := cfg.Topology.Replicas[0].Count
			lt := mustRun(t, cfg, Options{}).Lanes[0].Topology.Limits[0]
			over := lt.Fleet.Count - single(lim.Policy)
			most := offered * lim.SyncInterval.Seconds() * float64(n)
			if float64(over) > most {
				t.Errorf("world %d, %v, %d replicas, sync every %v, %v per %v at %.0f/s: fleet peak %d is %d over, more than %.1f",
					i, lane, n, lim.SyncInterval, lim.Policy.Limit, lim.Policy.Window, offered, lt.Fleet.Count, over, most)
			}
			if n == 1 && over > 0 {
				t.Errorf("world %d, %v: one replica went %d over", i, lane, over)
			}
			if wantCalls := int64(cfg.Duration*2/lim.SyncInterval) * int64(n); lt.StoreCalls != wantCalls {
				t.Errorf("world %d, %v: %d store calls, want %d (a sync per interval per replica)", i, lane, lt.StoreCalls, wantCalls)
			}
		}
	}
}

// outageWorld is a login limit far below its traffic, in a store that is down
// from 2s to 4s, deciding as mode says when it is.
func outageWorld(mode FailMode) Config {
	cfg := Config{
		Duration: 6 * time.Second, Lanes: chainLanes,
		Limits: []Limit{{Name: "login", Key: KeyGlobal, Policy: algorithms.Policy{Limit: 5, Window: time.Second},
			State: StateShared, OnStoreError: mode, Fallback: algorithms.Policy{Limit: 2, Window: time.Second}}},
		Clients: []ClientGroup{
			{Name: "attacker", Count: 1, Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 50, Per: time.Second}}}},
			{Name: "users", Count: 5, Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 1, Per: time.Second}}}},
		},
	}
	cfg.Topology = &Topology{Replicas: replicas(3), Store: Store{Outages: []Outage{{From: 2 * time.Second, To: 4 * time.Second}}}}
	return cfg
}

// During an outage a limit that fails open admits everything it would refuse
// and one that fails closed refuses everything; one that fails to a local
// limit admits at most its fallback per replica. Outside the outage they decide alike.
func TestFailModesDuringAnOutage(t *testing.T) {
	from, to := 2*time.Second, 4*time.Second
	for _, mode := range []FailMode{FailOpen, FailClosed, FailLocal} {
		t.Run(mode.String(), func(t *testing.T) {
			traces := traceByLane{}
			res := mustRun(t, outageWorld(mode), Options{Trace: traces})
			for i, lr := range res.Lanes {
				var during, admitted, outside int64
				for _, rec := range traces[i].records {
					if rec.Event != TraceAdmit && rec.Event != TraceRefuse && rec.Event != TraceDelay {
						continue
					}
					if rec.At < from || rec.At >= to {
						outside++
						continue
					}
					during++
					if rec.Event != TraceRefuse {
						admitted++
					}
				}
				lt := lr.Topology.Limits[0]
				var decided, let int64
				for _, c := range lt.Classes {
					decided, let = decided+c.Decided, let+c.Admitted
				}
				if decided != during || let != admitted {
					t.Errorf("%v: the outage's classes count %d decided, %d admitted; the trace %d, %d", lr.Lane, decided, let, during, admitted)
				}
				u := lt.Unavailable
				switch mode {
				case FailOpen:
					if admitted != during || u.Open != during || u.Closed+u.Local != 0 {
						t.Errorf("%v: admitted %d of %d during the outage (unavailable %+v)", lr.Lane, admitted, during, u)
					}
				case FailClosed:
					if admitted != 0 || u.Closed != during || u.Open+u.Local != 0 {
						t.Errorf("%v: admitted %d of %d during the outage (unavailable %+v)", lr.Lane, admitted, during, u)
					}
				case FailLocal:
					if most := int64(3 * 2 * 3); admitted == 0 || admitted > most || u.Local != during {
						t.Errorf("%v: admitted %d of %d during the outage, want 1 to %d (unavailable %+v)", lr.Lane, admitted, during, most, u)
					}
				}
				if during == 0 || outside == 0 || lr.Topology.StoreErrors != during {
					t.Errorf("%v: %d decisions during the outage, %d outside, %d store errors", lr.Lane, during, outside, lr.Topology.StoreErrors)
				}
			}
		})
	}
}

// EstimateEvents counts a topology's events (store calls, syncs, autoscaler
// steps) within 2× of the real count, so a budget refuses a run before it starts.
func TestEstimateCountsTopologyEvents(t *testing.T) {
	lat := Store{Latency: Service{Mean: 2 * time.Millisecond}}
	tests := []struct {
		name  string
		topo  Topology
		place func(*Limit)
	}{
		{"atomic store", Topology{Replicas: replicas(4), Store: lat}, func(l *Limit) { l.State = StateShared }},
		{"racy store", Topology{Replicas: replicas(4), Store: Store{Latency: lat.Latency, Racy: true}}, func(l *Limit) { l.State = StateShared }},
		{"synced every 10ms", Topology{Replicas: replicas(4)}, func(l *Limit) { l.State, l.SyncInterval = StateSynced, 10*time.Millisecond }},
		{"local replicas, an autoscaler", Topology{Replicas: []ReplicaStep{{Count: 1}, {At: time.Second, Count: 8}}}, func(l *Limit) {}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := Config{Duration: 4 * time.Second, Lanes: []LaneKind{LaneGCRA, LaneSlidingLog, LaneAIMD},
				Limits:  []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 100, Window: time.Second}}},
				Clients: []ClientGroup{{Count: 20, Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 4, Per: time.Second}}}}}}
			cfg := withTopology(base, tc.topo, tc.place)
			s, err := New(cfg, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.RunToEnd(context.Background()); err != nil {
				t.Fatal(err)
			}
			est, real := cfg.EstimateEvents(), s.Events()
			if est > 2*real || real > 2*est {
				t.Errorf("EstimateEvents() = %d, the run processed %d", est, real)
			}
			if plain := base.EstimateEvents(); tc.name != "local replicas, an autoscaler" && est <= plain {
				t.Errorf("EstimateEvents() = %d with the topology, %d without", est, plain)
			}
		})
	}
}

// A store slower than the timeout fails every call: each decision is a store
// error known after the timeout, which it adds to the request's time.
func TestStoreTimeoutIsAStoreError(t *testing.T) {
	for _, tc := range []struct {
		latency, timeout time.Duration
		racy             bool
		errors           bool
		admitted         int64
	}{
		{10 * time.Millisecond, 5 * time.Millisecond, false, true, 0},
		{10 * time.Millisecond, 15 * time.Millisecond, true, true, 0}, // two round trips: 20ms
		// 30 reads at one instant all see an empty state: every write is lost but the last.
		{10 * time.Millisecond, 25 * time.Millisecond, true, false, 30},
		{10 * time.Millisecond, 10 * time.Millisecond, false, false, 10}, // exactly the timeout is in time
	} {
		cfg := withTopology(hotKey(30, []LaneKind{LaneGCRA}), Topology{Replicas: replicas(2),
			Store: Store{Latency: Service{Mean: tc.latency}, Timeout: tc.timeout, Racy: tc.racy}},
			func(l *Limit) { l.State, l.OnStoreError = StateShared, FailClosed })
		lr := mustRun(t, cfg, Options{}).Lanes[0]
		top := lr.Topology
		if tc.errors {
			if top.StoreErrors != 30 || lr.Admitted != 0 || top.StoreLatency.Max != tc.timeout {
				t.Errorf("%+v: %d store errors, %d admitted, latency max %v; want 30, 0, %v", tc, top.StoreErrors, lr.Admitted, top.StoreLatency.Max, tc.timeout)
			}
			continue
		}
		want := tc.latency
		if tc.racy {
			want *= 2
		}
		if top.StoreErrors != 0 || lr.Admitted != tc.admitted || top.StoreLatency.P50 != want {
			t.Errorf("%+v: %d store errors, %d admitted, latency p50 %v; want 0, %d, %v", tc, top.StoreErrors, lr.Admitted, top.StoreLatency.P50, tc.admitted, want)
		}
	}
}

// An autoscaler adding local replicas during an attack loosens the limit: the
// fleet admits the limit per replica per window, on the fleet's size then.
func TestAutoscalerLoosensLocalLimits(t *testing.T) {
	cfg := Config{Duration: 4 * time.Second, Lanes: []LaneKind{LaneFixedWindow},
		Limits: []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 10, Window: time.Second}}},
		Clients: []ClientGroup{{Name: "attacker", Count: 1,
			Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 1000, Per: time.Second}}}}},
		Bucket: time.Second,
	}
	cfg.Topology = &Topology{Replicas: []ReplicaStep{{Count: 2}, {At: 2 * time.Second, Count: 8}}}
	lr := mustRun(t, cfg, Options{}).Lanes[0]
	for _, p := range lr.Series[:4] {
		want := int64(20)
		if p.Start >= 2*time.Second {
			want = 80
		}
		if p.Admitted != want {
			t.Errorf("second from %v: admitted %d, want %d", p.Start, p.Admitted, want)
		}
	}
	if res := mustRun(t, cfg, Options{}); res.Topology == nil || len(res.Topology.Replicas) != 2 {
		t.Errorf("Result.Topology = %+v, want the configured one", res.Topology)
	}
	if lr.Topology.Replicas != 8 || lr.Topology.Limits[0].Fleet.Count != 80 {
		t.Errorf("replicas %d, fleet peak %d; want 8, 80", lr.Topology.Replicas, lr.Topology.Limits[0].Fleet.Count)
	}
}

// Sticky routing sends every attempt of one key to one replica, so a local
// limit per key holds as on one server; round robin spreads it over all.
func TestHashRoutingIsSticky(t *testing.T) {
	base := Config{Duration: 2 * time.Second, Lanes: []LaneKind{LaneSlidingLog},
		Limits: []Limit{{Key: KeyIP, Policy: algorithms.Policy{Limit: 5, Window: time.Second}}},
		// 9 clients sending together: round robin sends each to every replica in turn.
		Clients: []ClientGroup{{Name: "users", Count: 9,
			Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 50, Per: time.Second}}}}}}
	for _, tc := range []struct {
		routing Routing
		want    int64
	}{{RoutingHash, 5}, {RoutingRoundRobin, 20}, {RoutingRandom, 20}} {
		cfg := withTopology(base, Topology{Replicas: replicas(4), Routing: tc.routing, HashKey: KeyIP}, func(*Limit) {})
		lt := mustRun(t, cfg, Options{}).Lanes[0].Topology.Limits[0]
		if lt.Fleet.Count != tc.want {
			t.Errorf("%v: one IP's most admitted in a window is %d, want %d", tc.routing, lt.Fleet.Count, tc.want)
		}
	}
}

// Validate reports every problem of a topology at once, by field.
func TestValidateTopology(t *testing.T) {
	cfg := hotKey(1, nil)
	cfg.Limits[0].State = StateSynced
	cfg.Limits[0].OnStoreError = FailLocal
	cfg.Topology = &Topology{Replicas: []ReplicaStep{{At: time.Second, Count: 0}, {At: time.Second, Count: MaxReplicas + 1}},
		Routing: 9, Store: Store{Timeout: -1, Outages: []Outage{{From: 2, To: 1}}}}
	err := cfg.Validate()
	var fes FieldErrors
	if !errors.As(err, &fes) {
		t.Fatalf("Validate() = %v, want FieldErrors", err)
	}
	want := []string{"topology.replicas[0].at", "topology.replicas[0].count", "topology.replicas[1].at", "topology.replicas[1].count",
		"topology.routing", "topology.store.timeout", "topology.store.outages[0]", "limits[0].sync_interval", "limits[0].fallback"}
	var got []string
	for _, fe := range fes {
		got = append(got, fe.Field)
	}
	if !slices.Equal(got, want) {
		t.Errorf("fields in error:\n%v\nwant\n%v\n(%v)", got, want, err)
	}
}

// A limit on one endpoint counts only that endpoint's requests: the others pass
// it as if it were not in the chain.
func TestEndpointLimitCountsOnlyItsEndpoint(t *testing.T) {
	cfg := Config{Duration: time.Second, Lanes: chainLanes,
		Limits: []Limit{{Name: "login", Key: KeyGlobal, Endpoint: "login", Policy: algorithms.Policy{Limit: 3, Window: time.Second}}},
		Clients: []ClientGroup{
			{Name: "stuffer", Identity: Identity{Endpoint: "login"}, Count: 1, Arrivals: []Arrival{{Kind: ArrivalBurst, Count: 50}}},
			{Name: "readers", Identity: Identity{Endpoint: "search"}, Count: 1, Arrivals: []Arrival{{Kind: ArrivalBurst, Count: 50}}},
		}}
	for _, lr := range mustRun(t, cfg, Options{}).Lanes {
		stuffer, readers := lr.Classes[0], lr.Classes[1]
		if stuffer.Admitted > 4 || readers.Admitted != 50 || lr.Peak.Count > 4 {
			t.Errorf("%v: login admitted %d, search %d of 50, peak %d", lr.Lane, stuffer.Admitted, readers.Admitted, lr.Peak.Count)
		}
	}
}

// The per-replica states of a limit are bounded before any is built.
func TestReplicaStatesAreCapped(t *testing.T) {
	cfg := Config{Duration: time.Second,
		Limits:  []Limit{{Key: KeyUser, Policy: algorithms.Policy{Limit: 1, Window: time.Second}}},
		Clients: []ClientGroup{{Count: 10_000, Arrivals: []Arrival{{Kind: ArrivalBurst, Count: 1}}}}}
	for _, tc := range []struct {
		replicas int
		ok       bool
	}{{1, true}, {MaxReplicaStates / 10_000, true}, {MaxReplicaStates/10_000 + 1, false}} {
		cfg.Topology = &Topology{Replicas: replicas(tc.replicas)}
		var fes FieldErrors
		err := cfg.Validate()
		if tc.ok != (err == nil) || (err != nil && (!errors.As(err, &fes) || fes[0].Field != "limits[0].key")) {
			t.Errorf("%d replicas × 10,000 keys: Validate() = %v", tc.replicas, err)
		}
	}
}

// A rule push while racy checks are between their read and their write starts
// every key afresh: the writes of copies read before it are dropped.
func TestRulePushDuringRacyChecks(t *testing.T) {
	cfg := racyWorld(1, 80, 20*time.Millisecond, true)
	cfg.Rules = []RuleChange{{At: 2*time.Second + 5*time.Millisecond, Limit: 0, Policy: algorithms.Policy{Limit: 5, Window: time.Second}}}
	for _, lr := range mustRun(t, cfg, Options{}).Lanes {
		if lr.Admitted == 0 || lr.Topology.StoreCalls == 0 {
			t.Errorf("%v: admitted %d, %d store calls", lr.Lane, lr.Admitted, lr.Topology.StoreCalls)
		}
	}
}

// The trace names the replica of every attempt: recounting each replica's
// admissions from it gives the busiest replica's peak.
func TestTraceNamesTheReplica(t *testing.T) {
	cfg := withTopology(hotKey(1000, []LaneKind{LaneSlidingLog}), Topology{Replicas: replicas(3), Routing: RoutingRandom}, func(*Limit) {})
	traces := traceByLane{}
	lr := mustRun(t, cfg, Options{Trace: traces}).Lanes[0]
	per := map[int]int64{}
	for _, rec := range traces[0].records {
		if rec.Replica < 0 || rec.Replica >= 3 {
			t.Fatalf("record %+v names replica %d", rec, rec.Replica)
		}
		if rec.Event == TraceAdmit {
			per[rec.Replica] += rec.Cost
		}
	}
	lt := lr.Topology.Limits[0]
	if per[lt.BusiestReplica] != lt.Replica.Count || len(per) != 3 {
		t.Errorf("the trace counts %v admissions per replica; the busiest replica %d admitted %d", per, lt.BusiestReplica, lt.Replica.Count)
	}
	plain := traceByLane{}
	mustRun(t, hotKey(10, []LaneKind{LaneSlidingLog}), Options{Trace: plain})
	if r := plain[0].records[0].Replica; r != -1 {
		t.Errorf("without a topology the trace names replica %d, want -1", r)
	}
}
