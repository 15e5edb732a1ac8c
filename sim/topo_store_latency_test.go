package sim

import (
	"context"
	"github.com/rlsim/rlsim/sim/engine"
	"testing"
	"time"
)

// A latency store answers in its round trips, fails at once in an outage and
// times out a call slower than its timeout, at fixed instants.
func TestLatencyStoreCalls(t *testing.T) {
	const ms = time.Millisecond
	cfg := Store{Latency: Service{Mean: 4 * ms}, Timeout: 7 * ms, Outages: []Outage{{From: 10 * ms, To: 20 * ms}}}
	s := newLatencyStore(&cfg, engine.NewStream(1, labelStore))
	for _, tc := range []struct {
		at    time.Duration
		trips int64
		want  storeAnswer
	}{
		{0, 1, storeAnswer{reach: 2 * ms, write: 4 * ms, roundTrip: 4 * ms, trips: 1, outcome: StoreAnswered}},
		{5 * ms, 2, storeAnswer{roundTrip: 7 * ms, trips: 2, failure: storeTimedOut, outcome: StoreTimedOut}}, // 8ms > 7ms
		{10 * ms, 2, storeAnswer{trips: 1, failure: storeRefused, outcome: StoreDown}},
		{19 * ms, 1, storeAnswer{trips: 1, failure: storeRefused, outcome: StoreDown}},
		{20 * ms, 1, storeAnswer{reach: 2 * ms, write: 4 * ms, roundTrip: 4 * ms, trips: 1, outcome: StoreAnswered}},
	} {
		if got := s.call(tc.at, 0, 0, tc.trips); got != tc.want {
			t.Errorf("call(%v, trips %d) = %+v, want %+v", tc.at, tc.trips, got, tc.want)
		}
	}

	cfg.Timeout = 0
	s = newLatencyStore(&cfg, engine.NewStream(1, labelStore))
	if got, want := s.call(0, 0, 0, 2), (storeAnswer{reach: 2 * ms, write: 6 * ms, roundTrip: 8 * ms, trips: 2, outcome: StoreAnswered}); got != want {
		t.Errorf("call(0, trips 2) with no timeout = %+v, want %+v", got, want)
	}
	for _, tc := range []struct {
		at   time.Duration
		want bool
	}{{9 * ms, true}, {10 * ms, false}, {19 * ms, false}, {20 * ms, true}} {
		if got := s.sync(tc.at, 3); got != tc.want {
			t.Errorf("sync(%v) = %v, want %v", tc.at, got, tc.want)
		}
	}
}

// A refused call draws no round trip: the calls after an outage draw the same
// round trips as without it (a lane's stream is drawn in call order).
func TestLatencyStoreRefusedDrawsNothing(t *testing.T) {
	cfg := Store{Latency: Service{Kind: ServiceExponential, Mean: time.Millisecond}, Outages: []Outage{{From: time.Second, To: 2 * time.Second}}}
	a := newLatencyStore(&cfg, engine.NewStream(7, labelStore))
	b := newLatencyStore(&cfg, engine.NewStream(7, labelStore))
	want := []storeAnswer{b.call(0, 0, 0, 2), b.call(3*time.Second, 0, 0, 1)}
	got := []storeAnswer{a.call(0, 0, 0, 2)}
	if r := a.call(time.Second, 0, 0, 2); r.failure != storeRefused {
		t.Fatalf("call in the outage = %+v, want refused", r)
	}
	got = append(got, a.call(3*time.Second, 0, 0, 1))
	for i := range want {
		if got[i] != want[i] || got[i].roundTrip == 0 {
			t.Errorf("call %d = %+v, want %+v (nonzero)", i, got[i], want[i])
		}
	}
}

// fakeStore answers every call alike and records what the fleet asked.
type fakeStore struct {
	answer    storeAnswer
	trips     []int64
	replicas  []int32
	accounted int
}

func (s *fakeStore) call(_ time.Duration, replica, _ int32, trips int64) storeAnswer {
	s.trips, s.replicas = append(s.trips, trips), append(s.replicas, replica)
	a := s.answer
	a.trips = trips
	return a
}
func (s *fakeStore) sync(time.Duration, int) bool { return true }
func (s *fakeStore) account(*TopologyResult)      { s.accounted++ }

// The fleet acts on the store only through the store interface: a store
// that refuses every call after a round trip (a full queue's error reply) has
// each limit fail by its mode when the reply is back, and the fleet counts it.
func TestFleetThroughStoreInterface(t *testing.T) {
	cfg := withTopology(hotKey(6, []LaneKind{LaneTokenBucket}), Topology{Replicas: replicas(3), Store: Store{Racy: true}},
		func(l *Limit) { l.State, l.OnStoreError = StateShared, FailClosed })
	s, err := New(cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	fs := &fakeStore{answer: storeAnswer{roundTrip: 3 * time.Millisecond, failure: storeRefused}}
	s.lanes[0].fleet.store = fs
	res, err := s.RunToEnd(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	l, topo := res.Lanes[0], res.Lanes[0].Topology
	if l.Admitted != 0 || l.Refused != 6 {
		t.Errorf("admitted %d refused %d, want 0 and 6 (fail closed)", l.Admitted, l.Refused)
	}
	if topo.StoreErrors != 6 || topo.StoreCalls != 12 || topo.StoreLatency.Max != 3*time.Millisecond {
		t.Errorf("store errors %d calls %d latency max %v, want 6, 12, 3ms", topo.StoreErrors, topo.StoreCalls, topo.StoreLatency.Max)
	}
	if u := topo.Limits[0].Unavailable; u.Closed != 6 {
		t.Errorf("unavailable %+v, want 6 closed", u)
	}
	want := []int32{0, 1, 2, 0, 1, 2}
	for i, r := range fs.replicas {
		if fs.trips[i] != 2 || i >= len(want) || r != want[i] {
			t.Errorf("call %d from replica %d with %d trips, want replica %d with 2 (racy, round robin)", i, r, fs.trips[i], want[i%len(want)])
		}
	}
	if len(fs.replicas) != 6 || fs.accounted != 1 {
		t.Errorf("%d calls, accounted %d times, want 6 and 1", len(fs.replicas), fs.accounted)
	}

	// A refusal known only after the run ends leaves every attempt waiting.
	s, err = New(cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.lanes[0].fleet.store = &fakeStore{answer: storeAnswer{roundTrip: s.End() + time.Second, failure: storeRefused}}
	if res, err = s.RunToEnd(context.Background()); err != nil {
		t.Fatal(err)
	}
	if l := res.Lanes[0]; l.Refused != 0 || l.Topology.Waiting != 6 {
		t.Errorf("a reply after the run: refused %d waiting %d, want 0 and 6", l.Refused, l.Topology.Waiting)
	}
}
