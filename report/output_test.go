package report

import (
	"bytes"
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/contention"
	"github.com/rlsim/rlsim/internal/golden"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// checkGolden compares got with the file testdata/name at the repository's root.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("..", "testdata", name), got)
}

// sample is a hand-built result, so that the table's layout is tested apart from sim.
func sample() Run {
	s := &scenarios.Scenario{Name: "sample", Description: "a hand-built result"}
	lane := func(k sim.LaneKind, admitted, refused, delayed, peak int64) sim.LaneResult {
		return sim.LaneResult{Lane: k, Name: k.String(), Policy: algorithms.Policy{Limit: 10, Window: time.Second}, Attempts: admitted + refused, Unique: 20, Admitted: admitted, Refused: refused,
			Delayed: delayed, Succeeded: admitted, Delay: sim.Percentiles{Count: delayed, P99: 900 * time.Millisecond, Max: 950 * time.Millisecond},
			Peak:               sim.WindowPeak{Count: peak, Start: 900 * time.Millisecond, End: 1900 * time.Millisecond, Key: "global", Limit: 10, Ratio: float64(peak) / 10},
			RetryAmplification: float64(admitted+refused) / 20, Fairness: 1, ClassFairness: 1,
			Verdicts: uint64(admitted*100 + refused + delayed*10000),
			Classes:  []sim.ClassResult{{Name: "users", Unique: 15, Succeeded: admitted - 5}, {Name: "abuser", Unique: 5, Succeeded: 5}}}
	}
	r := &sim.Result{Name: "sample", Seed: 1, Duration: 3 * time.Second,
		Limits: []sim.Limit{{Name: "global", Key: sim.KeyGlobal, Policy: algorithms.Policy{Limit: 10, Window: time.Second}}},
		Lanes: []sim.LaneResult{
			lane(sim.LaneFixedWindow, 20, 0, 0, 20),
			lane(sim.LaneSlidingLog, 10, 10, 0, 10),
			lane(sim.LaneTokenBucket, 11, 9, 0, 11),
			lane(sim.LaneGCRA, 11, 9, 0, 11),
			lane(sim.LaneLeakyBucket, 12, 8, 11, 10),
			lane(sim.LaneTokenBucket, 15, 5, 0, 15),
		}}
	variant := &r.Lanes[len(r.Lanes)-1] // a variant: the token bucket with a burst of 15
	variant.Name, variant.Policy.Burst = "tb-burst-15", 15
	return Run{Scenario: s, Result: r}
}

func sampleContention() Run {
	c := &contention.Config{Seed: 1, Clients: []int{10, 20}, Jitters: []sim.JitterKind{sim.JitterNone, sim.JitterFull},
		Base: 5 * time.Millisecond, Cap: 2 * time.Second, Runs: 3}
	r := &contention.Result{Rows: []contention.Row{
		{Clients: 10, Jitter: sim.JitterNone, Runs: 3, Calls: 46, CallsLow: 40, CallsHigh: 52,
			Completion: 1240 * time.Millisecond, CompletionLow: 1000 * time.Millisecond, CompletionHigh: 1480 * time.Millisecond},
		{Clients: 20, Jitter: sim.JitterNone, Runs: 3, Calls: 161, CallsLow: 150, CallsHigh: 172,
			Completion: 14800 * time.Millisecond, CompletionLow: 13 * time.Second, CompletionHigh: 16600 * time.Millisecond},
		{Clients: 10, Jitter: sim.JitterFull, Runs: 3, Calls: 42, CallsLow: 39, CallsHigh: 45,
			Completion: 447 * time.Millisecond, CompletionLow: 400 * time.Millisecond, CompletionHigh: 494 * time.Millisecond},
		{Clients: 20, Jitter: sim.JitterFull, Runs: 3, Calls: 113, CallsLow: 100, CallsHigh: 126,
			Completion: 1130 * time.Millisecond, CompletionLow: 1 * time.Second, CompletionHigh: 1260 * time.Millisecond},
	}}
	return Run{Scenario: &scenarios.Scenario{Name: "contention", Contention: c}, Contention: r}
}

