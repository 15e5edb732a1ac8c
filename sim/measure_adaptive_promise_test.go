package sim

import (
	"math"
	"testing"
	"time"
)

// fakeConc is a concurrency limiter whose limit and requests in flight a test sets.
type fakeConc struct {
	limit float64
	in    int
}

func (f *fakeConc) Acquire(time.Duration) bool           { return true }
func (f *fakeConc) Release(time.Duration, time.Duration) {}
func (f *fakeConc) Limit() float64                       { return f.limit }
func (f *fakeConc) InFlight() int                        { return f.in }

// TestAdaptiveConcurrencyPromise: point i starts at i×Bucket; Limit is the
// limit at the bucket's end, LimitMin the lowest during it, its value on entry
// included; buckets without a change carry the state over.
func TestAdaptiveConcurrencyPromise(t *testing.T) {
	const b = 100 * time.Millisecond
	c := &fakeConc{limit: 10}
	a := newAdaptiveSampler(b, c)
	set := func(at time.Duration, limit float64, in int) {
		c.limit, c.in = limit, in
		a.conc(at, c)
	}
	set(10*time.Millisecond, 12, 3)
	set(b-1, 11, 1)  // last instant of bucket 0
	set(b, 15, 2)    // first instant of bucket 1: its entry value, 11 carried over, is its LimitMin
	set(3*b+5, 4, 7) // bucket 3; bucket 2 carried over
	s := a.state(6)
	want := []AdaptivePoint{
		{Start: 0, Limit: 11, LimitMin: 10, InFlightMax: 3},
		{Start: b, Limit: 15, LimitMin: 11, InFlightMax: 2},
		{Start: 2 * b, Limit: 15, LimitMin: 15, InFlightMax: 2},
		{Start: 3 * b, Limit: 4, LimitMin: 4, InFlightMax: 7},
		{Start: 4 * b, Limit: 4, LimitMin: 4, InFlightMax: 7},
		{Start: 5 * b, Limit: 4, LimitMin: 4, InFlightMax: 7},
	}
	if len(s.Points) != len(want) {
		t.Fatalf("%d points, want %d: %+v", len(s.Points), len(want), s.Points)
	}
	for i, w := range want {
		if s.Points[i] != w {
			t.Errorf("point %d = %+v, want %+v", i, s.Points[i], w)
		}
	}
}

// TestAdaptiveDropPromise: Decisions counts send decisions in the bucket,
// DropProbability is their mean, DropProbabilityMax the highest, 0 without
// decisions; a nil sampler is a nil state.
func TestAdaptiveDropPromise(t *testing.T) {
	const b = time.Second
	a := newAdaptiveSampler(b, nil)
	a.drop(0, 0.2)
	a.drop(b-1, 0.6)
	a.drop(b, 0.1)
	a.drop(3*b, 0.5)
	a.drop(3*b, 0.3)
	s := a.state(5)
	want := []struct {
		n         int64
		mean, max float64
	}{{2, 0.4, 0.6}, {1, 0.1, 0.1}, {0, 0, 0}, {2, 0.4, 0.5}, {0, 0, 0}}
	if len(s.Points) != len(want) {
		t.Fatalf("%d points, want %d", len(s.Points), len(want))
	}
	for i, w := range want {
		p := s.Points[i]
		if p.Start != time.Duration(i)*b || p.Decisions != w.n || math.Abs(p.DropProbability-w.mean) > 1e-12 || p.DropProbabilityMax != w.max {
			t.Errorf("point %d = %+v, want start %v, %d decisions, mean %v, max %v", i, p, time.Duration(i)*b, w.n, w.mean, w.max)
		}
	}
	// state(n) pads to n points but never cuts.
	if got := len(a.state(2).Points); got != 5 {
		t.Errorf("state(2) after 5 points has %d, want 5", got)
	}
	var none *adaptiveSampler
	if none.state(3) != nil {
		t.Error("nil sampler: state not nil")
	}
}

// TestUniformCostPromise: the cost every group shares, 0 when they differ or
// there are none.
func TestUniformCostPromise(t *testing.T) {
	tests := []struct {
		costs []int64
		want  int64
	}{{nil, 0}, {[]int64{3}, 3}, {[]int64{3, 3, 3}, 3}, {[]int64{3, 3, 4}, 0}, {[]int64{4, 3, 3}, 0}}
	for _, tt := range tests {
		var gs []ClientGroup
		for _, c := range tt.costs {
			gs = append(gs, ClientGroup{Cost: c})
		}
		if got := uniformCost(gs); got != tt.want {
			t.Errorf("uniformCost(%v) = %d, want %d", tt.costs, got, tt.want)
		}
	}
}
