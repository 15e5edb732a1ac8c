package sweep

import (
	"context"
	"testing"

	"github.com/rlsim/rlsim/run"
)

// benchSweep is a sweep of many short runs of every default lane, the shape
// whose serial parts (setup, merge, a lock) show on two cores.
func benchSweep() Sweep {
	return Sweep{Arg: "noisy-neighbour", Seeds: 20,
		Varies:    []Vary{{Path: "limits[0].limit", Values: []string{"10", "20", "30", "40", "50", "60"}}},
		Overrides: run.Overrides{MaxEvents: 50_000_000}}
}

// BenchmarkSweepPlan is the serial part before any run: checking and loading
// every point.
func BenchmarkSweepPlan(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := benchSweep().Plan(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSweepRun runs a planned sweep; compare -cpu 1 and -cpu 2.
func BenchmarkSweepRun(b *testing.B) {
	p, err := benchSweep().Plan()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Run(context.Background(), RunOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
