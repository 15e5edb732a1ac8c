package sim

import (
	"context"
	"testing"
	"time"
)

// runOptions runs optionsWorld (one client at 20/s against 10/s, burst 10)
// for d with lanes ks and their options, and gives each lane's result and
// its trace.
func runOptions(t *testing.T, d time.Duration, ks []LaneKind, os ...LaneOptions) ([]LaneResult, map[int][]TraceRecord) {
	t.Helper()
	c := optionsWorld(ks, os...)
	c.Duration = d
	var recs traceRecords
	r, err := Run(context.Background(), c, Options{Trace: &recs})
	if err != nil {
		t.Fatal(err)
	}
	byLane := map[int][]TraceRecord{}
	for _, rec := range recs {
		byLane[rec.LaneIndex] = append(byLane[rec.LaneIndex], rec)
	}
	return r.Lanes, byLane
}

// The penalty charges every refusal: a client sending every T/2 to a full
// bucket of burst B (T = 100ms, B = 10) gets its first 2B−1 requests and
// then none, however long it keeps sending; without it, one in two.
func TestPenaltyLocksOutAClientThatKeepsSending(t *testing.T) {
	for _, k := range []LaneKind{LaneTokenBucket, LaneGCRA} {
		lanes, _ := runOptions(t, 5*time.Second, []LaneKind{k, k}, LaneOptions{}, LaneOptions{Penalty: true})
		plain, penalised := lanes[0], lanes[1]
		if penalised.Admitted != 2*10-1 {
			t.Errorf("%v with the penalty admitted %d of %d, want 2B−1 = 19", k, penalised.Admitted, penalised.Attempts)
		}
		if plain.Admitted < 10+5*10-1 {
			t.Errorf("%v without it admitted %d, want the burst and the rate: at least 59", k, plain.Admitted)
		}
	}
}

// A request the bucket would refuse waits up to Wait for its turn: never
// longer, and each one refused without the wait either waits or is refused.
func TestWaitDelaysUpToItsBound(t *testing.T) {
	const wait = 120 * time.Millisecond
	lanes, _ := runOptions(t, 3*time.Second, []LaneKind{LaneTokenBucket, LaneTokenBucket}, LaneOptions{}, LaneOptions{Wait: wait})
	plain, waits := lanes[0], lanes[1]
	if waits.Delayed == 0 || waits.Delay.Max > wait || waits.Delay.Max <= wait-100*time.Millisecond {
		t.Errorf("waiting lane delayed %d, the longest %v; want some, the longest within (%v, %v]", waits.Delayed, waits.Delay.Max, wait-100*time.Millisecond, wait)
	}
	if plain.Delayed != 0 || waits.Admitted < plain.Admitted || waits.Refused >= plain.Refused {
		t.Errorf("plain admitted %d refused %d delayed %d; waiting admitted %d refused %d: want the wait to admit more, later",
			plain.Admitted, plain.Refused, plain.Delayed, waits.Admitted, waits.Refused)
	}
}

// After a refusal a banned key is refused for the whole ban, whatever its
// rate: a fixed window of 10 a second banning for 2s admits 10 in [0, 1s),
// none in the ban, and 10 again from the window after the ban's end.
func TestBanRefusesForItsWholeLength(t *testing.T) {
	_, recs := runOptions(t, 5*time.Second, []LaneKind{LaneFixedWindow}, LaneOptions{Ban: 2 * time.Second})
	var firstRefusal, lastBanned time.Duration = -1, -1
	admittedIn := map[time.Duration]int{}
	for _, r := range recs[0] {
		switch r.Event {
		case TraceRefuse:
			if firstRefusal < 0 {
				firstRefusal = r.At
			}
			if r.At < firstRefusal+2*time.Second {
				lastBanned = r.At
			}
		case TraceAdmit:
			if firstRefusal >= 0 && r.At < firstRefusal+2*time.Second {
				t.Errorf("admitted at %v, within the ban from %v", r.At, firstRefusal)
			}
			admittedIn[r.At.Truncate(time.Second)]++
		}
	}
	if firstRefusal != 500*time.Millisecond || lastBanned < firstRefusal+time.Second || admittedIn[0] != 10 || admittedIn[3*time.Second] != 10 {
		t.Errorf("first refusal %v, last banned refusal %v, admitted per second %v; want 500ms, after 1.5s, 10 in the first second and 10 in the fourth",
			firstRefusal, lastBanned, admittedIn)
	}
}

