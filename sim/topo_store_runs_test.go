package sim

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim/window"
)

// A runHistogram fed any sequence, with runs of equal values and without,
// summarises it as a window.Histogram fed one value at a time, read at any
// point (the result of a run so far reads it mid-run).
func TestRunHistogramIsTheHistogram(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 30))
	for trial := range 200 {
		runs, plain := newRunHistogram(), window.NewHistogram()
		v := time.Duration(rng.IntN(1000))
		for i := range 1 + rng.IntN(300) {
			if rng.IntN(4) == 0 {
				v = time.Duration(rng.IntN(1 << uint(1+rng.IntN(40))))
			}
			runs.Add(v)
			plain.Add(v)
			if rng.IntN(50) == 0 || i%97 == 0 {
				if got, want := runs.Percentiles(), plain.Percentiles(); got != want {
					t.Fatalf("trial %d, after %d values: %+v, want %+v", trial, i+1, got, want)
				}
			}
		}
		if got, want := runs.Percentiles(), plain.Percentiles(); got != want {
			t.Fatalf("trial %d: %+v, want %+v", trial, got, want)
		}
	}
}

// The fleet harness's store with a constant latency adds its round trips in
// runs (the reach of store_runs_off), and its latency summary counts every call.
func TestStoreRoundTripsAddInRuns(t *testing.T) {
	cfg := sharedStoreWorld(0, shapeKernel)
	if cfg.Topology.Store.Latency.Kind == ServiceExponential {
		t.Fatal("store 0 of the harness draws its latency: it no longer reaches the runs")
	}
	s, err := New(cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.RunToEnd(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	fleets := 0
	for i, l := range s.lanes {
		if l == nil || l.fleet == nil {
			continue
		}
		fleets++
		if l.fleet.latency.runs == 0 {
			t.Errorf("lane %d: no run of equal round trips added at once", i)
		}
		if tr := res.Lanes[i].Topology; tr.StoreLatency.Count != l.fleet.latency.hist.Count() || tr.StoreLatency.Count == 0 {
			t.Errorf("lane %d: store latency counts %d, the histogram %d", i, tr.StoreLatency.Count, l.fleet.latency.hist.Count())
		}
	}
	if fleets == 0 {
		t.Fatal("no lane has a fleet")
	}
}

// A result read mid-run (the playground's report) counts the pending run:
// its store latency is what adding each round trip alone gives at that point.
func TestStoreLatencyMidRunIsEachAlone(t *testing.T) {
	cfg := sharedStoreWorld(0, shapeKernel)
	midRun := func() []Percentiles {
		s, err := New(cfg, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var got []Percentiles
		for _, at := range []time.Duration{cfg.Duration / 3, cfg.Duration / 2} {
			s.RunUntil(at)
			for _, lr := range s.Result().Lanes {
				if lr.Topology != nil {
					got = append(got, lr.Topology.StoreLatency)
				}
			}
		}
		return got
	}
	runs := midRun()
	storeRunsOff = true
	alone := midRun()
	storeRunsOff = false
	if !slices.ContainsFunc(runs, func(p Percentiles) bool { return p.Count > 0 }) {
		t.Fatalf("no store latency mid-run: %+v", runs)
	}
	for i := range alone {
		if runs[i] != alone[i] {
			t.Errorf("lane %d mid-run: store latency %+v in runs, %+v added alone", i, runs[i], alone[i])
		}
	}
}
