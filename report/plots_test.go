package report

import (
	"context"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"gonum.org/v1/plot/cmpimg"
	"gonum.org/v1/plot/plotter"

	"github.com/rlsim/rlsim/internal/golden"
	"github.com/rlsim/rlsim/report/chart"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

const ms1 = time.Millisecond

// tinyTimeline is a 2s run of one lane fed by hand: columns are 1ms wide.
func tinyTimeline(records ...sim.TraceRecord) *Timeline {
	tl := &Timeline{End: 2 * time.Second, TickCap: 3}
	for i := range records {
		tl.Record(&records[i])
	}
	return tl
}

func TestTimelineKeepsTicksUpToItsCapThenAggregates(t *testing.T) {
	tb, gcra := 0, 1 // the lanes' indices
	tl := tinyTimeline(
		sim.TraceRecord{At: 0, LaneIndex: tb, Event: sim.TraceAdmit, Client: 1, Key: "k"},
		sim.TraceRecord{At: 1500 * time.Microsecond, LaneIndex: tb, Event: sim.TraceRefuse, RetryAfter: 7 * ms1, Limit: "global"},
		sim.TraceRecord{At: 5 * time.Second, LaneIndex: tb, Event: sim.TraceDelay}, // past End: the last column
		sim.TraceRecord{At: 3 * ms1, LaneIndex: tb, Event: sim.TraceSuccess, Latency: 40 * ms1},
		sim.TraceRecord{At: 3 * ms1, LaneIndex: gcra, Event: sim.TraceShed},
	)
	ticks, ok := tl.Ticks(tb)
	if !ok || len(ticks) != 3 || ticks[1].RetryAfter != 7*ms1 || ticks[1].Limit != "global" || ticks[0].Key != "k" {
		t.Fatalf("Ticks(token bucket) = %+v, %v; want the three attempts exactly", ticks, ok)
	}
	cols := tl.Columns(tb)
	if cols[0] != (Column{Admitted: 1}) || cols[1] != (Column{Refused: 1}) || cols[TimelineColumns-1] != (Column{Delayed: 1}) {
		t.Errorf("columns 0, 1, last = %+v %+v %+v", cols[0], cols[1], cols[TimelineColumns-1])
	}
	mean, longest := tl.Latency(tb)
	if mean[3] != 40*ms1 || longest[3] != 40*ms1 {
		t.Errorf("latency in column 3 = %v, %v; want 40ms", mean[3], longest[3])
	}
	tl.Record(&sim.TraceRecord{At: 4 * ms1, LaneIndex: tb, Event: sim.TraceAdmit})
	if ticks, ok := tl.Ticks(tb); ok || ticks != nil {
		t.Errorf("after a fourth attempt (cap 3): Ticks = %d ticks, %v; want none, false", len(ticks), ok)
	}
	if got := tl.Columns(tb)[4]; got != (Column{Admitted: 1}) {
		t.Errorf("column 4 after the cap = %+v, want still counted", got)
	}
	if _, ok := tl.Ticks(gcra); !ok {
		t.Error("GCRA lost its ticks to the token bucket's cap")
	}
	if tl.Last() != 5*time.Second {
		t.Errorf("Last() = %v, want 5s", tl.Last())
	}
}

func TestLaneBins(t *testing.T) {
	tb := 2 // the lane's index
	tl := tinyTimeline(
		sim.TraceRecord{At: 0, LaneIndex: tb, Event: sim.TraceAdmit},
		sim.TraceRecord{At: 4 * ms1, LaneIndex: tb, Event: sim.TraceRefuse},
		sim.TraceRecord{At: 5 * ms1, LaneIndex: tb, Event: sim.TraceDrop},
		sim.TraceRecord{At: 1999 * ms1, LaneIndex: tb, Event: sim.TraceShed},
	)
	got := laneBins(tl, tb, 400) // 5 columns, 5ms, per bin
	want := []bin{
		{Start: 0, End: 0.005, Column: Column{Admitted: 1, Refused: 1}},
		{Start: 0.005, End: 0.01, Column: Column{Dropped: 1}},
		{Start: 1.995, End: 2, Column: Column{Shed: 1}},
	}
	if len(got) != len(want) {
		t.Fatalf("laneBins = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].Column != want[i].Column || !near(got[i].Start, want[i].Start) || !near(got[i].End, want[i].End) {
			t.Errorf("bin %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

func TestTrailingRate(t *testing.T) {
	// 100ms buckets, a 300ms window: each point sums the last three buckets / 0.3s.
	pts := func(admitted ...int64) []sim.Point {
		var s []sim.Point
		for i, a := range admitted {
			s = append(s, sim.Point{Start: time.Duration(i) * 100 * ms1, Admitted: a})
		}
		return s
	}
	// Drawn over 8 buckets, past the series' end: the line falls back to zero.
	got := trailingRate(pts(3, 0, 6, 3, 0), 100*ms1, 300*ms1, admittedOf, 8)
	want := plotter.XYs{{X: 0.1, Y: 10}, {X: 0.2, Y: 10}, {X: 0.3, Y: 30}, {X: 0.4, Y: 30}, {X: 0.5, Y: 30},
		{X: 0.6, Y: 10}, {X: 0.7, Y: 0}, {X: 0.8, Y: 0}}
	if len(got) != len(want) {
		t.Fatalf("trailingRate drew %d points, want %d", len(got), len(want))
	}
	for i := range want {
		if !near(got[i].X, want[i].X) || !near(got[i].Y, want[i].Y) {
			t.Errorf("trailingRate point %d = %v, want %v", i, got[i], want[i])
		}
	}
}

func TestPlotPoints(t *testing.T) {
	r := *sample().Result
	aimd := r.Lanes[0] // admitted all 20 of 20 attempts: limited nothing
	aimd.Lane = sim.LaneAIMD
	withAIMD := r
	withAIMD.Lanes = append(slices.Clone(r.Lanes), aimd)
	values, judged := peakBars(withAIMD)
	if !reflect.DeepEqual(values, plotter.Values{20, 10, 11, 11, 10, 15, 20}) ||
		!reflect.DeepEqual(judged, []barJudgement{barOver, barWithin, barOver, barOver, barWithin, barOver, barNotLimiting}) {
		t.Errorf("peakBars = %v, %v", values, judged)
	}
	r.Lanes[0].AllDoneAt, r.Lanes[1].AllDoneAt = 1500*ms1, 3*time.Second
	if got := workPoints(r)[:2]; !reflect.DeepEqual(got, plotter.XYs{{X: 1.5, Y: 20}, {X: 3, Y: 20}}) {
		t.Errorf("workPoints = %v", got)
	}
	names, shares := classShares(r)
	// users: 15 unique, admitted-5 succeeded; abuser: 5 of 5.
	if !reflect.DeepEqual(names, []string{"users", "abuser"}) || !near(shares[0][0], 100) || !near(shares[0][1], 100.0/3) || !near(shares[1][4], 100) {
		t.Errorf("classShares = %v, %v", names, shares)
	}
	series := []sim.Point{{Start: 0, InFlight: 2}, {Start: 50 * ms1, InFlight: 7}}
	if got := inFlightPoints(series); !reflect.DeepEqual(got, plotter.XYs{{X: 0, Y: 2}, {X: 0.05, Y: 7}}) {
		t.Errorf("inFlightPoints = %v", got)
	}
	jitters, calls, completion := contentionLines(*sampleContention().Contention)
	if !reflect.DeepEqual(jitters, []sim.JitterKind{sim.JitterNone, sim.JitterFull}) ||
		!reflect.DeepEqual(calls[1], plotter.XYs{{X: 10, Y: 42}, {X: 20, Y: 113}}) ||
		!reflect.DeepEqual(completion[0], plotter.XYs{{X: 10, Y: 1.24}, {X: 20, Y: 14.8}}) {
		t.Errorf("contentionLines = %v %v %v", jitters, calls, completion)
	}
}

func TestLatencyPoints(t *testing.T) {
	tb := 1 // the lane's index
	tl := tinyTimeline(
		sim.TraceRecord{At: 1 * ms1, LaneIndex: tb, Event: sim.TraceSuccess, Latency: 10 * ms1},
		sim.TraceRecord{At: 9 * ms1, LaneIndex: tb, Event: sim.TraceSuccess, Latency: 30 * ms1},
		sim.TraceRecord{At: 25 * ms1, LaneIndex: tb, Event: sim.TraceSuccess, Latency: 5 * ms1},
	)
	mean, longest := latencyPoints(tl, tb, 200) // 10ms bins
	if !reflect.DeepEqual(mean, plotter.XYs{{X: 0.005, Y: 20}, {X: 0.025, Y: 5}}) ||
		!reflect.DeepEqual(longest, plotter.XYs{{X: 0.005, Y: 30}, {X: 0.025, Y: 5}}) {
		t.Errorf("latencyPoints = %v, %v", mean, longest)
	}
}

// goldenPNG compares a figure with testdata/name, within a small tolerance so
// that a font rasteriser's rounding does not fail it.
func goldenPNG(t *testing.T, name string, f *chart.Figure) {
	t.Helper()
	got, err := f.PNG()
	if err != nil {
		t.Fatal(err)
	}
	golden.CheckFunc(t, filepath.Join("..", "testdata", name), got, func(got, want []byte) (bool, error) {
		return cmpimg.EqualApprox("png", got, want, 0.05)
	})
}

func TestGoldenPNGs(t *testing.T) {
	r := *sample().Result
	tl := &Timeline{End: 3 * time.Second, TickCap: 100}
	for i, l := range r.Lanes {
		for k := range 20 {
			ev := sim.TraceAdmit
			if int64(k) >= l.Admitted {
				ev = sim.TraceRefuse
			}
			if l.Lane == sim.LaneLeakyBucket && ev == sim.TraceAdmit && k%2 == 1 {
				ev = sim.TraceDelay
			}
			tl.Record(&sim.TraceRecord{At: time.Duration(900+10*k+i)*ms1 + time.Duration(k/10)*100*ms1, Lane: l.Lane, LaneIndex: i, Event: ev})
		}
	}
	goldenPNG(t, "report_timeline.png", TimelineFigure(r, tl))
	goldenPNG(t, "report_peak.png", PeakFigure(r))
}

func TestFiguresChooseWhatTheScenarioIsAbout(t *testing.T) {
	names := func(run Run) []string {
		var out []string
		for _, f := range Figures(run) {
			out = append(out, f.Name)
		}
		return out
	}
	plain := sample()
	plain.Result.Lanes = plain.Result.Lanes[:1]
	plain.Result.Lanes[0].Classes = plain.Result.Lanes[0].Classes[:1]
	plain.Result.Lanes[0].RetryAmplification = 1
	if got := names(plain); !reflect.DeepEqual(got, []string{"rate", "peak"}) {
		t.Errorf("plain comparison: %v", got)
	}
	full := sample()
	full.Timeline = &Timeline{End: time.Second, TickCap: 1}
	full.Result.Lanes[0].Backend.Served = 1
	full.Result.Lanes[0].RetryAmplification = 2
	if got := names(full); !reflect.DeepEqual(got, []string{"timeline", "rate", "peak", "attempts", "work", "latency", "inflight", "classes"}) {
		t.Errorf("retries, backend and classes: %v", got)
	}
	if got := names(sampleContention()); !reflect.DeepEqual(got, []string{"contention"}) {
		t.Errorf("contention: %v", got)
	}
}

// On every built-in, each lane's admitted-rate line, times the window, never
// shows more than the table's most admitted in any window (boundary-burst's
// leaky bucket once drew 11 against a peak of 10: buckets that did not tile the
// window), and every line ends at zero when the lane admitted nothing in the
// last window of the axis.
func TestRateLinesAgreeWithThePeak(t *testing.T) {
	for _, b := range scenarios.Builtins() {
		s, err := scenarios.LoadBuiltin(b.Name)
		if err != nil {
			t.Fatal(err)
		}
		if s.Config == nil || len(s.Config.Limits) == 0 || s.Config.Limits[0].Key != sim.KeyGlobal {
			continue
		}
		r, err := sim.Run(context.Background(), *s.Config, sim.Options{})
		if err != nil {
			t.Fatal(err)
		}
		_, window, _, _ := firstLimit(r)
		k := int(window / r.Bucket)
		for _, l := range r.Lanes {
			line := trailingRate(l.Series, r.Bucket, window, admittedOf, buckets(r))
			for _, pt := range line {
				if got := math.Round(pt.Y * window.Seconds()); got > float64(l.Peak.Count) {
					t.Errorf("%s, %s: the rate line shows %v in one window at t=%vs; the table's peak is %d",
						b.Name, l.Title(), got, pt.X, l.Peak.Count)
					break
				}
			}
			quiet := true
			for i := max(0, len(line)-k); i < len(l.Series); i++ {
				quiet = quiet && l.Series[i].Admitted == 0
			}
			if last := line[len(line)-1]; quiet && last.Y != 0 {
				t.Errorf("%s, %s: admissions stopped, but the line ends at %v", b.Name, l.Title(), last.Y)
			}
		}
	}
}

// Lanes whose dots coincide share one label, so none hides unnamed behind another.
func TestCoincidentPointsShareALabel(t *testing.T) {
	pl := pointLabels{pts: plotter.XYs{{X: 1, Y: 5}, {X: 2, Y: 3}, {X: 1, Y: 5}}, names: []string{"token bucket", "sliding log", "GCRA"}}
	pts, names := pl.merged()
	if !reflect.DeepEqual(pts, plotter.XYs{{X: 1, Y: 5}, {X: 2, Y: 3}}) || !reflect.DeepEqual(names, []string{"token bucket and GCRA", "sliding log"}) {
		t.Errorf("merged = %v, %q", pts, names)
	}
}