func TestOutputGolden(t *testing.T) {
	tests := []struct {
		name   string
		write  func(*bytes.Buffer, []Run) error
		golden string
		in     []Run
	}{
		{"table", func(b *bytes.Buffer, o []Run) error { return WriteTable(b, o) }, "run_table.golden", []Run{sample()}},
		{"contention table", func(b *bytes.Buffer, o []Run) error { return WriteTable(b, o) }, "run_contention.golden", []Run{sampleContention()}},
		{"table at 80 columns", func(b *bytes.Buffer, o []Run) error { return WriteTableFit(b, o, 80) }, "run_table_80.golden", []Run{sample()}},
		{"table at 40 columns", func(b *bytes.Buffer, o []Run) error { return WriteTableFit(b, o, 40) }, "run_table_40.golden", []Run{sample()}},
		{"csv", func(b *bytes.Buffer, o []Run) error { return WriteCSV(b, o) }, "run_csv.golden", []Run{sample()}},
		{"json", func(b *bytes.Buffer, o []Run) error { return WriteJSON(b, o) }, "run_json.golden", []Run{sample(), sampleContention()}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.write(&b, tc.in); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, tc.golden, b.Bytes())
		})
	}
}

func TestFindings(t *testing.T) {
	got := Findings(*sample().Result)
	want := []string{
		"fixed window admitted 20 in the 1s window from t=900ms (key global): 2× the limit of 10, refusing nothing",
		"tb-burst-15 admitted 15 in the 1s window from t=900ms (key global): 1.5× the limit of 10",
		"token bucket and GCRA admitted 11 in the 1s window from t=900ms (key global): 1.1× the limit of 10",
		"token bucket and GCRA made the same decision on every attempt (11 admitted, 9 refused)",
		"fixed window limited nothing in this scenario: it admitted every attempt at once",
		"leaky bucket delayed 11 requests instead of refusing them (p99 wait 900ms, longest 950ms)",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestHuman(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "0"}, {500, "500ns"}, {850 * time.Microsecond, "850µs"}, {12500 * time.Microsecond, "12.5ms"},
		{950 * time.Millisecond, "950ms"}, {1250 * time.Millisecond, "1.25s"}, {3 * time.Second, "3s"},
		{150 * time.Second, "2m30s"}, {2 * time.Minute, "2m"},
		{999960 * time.Microsecond, "1s"}, {999960 * time.Nanosecond, "1ms"}, {59996 * time.Millisecond, "1m"},
		{999940 * time.Microsecond, "999.9ms"},
	}
	for _, tc := range tests {
		if got := FormatDuration(tc.d); got != tc.want {
			t.Errorf("FormatDuration(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

// At 80 columns every built-in's table, description and findings fit without
// wrapping, the lane, admitted, refused and vs-limit columns stay, and nothing
// of the full layout but whole columns and line breaks is lost.
func TestBuiltinsFitEightyColumns(t *testing.T) {
	for _, b := range scenarios.Builtins() {
		t.Run(b.Name, func(t *testing.T) {
			s, err := scenarios.LoadBuiltin(b.Name)
			if err != nil {
				t.Fatal(err)
			}
			run := Run{Scenario: s}
			if s.Config != nil {
				r, err := sim.Run(context.Background(), *s.Config, sim.Options{})
				if err != nil {
					t.Fatal(err)
				}
				run.Result = &r
			} else {
				c := *s.Contention
				c.Runs = 1
				r, err := contention.Run(context.Background(), c)
				if err != nil {
					t.Fatal(err)
				}
				run.Contention = &r
			}
			var narrow, wide bytes.Buffer
			if err := WriteTableFit(&narrow, []Run{run}, 80); err != nil {
				t.Fatal(err)
			}
			if err := WriteTable(&wide, []Run{run}); err != nil {
				t.Fatal(err)
			}
			for i, line := range strings.Split(narrow.String(), "\n") {
				if n := utf8.RuneCountInString(line); n > 80 {
					t.Errorf("line %d is %d columns wide: %q", i+1, n, line)
				}
			}
			if run.Result != nil {
				head := strings.SplitN(narrow.String(), "\nlane ", 2)[1]
				head = "lane " + head[:strings.Index(head, "\n")]
				for _, col := range []string{"lane", "admitted", "refused", "vs limit"} {
					if !strings.Contains(head, col) {
						t.Errorf("the 80-column table lost %q: %q", col, head)
					}
				}
			}
			words := func(s string) string { return strings.Join(strings.Fields(s), " ") }
			for _, f := range findingsOf(run) {
				if !strings.Contains(words(narrow.String()), words(f)) {
					t.Errorf("finding lost at 80 columns: %q", f)
				}
				if !strings.Contains(wide.String(), "  - "+f+"\n") {
					t.Errorf("finding not on one line in the full layout: %q", f)
				}
			}
		})
	}
}

func findingsOf(run Run) []string {
	if run.Contention != nil {
		return ContentionFindings(*run.Contention)
	}
	return run.Findings()
}
