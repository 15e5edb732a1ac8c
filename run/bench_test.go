package run_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/rlsim/rlsim/run/sweep"
)

// BenchmarkSweep runs 20 points × 5 seeds of a built-in on 1 and 2 workers:
// with the cores free, 2 take about half the time of 1.
//
//	go test ./run -run '^$' -bench Sweep -benchtime 3x
//
// It is an outside test of run/sweep kept in run, where docs/distributed.md runs it.
func BenchmarkSweep(b *testing.B) {
	sw := sweep.Sweep{Arg: "noisy-neighbour", Seeds: 5, Varies: []sweep.Vary{{Path: "limits[0].limit", Values: nil}}}
	for v := 5; v <= 100; v += 5 {
		sw.Varies[0].Values = append(sw.Varies[0].Values, fmt.Sprint(v))
	}
	p, err := sw.Plan()
	if err != nil {
		b.Fatal(err)
	}
	for _, jobs := range []int{1, 2} {
		b.Run(fmt.Sprintf("jobs=%d", jobs), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.Run(context.Background(), sweep.RunOptions{Jobs: jobs}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
