package report

import (
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/contention"
	"github.com/rlsim/rlsim/sim"
)

// The shedding finding states the backend's p99, as it says, and no latency
// when the backend served nothing; a lane that shed nothing has no finding.
func TestSheddingStatesTheP99(t *testing.T) {
	shed := func(n, served int64) sim.LaneResult {
		return sim.LaneResult{Lane: sim.LaneTokenBucket, Shed: n, Backend: sim.BackendStats{Served: served,
			Latency: sim.Percentiles{Count: served, P50: 10 * time.Millisecond, P90: 90 * time.Millisecond, P99: 250 * time.Millisecond, Max: time.Second}}}
	}
	got := shedding(sim.Result{Lanes: []sim.LaneResult{shed(7, 40)}})
	if len(got) != 1 || !strings.HasSuffix(got[0], "shed 7 attempts with 503; the backend's p99 latency was 250ms") {
		t.Errorf("shedding(7 shed, 40 served) = %q, want one finding ending in the p99, 250ms", got)
	}
	got = shedding(sim.Result{Lanes: []sim.LaneResult{shed(7, 0)}})
	if len(got) != 1 || strings.Contains(got[0], "latency") || !strings.HasSuffix(got[0], "shed 7 attempts with 503") {
		t.Errorf("shedding(7 shed, 0 served) = %q, want one finding without a latency", got)
	}
	if got := shedding(sim.Result{Lanes: []sim.LaneResult{shed(0, 40)}}); len(got) != 0 {
		t.Errorf("shedding(0 shed) = %q, want none", got)
	}
}

// "Every class was refused alike" needs two classes or more within ten points
// of each other and the best of them under 90%: a spread of 0.92 and 0.85 is
// close, but the best class was served well.
func TestRefusedAlikeNeedsTheBestUnder90(t *testing.T) {
	class := func(name string, succeeded, unique int64) sim.ClassResult {
		return sim.ClassResult{Name: name, Clients: 1, Unique: unique, Succeeded: succeeded, FairShare: float64(max(succeeded, 1))}
	}
	for _, tc := range []struct {
		name    string
		classes []sim.ClassResult
		alike   bool
	}{
		{"best at 92%, worst at 85%", []sim.ClassResult{class("a", 92, 100), class("b", 85, 100)}, false},
		{"best at 85%, worst at 80%", []sim.ClassResult{class("a", 85, 100), class("b", 80, 100)}, true},
		{"best at 89%, worst at 81%", []sim.ClassResult{class("a", 81, 100), class("b", 89, 100)}, true},
		{"best at 85%, worst at 70%", []sim.ClassResult{class("a", 85, 100), class("b", 70, 100)}, false},
		{"best at 90%, worst at 85%", []sim.ClassResult{class("a", 90, 100), class("b", 85, 100)}, false},
		{"one class with requests", []sim.ClassResult{class("a", 50, 100), class("b", 0, 0)}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := sim.LaneResult{Lane: sim.LaneTokenBucket, Classes: tc.classes}
			got := classGaps(sim.Result{Lanes: []sim.LaneResult{l}})
			alike := false
			for _, s := range got {
				alike = alike || strings.Contains(s, "every class was refused alike")
			}
			if alike != tc.alike {
				t.Errorf("classGaps = %q, refused alike %v, want %v", got, alike, tc.alike)
			}
		})
	}
}

// FormatDuration rounds a minute or more to the nearest second.
func TestFormatDurationRoundsMinutes(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{90*time.Second + 600*time.Millisecond, "1m31s"},
		{90*time.Second + 400*time.Millisecond, "1m30s"},
		{119*time.Second + 600*time.Millisecond, "2m"},
		{time.Minute + 500*time.Millisecond, "1m1s"},
		{time.Minute + 499*time.Millisecond, "1m"},
		{time.Hour + 59*time.Minute + 59*time.Second + 700*time.Millisecond, "2h0m"},
	} {
		if got := FormatDuration(tc.d); got != tc.want {
			t.Errorf("FormatDuration(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

// Tied calls keep the first kind met, at both ends: a tie with the worst does
// not replace it, nor a tie with the best.
func TestContentionTiesKeepTheFirstMet(t *testing.T) {
	row := func(j sim.JitterKind, calls float64) contention.Row {
		return contention.Row{Clients: 10, Jitter: j, Runs: 1, Calls: calls, CallsLow: calls, CallsHigh: calls}
	}
	for _, tc := range []struct {
		name        string
		rows        []contention.Row
		best, worst sim.JitterKind
	}{
		{"tied worst", []contention.Row{row(sim.JitterNone, 10), row(sim.JitterFull, 20), row(sim.JitterEqual, 20)}, sim.JitterNone, sim.JitterFull},
		{"tied best", []contention.Row{row(sim.JitterFull, 10), row(sim.JitterEqual, 10), row(sim.JitterNone, 20)}, sim.JitterFull, sim.JitterNone},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ContentionFindings(contention.Result{Rows: tc.rows})
			want := "at 10 clients, " + jitterPhrase(tc.best) + " needed 10 write calls and " + jitterPhrase(tc.worst) + " 20, but from one run each"
			if len(got) != 1 || !strings.HasPrefix(got[0], want) {
				t.Errorf("ContentionFindings = %q, want one starting %q", got, want)
			}
		})
	}
	all := []contention.Row{row(sim.JitterNone, 10), row(sim.JitterFull, 10)}
	if got := ContentionFindings(contention.Result{Rows: all}); len(got) != 0 {
		t.Errorf("ContentionFindings(all tied) = %q, want none: the first met is both best and worst", got)
	}
}

// Only the first lane that refused every class alike is named.
func TestRefusedAlikeNamesTheFirstLane(t *testing.T) {
	alike := func(k sim.LaneKind) sim.LaneResult {
		return sim.LaneResult{Lane: k, Classes: []sim.ClassResult{
			{Name: "a", Clients: 1, Unique: 100, Succeeded: 50, FairShare: 50},
			{Name: "b", Clients: 1, Unique: 100, Succeeded: 52, FairShare: 52},
		}}
	}
	got := classGaps(sim.Result{Lanes: []sim.LaneResult{alike(sim.LaneFixedWindow), alike(sim.LaneTokenBucket)}})
	want := "under " + sim.LaneFixedWindow.Title() + ", every class was refused alike: a 50%, b 52% succeeded"
	if len(got) != 1 || got[0] != want {
		t.Errorf("classGaps(two alike lanes) = %q, want only %q", got, want)
	}
}
