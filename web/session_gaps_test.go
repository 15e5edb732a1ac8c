package web

import (
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// A frame lists a scheduled rule push from its instant on (at = now
// included), never before.
func TestFrameRulesFromTheirInstant(t *testing.T) {
	sess := builtinSession(t, "shadow-rollout")
	const at = 30 * time.Second
	if err := sess.sim.RunUntil(at - 1); err != nil {
		t.Fatal(err)
	}
	if f := sess.frame(); len(f.Rules) != 0 {
		t.Errorf("a nanosecond before the push at 30s: rules %+v, want none", f.Rules)
	}
	if err := sess.sim.RunUntil(at); err != nil {
		t.Fatal(err)
	}
	if f := sess.frame(); len(f.Rules) != 1 || f.Rules[0].At != int64(at) || !strings.HasPrefix(f.Rules[0].Text, "per-user") {
		t.Errorf("at 30s: rules %+v, want the push at 30s of per-user", f.Rules)
	}
}

// A step goes to the end of the count-th column from now: from the middle of
// a column, a step of 1 ends that column.
func TestStepFromMidColumn(t *testing.T) {
	sess := demoSession(t)
	if err := sess.sim.RunUntil(sess.width / 2); err != nil {
		t.Fatal(err)
	}
	if _, err := sess.apply(command{Op: "step", Count: 1}); err != nil {
		t.Fatal(err)
	}
	if got := sess.sim.Now(); got != sess.width {
		t.Errorf("a step of 1 from half a column: now %v, want %v", got, sess.width)
	}
	if _, err := sess.apply(command{Op: "step", Count: maxSteps}); err != nil {
		t.Fatal(err)
	}
	if got, want := sess.sim.Now(), min((1+maxSteps)*sess.width, sess.sim.End()); got != want {
		t.Errorf("then a step of %d: now %v, want %v", maxSteps, got, want)
	}
}

// A burst's spread is clamped to [0, duration − now]: a negative one fires at
// once, one past the end of traffic ends with it, and one exactly to the end
// is kept.
func TestBurstSpreadClamped(t *testing.T) {
	for _, tc := range []struct {
		name   string
		spread func(left time.Duration) time.Duration
		want   func(left time.Duration) time.Duration
	}{
		{"negative", func(time.Duration) time.Duration { return -5 }, func(time.Duration) time.Duration { return 0 }},
		{"zero", func(time.Duration) time.Duration { return 0 }, func(time.Duration) time.Duration { return 0 }},
		{"to the end", func(l time.Duration) time.Duration { return l }, func(l time.Duration) time.Duration { return l }},
		{"past the end", func(l time.Duration) time.Duration { return l + 1 }, func(l time.Duration) time.Duration { return l }},
	} {
		sess := demoSession(t)
		if err := sess.sim.RunUntil(time.Second); err != nil {
			t.Fatal(err)
		}
		left := sess.sim.Config().Duration - sess.sim.Now()
		if _, err := sess.apply(command{Op: "burst", Count: 3, Spread: int64(tc.spread(left))}); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		f := sess.frame()
		if len(f.Bursts) != 1 || f.Bursts[0].Spread != int64(tc.want(left)) || f.Bursts[0].At != int64(time.Second) || f.Bursts[0].Count != 3 {
			t.Errorf("%s spread with %v of traffic left: bursts %+v, want one of 3 at 1s spread over %v", tc.name, left, f.Bursts, tc.want(left))
		}
	}
}

// A rate change names a group from 0 to len(clients)-1; the frame lists each
// one made.
func TestRateGroupBounds(t *testing.T) {
	sess := demoSession(t)
	n := len(sess.sim.Config().Clients)
	for _, tc := range []struct {
		group int
		ok    bool
	}{{-1, false}, {0, true}, {n - 1, true}, {n, false}} {
		_, err := sess.apply(command{Op: "rate", Index: tc.group, Count: 3})
		if (err == nil) != tc.ok {
			t.Errorf("rate of group %d of %d: %v, want accepted %v", tc.group, n, err, tc.ok)
		}
	}
	if f := sess.frame(); len(f.Rates) != 2 {
		t.Errorf("two rate changes made: frame rates %+v", f.Rates)
	}
}

// A finished run takes no play, burst, rule or rate; pause, speed and sample
// still answer.
func TestFinishedRunRefusesChanges(t *testing.T) {
	sess := demoSession(t)
	playToEnd(t, sess)
	for _, c := range []command{
		{Op: "play"}, {Op: "burst", Count: 1}, {Op: "rule", Limit: 5, Window: int64(time.Second)}, {Op: "rate", Index: 0, Count: 1},
	} {
		if _, err := sess.apply(c); err == nil || !strings.Contains(err.Error(), "finished") {
			t.Errorf("%s after the end: %v, want refused as finished", c.Op, err)
		}
	}
	for _, c := range []command{{Op: "pause"}, {Op: "speed", Index: 0}} {
		if _, err := sess.apply(c); err != nil {
			t.Errorf("%s after the end: %v, want it applied", c.Op, err)
		}
	}
}

// Hovering the newest column the frame sent gives its first attempt of each
// mark it counts, with more = the count less one.
func TestSampleTheNewestColumnSent(t *testing.T) {
	sess := demoSession(t)
	if _, err := sess.apply(command{Op: "step", Count: 20}); err != nil {
		t.Fatal(err)
	}
	f := sess.frame()
	cols := f.Lanes[0].Columns
	if len(cols) == 0 {
		t.Fatal("20 columns of the demo: no column sent")
	}
	last := cols[len(cols)-1]
	if last.I != sess.bins.Lane(0).Last() {
		t.Fatalf("the frame's last column %d, the newest written %d", last.I, sess.bins.Lane(0).Last())
	}
	given := 0
	for mark, n := range last.N {
		reply, err := sess.apply(command{Op: "sample", Lane: 0, Column: last.I, Mark: mark})
		switch {
		case n == 0 && err == nil:
			t.Errorf("column %d mark %d with no attempt: sample %+v, want refused", last.I, mark, reply.Sample)
		case n > 0 && (err != nil || reply.Sample == nil):
			t.Errorf("newest column %d mark %d (%d attempts): %v, want its sample", last.I, mark, n, err)
		case n > 0:
			given++
			if s := reply.Sample; s.More != n-1 || s.Mark != sim.Mark(mark).String() || s.At/int64(sess.width) != last.I {
				t.Errorf("newest column %d mark %d: sample %+v, want mark %s, more %d, at in the column", last.I, mark, *s, sim.Mark(mark), n-1)
			}
		}
	}
	if given == 0 {
		t.Errorf("newest column %d counts nothing: %v", last.I, last.N)
	}
}

// A flush sends every column from the first changed to the newest written,
// the newest included, then nothing until a column changes again; a column
// sent again carries its whole count.
func TestFlushUpToTheNewestColumn(t *testing.T) {
	const width = time.Millisecond
	b := newBins(width, []sim.LaneKind{sim.LaneGCRA})
	rec := func(at time.Duration) {
		if err := b.Record(&sim.TraceRecord{Lane: sim.LaneGCRA, At: at, Event: sim.TraceAdmit}); err != nil {
			t.Fatal(err)
		}
	}
	admit := markOf(sim.TraceAdmit)
	rec(2 * width)
	rec(5 * width)
	cols := b.flush(0)
	if len(cols) != 4 || cols[0].I != 2 || cols[3].I != 5 || cols[0].N[admit] != 1 || cols[3].N[admit] != 1 || cols[1].N != ([markKinds]int64{}) {
		t.Errorf("attempts in columns 2 and 5: flushed %+v, want columns 2 to 5, 2 and 5 with one admission", cols)
	}
	if cols := b.flush(0); len(cols) != 0 {
		t.Errorf("nothing new: flushed %+v, want none", cols)
	}
	rec(5*width + width/2)
	if cols := b.flush(0); len(cols) != 1 || cols[0].I != 5 || cols[0].N[admit] != 2 {
		t.Errorf("one more in column 5: flushed %+v, want column 5 with 2", cols)
	}
}

// A column's n counts, in docs/playground.md's order, the attempts admitted
// at once, delayed, refused, shed and dropped; other trace events count in
// none, and a sample's mark is named as sim names it.
func TestColumnCountsInTheDocumentedOrder(t *testing.T) {
	const width = time.Millisecond
	b := newBins(width, []sim.LaneKind{sim.LaneGCRA})
	events := []sim.TraceEvent{sim.TraceAdmit, sim.TraceDelay, sim.TraceRefuse, sim.TraceShed, sim.TraceDrop}
	for i, ev := range events {
		for range i + 1 { // 1 admitted, 2 delayed, ... 5 dropped
			if err := b.Record(&sim.TraceRecord{Lane: sim.LaneGCRA, At: width, Event: ev}); err != nil {
				t.Fatal(err)
			}
		}
	}
	cols := b.flush(0)
	if want := [markKinds]int64{1, 2, 3, 4, 5}; len(cols) != 1 || cols[0].N != want {
		t.Errorf("1 admitted, 2 delayed, 3 refused, 4 shed, 5 dropped in column 1: flushed %+v, want n %v", cols, want)
	}
	for i, name := range []string{"admitted", "delayed", "refused", "shed", "dropped"} {
		if got := sim.Mark(i).String(); got != name {
			t.Errorf("mark %d is %q, docs/playground.md says %q", i, got, name)
		}
	}
}
