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

// TestALaneHoldsAtMost100BytesPerKey holds the per-key state of a lane of the
// four lanes the speed issue names (fixed window, token bucket, GCRA, leaky
// bucket) to 100 B a key when each client has its own key and arrives once:
// the limiter's 16 B, the key's 64-byte window record and the client's 16 B,
// and room for what a lane holds whatever its size. Three lanes more hold 3×
// that more.
func TestALaneHoldsAtMost100BytesPerKey(t *testing.T) {
	const users = 200_000
	world := func(lanes ...LaneKind) Config {
		return Config{Duration: 2 * time.Second, Lanes: lanes,
			Limits:  []Limit{{Key: KeyUser, Policy: algorithms.Policy{Limit: 10, Window: time.Second}}},
			Clients: []ClientGroup{{Name: "users", Count: users, Arrivals: []Arrival{{Kind: ArrivalBurst, Count: 1, Spread: time.Second}}}}}
	}
	one := retainedHeap(t, world(LaneTokenBucket))
	four := retainedHeap(t, world(LaneTokenBucket, LaneGCRA, LaneFixedWindow, LaneLeakyBucket))
	perKey := float64(four-one) / (3 * users)
	if perKey > 100 {
		t.Errorf("three lanes more hold %d B more: %.1f B per key per lane, want at most 100", four-one, perKey)
	}
	t.Logf("%.1f B per key per lane (one lane and the population: %d B)", perKey, one)
}
