package sim

import (
	"context"
	"math/rand/v2"
	"testing"
	"testing/quick"
	"time"

	"github.com/rlsim/rlsim/sim/engine"
)

// runTraced runs cfg and returns the hash of its trace (every field of every
// record, lane by lane) and the result; with reference, every lane's store is
// today's latencyStore instead of the sharded one.
func runTraced(t *testing.T, cfg Config, reference bool) (uint64, Result) {
	t.Helper()
	sink := &traceHasher{}
	s, err := New(cfg, Options{Trace: sink})
	if err != nil {
		t.Fatal(err)
	}
	if reference {
		for _, l := range s.lanes {
			if l.fleet != nil {
				l.fleet.store = newLatencyStore(&cfg.Topology.Store, engine.NewStream(cfg.Seed, labelStore))
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
