package sim

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim/window"
)

// pushedWorld is one scraper over a per-user limit of from per second that a
// rule push at at changes to to (burst too).
func pushedWorld(from, to int64, at time.Duration) Config {
	return Config{
		Duration: 60 * time.Second, Seed: 1,
		Limits: []Limit{{Name: "per-user", Key: KeyUser, Policy: algorithms.Policy{Limit: from, Window: time.Second, Burst: from}}},
		Rules:  []RuleChange{{At: at, Policy: algorithms.Policy{Limit: to, Window: time.Second, Burst: to}}},
		Clients: []ClientGroup{{Name: "scraper", Count: 1,
			Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 60, Per: time.Second}}}}},
	}
}

// A rule push starts the limit's keys afresh, and its windows with them: a
// sliding log raised from 10 to 16 (or lowered from 20 to 10) held each limit
// exactly, so it is not OVER, though the window across the push holds 26 (30)
// admissions. It once read 2.6× OVER against the limit as written at the start.
func TestRulePushStartsTheWindowsAfresh(t *testing.T) {
	for _, tc := range []struct{ from, to int64 }{{10, 16}, {20, 10}} {
		cfg := pushedWorld(tc.from, tc.to, 30500*time.Millisecond)
		cfg.Lanes = []LaneKind{LaneSlidingLog}
		tr := &traceLog{}
		r := mustRun(t, cfg, Options{Trace: tr})
		l := r.Lanes[0]
		if want := max(tc.from, tc.to); l.Over() || l.Peak.Count != want || l.Peak.Limit != want || l.TimeOverLimit != 0 {
			t.Errorf("%d → %d: peak %d against %d, over %v for %v; want %d against %d, never over",
				tc.from, tc.to, l.Peak.Count, l.Peak.Limit, l.Over(), l.TimeOverLimit, want, want)
		}
		if across := fleetPeak(tr.recs, 0, time.Second, false); across <= max(tc.from, tc.to) {
			t.Errorf("%d → %d: the busiest window across the push holds %d: the test no longer straddles it", tc.from, tc.to, across)
		}
	}
}

// Every lane's peak is the worst window recounted from the trace, each window
// within one rule (a push that changes the policy starts one) and held against
// that rule's limit; the time over the limit is 0 exactly when no window is over.
func TestPeakIsTheWorstWindowOfEachRule(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	for range 25 {
		cfg := randomPushes(r)
		tr := &traceLog{}
		res := mustRun(t, cfg, Options{Trace: tr})
		for i, l := range res.Lanes {
			want, overFor := worstByRule(tr.recs, i, cfg)
			got := l.Peak
			if got.Count*want.Limit != want.Count*got.Limit || (want.Count > 0) != (got.Count > 0) {
				t.Errorf("%v in %s: peak %d against %d, recounted %d against %d", l.Lane, describePushes(cfg), got.Count, got.Limit, want.Count, want.Limit)
			}
			if l.TimeOverLimit != overFor {
				t.Errorf("%v in %s: %v over the limit, recounted %v (the worst window holds %d against %d)", l.Lane, describePushes(cfg), l.TimeOverLimit, overFor, want.Count, want.Limit)
			}
			if l.Lane == LaneSlidingLog && l.Over() {
				t.Errorf("sliding log in %s: over its limit (%d against %d)", describePushes(cfg), got.Count, got.Limit)
			}
		}
	}
}

// randomPushes is a world of a few Poisson clients of one or two keys over
// one limit that rule pushes raise, lower and re-window, at random instants
// (some on a window's edge).
func randomPushes(r *rand.Rand) Config {
	w := time.Duration(1+r.IntN(4)) * 250 * time.Millisecond
	policy := func() algorithms.Policy {
		l := 1 + r.Int64N(12)
		return algorithms.Policy{Limit: l, Window: w * time.Duration(1+r.IntN(2)), Burst: l}
	}
	cfg := Config{Duration: 8 * time.Second, Seed: r.Uint64(),
		Lanes:  []LaneKind{LaneSlidingLog, LaneFixedWindow, LaneTokenBucket, LaneGCRA, LaneSlidingWindowCounter, LaneLeakyBucket},
		Limits: []Limit{{Name: "l", Key: KeyUser, Policy: policy()}},
		Clients: []ClientGroup{{Name: "c", Count: 1 + r.IntN(2),
			Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 10 + r.Int64N(40), Per: time.Second}}}}},
	}
	for range r.IntN(4) {
		at := time.Duration(r.Int64N(int64(cfg.Duration)))
		if r.IntN(3) == 0 {
			at = at / w * w
		}
		cfg.Rules = append(cfg.Rules, RuleChange{At: at, Policy: policy()})
	}
	slices.SortFunc(cfg.Rules, func(a, b RuleChange) int { return cmpDuration(a.At, b.At) })
	return cfg
}

