package sim

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// cacheWorld is one client sending every 50ms for 10s to a fixed window of 5
// per second in a shared, instantaneous store, on one replica.
func cacheWorld(cache bool) Config {
	return Config{
		Duration: 10 * time.Second, Seed: 1, Lanes: []LaneKind{LaneFixedWindow},
		Limits: []Limit{{Name: "api", Key: KeyIP, State: StateShared,
			Policy: algorithms.Policy{Limit: 5, Window: time.Second}}},
		Clients: []ClientGroup{{Name: "c", Count: 1, Identity: Identity{IP: "10.0.0.{i}"},
			Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 20, Per: time.Second}}}}},
		Topology: &Topology{Replicas: replicas(1), Store: Store{RefusalCache: cache}},
	}
}

// By hand: in each 1s window the attempts at 0, 50, ..., 200ms are admitted
// and the one at 250ms refused with a Retry-After to the window's end, which
// the cache keeps: the 14 attempts from 300 to 950ms are refused without a
// call. So 6 calls and 14 cached refusals a window, 60 and 140 in 10s, where
// without the cache all 200 attempts call the store; 50 admitted either way,
// and the store would have admitted none of the cached ones.
func TestRefusalCacheSavesWhatTheWindowImplies(t *testing.T) {
	with := mustRun(t, cacheWorld(true), Options{}).Lanes[0]
	without := mustRun(t, cacheWorld(false), Options{}).Lanes[0]
	rem := with.Topology.Remedies
	if with.Topology.StoreCalls != 60 || rem.CacheHits != 140 || rem.CacheSaved != 140 || rem.CacheDiffers != 0 {
		t.Errorf("calls %d, cached refusals %d, saved %d, differing %d; want 60, 140, 140, 0",
			with.Topology.StoreCalls, rem.CacheHits, rem.CacheSaved, rem.CacheDiffers)
	}
	if without.Topology.StoreCalls != 200 || without.Topology.Remedies.CacheHits != 0 {
		t.Errorf("without the cache: calls %d, cached %d; want 200 and 0", without.Topology.StoreCalls, without.Topology.Remedies.CacheHits)
	}
	if with.Admitted != 50 || without.Admitted != 50 || with.Verdicts != without.Verdicts {
		t.Errorf("admitted %d with, %d without, want 50; verdicts the same: %v", with.Admitted, without.Admitted, with.Verdicts == without.Verdicts)
	}
}

// What it costs: a rule push at 475ms raising the limit to 100 starts the
// store afresh, but the cache still refuses the key until 1s: the 10 attempts
// from 500 to 950ms are refused though the store would admit them.
func TestRefusalCacheCostAfterARulePush(t *testing.T) {
	cfg := cacheWorld(true)
	cfg.Rules = []RuleChange{{At: 475 * time.Millisecond, Limit: 0, Policy: algorithms.Policy{Limit: 100, Window: time.Second}}}
	rem := mustRun(t, cfg, Options{}).Lanes[0].Topology.Remedies
	if rem.CacheHits != 14 || rem.CacheDiffers != 10 {
		t.Errorf("cached refusals %d, the store admitting %d of them; want 14 and 10", rem.CacheHits, rem.CacheDiffers)
	}
}

// On random traffic with retries, over several replicas, a fixed window
// charged one unit per attempt in an all-or-nothing chain decides exactly as
// without the cache (a window's count only grows until its end, which is
// the Retry-After kept): the same verdicts, no refusal the store would have
// admitted, and every call the cache saved is one the store no longer gets.
func TestRefusalCacheChangesNoFixedWindowDecision(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 4))
	var hits int64
	for i := range 20 {
		cfg := randomWorld(r, []LaneKind{LaneFixedWindow}, true)
		cfg.Chain = ChainAllOrNothing
		for j := range cfg.Limits {
			cfg.Limits[j].State = StateShared
		}
		cfg.Topology = &Topology{Replicas: replicas(1 + r.IntN(4)), Routing: RoutingRandom}
		without := mustRun(t, cfg, Options{}).Lanes[0]
		cfg.Topology = &Topology{Replicas: cfg.Topology.Replicas, Routing: RoutingRandom, Store: Store{RefusalCache: true}}
		with := mustRun(t, cfg, Options{}).Lanes[0]
		rem := with.Topology.Remedies
		hits += rem.CacheHits
		if with.Verdicts != without.Verdicts || with.Admitted != without.Admitted || rem.CacheDiffers != 0 {
			t.Errorf("world %d: admitted %d with the cache, %d without (verdicts the same: %v); %d refusals differ",
				i, with.Admitted, without.Admitted, with.Verdicts == without.Verdicts, rem.CacheDiffers)
		}
		if with.Topology.StoreCalls+rem.CacheSaved != without.Topology.StoreCalls {
			t.Errorf("world %d: %d calls + %d saved, want %d", i, with.Topology.StoreCalls, rem.CacheSaved, without.Topology.StoreCalls)
		}
	}
	if hits == 0 {
		t.Error("the cache refused nothing in any world")
	}
}

// A refusal is cached from when its answer is back at the replica. By hand,
// with a 60ms round trip (decided at the store 30ms after the attempt): the
// attempt at 250ms is refused at the store at 280ms, known at 310ms, so the
// attempt at 300ms still calls the store (refused again); the 13 from 350 to
// 950ms are cached. 7 calls and 13 cached refusals a window: 70 and 130.
func TestRefusalCacheHoldsFromTheAnswer(t *testing.T) {
	cfg := cacheWorld(true)
	cfg.Topology.Store.Latency = Service{Mean: 60 * time.Millisecond}
	tr := mustRun(t, cfg, Options{}).Lanes[0].Topology
	if tr.StoreCalls != 70 || tr.Remedies.CacheHits != 130 || tr.Remedies.CacheDiffers != 0 {
		t.Errorf("calls %d, cached refusals %d, differing %d; want 70, 130, 0", tr.StoreCalls, tr.Remedies.CacheHits, tr.Remedies.CacheDiffers)
	}
}
