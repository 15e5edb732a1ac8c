package sim

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"
	"testing/quick"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim/engine"
)

// runTraced runs cfg and returns the hash of its trace (every field of every
// record, lane by lane) and the result; with reference, every lane's store is
// today's latencyStore, else a shard store, whatever cfg's store.
func runTraced(t *testing.T, cfg Config, reference bool) (uint64, Result) {
	t.Helper()
	sink := &traceHasher{}
	s, err := New(cfg, Options{Trace: sink})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range s.lanes {
		if f := l.fleet; f != nil {
			if reference {
				f.store = newLatencyStore(&cfg.Topology.Store, engine.NewStream(cfg.Seed, labelStore))
			} else {
				f.store = newShardStore(f, engine.NewStream(cfg.Seed, labelStore), engine.NewStream(cfg.Seed, labelStore, 1))
			}
		}
	}
	res, err := s.RunToEnd(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return sink.sum(), res
}

// Item 8: a store of unbounded capacity and memory, on one shard or several,
// decides exactly as today's latency store, record for record in the trace of
// every lane, on random worlds with latency, timeouts, outages and racy checks.
func TestUnboundedShardStoreIsTheLatencyStore(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 8))
	for i := range 8 {
		base := randomWorld(r, DefaultLanes(), true)
		st := Store{Latency: Service{Kind: ServiceExponential, Mean: 2 * time.Millisecond}, Racy: i%2 == 1,
			Timeout: 3 * time.Millisecond, Outages: []Outage{{From: time.Second, To: 1500 * time.Millisecond}}}
		for _, shards := range []int{1, 4} {
			st.Shards = shards
			cfg := withTopology(base, Topology{Replicas: replicas(3), Store: st}, func(l *Limit) { l.State, l.OnStoreError = StateShared, FailMode(i%2) })
			want, wr := runTraced(t, cfg, true)
			got, gr := runTraced(t, cfg, false)
			if got != want {
				t.Errorf("world %d, %d shards: trace hash %x, the latency store's %x", i, shards, got, want)
			}
			for j := range wr.Lanes {
				w, g := wr.Lanes[j].Topology, gr.Lanes[j].Topology
				if w == nil {
					continue
				}
				if w.StoreCalls != g.StoreCalls || w.StoreErrors != g.StoreErrors || len(g.Shards) != shards {
					t.Errorf("world %d lane %d: calls %d errors %d shards %d, want %d %d %d", i, j, g.StoreCalls, g.StoreErrors, len(g.Shards), w.StoreCalls, w.StoreErrors, shards)
				}
			}
		}
	}
}

// bareStore is a shard store with no fleet behind it but its config: one
// shard, every call client 0's.
func bareStore(cfg Store, seed uint64) *shardStore {
	f := &fleet{topo: &Topology{Store: cfg}}
	return newShardStore(f, engine.NewStream(seed, labelStore), engine.NewStream(seed, labelStore, 1))
}

// Item 8: the queueing delay of a shard with Poisson calls at ρ = 0.7 is the
// M/M/1 mean wait ρ/(μ−λ) for exponential service and the M/D/1 mean wait
// ρ/(2μ(1−ρ)) for constant service, within 2%, on several seeds.
func TestShardQueueMatchesMM1AndMD1(t *testing.T) {
	const lambda, mu, calls = 700.0, 1000.0, 2_000_000
	rho := lambda / mu
	for _, tc := range []struct {
		name    string
		service ServiceKind
		want    float64 // seconds
	}{
		{"M/M/1", ServiceExponential, rho / (mu - lambda)},
		{"M/D/1", ServiceConstant, rho / (2 * mu * (1 - rho))},
	} {
		for seed := uint64(1); seed <= 3; seed++ {
			s := bareStore(Store{Capacity: mu, Service: tc.service}, seed)
			arrivals := engine.NewStream(seed, 99)
			var at time.Duration
			for range calls {
				at += time.Duration(arrivals.Exp1() * float64(time.Second) / lambda)
				if a := s.call(at, 0, 0, 1); a.failure != storeAnswered {
					t.Fatalf("%s: a call failed: %+v", tc.name, a)
				}
			}
			sh := &s.shards[0]
			got := sh.sumWait.Seconds() / float64(sh.served)
			t.Logf("%s seed %d: mean wait %.4fms, theory %.4fms", tc.name, seed, got*1e3, tc.want*1e3)
			if rel := got/tc.want - 1; rel > 0.02 || rel < -0.02 {
				t.Errorf("%s seed %d: mean wait %.4gms, theory %.4gms (%.2f%% off)", tc.name, seed, got*1e3, tc.want*1e3, rel*100)
			}
		}
	}
}