func describePushes(cfg Config) string {
	s := fmt.Sprintf("%d per %v", cfg.Limits[0].Policy.Limit, cfg.Limits[0].Policy.Window)
	for _, ch := range cfg.Rules {
		s += fmt.Sprintf(", at %v %d per %v", ch.At, ch.Policy.Limit, ch.Policy.Window)
	}
	return s
}

// worstByRule recounts lane's worst window from the trace by brute force:
// admissions (a delayed one at its release) by key, windows within one rule;
// and the longest a key's trailing window, within one rule, held more than its
// limit, in all.
func worstByRule(recs []TraceRecord, lane int, cfg Config) (worst WindowPeak, overFor time.Duration) {
	byKey := map[string][]admission{}
	for _, r := range recs {
		switch {
		case r.LaneIndex != lane:
		case r.Event == TraceAdmit:
			byKey[r.Key] = append(byKey[r.Key], admission{r.At, r.Cost})
		case r.Event == TraceDelay:
			byKey[r.Key] = append(byKey[r.Key], admission{r.At + r.Delay, r.Cost})
		}
	}
	// rules[j] is in force from starts[j] until starts[j+1].
	rules, starts := []algorithms.Policy{cfg.Limits[0].Policy}, []time.Duration{-1 << 62}
	for _, ch := range cfg.Rules {
		if ch.Policy != rules[len(rules)-1] {
			rules, starts = append(rules, ch.Policy), append(starts, ch.At)
		}
	}
	for _, as := range byKey {
		slices.SortStableFunc(as, func(a, b admission) int { return cmpDuration(a.at, b.at) })
		var keyOver time.Duration
		for j, p := range rules {
			end := time.Duration(1 << 62)
			if j+1 < len(starts) {
				end = starts[j+1]
			}
			for lo := range as {
				if as[lo].at < starts[j] || as[lo].at >= end {
					continue
				}
				var sum int64
				for hi := lo; hi < len(as) && as[hi].at < end && as[hi].at-as[lo].at < p.Window; hi++ {
					sum += as[hi].cost
				}
				if c := (WindowPeak{Count: sum, Limit: p.Limit}); worst.Count == 0 || window.Peak(c).FurtherOver(window.Peak(worst)) {
					worst = c
				}
			}
			keyOver += timeOver(as, starts[j], end, p)
		}
		overFor = max(overFor, keyOver)
	}
	return worst, overFor
}

// timeOver is how long in [from, to) the admissions as (in time order) made
// since from held more than p's limit in the trailing window (t−window, t]:
// the count steps up at each admission and down a window later.
func timeOver(as []admission, from, to time.Duration, p algorithms.Policy) time.Duration {
	type step = admission
	var steps []step
	for _, a := range as {
		if a.at >= from && a.at < to {
			steps = append(steps, step{a.at, a.cost}, step{a.at + p.Window, -a.cost})
		}
	}
	slices.SortStableFunc(steps, func(a, b step) int { return cmpDuration(a.at, b.at) })
	var over time.Duration
	var sum int64
	for i, s := range steps {
		sum += s.cost
		next := to
		if i+1 < len(steps) {
			next = min(steps[i+1].at, to)
		}
		if sum > p.Limit && next > s.at {
			over += next - s.at
		}
	}
	return over
}

// A push below the requests' cost leaves no unit for the batched cross-check
// (every request is refused from then on): the kernel stops batching, and
// the run decides and measures as the general path does.
func TestPushBelowTheCostStopsBatching(t *testing.T) {
	run := func() Result {
		cfg := pushedWorld(10, 3, 1500*time.Millisecond)
		cfg.Duration = 4 * time.Second
		cfg.Clients[0].Cost = 5
		cfg.Lanes = []LaneKind{LaneSlidingLog, LaneTokenBucket, LaneFixedWindow}
		return mustRun(t, cfg, Options{})
	}
	fast := run()
	kernelOff = true
	general := run()
	kernelOff = false
	for i := range general.Lanes {
		if !reflect.DeepEqual(fast.Lanes[i], general.Lanes[i]) {
			t.Errorf("%v: the kernel's figures differ from the general path's:\n%+v\n%+v", general.Lanes[i].Lane, fast.Lanes[i], general.Lanes[i])
		}
	}
}
