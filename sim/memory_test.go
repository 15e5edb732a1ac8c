package sim

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// retainedHeap is the heap still held, after a collection, by a simulation of
// cfg run to its end with its result taken.
func retainedHeap(t *testing.T, cfg Config) int64 {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s, err := New(cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.RunToEnd(context.Background()); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(s)
	return int64(after.HeapAlloc) - int64(before.HeapAlloc)
}

func TestMemoryIsFlatInTheNumberOfRequests(t *testing.T) {
	world := func(d time.Duration) Config {
		return Config{Duration: d, Seed: 5, // every lane
			Limits: []Limit{{Key: KeyUser, Policy: algorithms.Policy{Limit: 4, Window: time.Second}}},
			Clients: []ClientGroup{{Count: 1000,
				Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 5, Per: time.Second}}},
				Retry:    Retry{Kind: RetryExponential, Base: 100 * time.Millisecond, Cap: 2 * time.Second, Jitter: JitterFull, MaxAttempts: 3}}},
			Backend: &Backend{Capacity: 50, QueueSize: 100, Service: Service{Kind: ServiceExponential, Mean: 5 * time.Millisecond}},
		}
	}
	short, long := world(10*time.Second), world(20*time.Second)
	once, twice := retainedHeap(t, short), retainedHeap(t, long)
	// The 8 lanes make some 400,000 more attempts: five bytes held per attempt would break the bound.
	if bound := once + once/4 + 256<<10; twice > bound {
		t.Errorf("twice the requests hold %d B of heap, once %d B: more than %d B, so memory grows with the requests", twice, once, bound)
	}
	t.Logf("heap held: %d B for 10 s of traffic, %d B for 20 s", once, twice)
}
