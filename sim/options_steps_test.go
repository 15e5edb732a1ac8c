package sim

import (
	"context"
	"strings"
	"testing"
	"time"
)

// laneMarks are, per lane, its admissions, its first refusal with that
// refusal's Retry-After, and its first admission after it.
type laneMarks struct {
	admitted                  int
	firstRefusal, retry, next time.Duration
}

func marksOf(t *testing.T, c Config) []laneMarks {
	t.Helper()
	var recs traceRecords
	if _, err := Run(context.Background(), c, Options{Trace: &recs}); err != nil {
		t.Fatal(err)
	}
	out := make([]laneMarks, len(c.Lanes))
	for i := range out {
		out[i] = laneMarks{firstRefusal: -1, next: -1}
	}
	for _, r := range recs {
		m := &out[r.LaneIndex]
		switch {
		case r.Event == TraceAdmit:
			m.admitted++
			if m.firstRefusal >= 0 && m.next < 0 {
				m.next = r.At
			}
		case r.Event == TraceRefuse && m.firstRefusal < 0:
			m.firstRefusal, m.retry = r.At, r.RetryAfter
		}
	}
	return out
}

// A stepwise bucket of 10 a second (burst 10), a client at 20/s from 300ms
// (a request every 50ms) for 3s: 54 requests, 300ms to 2950ms.
//   - On the clock: the full bucket serves 300ms…750ms (10); 800ms is refused
//     with Retry-After 200ms, the step at 1s; 1s…1.45s pass (10), then
//     2s…2.45s (10): 30.
//   - From the first request: steps at 1.3s and 2.3s: 300…750, 1.3s…1.75s and
//     2.3s…2.75s pass, 30; 800ms is refused with Retry-After 500ms.
//   - The continuous bucket: the i-th request (from 0, at 300ms + i×50ms) finds
//     10 + i/2 − (admitted before it) tokens, so the first 19 pass (the 19th
//     finds 10 + 9 − 18 = 1); the 20th, at 1250ms, finds 0.5: refused with
//     Retry-After 50ms, and the 21st at 1300ms passes; then every other one:
//     19 + 17 = 36 (10 + 10/s × 2.65s, rounded down).
func TestStepwiseRefillVerdicts(t *testing.T) {
	c := optionsWorld([]LaneKind{LaneTokenBucket, LaneTokenBucket, LaneTokenBucket},
		LaneOptions{Stepwise: true}, LaneOptions{Stepwise: true, AlignFirst: true}, LaneOptions{})
	c.Duration = 3 * time.Second
	c.Clients[0].Arrivals[0].Start = 300 * time.Millisecond
	got := marksOf(t, c)
	ms := time.Millisecond
	want := []laneMarks{
		{admitted: 30, firstRefusal: 800 * ms, retry: 200 * ms, next: time.Second},
		{admitted: 30, firstRefusal: 800 * ms, retry: 500 * ms, next: 1300 * ms},
		{admitted: 36, firstRefusal: 1250 * ms, retry: 50 * ms, next: 1300 * ms},
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("lane %s: %+v, want %+v", c.LaneName(i), got[i], want[i])
		}
	}
}

// Fixed windows of 10 a second aligned to the calendar, with t=0 at
// 09:00:00.25 UTC: the windows start at each whole UTC second, t = 0.75s,
// 1.75s, …, the first [−0.25s, 0.75s). A client at 20/s from 0 for 2s (40
// requests, 0 to 1950ms): on the clock [0, 1s) passes 0…450ms and [1s, 2s)
// 1s…1.45s, 20, the first refusal at 500ms (Retry-After 500ms, the window's
// end) and the next admission at 1s. On the calendar [−0.25s, 0.75s) passes
// 0…450ms and refuses 500…700ms (Retry-After 250ms at 500ms), [0.75s, 1.75s)
// passes 750ms…1.2s, and [1.75s, 2.75s) the last 5, 1.75s…1.95s: 25. A scenario
// starting at 1970-01-01T00:00:00Z (the default) is the clock's.
func TestAlignCalendarVerdicts(t *testing.T) {
	c := optionsWorld([]LaneKind{LaneFixedWindow, LaneFixedWindow}, LaneOptions{}, LaneOptions{AlignCalendar: true})
	c.Start = time.Date(2026, 12, 1, 9, 0, 0, 250_000_000, time.UTC)
	ms := time.Millisecond
	got := marksOf(t, c)
	want := []laneMarks{
		{admitted: 20, firstRefusal: 500 * ms, retry: 500 * ms, next: time.Second},
		{admitted: 25, firstRefusal: 500 * ms, retry: 250 * ms, next: 750 * ms},
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("start %v lane %s: %+v, want %+v", c.Start, c.LaneName(i), got[i], want[i])
		}
	}
	c.Start = time.Time{}
	if got := marksOf(t, c); got[1] != want[0] {
		t.Errorf("start at the Unix epoch: the calendar lane %+v, want the clock's %+v", got[1], want[0])
	}
}

