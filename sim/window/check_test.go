package window

import (
	"cmp"
	"math/rand/v2"
	"slices"
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
		log := NewUntimed(p.Window, p.Limit, keys)
		var now time.Duration
		for i := range 20_000 {
			now += []time.Duration{0, time.Millisecond, p.Window, time.Duration(rnd.IntN(int(p.Window)))}[rnd.IntN(4)]
			key, cost := int32(rnd.IntN(keys)), int64(1+rnd.IntN(int(p.Limit)+1))
			if got, want := log.Allow(key, now, cost), sl.Allow(&states[key], now, cost); got != want {
				t.Fatalf("%v per %v, request %d: allow(key %d, t0+%v, cost %d) = %v, the sliding log says %v",
					p.Limit, p.Window, i, key, now, cost, got, want)
			}
		}
	}
}

// TestTheCrossCheckSharesTheLanesWindowExactly feeds a checked tracker, whose
// log shares each key's window until they part, as a lane does: every decision
// to allow, then the lane's admission to add at once, later (a delay) or never,
// whatever the log said; or the admission first (a lane that adds before it
// checks). Its log must stay the algorithms package's sliding log, and its
// peak and time over the limit a tracker's that only adds.
//
// With a unit, every request costs unit and a parted log is a recentLog.
func TestTheCrossCheckSharesTheLanesWindowExactly(t *testing.T) {
	for _, unit := range []int64{0, 1, 2, 3} {
		for _, p := range []algorithms.Policy{
			{Limit: 1, Window: 10 * time.Millisecond},
			{Limit: 3, Window: 10 * time.Millisecond},
			{Limit: 5, Window: 10 * time.Millisecond}, // 5 of cost 1: a ring of 4 must grow
			{Limit: 20, Window: 7 * time.Millisecond},
			{Limit: 200, Window: 7 * time.Millisecond},
		} {
			if unit > p.Limit {
				continue
			}
			crossCheckSharing(t, p, unit)
		}
	}
}

