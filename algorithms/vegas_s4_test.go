package algorithms

import (
	"testing"
	"time"
)

// TestVegasQueueBands_s4 walks the queue estimate across the documented bands
// at limit 20 (d = 1) with a no-load latency of 100ms: queue ≤ d grows by 6d,
// queue < 3d by d, queue > 6d shrinks by d, and 3d..6d leaves the limit alone.
func TestVegasQueueBands_s4(t *testing.T) {
	const noLoad = 100 * time.Millisecond
	for _, tc := range []struct {
		name  string
		rtt   time.Duration
		queue int // ⌈20 × (1 − 100/rtt)⌉
		want  float64
	}{
		{"no queue", noLoad, 0, 26},
		{"queue at d", 105 * time.Millisecond, 1, 26},
		{"queue just over d", 110 * time.Millisecond, 2, 21},
		{"queue at 3d", 115 * time.Millisecond, 3, 20},
		{"queue at 6d", 140 * time.Millisecond, 6, 20},
		{"queue just over 6d", 150 * time.Millisecond, 7, 19},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := NewVegas(VegasConfig{Initial: 20, Max: 1000, Smoothing: 1, ProbeMultiplier: 1000})
			if err != nil {
				t.Fatal(err)
			}
			if !v.Acquire(0) {
				t.Fatal("first Acquire refused")
			}
			v.Release(0, noLoad) // the first sample is the no-load latency
			for i := range 10 {
				if !v.Acquire(0) {
					t.Fatalf("Acquire %d refused at limit 20", i)
				}
			}
			// 10 in flight at completion: at least half the limit, so it moves.
			v.Release(0, tc.rtt)
			if got := v.Limit(); got != tc.want {
				t.Errorf("queue %d (rtt %v): Limit() = %v, want %v", tc.queue, tc.rtt, got, tc.want)
			}
		})
	}
}

// TestVegasHalfInFlight_s4: the limit does not move while fewer than half the
// limit are in flight, and does at exactly half.
func TestVegasHalfInFlight_s4(t *testing.T) {
	for _, tc := range []struct {
		inFlight int // at completion, counting the completing request
		want     float64
	}{{9, 20}, {10, 26}} {
		v, err := NewVegas(VegasConfig{Initial: 20, ProbeMultiplier: 1000})
		if err != nil {
			t.Fatal(err)
		}
		v.Acquire(0)
		v.Release(0, 100*time.Millisecond)
		for range tc.inFlight {
			v.Acquire(0)
		}
		v.Release(0, 105*time.Millisecond)
		if got := v.Limit(); got != tc.want {
			t.Errorf("%d in flight of 20: Limit() = %v, want %v", tc.inFlight, got, tc.want)
		}
	}
}
