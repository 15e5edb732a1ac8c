package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// Each sentence of a lane's verdict in the HTML report appears on one side of
// its condition only.
func TestLaneVerdictSentences(t *testing.T) {
	r := sim.Result{Limits: oneLimit()}
	r.Limits[0].Policy.Window = time.Second
	base := func() sim.LaneResult {
		return sim.LaneResult{Lane: sim.LaneFixedWindow, Attempts: 30, Admitted: 25, Refused: 5,
			Peak: sim.WindowPeak{Count: 10, Limit: 10, Start: 2 * time.Second, Ratio: 1}}
	}
	for _, tc := range []struct {
		name     string
		mod      func(*sim.LaneResult)
		has, not []string
	}{
		{"held", func(*sim.LaneResult) {}, []string{"Never more than 10 in one 1s window (limit 10).", "Admitted 25 of 30 attempts; refused 5 (429)."},
			[]string{"Let ", "Delayed", "dropped", "Retries", "Succeeded:", "unfinished", "replicas"}},
		{"over, with a key", func(l *sim.LaneResult) { l.Peak.Count, l.Peak.Key, l.Peak.Ratio = 15, "u1", 1.5 },
			[]string{"Let 15 through in the 1s window from t=2s (key u1): 1.5× the limit of 10."}, []string{"Never more than"}},
		{"no limit", func(l *sim.LaneResult) { l.Peak.Limit = 0 }, nil, []string{"Never more than", "Let ", "Limited nothing", "Limits requests"}},
		{"concurrency lane over the rate", func(l *sim.LaneResult) { l.Lane, l.Peak.Count = sim.LaneAIMD, 20 },
			[]string{"Limits requests in flight, not a rate: up to 20 admitted in one 1s window, 2× the limit of 10."}, []string{"Let "}},
		{"concurrency lane limiting nothing", func(l *sim.LaneResult) { l.Lane, l.Admitted, l.Refused, l.Peak.Count = sim.LaneAIMD, 30, 0, 20 },
			[]string{"Limited nothing in this scenario: it admitted every attempt at once, up to 20 in one 1s window.", "Admitted 30 of 30 attempts."},
			[]string{"Limits requests", "(429)"}},
		{"shed too", func(l *sim.LaneResult) { l.Admitted, l.Shed = 23, 2 }, []string{"Admitted 23 of 30 attempts; refused 5 (429) and shed 2 (503)."}, nil},
		{"shed only", func(l *sim.LaneResult) { l.Admitted, l.Refused, l.Shed = 28, 0, 2 }, []string{"Admitted 28 of 30 attempts; shed 2 (503)."}, []string{"429"}},
		{"delayed", func(l *sim.LaneResult) { l.Delayed, l.Delay.P99 = 3, 40*time.Millisecond },
			[]string{"Delayed 3 instead of refusing them (p99 wait 40ms)."}, nil},
		{"dropped", func(l *sim.LaneResult) { l.Dropped = 4 }, []string{"Clients dropped 4 locally before sending."}, nil},
		{"retries at 1.2", func(l *sim.LaneResult) { l.RetryAmplification, l.AllDoneAt = 1.2, 3*time.Second },
			[]string{"Retries made it 1.2 attempts per request; all done at t=3s."}, nil},
		{"retries under 1.2", func(l *sim.LaneResult) { l.RetryAmplification = 1.19 }, nil, []string{"Retries"}},
		{"two classes", func(l *sim.LaneResult) {
			l.Classes = []sim.ClassResult{{Name: "a", Unique: 10, Succeeded: 9, FairShare: 9}, {Name: "b", Unique: 10, Succeeded: 8, FairShare: 8}}
		}, []string{"Succeeded: a 90%, b 80%."}, []string{"of its fair share"}},
		{"one class", func(l *sim.LaneResult) { l.Classes = []sim.ClassResult{{Name: "a", Unique: 10, Succeeded: 9}} }, nil, []string{"Succeeded:"}},
		{"starved", func(l *sim.LaneResult) {
			l.Classes = []sim.ClassResult{{Name: "free", Unique: 10, Succeeded: 1, FairShare: 5}, {Name: "paid", Unique: 10, Succeeded: 9, FairShare: 5}}
		}, []string{"Class free got 20% of its fair share of the successes: 10% of its requests succeeded, against 90% for paid."}, nil},
		{"pending", func(l *sim.LaneResult) { l.Pending = 2 }, []string{"2 requests unfinished at the end."}, nil},
	} {
		l := base()
		tc.mod(&l)
		v := laneVerdict(r, l).Text
		for _, s := range tc.has {
			if !strings.Contains(v, s) {
				t.Errorf("%s: verdict %q lacks %q", tc.name, v, s)
			}
		}
		for _, s := range tc.not {
			if strings.Contains(v, s) {
				t.Errorf("%s: verdict %q has %q", tc.name, v, s)
			}
		}
	}
}