// Property: on arbitrary call times, capacities and queue limits, a shard
// serves its calls as an independent FIFO model does (each starts when it
// arrives or when the one before is done; one finding limit calls waiting is
// refused), so the queue never holds more than its limit and no call is
// served before one sent earlier.
func TestShardQueueIsFIFOWithinItsLimit(t *testing.T) {
	prop := func(gaps []uint16, capacity uint16, limit uint8) bool {
		cfg := Store{Capacity: float64(capacity%2000 + 100), QueueLimit: int(limit % 8)}
		s := bareStore(cfg, 1)
		svc := time.Duration(float64(time.Second)/cfg.Capacity + 0.5)
		var starts []time.Duration
		var at, lastDone time.Duration
		for _, g := range gaps {
			at += time.Duration(g%128) * 10 * time.Microsecond
			waiting := 0
			for _, st := range starts {
				if st > at {
					waiting++
				}
			}
			a := s.call(at, 0, 0, 1)
			if cfg.QueueLimit > 0 && waiting >= cfg.QueueLimit {
				if a.failure != storeRefused || a.roundTrip != 0 {
					t.Logf("at %v with %d waiting (limit %d): %+v, want refused at once", at, waiting, cfg.QueueLimit, a)
					return false
				}
				continue
			}
			start := max(at, lastDone)
			lastDone = start + svc
			starts = append(starts, start)
			if a.failure != storeAnswered || a.roundTrip != lastDone-at || a.reach != lastDone-at {
				t.Logf("at %v: %+v, want answered in %v", at, a, lastDone-at)
				return false
			}
			if cfg.QueueLimit > 0 && s.shards[0].res.PeakQueue > cfg.QueueLimit {
				return false
			}
		}
		return true
	}
	if err := quick.Check(prop, &quick.Config{MaxCount: 300}); err != nil {
		t.Error(err)
	}
}

// Changes slow the store, take it down and bring it back at their instants;
// a call whose round trip plus wait passes the timeout hangs until it fires,
// and still takes its service (the call after it waits behind it).
func TestShardStoreChangesAndTimeouts(t *testing.T) {
	const ms = time.Millisecond
	cfg := Store{Latency: Service{Mean: 2 * ms}, Capacity: 1000, Timeout: 10 * ms, Changes: []StoreChange{
		{At: 100 * ms, Latency: Service{Mean: 8 * ms}},
		{At: 200 * ms, Down: true},
		{At: 300 * ms, Capacity: 100, Latency: Service{Mean: 2 * ms}},
	}}
	s := bareStore(cfg, 1)
	for _, tc := range []struct {
		at   time.Duration
		want storeAnswer
	}{
		// 1ms out, 1ms of service, 1ms back.
		{0, storeAnswer{reach: 2 * ms, write: 3 * ms, roundTrip: 3 * ms, trips: 1, outcome: StoreAnswered}},
		// slow: 4ms out, served at once, 4ms back.
		{100 * ms, storeAnswer{reach: 5 * ms, write: 9 * ms, roundTrip: 9 * ms, trips: 1, outcome: StoreAnswered}},
		// it arrives 4ms later, behind none: 9ms; the next one, sent at once, waits 1ms: 10ms, not past.
		{150 * ms, storeAnswer{reach: 5 * ms, write: 9 * ms, roundTrip: 9 * ms, trips: 1, outcome: StoreAnswered}},
		{150 * ms, storeAnswer{reach: 6 * ms, write: 10 * ms, roundTrip: 10 * ms, trips: 1, outcome: StoreAnswered}},
		// a third waits 2ms: 11ms is past the timeout, known at 10ms.
		{150 * ms, storeAnswer{roundTrip: 10 * ms, trips: 1, failure: storeTimedOut, outcome: StoreTimedOut}},
		// down: refused at once.
		{250 * ms, storeAnswer{trips: 1, failure: storeRefused, outcome: StoreDown}},
		// back, at 100 calls/s: 10ms of service, 12ms in all, past the timeout.
		{300 * ms, storeAnswer{roundTrip: 10 * ms, trips: 1, failure: storeTimedOut, outcome: StoreTimedOut}},
		// the next arrives at 351ms: the timed-out call was done at 311ms, so none waits.
		{350 * ms, storeAnswer{roundTrip: 10 * ms, trips: 1, failure: storeTimedOut, outcome: StoreTimedOut}},
	} {
		if got := s.call(tc.at, 0, 0, 1); got != tc.want {
			t.Errorf("call at %v = %+v, want %+v", tc.at, got, tc.want)
		}
	}
	// The third call at 150ms waited behind the two before it.
	if sh := s.shards[0].res; sh.TimedOut != 3 || sh.Refused != 1 || sh.Calls != 8 || sh.PeakQueue != 2 {
		t.Errorf("shard %+v, want 3 timed out, 1 refused, 8 calls, peak queue 2", sh)
	}
	s = bareStore(cfg, 1)
	if !s.sync(150*ms, 1) || s.sync(250*ms, 1) || !s.sync(350*ms, 1) {
		t.Error("a sync reaches the store only while it is up")
	}
}

