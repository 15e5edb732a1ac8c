package sim

import (
	"math"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// backendRun runs one token-bucket lane far above its traffic in front of b,
// with one client's burst of n at at.
func backendRun(t *testing.T, b *Backend, n int, at time.Duration) LaneResult {
	t.Helper()
	cfg := Config{
		Duration: 20 * time.Second, Seed: 1, Lanes: []LaneKind{LaneTokenBucket},
		Limits:  []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 1000, Window: time.Second}}},
		Clients: []ClientGroup{{Count: 1, Arrivals: []Arrival{{Kind: ArrivalBurst, At: at, Count: n}}}},
		Backend: b,
	}
	return mustRun(t, cfg, Options{}).Lanes[0]
}

// TestBackendQueueBoundPromise: a request starts while a server is free, waits
// while the queue has room, and is shed once both are full.
func TestBackendQueueBoundPromise(t *testing.T) {
	tests := []struct {
		name                      string
		capacity, queue, burst    int
		shed                      int64
		maxInFlight, maxQueueWant int
	}{
		{"fills servers and queue exactly", 1, 2, 3, 0, 3, 2},
		{"one past the queue", 1, 2, 4, 1, 3, 2},
		{"no queue", 2, 0, 3, 1, 2, 0},
		{"servers exactly", 3, 0, 3, 0, 3, 0},
	}
	for _, tt := range tests {
		r := backendRun(t, &Backend{Capacity: tt.capacity, QueueSize: tt.queue, Service: Service{Mean: time.Second}}, tt.burst, 0)
		if r.Shed != tt.shed || r.Succeeded != int64(tt.burst)-tt.shed {
			t.Errorf("%s: shed %d succeeded %d, want %d and %d", tt.name, r.Shed, r.Succeeded, tt.shed, int64(tt.burst)-tt.shed)
		}
		if r.Backend.MaxInFlight != tt.maxInFlight || r.Backend.MaxQueue != tt.maxQueueWant {
			t.Errorf("%s: max in flight %d, max queue %d; want %d and %d", tt.name, r.Backend.MaxInFlight, r.Backend.MaxQueue, tt.maxInFlight, tt.maxQueueWant)
		}
	}
}

// TestBackendFIFOPromise: one server, constant 1s service: a burst of four is
// served in turn, latencies 1s, 2s, 3s, 4s.
func TestBackendFIFOPromise(t *testing.T) {
	r := backendRun(t, &Backend{Capacity: 1, QueueSize: 3, Service: Service{Mean: time.Second}}, 4, 0)
	l := r.Backend.Latency
	if r.Backend.Served != 4 || l.Max != 4*time.Second || l.Mean != 2500*time.Millisecond {
		t.Errorf("served %d, max %v, mean %v; want 4, 4s, 2.5s", r.Backend.Served, l.Max, l.Mean)
	}
}

// TestBackendChangeServicePromise: a change with a service mean sets the service
// time of requests started from then on; a zero mean keeps the old one.
func TestBackendChangeServicePromise(t *testing.T) {
	for _, tt := range []struct {
		name string
		mean time.Duration
		max  time.Duration // the second request waits 1s, then is served
	}{
		{"new service time", 3 * time.Second, 4 * time.Second},
		{"zero keeps the old", 0, 2 * time.Second},
	} {
		b := &Backend{Capacity: 1, QueueSize: 1, Service: Service{Mean: time.Second},
			Changes: []BackendChange{{At: 500 * time.Millisecond, Capacity: 1, Service: Service{Mean: tt.mean}}}}
		r := backendRun(t, b, 2, 0)
		if r.Backend.Latency.Max != tt.max || r.Succeeded != 2 {
			t.Errorf("%s: max latency %v, succeeded %d; want %v and 2", tt.name, r.Backend.Latency.Max, r.Succeeded, tt.max)
		}
	}
}

// TestBackendOutageWindowPromise: at zero capacity every arrival is shed (a
// queue with room does not hold it); capacity back serves again.
func TestBackendOutageWindowPromise(t *testing.T) {
	changes := []BackendChange{{At: time.Second, Capacity: 0}, {At: 2 * time.Second, Capacity: 1}}
	for _, tt := range []struct {
		at        time.Duration
		shed, won int64
	}{
		{999 * time.Millisecond, 1, 1}, // one in service finishes, the queued one is shed at 1s
		{time.Second + 1, 2, 0},        // just after the outage's start
		{1500 * time.Millisecond, 2, 0},
		{2*time.Second - 1, 2, 0},
		{2*time.Second + 1, 0, 2}, // just after capacity returns
		// Exactly at a change's instant the change comes first, for the whole
		// burst: it applies from its instant on (a burst of 2 was once split:
		// its first request met the old capacity, the second the new).
		{time.Second, 2, 0},
		{2 * time.Second, 0, 2},
	} {
		b := &Backend{Capacity: 1, QueueSize: 5, Service: Service{Mean: 10 * time.Millisecond}, Changes: changes}
		if tt.at == 999*time.Millisecond {
			b.Service.Mean = 5 * time.Second
		}
		r := backendRun(t, b, 2, tt.at)
		if r.Shed != tt.shed || r.Succeeded != tt.won {
			t.Errorf("burst of 2 at %v: shed %d succeeded %d, want %d and %d", tt.at, r.Shed, r.Succeeded, tt.shed, tt.won)
		}
	}
}

// TestBackendUtilisationPromise: busy over available server time, up to the
// run's last event (here the last completion): three 1s requests keep one
// server busy 3s of 3s, and two servers 3 server-seconds of 2×2s.
func TestBackendUtilisationPromise(t *testing.T) {
	for _, tt := range []struct {
		capacity int
		want     float64
	}{{1, 1}, {2, 0.75}, {3, 1}, {4, 0.75}} {
		r := backendRun(t, &Backend{Capacity: tt.capacity, QueueSize: 2, Service: Service{Mean: time.Second}}, 3, 0)
		if math.Abs(r.Backend.Utilisation-tt.want) > 1e-12 {
			t.Errorf("capacity %d: utilisation %v, want %v", tt.capacity, r.Backend.Utilisation, tt.want)
		}
	}
}

// A backend change at the instant of a burst applies to every request of it,
// however large: from At on, before any request then.
func TestBackendChangeBeforeABurstAtItsInstant(t *testing.T) {
	for _, n := range []int{1, 2, 3, 50} {
		b := &Backend{Capacity: 1, QueueSize: 100, Service: Service{Mean: 10 * time.Millisecond},
			Changes: []BackendChange{{At: time.Second, Capacity: 0}}}
		if r := backendRun(t, b, n, time.Second); r.Shed != int64(n) || r.Succeeded != 0 {
			t.Errorf("burst of %d at the outage's instant: shed %d, succeeded %d; want all %d shed", n, r.Shed, r.Succeeded, n)
		}
	}
}