// A bucket starting empty admits exactly its burst less than a full one while
// the client keeps it drained.
func TestStartLevelIsTheFirstTokens(t *testing.T) {
	empty := int64(0)
	lanes, _ := runOptions(t, 3*time.Second, []LaneKind{LaneTokenBucket, LaneTokenBucket, LaneGCRA, LaneGCRA},
		LaneOptions{}, LaneOptions{Start: &empty}, LaneOptions{}, LaneOptions{Start: &empty})
	for i := 0; i < 4; i += 2 {
		if full, e := lanes[i].Admitted, lanes[i+1].Admitted; full-e != 10 {
			t.Errorf("%v: full start admitted %d, empty %d; want the burst, 10, apart", lanes[i].Lane, full, e)
		}
	}
}

// A clock of tick decides at the time truncated to tick: on arrivals at whole
// milliseconds a 1ms clock changes nothing; a 1s clock refills the bucket
// only at whole seconds.
func TestClockTruncatesTheTime(t *testing.T) {
	lanes, recs := runOptions(t, 3*time.Second, []LaneKind{LaneTokenBucket, LaneTokenBucket, LaneTokenBucket},
		LaneOptions{}, LaneOptions{Clock: time.Millisecond}, LaneOptions{Clock: time.Second})
	if lanes[0].Admitted != lanes[1].Admitted || lanes[0].Refused != lanes[1].Refused {
		t.Errorf("a 1ms clock on whole-ms arrivals: admitted %d refused %d, want %d and %d as exact",
			lanes[1].Admitted, lanes[1].Refused, lanes[0].Admitted, lanes[0].Refused)
	}
	for _, r := range recs[2] {
		if r.Event == TraceAdmit && r.At >= time.Second && r.At%time.Second >= 500*time.Millisecond {
			t.Errorf("1s clock admitted at %v: the bucket it sees refilled only at the second, drained by its first half", r.At)
		}
	}
}

// A fixed window aligned to the key's first request starts its windows
// there. A client at 20/s from 500ms against 10 a second: aligned to the
// clock, [0, 1s) holds its first 10 (500ms to 950ms) and [1s, 2s) the next 10,
// so the first refusal is at 1.5s and the next admission at 2s; aligned to
// its first request, [500ms, 1.5s) holds 10, the first refusal is at 1s and
// the next admission at 1.5s.
func TestAlignFirstStartsWindowsAtTheFirstRequest(t *testing.T) {
	c := optionsWorld([]LaneKind{LaneFixedWindow, LaneFixedWindow}, LaneOptions{}, LaneOptions{AlignFirst: true})
	c.Duration = 3 * time.Second
	c.Clients[0].Arrivals[0].Start = 500 * time.Millisecond
	var recs traceRecords
	if _, err := Run(context.Background(), c, Options{Trace: &recs}); err != nil {
		t.Fatal(err)
	}
	firstRefusal := map[int]time.Duration{0: -1, 1: -1}
	firstAfter := map[int]time.Duration{0: -1, 1: -1}
	for _, r := range recs {
		i := r.LaneIndex
		if r.Event == TraceRefuse && firstRefusal[i] < 0 {
			firstRefusal[i] = r.At
		}
		if r.Event == TraceAdmit && firstRefusal[i] >= 0 && firstAfter[i] < 0 {
			firstAfter[i] = r.At
		}
	}
	want := map[int][2]time.Duration{0: {1500 * time.Millisecond, 2 * time.Second}, 1: {time.Second, 1500 * time.Millisecond}}
	for i, w := range want {
		if firstRefusal[i] != w[0] || firstAfter[i] != w[1] {
			t.Errorf("lane %d: first refusal %v, next admission %v; want %v and %v", i, firstRefusal[i], firstAfter[i], w[0], w[1])
		}
	}
}

// Lanes with options take the general path: they never share requests with
// other lanes (sharingLanes), whose fast verdicts assume the bare rule.
func TestLanesWithOptionsShareNothing(t *testing.T) {
	sharedAlways = true
	defer func() { sharedAlways = false }()
	cfg := optionsWorld([]LaneKind{LaneTokenBucket, LaneTokenBucket, LaneTokenBucket}, LaneOptions{}, LaneOptions{Penalty: true}, LaneOptions{})
	cfg = cfg.withDefaults()
	pop, err := newPopulation(t.Context(), cfg.Clients, cfg.Limits)
	if err != nil {
		t.Fatal(err)
	}
	got := sharingLanes(&cfg, Options{}, pop)
	if len(got) != 2 || got[0] != 0 || got[1] != 2 {
		t.Errorf("sharingLanes = %v, want [0 2]: the penalised lane apart", got)
	}
}