// The same scenario and seed give the same run, record for record, with every
// feature of the store on: shards, an exponential service, a queue limit,
// changes, racy checks and a memory evicting; another seed gives another.
func TestRealStoreIsDeterministic(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 9))
	base := randomWorld(r, DefaultLanes(), true)
	st := Store{Latency: Service{Kind: ServiceExponential, Mean: time.Millisecond}, Racy: true, Timeout: 20 * time.Millisecond,
		Shards: 3, Capacity: 300, Service: ServiceExponential, QueueLimit: 5, MaxMemory: 400, Eviction: EvictLRU,
		Changes: []StoreChange{{At: time.Second, Capacity: 100}, {At: 2 * time.Second, Down: true}, {At: 2500 * time.Millisecond, Latency: Service{Mean: 3 * time.Millisecond}}}}
	cfg := withTopology(base, Topology{Replicas: replicas(2), Store: st}, func(l *Limit) { l.State, l.OnStoreError = StateShared, FailClosed })
	a, ra := runTraced(t, cfg, false)
	b, rb := runTraced(t, cfg, false)
	if a != b || !reflect.DeepEqual(ra, rb) {
		t.Errorf("two runs of one seed differ: trace %x and %x", a, b)
	}
	cfg.Seed++
	if c, _ := runTraced(t, cfg, false); c == a {
		t.Error("another seed gave the same trace")
	}
	var calls int64
	for _, l := range ra.Lanes {
		if l.Topology != nil {
			for _, s := range l.Topology.Shards {
				calls += s.Calls
			}
		}
	}
	if calls == 0 {
		t.Error("no store call: the test shows nothing")
	}
}

// With several shards the phases name the shard whose calls started failing:
// a hot key saturating its shard makes a few phases there, none for the idle
// shard answering meanwhile (without per-shard stretches the two would flap).
func TestPhasesNameTheHotShard(t *testing.T) {
	cfg := Config{Duration: 5 * time.Second, Seed: 3, Lanes: []LaneKind{LaneFixedWindow},
		Limits: []Limit{{Key: KeyUser, State: StateShared, Policy: algorithms.Policy{Limit: 100, Window: time.Second}}},
		Clients: []ClientGroup{
			{Name: "hot", Count: 1, Identity: Identity{User: "hot"}, Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 2000, Per: time.Second}}}},
			{Name: "calm", Count: 8, Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 20, Per: time.Second}}}}},
		Topology: &Topology{Replicas: replicas(2), Store: Store{Shards: 2, Capacity: 1000, Timeout: 5 * time.Millisecond}}}
	s, err := New(cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	hot := s.lanes[0].fleet.shardOf(0)
	res, err := s.RunToEnd(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	topo := res.Lanes[0].Topology
	if topo.Shards[1-hot].Calls == 0 || topo.Shards[1-hot].TimedOut != 0 || topo.Shards[hot].TimedOut < 5000 {
		t.Fatalf("shards %+v: want the hot one timing out, the other answering", topo.Shards)
	}
	if len(topo.Phases) == 0 || len(topo.Phases) > 10 || topo.Phases[0].Kind != PhaseStoreTimeouts {
		t.Errorf("phases %+v: want a few, the first the hot shard's timeouts", topo.Phases)
	}
	for _, p := range topo.Phases {
		if p.Shard != hot && p.Kind != PhaseFailOpen {
			t.Errorf("phase %+v: not the hot shard %d", p, hot)
		}
	}
}

// A racy check queues twice at its shard: the read (out 1ms, served 1ms,
// decided at 2ms, back at 3ms), then the write (out at 3ms, arriving at 4ms,
// served 1ms: written at 5ms, back at 6ms).
func TestRacyCheckQueuesTwice(t *testing.T) {
	const ms = time.Millisecond
	s := bareStore(Store{Latency: Service{Mean: 2 * ms}, Capacity: 1000}, 1)
	if got, want := s.call(0, 0, 0, 2), (storeAnswer{reach: 2 * ms, write: 5 * ms, roundTrip: 6 * ms, trips: 2, outcome: StoreAnswered}); got != want {
		t.Errorf("racy call = %+v, want %+v", got, want)
	}
	// Calls are served in the order sent, the write queued when its read was
	// sent: a call sent at 1ms, arriving at 2ms, is served after the write,
	// from 5ms to 6ms (decided 5ms after it was sent, back at 6ms).
	if got, want := s.call(ms, 0, 0, 1), (storeAnswer{reach: 5 * ms, write: 6 * ms, roundTrip: 6 * ms, trips: 1, outcome: StoreAnswered}); got != want {
		t.Errorf("the next call = %+v, want %+v", got, want)
	}
}
