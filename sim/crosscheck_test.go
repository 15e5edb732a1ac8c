package sim

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// TestTheCrossCheckIsTheSlidingLog drives the cross-check's log and the
// algorithms package's sliding log with the same requests: several keys, costs
// up to above the limit, instants that repeat and that fall on window edges.
func TestTheCrossCheckIsTheSlidingLog(t *testing.T) {
	for _, p := range []algorithms.Policy{
		{Limit: 1, Window: 10 * time.Millisecond},
		{Limit: 3, Window: 10 * time.Millisecond},
		{Limit: 20, Window: 7 * time.Millisecond},
	} {
		rnd := rand.New(rand.NewPCG(uint64(p.Limit), 9))
		sl, err := algorithms.NewSlidingLog(p)
		if err != nil {
			t.Fatal(err)
		}
		const keys = 4
		states := make([]algorithms.SlidingLogState, keys)
		log := newUntimedTracker(p.Window, p.Limit, keys)
		var now time.Duration
		for i := range 20_000 {
			now += []time.Duration{0, time.Millisecond, p.Window, time.Duration(rnd.IntN(int(p.Window)))}[rnd.IntN(4)]
			key, cost := int32(rnd.IntN(keys)), int64(1+rnd.IntN(int(p.Limit)+1))
			if got, want := log.allow(key, now, cost), sl.Allow(&states[key], now, cost); got != want {
				t.Fatalf("%v per %v, request %d: allow(key %d, t0+%v, cost %d) = %v, the sliding log says %v",
					p.Limit, p.Window, i, key, now, cost, got, want)
			}
		}
	}
}

// TestTheSharedCrossCheckIsItsOwnLog feeds the cross-check as a lane does
// (decisions that mostly agree with an exact sliding log, some that do not,
// admissions at once and some released later) and holds it against a sliding
// log of its own fed the same decisions: the same disagreements at every step,
// and the lane's most-admitted tracker measuring what a twin measures that no
// cross-check reads.
func TestTheSharedCrossCheckIsItsOwnLog(t *testing.T) {
	p := algorithms.Policy{Limit: 5, Window: 10 * time.Millisecond}
	for seed := range uint64(40) {
		rnd := rand.New(rand.NewPCG(seed, 11))
		const keys = 3
		m := metrics{peak: newPeakTracker(p.Window, p.Limit, keys)}
		own, twin := newUntimedTracker(p.Window, p.Limit, keys), newPeakTracker(p.Window, p.Limit, keys)
		var disagreed int64
		type release struct {
			at   time.Duration
			key  int32
			cost int64
		}
		var later []release // in time order
		admit := func(key int32, at time.Duration, cost int64) {
			m.admittedToPeak(key, at, cost)
			m.peak.add(key, at, cost)
			twin.add(key, at, cost)
		}
		// Seeds 0, 4, … agree and admit at once; 1, 5, … disagree at times;
		// 2, 6, … delay some admissions (most by less than the next decision); 3, 7, … both.
		flips, delays := seed%2 == 1, seed%4 >= 2
		flipEvery, delayEvery := 1+rnd.IntN(300), 1+rnd.IntN(100)
		var now time.Duration
		for i := range 3000 {
			now += time.Duration(rnd.IntN(int(p.Window / 4)))
			for len(later) > 0 && later[0].at <= now {
				admit(later[0].key, later[0].at, later[0].cost)
				later = later[1:]
			}
			key, cost := int32(rnd.IntN(keys)), int64(1+rnd.IntN(3))
			own.expire(&own.keys[key], key, now)
			admitted := own.keys[key].sum+cost <= p.Limit // as the exact log decides
			if flips && rnd.IntN(flipEvery) == 0 {
				admitted = !admitted
			}
			if own.allow(key, now, cost) != admitted {
				disagreed++
			}
			m.slidingLogCheck(key, now, cost, admitted)
			if m.disagreed != disagreed {
				t.Fatalf("seed %d, decision %d at t0+%v: %d disagreements, its own log counts %d", seed, i, now, m.disagreed, disagreed)
			}
			switch {
			case !admitted:
			case delays && rnd.IntN(delayEvery) == 0:
				at := now + time.Duration(rnd.IntN(int(p.Window/4)))
				if n := len(later); n > 0 {
					at = max(at, later[n-1].at)
				}
				later = append(later, release{at, key, cost})
			default:
				admit(key, now, cost)
			}
		}
		if m.check.own != (seed%4 > 0) {
			t.Errorf("seed %d: the cross-check holds its own log = %v", seed, m.check.own)
		}
		if m.peak.best != twin.best || m.peak.overLimit() != twin.overLimit() {
			t.Fatalf("seed %d: peak %+v over the limit %v, a twin no cross-check reads %+v, %v", seed, m.peak.best, m.peak.overLimit(), twin.best, twin.overLimit())
		}
	}
}

// TestTheSlidingLogLaneIsItsOwnCrossCheck checks that a sliding-log lane, which
// never disagrees with the cross-check and admits at once, holds no second log,
// while a fixed-window lane, which disagrees, keeps one.
func TestTheSlidingLogLaneIsItsOwnCrossCheck(t *testing.T) {
	cfg := poisson100(20 * time.Second)
	cfg.Lanes = []LaneKind{LaneSlidingLog, LaneFixedWindow}
	cfg.Limits[0].Policy = algorithms.Policy{Limit: 300, Window: time.Second}
	s, err := New(cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.RunToEnd(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for i, wantOwn := range []bool{false, true} {
		l := r.Lanes[i]
		if l.Refused == 0 {
			t.Fatalf("%v refused nothing: the test wants refusals", l.Lane)
		}
		if own := s.lanes[i].m.check.own; own != wantOwn {
			t.Errorf("%v: cross-check holds its own log = %v, want %v (disagreement %v)", l.Lane, own, wantOwn, l.SlidingLogDisagreement)
		}
	}
}

// TestTheCrossCheckPartsAtALateAdmission: an admission the lane releases later
// than the cross-check logged it (a leaky bucket's delay) must leave the
// cross-check's window as it logged it: with 1 per 10ms, admitted at 0 and
// released at 5ms, a request at 10ms fits the cross-check's log, not the
// lane's most-admitted window.
func TestTheCrossCheckPartsAtALateAdmission(t *testing.T) {
	const w = 10 * time.Millisecond
	m := metrics{peak: newPeakTracker(w, 1, 1)}
	m.slidingLogCheck(0, 0, 1, true)
	m.admittedToPeak(0, w/2, 1)
	m.peak.add(0, w/2, 1)
	m.slidingLogCheck(0, w, 1, true)
	if m.disagreed != 0 || m.decisions != 2 {
		t.Errorf("after admissions at t0 (released at t0+5ms) and t0+10ms: %d of %d decisions disagree, want 0 of 2", m.disagreed, m.decisions)
	}
}
