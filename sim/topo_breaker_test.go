package sim

import (
	"reflect"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// breakerWorld is one client sending every 100ms (attempt k at k×100ms) for
// 60s to one replica whose shared limit (far above the traffic, failing open)
// is in a store down over [10s, 40s), behind breaker b (or none).
func breakerWorld(b Breaker, store Store) Config {
	store.Outages = []Outage{{From: 10 * time.Second, To: 40 * time.Second}}
	store.Breaker = b
	return Config{
		Duration: 60 * time.Second, Seed: 1, Lanes: []LaneKind{LaneFixedWindow},
		Limits: []Limit{{Name: "api", Key: KeyIP, State: StateShared, OnStoreError: FailOpen,
			Policy: algorithms.Policy{Limit: 1000, Window: time.Second}}},
		Clients: []ClientGroup{{Name: "c", Count: 1, Identity: Identity{IP: "10.0.0.{i}"},
			Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 10, Per: time.Second}}}}},
		Topology: &Topology{Replicas: replicas(1), Store: store},
	}
}

// During an outage of known length the breaker's store calls are what its
// settings imply. By hand, with failures 3 in 1s, cooldown 5s, 2 probes:
// the calls at 10.0, 10.1 and 10.2s are refused, the third opens it (0.2s
// apart, under 1s) until 15.2s; the attempt at 15.2s is a probe, refused, so
// it opens again until 20.2s, and so at 20.2, 25.2, 30.2 and 35.2s: 3 + 5 = 8
// calls in the outage, 6 opens, 6 × 5s = 30s open. At 40.2s the store is up:
// the probes at 40.2 and 40.3s succeed and close it. The attempts from 10.3s
// to 40.1s that were not probes, 299 − 5 = 294, make no call: of 600 attempts
// 306 call the store. Without the breaker every attempt calls it (600), and
// the 300 in the outage fail.
func TestBreakerCallsInAnOutageAreWhatItsSettingsImply(t *testing.T) {
	b := Breaker{Failures: 3, Window: time.Second, Cooldown: 5 * time.Second, Probes: 2}
	r := mustRun(t, breakerWorld(b, Store{}), Options{}).Lanes[0]
	tr := r.Topology
	if r.Attempts != 600 {
		t.Fatalf("attempts %d, want 600", r.Attempts)
	}
	if tr.StoreCalls != 306 || tr.StoreErrors != 8 {
		t.Errorf("store calls %d errors %d, want 306 and 8", tr.StoreCalls, tr.StoreErrors)
	}
	rem := tr.Remedies
	if rem.BreakerOpens != 6 || rem.BreakerSaved != 294 || rem.BreakerOpenTime != 30*time.Second {
		t.Errorf("opens %d saved %d open %v, want 6, 294, 30s", rem.BreakerOpens, rem.BreakerSaved, rem.BreakerOpenTime)
	}
	if len(rem.Breakers) != 1 || rem.Breakers[0] != (BreakerCounts{Replica: 0, Shard: 0, Opens: 6, Saved: 294, OpenTime: 30 * time.Second}) {
		t.Errorf("breakers %+v, want one, replica 0 shard 0, with the sums", rem.Breakers)
	}
	if u := tr.Limits[0].Unavailable; u.Open != 8+294 {
		t.Errorf("decided by the fail mode %d, want the 8 failed calls and the 294 saved", u.Open)
	}
	var opens, halves, closes []time.Duration
	for _, p := range tr.Phases {
		switch p.Kind {
		case PhaseBreakerOpen:
			opens = append(opens, p.At)
		case PhaseBreakerHalfOpen:
			halves = append(halves, p.At)
		case PhaseBreakerClosed:
			closes = append(closes, p.At)
		}
	}
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	wantOpens := []time.Duration{ms(10200), ms(15200), ms(20200), ms(25200), ms(30200), ms(35200)}
	wantHalves := []time.Duration{ms(15200), ms(20200), ms(25200), ms(30200), ms(35200), ms(40200)}
	if !equalDurations(opens, wantOpens) || !equalDurations(halves, wantHalves) || !equalDurations(closes, []time.Duration{ms(40300)}) {
		t.Errorf("opened at %v, half-open at %v, closed at %v; want %v, %v, [40.3s]", opens, halves, closes, wantOpens, wantHalves)
	}

	none := mustRun(t, breakerWorld(Breaker{}, Store{}), Options{}).Lanes[0].Topology
	if none.StoreCalls != 600 || none.StoreErrors != 300 || none.Remedies.BreakerSaved != 0 {
		t.Errorf("without a breaker: calls %d errors %d saved %d, want 600, 300, 0", none.StoreCalls, none.StoreErrors, none.Remedies.BreakerSaved)
	}
}

