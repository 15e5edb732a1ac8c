package sim

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim/engine"
)

// TestLatencyStoreOutageBoundsPromise: an outage is [From, To): down at From,
// up again at exactly To, and up just before From.
func TestLatencyStoreOutageBoundsPromise(t *testing.T) {
	cfg := &Store{Outages: []Outage{{From: 10, To: 20}, {From: 20, To: 25}, {From: 40, To: 50}}}
	steps := []struct {
		at   time.Duration
		down bool
	}{
		{0, false}, {9, false}, {10, true}, {19, true}, {20, true}, {24, true}, {25, false},
		{39, false}, {40, true}, {49, true}, {50, false}, {1000, false},
	}
	s := newLatencyStore(cfg, engine.NewStream(1))
	for _, st := range steps {
		if got := s.down(st.at); got != st.down {
			t.Errorf("down(%d) = %v, want %v", st.at, got, st.down)
		}
	}
	// sync fails exactly in an outage.
	s = newLatencyStore(cfg, engine.NewStream(1))
	for _, st := range steps {
		if got := s.sync(st.at, 0); got == st.down {
			t.Errorf("sync(%d) = %v, want %v", st.at, got, !st.down)
		}
	}
	// A call in an outage is refused at once, one trip, no round trip.
	s = newLatencyStore(cfg, engine.NewStream(1))
	if a := s.call(10, 0, 0, 2); a.failure != storeRefused || a.trips != 1 || a.roundTrip != 0 {
		t.Errorf("call(10) in an outage = %+v, want refused, 1 trip, round trip 0", a)
	}
	if a := s.call(20+5, 0, 0, 1); a.failure != 0 {
		t.Errorf("call(25) at an outage's end = %+v, want answered", a)
	}
}

// TestLatencyStoreTimeoutPromise: a call slower than the timeout fails when it
// fires; one exactly at the timeout is answered; zero waits for ever.
func TestLatencyStoreTimeoutPromise(t *testing.T) {
	const rtt = 4 * time.Millisecond
	tests := []struct {
		name    string
		timeout time.Duration
		trips   int64
		fail    bool
		total   time.Duration
	}{
		{"one trip under", rtt + 1, 1, false, rtt},
		{"one trip exactly at", rtt, 1, false, rtt},
		{"one trip over", rtt - 1, 1, true, rtt - 1},
		{"two trips exactly at", 2 * rtt, 2, false, 2 * rtt},
		{"two trips over", 2*rtt - 1, 2, true, 2*rtt - 1},
		{"no timeout", 0, 2, false, 2 * rtt},
	}
	for _, tt := range tests {
		cfg := &Store{Latency: Service{Kind: ServiceConstant, Mean: rtt}, Timeout: tt.timeout}
		s := newLatencyStore(cfg, engine.NewStream(3))
		a := s.call(0, 0, 0, tt.trips)
		if got := a.failure == storeTimedOut; got != tt.fail {
			t.Errorf("%s: timed out %v, want %v (%+v)", tt.name, got, tt.fail, a)
		}
		if a.roundTrip != tt.total || a.trips != tt.trips {
			t.Errorf("%s: round trip %v over %d trips, want %v over %d", tt.name, a.roundTrip, a.trips, tt.total, tt.trips)
		}
		if !tt.fail {
			// decided half a read's round trip after the attempt; the write half the
			// write's trip after the read is back.
			if a.reach != rtt/2 {
				t.Errorf("%s: reach %v, want %v", tt.name, a.reach, rtt/2)
			}
			if tt.trips > 1 && a.write != rtt+rtt/2 {
				t.Errorf("%s: write %v, want %v", tt.name, a.write, rtt+rtt/2)
			}
		}
	}
}

// TestLatencyStoreZeroLatencyPromise: the zero Latency is an instantaneous
// store that draws nothing.
func TestLatencyStoreZeroLatencyPromise(t *testing.T) {
	for _, kind := range []ServiceKind{ServiceConstant, ServiceExponential} {
		s := newLatencyStore(&Store{Latency: Service{Kind: kind}}, engine.NewStream(5))
		a := s.call(7, 0, 0, 2)
		if a.failure != 0 || a.roundTrip != 0 || a.reach != 0 || a.write != 0 || a.trips != 2 {
			t.Errorf("kind %d: zero-latency call = %+v, want instantaneous with 2 trips", kind, a)
		}
		if s.rtt != engine.NewStream(5) {
			t.Errorf("kind %d: zero-latency store drew from its stream", kind)
		}
	}
}

// TestFleetSharePromise: the most replicas for a full local or synced limit;
// 1 for a shared or divided local limit, or without a topology.
func TestFleetSharePromise(t *testing.T) {
	topo := &Topology{Replicas: []ReplicaStep{{At: 0, Count: 2}, {At: time.Second, Count: 5}, {At: 2 * time.Second, Count: 3}}}
	tests := []struct {
		name string
		topo *Topology
		l    Limit
		want int
	}{
		{"no topology", nil, Limit{State: StateLocal}, 1},
		{"local full", topo, Limit{State: StateLocal, LocalLimit: LocalFull}, 5},
		{"local divided", topo, Limit{State: StateLocal, LocalLimit: LocalDivided}, 1},
		{"shared", topo, Limit{State: StateShared}, 1},
		{"shared divided fallback", topo, Limit{State: StateShared, LocalLimit: LocalDivided}, 1},
		{"synced", topo, Limit{State: StateSynced, SyncInterval: time.Second}, 5},
		{"synced with a divided fallback", topo, Limit{State: StateSynced, LocalLimit: LocalDivided, SyncInterval: time.Second}, 5},
		{"one replica", &Topology{Replicas: []ReplicaStep{{Count: 1}}}, Limit{State: StateLocal}, 1},
	}
	for _, tt := range tests {
		c := Config{Topology: tt.topo}
		if got := c.fleetShare(tt.l); got != tt.want {
			t.Errorf("%s: fleetShare = %d, want %d", tt.name, got, tt.want)
		}
	}
}
