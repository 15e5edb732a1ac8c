package sim

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// TestLaneDelaysReadTheRegistry checks each rate-limiter row's fastDelays
// against its table: declared exactly when the algorithm gives its verdict
// and delay alone (a Queue), and then the lane shares no requests, even
// where it admits by its verdict alone (Traefik).
func TestLaneDelaysReadTheRegistry(t *testing.T) {
	delaying := 0
	for _, info := range Lanes() {
		if info.Class != RateLimiter || info.fast&fastNone != 0 {
			continue
		}
		d, err := newDecider(plainRule(info.Kind), policyFor(info.Kind, algorithms.Policy{Limit: 3, Window: time.Second}), 1)
		if err != nil {
			t.Fatal(err)
		}
		q, ok := d.(interface{ queues() bool })
		got, want := ok && q.queues(), info.fast&fastDelays != 0
		if got != want {
			t.Errorf("lane %s: its table gives a verdict and delay alone (a Queue): %v, but it declares fastDelays %v", info.Name, got, want)
		}
		if want && info.fast.shares() {
			t.Errorf("lane %s declares fastDelays and may share requests", info.Name)
		}
		delaying += b2i(want)
	}
	if delaying < 3 {
		t.Errorf("%d lanes declare fastDelays, want leaky_bucket, nginx and traefik at least", delaying)
	}
}

// tieWorld is a leaky bucket (a release every 100ms, five waiting at most)
// and two constant clients, one every 50ms and one every 100ms: releases and
// arrivals fall on the same instants, scheduled in either order.
func tieWorld(lane LaneKind) Config {
	return Config{
		Duration: 3 * time.Second, Lanes: []LaneKind{lane},
		Limits: []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 10, Window: time.Second, Burst: 5}}},
		Clients: []ClientGroup{
			{Name: "fast", Count: 1, Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 20, Per: time.Second}}}},
			{Name: "steady", Count: 1, Arrivals: []Arrival{{Kind: ArrivalConstant, Start: 30 * time.Millisecond, Rate: Rate{Count: 10, Per: time.Second}}}},
			{Name: "late", Count: 1, Arrivals: []Arrival{{Kind: ArrivalConstant, Start: 100 * time.Millisecond, Rate: Rate{Count: 10, Per: time.Second}}}},
		},
	}
}

// crowdTieWorld is a leaky bucket (a release every 100ms, three waiting at
// most), a constant client every 200ms and a crowd: a superposed group
// (Poisson) whose runs of arrivals (runSuperposed) meet the releases. The
// constant client, admitted at once, sets the release slots on its own
// arrivals: a crowd's request delayed to its next arrival is released
// there, scheduled after that arrival (waiting in the heap) was.
func crowdTieWorld(lane LaneKind) Config {
	return Config{
		Duration: 10 * time.Second, Lanes: []LaneKind{lane},
		Limits: []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 10, Window: time.Second, Burst: 3}}},
		Clients: []ClientGroup{
			{Name: "steady", Count: 1, Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 5, Per: time.Second}}}},
			{Name: "crowd", Count: 5, Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 2, Per: time.Second}}}},
		},
	}
}

// tieOrders runs cfg on the general loop with a trace and counts the
// instants where a release (a delayed request's success) and an arrival's
// decision fall together, by which came first.
func tieOrders(t *testing.T, cfg Config) (releaseFirst, arrivalFirst int) {
	t.Helper()
	var recs []TraceRecord
	sink := traceFunc(func(r *TraceRecord) error { recs = append(recs, *r); return nil })
	s, err := New(cfg, Options{Trace: sink})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.RunToEnd(t.Context()); err != nil {
		t.Fatal(err)
	}
	released := map[time.Duration]bool{} // instants with a release of a delayed request
	for _, r := range recs {
		if r.Event == TraceDelay {
			released[r.At+r.Delay] = true
		}
	}
	seen := map[time.Duration]bool{} // instants whose release was traced already
	for _, r := range recs {
		switch {
		case !released[r.At]:
		case r.Event == TraceSuccess:
			seen[r.At] = true
		case r.Event == TraceAdmit || r.Event == TraceDelay || r.Event == TraceRefuse:
			releaseFirst += b2i(seen[r.At])
			arrivalFirst += b2i(!seen[r.At])
		}
	}
	return releaseFirst, arrivalFirst
}

// traceFunc is a TraceSink from a function.
type traceFunc func(r *TraceRecord) error

func (f traceFunc) Record(r *TraceRecord) error { return f(r) }

// TestKernelReleasesTieWithArrivals checks that the kernel orders a delayed
// request's release and an arrival at the same instant as the general loop
// does (by when each was scheduled), in both orders: the leaky bucket and
// nginx, in worlds where they tie (one with a superposed group, whose runs
// of arrivals handle releases too: releasesBefore), run to stops and in lane
// steps with small budgets, with the kernel's delays and with them off.
func TestKernelReleasesTieWithArrivals(t *testing.T) {
	releaseFirst, arrivalFirst := 0, 0
	for _, world := range []struct {
		lane LaneKind
		cfg  Config
	}{{LaneLeakyBucket, tieWorld(LaneLeakyBucket)}, {LaneNginx, tieWorld(LaneNginx)}, {LaneLeakyBucket, crowdTieWorld(LaneLeakyBucket)}} {
		lane, cfg := world.lane, world.cfg
		first, second := tieOrders(t, cfg)
		if first+second == 0 {
			t.Fatalf("lane %v (%s): no release ties with an arrival", lane, cfg.Clients[0].Name)
		}
		releaseFirst, arrivalFirst = releaseFirst+first, arrivalFirst+second
		build := func() *Simulation {
			s, err := New(cfg, Options{})
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		fast := build()
		if l := fast.lanes[0]; !l.kern.fits || !l.delaysInKernel() {
			t.Fatalf("lane %v: its delays are not in the kernel", lane)
		}
		delayKernelOff = true
		slow := build()
		delayKernelOff = false
		stops := []time.Duration{99 * time.Millisecond, 100 * time.Millisecond, 730 * time.Millisecond}
		for at := 731 * time.Millisecond; at < cfg.Duration+time.Second; at += 37 * time.Millisecond {
			stops = append(stops, at)
		}
		for i, at := range stops {
			st := kernelStep{at: at, budget: 3 * (i % 2)}
			fastSaw, fastResults := runStep(fast, st)
			delayKernelOff = true
			slowSaw, slowResults := runStep(slow, st)
			delayKernelOff = false
			if fastSaw != slowSaw {
				t.Fatalf("lane %v to %v: with the kernel's delays, then without:\n%s", lane, at, firstDifference(fastSaw, slowSaw))
			}
			if !reflect.DeepEqual(fastResults, slowResults) {
				t.Fatalf("lane %v to %v: results differ with the kernel's delays, then without:\n%s", lane, at,
					firstDifference(fmt.Sprintf("%+v", fastResults), fmt.Sprintf("%+v", slowResults)))
			}
		}
		if r := fast.Result().Lanes[0]; r.Delayed == 0 || r.Refused == 0 {
			t.Errorf("lane %v: delayed %d, refused %d: want both, to test both", lane, r.Delayed, r.Refused)
		}
	}
	if releaseFirst == 0 || arrivalFirst == 0 {
		t.Errorf("%d ties with the release first, %d with the arrival first: want both, to test both", releaseFirst, arrivalFirst)
	}
}
