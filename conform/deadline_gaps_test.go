package conform

import (
	"errors"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/run"
)

// A streak of failed calls is gone at exactly GoneAfter after the send of its
// first call ("failed for GoneAfter, from the send of the first"), not a
// nanosecond before; a streak that reached Redis again, or never began, is
// never gone, and gives up at since+after.
func TestStreakGoneAtExactlyAfter(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	const after = 5 * time.Second
	boom := errors.New("boom")
	var s streak
	if err := s.gone(t0.Add(time.Hour), after); err != nil {
		t.Errorf("no failed call: gone(t0+1h) = %v, want nil", err)
	}
	if _, ok := s.giveUpAt(after); ok {
		t.Error("no failed call: giveUpAt ok, want none")
	}
	s.failed(t0, boom)
	s.failed(t0.Add(time.Second), boom) // a later failure does not move the start
	for _, tc := range []struct {
		at   time.Duration
		gone bool
	}{{0, false}, {after - time.Nanosecond, false}, {after, true}, {after + time.Nanosecond, true}} {
		err := s.gone(t0.Add(tc.at), after)
		if (err != nil) != tc.gone {
			t.Errorf("failed at t0: gone(t0+%v, %v) = %v, want gone %v", tc.at, after, err, tc.gone)
		}
		var ue *run.UnfinishedError
		if err != nil && (!errors.As(err, &ue) || !errors.Is(err, boom)) {
			t.Errorf("gone(t0+%v) = %v, want an *run.UnfinishedError wrapping the last error", tc.at, err)
		}
	}
	if at, ok := s.giveUpAt(after); !ok || !at.Equal(t0.Add(after)) {
		t.Errorf("giveUpAt = %v, %v; want t0+%v", at, ok, after)
	}
	s.reached()
	if err := s.gone(t0.Add(time.Hour), after); err != nil {
		t.Errorf("after a call reached Redis: gone = %v, want nil", err)
	}
}

// Zero (and negative) deadlines take CallTimeout and GoneAfter; any positive
// one, however small, is kept.
func TestDeadlinesDefaults(t *testing.T) {
	for _, tc := range []struct {
		d          Deadlines
		call, gone time.Duration
	}{
		{Deadlines{}, CallTimeout, GoneAfter},
		{Deadlines{Call: -1, Gone: -1}, CallTimeout, GoneAfter},
		{Deadlines{Call: 1, Gone: 1}, 1, 1},
		{Deadlines{Call: time.Minute, Gone: time.Hour}, time.Minute, time.Hour},
	} {
		if got := tc.d.call(); got != tc.call {
			t.Errorf("%+v.call() = %v, want %v", tc.d, got, tc.call)
		}
		if got := tc.d.gone(); got != tc.gone {
			t.Errorf("%+v.gone() = %v, want %v", tc.d, got, tc.gone)
		}
	}
	if Bound != GoneAfter+CallTimeout {
		t.Errorf("Bound = %v, want GoneAfter+CallTimeout", Bound)
	}
}

// checkExact refuses a policy whose scripts need an integer of 2^53 or more,
// for each of its two products, and lets through one a unit below.
//
// With a 1ns window, limit 1 (burst 1) and cost 1, the GCRA product is
// (end+2W)·L' + (burst+cost)·W' = end+4. With limit 2^19, window 2^33ns and
// cost 2^19 (gcd 2^19), the counters' (limit+cost)·window is 2^53 while the
// GCRA product stays small.
func TestCheckExactAt2p53(t *testing.T) {
	const p53 = int64(1) << 53
	tiny := algorithms.Policy{Limit: 1, Window: 1}
	wide := algorithms.Policy{Limit: 1 << 19, Window: 1 << 33}
	for _, tc := range []struct {
		name    string
		p       algorithms.Policy
		end     time.Duration
		cost    int64
		refused bool
	}{
		{"gcra product 2^53-1", tiny, time.Duration(p53 - 5), 1, false},
		{"gcra product 2^53", tiny, time.Duration(p53 - 4), 1, true},
		{"counter product 2^53-2^33", wide, time.Second, 1<<19 - 1, false},
		{"counter product 2^53", wide, time.Second, 1 << 19, true},
	} {
		err := checkExact(tc.p, tc.end, tc.cost)
		if (err != nil) != tc.refused {
			t.Errorf("%s: checkExact(%+v, %v, %d) = %v, want refused %v", tc.name, tc.p, tc.end, tc.cost, err, tc.refused)
		}
	}
}