// Timeouts open it too, known when they fire; a timed-out call that comes
// back after the breaker opened changes nothing (its generation is gone). By
// hand, with a 30ms round trip, a 20ms timeout and failures 2 in 1s: the
// store is slow for the whole run, so the calls at 0 and 0.1s time out, known
// at 0.02 and 0.12s; it opens at 0.12s. The attempt at 0.2s is saved. Each
// probe (1) times out 20ms after it: so a cooldown of 1s gives a probe at
// 1.2s (known at 1.22s, open till 2.22s), then 2.3s, 3.4s, ...: the k-th probe
// at 1.2 + 1.1(k−1) s, the 9th at 10.0s past the last attempt (9.9s). So 2 + 8
// = 10 calls, all failing, 1 + 8 = 9 opens, and 100 − 10 = 90 attempts saved.
func TestBreakerOnTimeouts(t *testing.T) {
	b := Breaker{Failures: 2, Window: time.Second, Cooldown: time.Second, Probes: 1}
	cfg := breakerWorld(b, Store{Latency: Service{Mean: 30 * time.Millisecond}, Timeout: 20 * time.Millisecond})
	cfg.Topology.Store.Outages = nil
	cfg.Duration = 10 * time.Second
	tr := mustRun(t, cfg, Options{}).Lanes[0].Topology
	if tr.StoreCalls != 10 || tr.StoreErrors != 10 {
		t.Errorf("store calls %d errors %d, want 10 and 10", tr.StoreCalls, tr.StoreErrors)
	}
	if tr.Remedies.BreakerOpens != 9 || tr.Remedies.BreakerSaved != 90 {
		t.Errorf("opens %d saved %d, want 9 and 90", tr.Remedies.BreakerOpens, tr.Remedies.BreakerSaved)
	}
}

func equalDurations(a, b []time.Duration) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Bad breaker settings are errors naming the field.
func TestBreakerValidation(t *testing.T) {
	good := Breaker{Failures: 3, Window: time.Second, Cooldown: time.Second, Probes: 1}
	tests := []struct {
		b     Breaker
		field string
	}{
		{Breaker{Window: time.Second}, "topology.store.breaker.failures"},
		{Breaker{Failures: -1, Window: time.Second, Cooldown: time.Second, Probes: 1}, "topology.store.breaker.failures"},
		{Breaker{Failures: MaxBreakerCalls + 1, Window: time.Second, Cooldown: time.Second, Probes: 1}, "topology.store.breaker.failures"},
		{Breaker{Failures: 3, Window: time.Second, Cooldown: time.Second}, "topology.store.breaker.probes"},
		{Breaker{Failures: 3, Cooldown: time.Second, Probes: 1}, "topology.store.breaker.window"},
		{Breaker{Failures: 3, Window: -time.Second, Cooldown: time.Second, Probes: 1}, "topology.store.breaker.window"},
		{Breaker{Failures: 3, Window: time.Second, Probes: 1}, "topology.store.breaker.cooldown"},
		{Breaker{Failures: 3, Window: time.Second, Cooldown: 1 << 62, Probes: 1}, "topology.store.breaker.cooldown"},
	}
	if err := breakerWorld(good, Store{}).Validate(); err != nil {
		t.Fatalf("good breaker: %v", err)
	}
	for _, tt := range tests {
		err := breakerWorld(tt.b, Store{}).Validate()
		fe, ok := err.(FieldErrors)
		if !ok || len(fe) != 1 || fe[0].Field != tt.field {
			t.Errorf("%+v: error %v, want one on %s", tt.b, err, tt.field)
		}
	}
}

// The same scenario and seed give the same breaker figures and phases, with
// random routing over 4 replicas and exponential round trips.
func TestBreakerDeterministic(t *testing.T) {
	b := Breaker{Failures: 2, Window: time.Second, Cooldown: 2 * time.Second, Probes: 2}
	cfg := breakerWorld(b, Store{Latency: Service{Kind: ServiceExponential, Mean: 10 * time.Millisecond}, Timeout: 15 * time.Millisecond})
	cfg.Topology.Replicas, cfg.Topology.Routing = replicas(4), RoutingRandom
	cfg.Clients[0].Count = 5
	a := mustRun(t, cfg, Options{}).Lanes[0].Topology
	c := mustRun(t, cfg, Options{}).Lanes[0].Topology
	if a.Remedies.BreakerOpens == 0 || len(a.Remedies.Breakers) < 2 {
		t.Fatalf("no breaker opened on several replicas: %+v", a.Remedies)
	}
	if !reflect.DeepEqual(a, c) {
		t.Errorf("two runs differ:\n%+v\n%+v", a.Remedies, c.Remedies)
	}
}
