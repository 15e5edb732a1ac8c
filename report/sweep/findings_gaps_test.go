package sweep

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/run/sweep"
	"github.com/rlsim/rlsim/sim"
)

// twoLanes is a run of a token-bucket and a fixed-window lane, each of two
// classes, with tb and fw of 10 requests of each class succeeding.
func twoLanes(tb, fw int64, classes ...string) *sim.Result {
	lane := func(k sim.LaneKind, ok int64, peak int64) sim.LaneResult {
		l := sim.LaneResult{Lane: k, Name: k.String(), Unique: 10 * int64(len(classes)), Attempts: 10 * int64(len(classes)),
			Succeeded: ok * int64(len(classes)), Peak: sim.WindowPeak{Count: peak, Limit: 10, Ratio: float64(peak) / 10}}
		for _, c := range classes {
			l.Classes = append(l.Classes, sim.ClassResult{Name: c, Unique: 10, Attempts: 10, Succeeded: ok})
		}
		return l
	}
	return &sim.Result{Duration: time.Second, Lanes: []sim.LaneResult{lane(sim.LaneTokenBucket, tb, 12), lane(sim.LaneFixedWindow, fw, 10)}}
}

func sweepOf(points ...[]*sim.Result) Report {
	r := &sweep.Result{Header: sweep.Header{Scenario: "s", Seed: 1, Seeds: len(points[0]), PointCount: len(points)}}
	for pi, seeds := range points {
		pt := sweep.PointResult{Index: pi}
		for si, res := range seeds {
			pt.Runs = append(pt.Runs, sweep.SeedRun{Seed: uint64(si + 1), Lanes: run.Measure(res)})
		}
		r.Points = append(r.Points, pt)
	}
	if len(points) > 1 {
		r.Varies = []sweep.Vary{{Path: "limits[0].limit", Values: []string{"10", "20"}}}
		r.Points[0].Values, r.Points[1].Values = []string{"10"}, []string{"20"}
	}
	return New(r, nil)
}

// The findings over seeds: one line for all clients, one per class when
// there are two or more, and the peak against the limit; none for a sweep of
// several points or of one lane.
func TestSweepFindingsWhichLines(t *testing.T) {
	one := sweepOf([]*sim.Result{twoLanes(9, 5, "api", "web")})
	got := one.Findings()
	want := []string{
		"all clients: success: token bucket kept success at 90.0%, fixed window at 50.0%; one seed measures no spread to weigh the difference against",
		"api: success: token bucket kept success at 90.0%, fixed window at 50.0%; one seed measures no spread to weigh the difference against",
		"web: success: token bucket kept success at 90.0%, fixed window at 50.0%; one seed measures no spread to weigh the difference against",
		"most admitted in any window vs limit: token bucket peaked at 1.20, fixed window at 1.00; one seed measures no spread to weigh the difference against",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := sweepOf([]*sim.Result{twoLanes(9, 5, "all")}).Findings(); len(got) != 2 || strings.HasPrefix(got[1], "all:") {
		t.Errorf("one class: %q, want the all-clients line and the peak only", got)
	}
	if got := sweepOf([]*sim.Result{twoLanes(9, 5, "api")}, []*sim.Result{twoLanes(9, 5, "api")}).Findings(); got != nil {
		t.Errorf("two points: %q, want none", got)
	}
	single := twoLanes(9, 5, "api")
	single.Lanes = single.Lanes[:1]
	if got := sweepOf([]*sim.Result{single}).Findings(); got != nil {
		t.Errorf("one lane: %q, want none", got)
	}
	nothing := sweepOf([]*sim.Result{twoLanes(9, 5, "api")})
	for i := range nothing.Result.Points[0].Runs[0].Lanes {
		nothing.Result.Points[0].Runs[0].Lanes[i].Totals[run.FigureIndex("success_rate")] = run.Num(math.NaN()) // a figure no seed measured
	}
	if got := nothing.Findings(); len(got) == 0 || got[0] != "all clients: success: nothing measured" {
		t.Errorf("no requests: %q, want \"all clients: success: nothing measured\" first", got)
	}
}

// formatFigure writes each figure in its unit: rates as percentages,
// admitted_rate per second, _s figures as durations, ratios with two
// decimals, counts with one.
func TestFormatFigureUnits(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    float64
		want string
	}{
		{"success_rate", 0.905, "90.5%"}, {"refused_rate", 0.25, "25.0%"}, {"admitted_rate", 12.5, "12.50/s"},
		{"p99_time_to_success_s", 1.5, "1.5s"}, {"p99_delay_s", 0.25, "250ms"},
		{"peak_ratio", 1.234, "1.23"}, {"retry_amplification", 2, "2.00"}, {"fairness", 0.5, "0.50"}, {"attempts", 12.25, "12.2"},
	} {
		if got := formatFigure(tc.name, tc.v); got != tc.want {
			t.Errorf("formatFigure(%s, %v) = %q, want %q", tc.name, tc.v, got, tc.want)
		}
	}
	if got := formatSpread("success_rate", sweep.Spread{N: 2, Mean: 0.9, Half: 0.05}, 2); got != "90.0% ± 5.0%" {
		t.Errorf("formatSpread over 2 seeds = %q", got)
	}
	if got := formatSpread("success_rate", sweep.Spread{N: 1, Mean: 0.9}, 1); got != "90.0%" {
		t.Errorf("formatSpread of 1 seed = %q", got)
	}
}
