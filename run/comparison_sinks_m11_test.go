package run

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// sinksScenario is a small limiter comparison of two lanes, named sinks.
func sinksScenario(t *testing.T) *scenarios.Scenario {
	t.Helper()
	s, err := scenarios.Parse("dir/sinks.yaml", []byte(`duration: 2s
limits:
  - {key: ip, limit: 5, window: 1s}
lanes: [token_bucket, fixed_window]
clients:
  - arrivals: [{kind: constant, rate: 10/s}]
`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// countingSink counts the records it is handed, per lane and event.
type countingSink struct{ seen map[string]int }

func (c *countingSink) Record(r *sim.TraceRecord) error {
	c.seen[r.Lane.String()+" "+r.Event.String()]++
	return nil
}

// Every record of a run goes to the trace, named by the scenario, and to the
// sink Collect gives for the scenario's config, both or either alone; a nil
// sink from Collect is no sink.
func TestScenarioTracesAndCollectsEveryRecord(t *testing.T) {
	s := sinksScenario(t)
	var alone countingSink
	alone.seen = map[string]int{}
	if _, err := Scenario(context.Background(), s, Options{Collect: func(sim.Config) sim.TraceSink { return &alone }}); err != nil {
		t.Fatal(err)
	}
	if len(alone.seen) == 0 {
		t.Fatal("Collect alone: no record")
	}
	for _, collect := range []bool{false, true} {
		var buf bytes.Buffer
		tr, err := CreateTraceTo(&buf)
		if err != nil {
			t.Fatal(err)
		}
		both := countingSink{seen: map[string]int{}}
		var asked []sim.Config
		o := Options{Trace: tr, Collect: func(c sim.Config) sim.TraceSink {
			asked = append(asked, c)
			if collect {
				return &both
			}
			return nil
		}}
		if _, err := Scenario(context.Background(), s, o); err != nil {
			t.Fatal(err)
		}
		if err := tr.Commit(); err != nil {
			t.Fatal(err)
		}
		if len(asked) != 1 || !reflect.DeepEqual(asked[0], *s.Config) {
			t.Errorf("Collect asked %d times, for %+v; want once, for the scenario's config", len(asked), asked)
		}
		traced := map[string]int{}
		for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
			var row map[string]any
			if err := json.Unmarshal([]byte(line), &row); err != nil {
				t.Fatalf("%q: %v", line, err)
			}
			if row["scenario"] != s.Name {
				t.Fatalf("row %s: scenario %v, want %q", line, row["scenario"], s.Name)
			}
			traced[row["lane"].(string)+" "+row["event"].(string)]++
		}
		if !reflect.DeepEqual(traced, alone.seen) {
			t.Errorf("collect %v: traced %v, want what Collect alone saw, %v", collect, traced, alone.seen)
		}
		if want := map[string]int{}; collect && !reflect.DeepEqual(both.seen, alone.seen) || !collect && !reflect.DeepEqual(both.seen, want) {
			t.Errorf("collect %v: Collect's sink saw %v, want %v", collect, both.seen, alone.seen)
		}
	}
}

// A comparison hands sim its budget and progress as given, and no trace
// when none is asked for; sim's error names the scenario's file.
func TestComparisonHandsSimItsOptions(t *testing.T) {
	s := sinksScenario(t)
	var got []sim.Options
	stub := func(_ context.Context, c sim.Config, so sim.Options) (sim.Result, error) {
		got = append(got, so)
		return sim.Run(context.Background(), c, sim.Options{})
	}
	calls := 0
	progress := func(sim.Progress) { calls++ }
	if _, err := Scenario(context.Background(), s, Options{MaxEvents: 12345, Progress: progress, Simulate: stub}); err != nil {
		t.Fatal(err)
	}
	if _, err := Scenario(context.Background(), s, Options{Simulate: stub}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].MaxEvents != 12345 || got[0].Progress == nil || got[0].Trace != nil ||
		got[1].MaxEvents != 0 || got[1].Progress != nil || got[1].Trace != nil {
		t.Fatalf("sim options %+v, want budget 12345 with progress, then none; no trace", got)
	}
	got[0].Progress(sim.Progress{})
	if calls != 1 {
		t.Errorf("the progress handed to sim is not the caller's")
	}
	boom := errors.New("boom")
	_, err := Scenario(context.Background(), s, Options{Simulate: func(context.Context, sim.Config, sim.Options) (sim.Result, error) {
		return sim.Result{}, boom
	}})
	if !errors.Is(err, boom) || !strings.HasPrefix(err.Error(), "dir/sinks.yaml: ") {
		t.Errorf("sim's error came back as %v, want it wrapped after the file's name", err)
	}
}
