package report

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// The timeline JSON's header, recomputed from the result and the timeline: the
// axis ends 1% past the later of the traffic's end and the last record (a
// drain's record past the end widens it), a column is the timeline's width,
// each limit and rule push is told, and each lane's peak, limit and refusal
// status (429 when the lane names none) are its result's.
func TestTimelineJSONHeaderFromTheResult(t *testing.T) {
	for _, last := range []time.Duration{time.Second, 4*time.Second + 7*time.Millisecond} {
		run := sample() // 3s of traffic
		r := run.Result
		r.Rules = []sim.RuleChange{{At: 1500 * time.Millisecond, Limit: 0, Policy: algorithms.Policy{Limit: 20, Window: time.Second}}}
		r.Lanes[2].RefusalStatus = 503
		// the latest record in the first lane, an earlier one in a later lane
		tl := tinyTimeline(sim.TraceRecord{At: last, LaneIndex: 0, Event: sim.TraceRefuse},
			sim.TraceRecord{At: 10 * time.Millisecond, LaneIndex: 2, Event: sim.TraceAdmit})
		tj := newTimelineJSON(*r, tl)
		end := max(r.Duration, last)
		if want := int64(end*101/100) / 1000; tj.EndUS != want {
			t.Errorf("last record at %v: end_us %d, want %d (1%% past %v)", last, tj.EndUS, want, end)
		}
		if want := int64(tl.End+TimelineColumns-1) / TimelineColumns / 1000; tj.ColUS != want {
			t.Errorf("col_us %d, want %d", tj.ColUS, want)
		}
		if tj.Columns != TimelineColumns || tj.TickCap != tl.TickCap {
			t.Errorf("columns %d, tick_cap %d; want %d, %d", tj.Columns, tj.TickCap, TimelineColumns, tl.TickCap)
		}
		if len(tj.Limits) != len(r.Limits) {
			t.Fatalf("limits %+v, want %d", tj.Limits, len(r.Limits))
		}
		for i, l := range r.Limits {
			if got := tj.Limits[i]; got.Name != l.Name || got.Limit != l.Policy.Limit || got.WindowUS != l.Policy.Window.Microseconds() {
				t.Errorf("limits[%d] = %+v, want %s %d per %dus", i, got, l.Name, l.Policy.Limit, l.Policy.Window.Microseconds())
			}
		}
		if len(tj.Rules) != 1 || tj.Rules[0].AtUS != 1500_000 || tj.Rules[0].Label != ruleLabel(*r, r.Rules[0]) {
			t.Errorf("rules %+v, want one at 1500000us labelled %q", tj.Rules, ruleLabel(*r, r.Rules[0]))
		}
		if len(tj.Lanes) != len(r.Lanes) {
			t.Fatalf("%d lanes, want %d", len(tj.Lanes), len(r.Lanes))
		}
		for i, l := range r.Lanes {
			lj := tj.Lanes[i]
			refusal := l.RefusalStatus
			if refusal == 0 {
				refusal = sim.StatusTooManyRequests
			}
			if lj.Lane != l.Name || lj.Algorithm != l.Lane.String() || lj.Title != l.Title() || lj.Peak != l.Peak.Count ||
				lj.Limit != l.Peak.Limit || lj.PeakS != [2]int64{l.Peak.Start.Microseconds(), l.Peak.End.Microseconds()} || lj.Refusal != refusal {
				t.Errorf("lanes[%d] = %+v, want %s (%s) peak %d of %d in [%v, %v), refusing %d", i, lj, l.Name, l.Lane, l.Peak.Count, l.Peak.Limit,
					l.Peak.Start, l.Peak.End, refusal)
			}
		}
	}
}