// The stepwise refill and the calendar alignment are checked at their own
// fields, with the reason; their combinations that make sense are accepted.
func TestStepOptionsChecked(t *testing.T) {
	zero := int64(0)
	tests := []struct {
		name  string
		kind  LaneKind
		opt   LaneOptions
		field string // "" when accepted
		says  string
	}{
		{"stepwise", LaneTokenBucket, LaneOptions{Stepwise: true}, "", ""},
		{"stepwise first", LaneTokenBucket, LaneOptions{Stepwise: true, AlignFirst: true}, "", ""},
		{"stepwise calendar", LaneTokenBucket, LaneOptions{Stepwise: true, AlignCalendar: true}, "", ""},
		{"stepwise start wait penalty clock", LaneTokenBucket, LaneOptions{Stepwise: true, Start: &zero, Wait: time.Second, Penalty: true, Clock: time.Millisecond}, "", ""},
		{"stepwise gcra", LaneGCRA, LaneOptions{Stepwise: true}, "variants[0].refill", "theoretical arrival time"},
		{"stepwise window", LaneFixedWindow, LaneOptions{Stepwise: true}, "variants[0].refill", "only token_bucket"},
		{"calendar window", LaneFixedWindow, LaneOptions{AlignCalendar: true}, "", ""},
		{"calendar sliding counter", LaneSlidingWindowCounter, LaneOptions{AlignCalendar: true}, "variants[0].align", "cannot align its windows"},
		{"calendar continuous bucket", LaneTokenBucket, LaneOptions{AlignCalendar: true}, "variants[0].align", "refill: stepwise"},
		{"first and calendar", LaneFixedWindow, LaneOptions{AlignFirst: true, AlignCalendar: true}, "variants[0].align", "not both"},
	}
	for _, tt := range tests {
		got := fieldsOf(t, optionsWorld([]LaneKind{tt.kind}, tt.opt))
		if tt.field == "" {
			if len(got) > 0 {
				t.Errorf("%s: refused: %v", tt.name, got)
			}
			continue
		}
		if p, ok := got[tt.field]; !ok || !strings.Contains(p, tt.says) {
			t.Errorf("%s: problems %v, want %s saying %q", tt.name, got, tt.field, tt.says)
		}
	}
}

// A stepwise or calendar lane takes the general path: it shares no requests
// with the bare lanes of its kind (sharingLanes), and its decider has no
// direct path (no Admit of its own).
func TestStepOptionsTakeTheGeneralPath(t *testing.T) {
	sharedAlways = true
	defer func() { sharedAlways = false }()
	cfg := optionsWorld([]LaneKind{LaneTokenBucket, LaneTokenBucket, LaneFixedWindow, LaneFixedWindow},
		LaneOptions{}, LaneOptions{Stepwise: true}, LaneOptions{}, LaneOptions{AlignCalendar: true})
	cfg = cfg.withDefaults()
	pop, err := newPopulation(t.Context(), cfg.Clients, cfg.Limits)
	if err != nil {
		t.Fatal(err)
	}
	if got := sharingLanes(&cfg, Options{}, pop); len(got) != 2 || got[0] != 0 || got[1] != 2 {
		t.Errorf("sharingLanes = %v, want [0 2]: the stepwise and calendar lanes apart", got)
	}
	for _, i := range []int{1, 3} {
		d, err := newDecider(cfg.laneConfig(i).ruleOf(cfg.Lanes[i], 0), cfg.policy(i, 0), 1)
		if err != nil {
			t.Fatal(err)
		}
		if dt, ok := d.(interface{ direct() directTable }); !ok || dt.direct() != nil {
			t.Errorf("lane %d: decider %T has a direct path", i, d)
		}
	}
}