func crossCheckSharing(t *testing.T, p algorithms.Policy, unit int64) {
	t.Helper()
	rnd := rand.New(rand.NewPCG(uint64(p.Limit), 17+uint64(unit)))
	sl, err := algorithms.NewSlidingLog(p)
	if err != nil {
		t.Fatal(err)
	}
	const keys = 4
	states := make([]algorithms.SlidingLogState, keys)
	checked := NewChecked(p.Window, p.Limit, keys, unit, FastPaths{})
	plain := NewTracker(p.Window, p.Limit, keys)
	type later struct {
		at   time.Duration
		key  int32
		cost int64
	}
	var delayed []later // in time order
	var now time.Duration
	addDue := func(until time.Duration) {
		for len(delayed) > 0 && delayed[0].at <= until {
			d := delayed[0]
			delayed = delayed[1:]
			checked.Add(d.key, d.at, d.cost)
			plain.Add(d.key, d.at, d.cost)
		}
	}
	for i := range 20_000 {
		now += []time.Duration{0, time.Millisecond, p.Window, time.Duration(rnd.IntN(int(p.Window)))}[rnd.IntN(4)]
		addDue(now)
		key, cost := int32(rnd.IntN(keys)), int64(1+rnd.IntN(int(p.Limit)+1))
		if unit > 0 {
			cost = unit
		}
		lane := rnd.IntN(11)
		want := sl.Allow(&states[key], now, cost)
		atOnce := lane < 6 && want || lane < 2 // the lane agrees, or admits what the log refused
		if atOnce && rnd.IntN(2) == 0 {        // as the kernel asks: allow and add in one call
			plain.Add(key, now, cost)
			got, done := checked.checkInLine(key, now, cost, true)
			if !done {
				got = checked.check(key, now, cost, true)
			}
			if got != want {
				t.Fatalf("%v per %v, request %d: check(key %d, t0+%v, cost %d, adds) = %v, the sliding log says %v",
					p.Limit, p.Window, i, key, now, cost, got, want)
			}
			continue
		}
		if lane == 10 { // the lane admits at once, and adds before the log decides
			checked.Add(key, now, cost)
			plain.Add(key, now, cost)
		}
		if got := checked.Allow(key, now, cost); got != want {
			t.Fatalf("%v per %v, request %d: allow(key %d, t0+%v, cost %d) = %v, the sliding log says %v",
				p.Limit, p.Window, i, key, now, cost, got, want)
		}
		switch {
		case lane == 10:
		case atOnce:
			checked.Add(key, now, cost)
			plain.Add(key, now, cost)
		case lane < 8: // the lane admits it later
			at := now + time.Duration(rnd.IntN(int(p.Window)))
			delayed = append(delayed, later{at, key, cost})
			slices.SortStableFunc(delayed, func(a, b later) int { return cmp.Compare(a.at, b.at) })
		}
	}
	addDue(now + p.Window)
	// Once every window is empty, each key's next decision gives its log up
	// (the lane agrees with it: nothing parts again).
	for key := range int32(keys) {
		cost := max(unit, 1)
		if got, want := checked.Allow(key, now+3*p.Window, cost), sl.Allow(&states[key], now+3*p.Window, cost); got != want {
			t.Fatalf("%v per %v, unit %d, at the end: allow(key %d) = %v, the sliding log says %v", p.Limit, p.Window, unit, key, got, want)
		}
		checked.Add(key, now+3*p.Window, cost) // the lane agrees
		plain.Add(key, now+3*p.Window, cost)
	}
	if checked.best != plain.best || checked.bestID != plain.bestID {
		t.Errorf("%v per %v: most in a window %+v (key %d), want %+v (key %d)", p.Limit, p.Window, checked.best, checked.bestID, plain.best, plain.bestID)
	}
	if got, want := checked.OverLimit(), plain.OverLimit(); got != want {
		t.Errorf("%v per %v: time over the limit %v, want %v", p.Limit, p.Window, got, want)
	}
	if parted := max(len(checked.logs), len(checked.recent)); parted == 0 || len(checked.freeLog) != parted {
		t.Errorf("%v per %v, unit %d: %d logs parted, %d given up at the end, want all", p.Limit, p.Window, unit, parted, len(checked.freeLog))
	}
	if unit > 0 && len(checked.logs) > 0 || unit == 0 && len(checked.recent) > 0 {
		t.Errorf("unit %d: %d key logs, %d recent logs", unit, len(checked.logs), len(checked.recent))
	}
}

// TestAGrownLogForgetsWhatItDropped grows a recentLog that has dropped its
// oldest admissions (they had left the window), once into a ring a gone log
// left in the slab full of recent times and once where it is: the slots of the
// dropped admissions, which the larger ring may be asked about, must read as
// long gone, and the kept ones as they were.
func TestAGrownLogForgetsWhatItDropped(t *testing.T) {
	for _, inPlace := range []bool{false, true} {
		p := NewChecked(10*time.Millisecond, 20, 1, 1, FastPaths{})
		if !inPlace { // a gone log's ring of 8, full of recent times, free
			off := p.logSlab.alloc(8)
			for j := range int32(8) {
				p.logSlab.entries[off+j] = time.Hour
			}
			p.logSlab.release(off, 8)
		}
		r := &recentLog{}
		p.growRecent(r, 4)
		if !inPlace {
			p.logSlab.alloc(4) // another ring after it: it grows into the free one
		}
		for i := range int64(6) { // seqs 0 and 1 overwritten by 4 and 5
			p.recordRecent(r, time.Duration(i)*time.Millisecond)
		}
		p.growRecent(r, 8)
		if last := int(r.off+r.size) == len(p.logSlab.entries); last != inPlace {
			t.Fatalf("in place %v: the ring ended at the slab's end: %v", inPlace, last)
		}
		for i := range int64(6) {
			want := time.Duration(i) * time.Millisecond
			if i < 2 {
				want = longGone
			}
			if got := *p.recentAt(r, i); got != want {
				t.Errorf("in place %v: admission %d reads %v, want %v", inPlace, i, got, want)
			}
		}
	}
}