// The fleet's sentences of a verdict: the backend's own peak only when it
// differs from the fleet's, the store's latency only when it added some,
// failed calls only when there were any.
func TestFleetVerdictSentences(t *testing.T) {
	topo := func(arrived int64, p99 time.Duration, errs int64) sim.LaneResult {
		return sim.LaneResult{Lane: sim.LaneTokenBucket, Topology: &sim.TopologyResult{Replicas: 3, StoreErrors: errs,
			StoreLatency: sim.Percentiles{Count: 5, P50: time.Millisecond, P99: p99},
			Limits:       []sim.LimitTopology{{Limit: "per_user", Replica: sim.WindowPeak{Count: 4}, Fleet: sim.WindowPeak{Count: 11}, Arrived: sim.WindowPeak{Count: arrived}}}}}
	}
	got := strings.Join(fleetVerdict(topo(11, 0, 0)), " ")
	if got != "Across up to 3 replicas: at most 4 in one window on one replica, 11 across the fleet (per_user)." {
		t.Errorf("a quiet fleet: %q", got)
	}
	got = strings.Join(fleetVerdict(topo(13, 5*time.Millisecond, 7)), " ")
	want := "Across up to 3 replicas: at most 4 in one window on one replica, 11 across the fleet (per_user). " +
		"The backend saw 13 in one window, as the store's answers came back. The store added p50 1ms, p99 5ms to a decision. 7 decisions met a failed store call."
	if got != want {
		t.Errorf("a busy fleet:\n%q\nwant\n%q", got, want)
	}
	if got := fleetVerdict(sim.LaneResult{Lane: sim.LaneAIMD}); got != nil {
		t.Errorf("no topology: %q", got)
	}
}

// The checks section: nothing without checks; otherwise how many passed,
// and per check its verdict, lane, class ("all" for the totals), the check
// as written and what was measured ("none" when nothing was).
func TestChecksSection(t *testing.T) {
	var b bytes.Buffer
	writeChecks(&b, nil, 0)
	if b.Len() != 0 {
		t.Errorf("no checks wrote %q", b.String())
	}
	results := []run.CheckResult{
		{Check: scenarios.Check{Metric: scenarios.SuccessRate, Op: ">=", Want: 0.9, Text: "90%"}, Lane: "token_bucket", Kind: sim.LaneTokenBucket, Got: 0.95, Pass: true},
		{Check: scenarios.Check{Metric: scenarios.P99TimeToSuccess, Op: "<=", Want: 2e9, Text: "2s"}, Lane: "token_bucket", Kind: sim.LaneTokenBucket, Class: "api", None: true},
	}
	writeChecks(&b, results, 0)
	out := b.String()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if lines[0] != "checks: 1 of 2 passed" || len(lines) != 4 {
		t.Fatalf("checks section:\n%s", out)
	}
	pass, fail := strings.Join(strings.Fields(lines[2]), " "), strings.Join(strings.Fields(lines[3]), " ")
	if !strings.HasPrefix(pass, "pass token bucket all success_rate >= 90% ") || !strings.HasPrefix(fail, "FAIL token bucket api p99_time_to_success <= 2s none (no request succeeded)") {
		t.Errorf("rows:\n%s\n%s", pass, fail)
	}
}
