package report

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// roundTripScenarios between them have shadow limits, refusals with and
// without Retry-After, sheds, drops, delays, several classes, retries and a
// topology, so that every count a lane or class reports is non-zero in one.
var roundTripScenarios = []string{"shadow-rollout", "downstream-slowdown", "client-throttling-overload", "multi-replica-trap", "demo"}

// tally is what the trace says of one lane or one class of it.
type tally struct {
	admitted, refused, shed, delayed, dropped, succeeded, shadowRefused, retryAfterGiven int64
	// unique and attempts hold (client, request) and (client, request,
	// attempt): an attempt the limiter admitted and the backend shed has two
	// records.
	unique   map[[2]int64]bool
	attempts map[[3]int64]bool
}

func (c *tally) add(r *sim.TraceRecord) {
	if c.unique == nil {
		c.unique, c.attempts = map[[2]int64]bool{}, map[[3]int64]bool{}
	}
	switch r.Event {
	case sim.TraceSuccess:
		c.succeeded++
		return
	case sim.TraceAdmit:
		c.admitted++
	case sim.TraceDelay:
		c.admitted++
		c.delayed++
	case sim.TraceRefuse:
		c.refused++
	case sim.TraceDrop:
		c.dropped++
	case sim.TraceShed:
		c.shed++
	}
	c.attempts[[3]int64{int64(r.Client), r.Request, int64(r.Attempt)}] = true
	c.unique[[2]int64{int64(r.Client), r.Request}] = true
	if r.Shadow != "" {
		c.shadowRefused++
	}
	if (r.Event == sim.TraceRefuse || r.Event == sim.TraceShed) && r.RetryAfter > 0 && r.RetryAfter != algorithms.Never {
		c.retryAfterGiven++
	}
}

// fields are the tally under the names the JSON and the CSV give them.
func (c *tally) fields() map[string]int64 {
	return map[string]int64{"attempts": int64(len(c.attempts)), "unique": int64(len(c.unique)), "admitted": c.admitted,
		"refused": c.refused, "shed": c.shed, "delayed": c.delayed, "dropped": c.dropped, "succeeded": c.succeeded,
		"shadow_refused": c.shadowRefused, "retry_after_given": c.retryAfterGiven}
}

// traceSink keeps a copy of every record, by lane index.
type traceSink struct{ lanes map[int]*laneTally }

type laneTally struct {
	lane    tally
	classes map[string]*tally
}

func (s *traceSink) Record(r *sim.TraceRecord) error {
	l := s.lanes[r.LaneIndex]
	if l == nil {
		l = &laneTally{classes: map[string]*tally{}}
		s.lanes[r.LaneIndex] = l
	}
	l.lane.add(r)
	c := l.classes[r.Class]
	if c == nil {
		c = &tally{}
		l.classes[r.Class] = c
	}
	c.add(r)
	return nil
}

// TestOutputRoundTrip reads back every count of `rlsim run --format json` and
// `--format csv` for each lane and class and holds it to the trace of the same
// run, and every CSV field to the JSON field of the same meaning: a CSV column
// reading the wrong counter, a field dropped from the JSON or a class's counts
// swapped fail here by name.
func TestOutputRoundTrip(t *testing.T) {
	for _, name := range roundTripScenarios {
		t.Run(name, func(t *testing.T) {
			s, err := scenarios.LoadBuiltin(name)
			if err != nil {
				t.Fatal(err)
			}
			sink := &traceSink{lanes: map[int]*laneTally{}}
			out, err := run.Scenario(context.Background(), s, run.Options{Collect: func(sim.Config) sim.TraceSink { return sink }})
			if err != nil {
				t.Fatal(err)
			}
			runs := []Run{NewRun(out, nil)}
			var jb, cb bytes.Buffer
			if err := WriteJSON(&jb, runs); err != nil {
				t.Fatal(err)
			}
			if err := WriteCSV(&cb, runs); err != nil {
				t.Fatal(err)
			}
			lanes := jsonLanes(t, jb.Bytes())
			rows := csvRows(t, cb.Bytes())
			if len(lanes) != len(out.Result.Lanes) {
				t.Fatalf("JSON has %d lanes, the result %d", len(lanes), len(out.Result.Lanes))
			}
			for i, jl := range lanes {
				lr := &out.Result.Lanes[i]
				tr := sink.lanes[i]
				if tr == nil {
					t.Fatalf("lane %s: no trace records", lr.Name)
				}
				where := "lane " + lr.Name
				holdToTrace(t, where+" JSON", tr.lane.fields(), jsonCounts(jl))
				row := rows[[2]string{lr.Name, ""}]
				if row == nil {
					t.Fatalf("%s: no CSV row", where)
				}
				holdToTrace(t, where+" CSV", tr.lane.fields(), csvCounts(row))
				csvAgreesWithJSON(t, where, row, withFirstLimit(flatten("", jl), jl))
				holdRates(t, where+" CSV", tr.lane.fields(), row)
				classes, _ := jl["classes"].([]any)
				if len(classes) != len(lr.Classes) {
					t.Fatalf("%s: JSON has %d classes, the result %d", where, len(classes), len(lr.Classes))
				}
				for _, jc := range classes {
					jc := jc.(map[string]any)
					cname := jc["name"].(string)
					ct := tr.classes[cname]
					if ct == nil {
						ct = &tally{}
					}
					cwhere := where + " class " + cname
					want := ct.fields()
					delete(want, "delayed")           // a class has no delayed count
					delete(want, "retry_after_given") // nor Retry-After counts
					holdToTrace(t, cwhere+" JSON", want, jsonCounts(jc))
					crow := rows[[2]string{lr.Name, cname}]
					if crow == nil {
						t.Fatalf("%s: no CSV row", cwhere)
					}
					holdToTrace(t, cwhere+" CSV", want, csvCounts(crow))
					csvAgreesWithJSON(t, cwhere, crow, flatten("", jc))
					holdRates(t, cwhere+" CSV", want, crow)
				}
			}
		})
	}
}

func jsonLanes(t *testing.T, b []byte) []map[string]any {
	t.Helper()
	var doc struct {
		Runs []struct {
			Lanes []map[string]any `json:"lanes"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Runs) != 1 {
		t.Fatalf("JSON has %d runs, want 1", len(doc.Runs))
	}
	return doc.Runs[0].Lanes
}

// csvRows are the CSV's rows by lane and class ("" for the lane's own row),
// each a map from header to field.
func csvRows(t *testing.T, b []byte) map[[2]string]map[string]string {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	rows := map[[2]string]map[string]string{}
	for _, rec := range recs[1:] {
		row := map[string]string{}
		for i, h := range recs[0] {
			row[h] = rec[i]
		}
		rows[[2]string{row["lane"], row["class"]}] = row
	}
	return rows
}

// jsonCounts reads the trace's counts from a JSON lane or class; an absent
// field (omitempty) is 0.
func jsonCounts(o map[string]any) map[string]int64 {
	flat := flatten("", o)
	got := map[string]int64{}
	for _, k := range []string{"attempts", "unique", "admitted", "refused", "shed", "delayed", "dropped", "succeeded", "shadow_refused", "retry_after_given"} {
		if v, ok := flat[k]; ok {
			got[k] = int64(v.(float64))
		} else {
			got[k] = 0
		}
	}
	return got
}

func csvCounts(row map[string]string) map[string]int64 {
	got := map[string]int64{}
	for _, k := range []string{"attempts", "unique", "admitted", "refused", "shed", "delayed", "dropped", "succeeded", "shadow_refused", "retry_after_given"} {
		if v := row[k]; v != "" {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				got[k] = -1
				continue
			}
			got[k] = n
		}
	}
	return got
}

func holdToTrace(t *testing.T, where string, want, got map[string]int64) {
	t.Helper()
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range want {
			if !yield(k) {
				return
			}
		}
	}) {
		if g, ok := got[k]; !ok || g != want[k] {
			t.Errorf("%s: %s = %d (present %v), the trace says %d", where, k, g, ok, want[k])
		}
	}
}

// flatten names nested JSON objects' fields with "_": retry_after.given is
// retry_after_given, peak.start_s is peak_start_s.
func flatten(prefix string, o map[string]any) map[string]any {
	flat := map[string]any{}
	for k, v := range o {
		name := k
		if prefix != "" {
			name = prefix + "_" + k
		}
		if m, ok := v.(map[string]any); ok {
			for k2, v2 := range flatten(name, m) {
				flat[k2] = v2
			}
			continue
		}
		flat[name] = v
	}
	return flat
}

// csvAsJSON names the JSON field of each CSV column whose name is not the
// flattened JSON name; "-" marks a column with no JSON twin, checked elsewhere.
var csvAsJSON = map[string]string{
	"lane": "lane", "class": "-", "scenario": "-", "seed": "-", "checks_passed": "-", "checks_failed": "-",
	"p50_to_success_s": "time_to_success_p50_s", "p99_to_success_s": "time_to_success_p99_s",
	"p99_delay_s": "delay_p99_s", "peak_ratio": "peak_ratio", "all_done_s": "all_done_s",
	"backend_p99_latency_s": "backend_latency_p99_s",
	// A lane's rates are not in its JSON: held to the trace by holdRates.
	"success_rate": "-", "refused_rate": "-", "shed_rate": "-",
	// The topology columns are the first limit's.
	"replicas": "topology_replicas", "replica_peak_count": "topology_first_replica_peak_count",
	"replica_peak_ratio": "topology_first_replica_peak_ratio", "busiest_replica": "topology_first_busiest_replica",
	"overshoot":               "topology_first_overshoot",
	"backend_peak_count":      "topology_first_backend_peak_count",
	"exact_peak_count":        "topology_first_exact_peak_count",
	"retried_at_retry_after":  "retry_after_retried_at",
	"admitted_at_retry_after": "retry_after_succeeded_at",
}

// csvAgreesWithJSON holds every non-empty CSV field of a row to its JSON twin.
func csvAgreesWithJSON(t *testing.T, where string, row map[string]string, flat map[string]any) {
	t.Helper()
	for _, col := range slices.Sorted(func(yield func(string) bool) {
		for k := range row {
			if !yield(k) {
				return
			}
		}
	}) {
		field := row[col]
		name, ok := csvAsJSON[col]
		if !ok {
			name = col
		}
		if name == "-" || field == "" {
			continue
		}
		if name == "lane" && row["class"] != "" {
			continue
		}
		jv, ok := flat[name]
		if !ok {
			if strings.HasPrefix(name, "topology_") || isZeroField(field) {
				continue // omitempty, or a topology column outside the topology's lanes
			}
			t.Errorf("%s: CSV column %s = %q has no JSON field %s (name its twin in csvAsJSON)", where, col, field, name)
			continue
		}
		if !sameValue(field, jv) {
			t.Errorf("%s: CSV %s = %q, JSON %s = %v", where, col, field, name, jv)
		}
	}
}

func isZeroField(s string) bool { return s == "0" || s == "false" }

func sameValue(field string, jv any) bool {
	switch v := jv.(type) {
	case float64:
		f, err := strconv.ParseFloat(field, 64)
		return err == nil && (f == v || math.Abs(f-v) <= 1e-12*math.Max(1, math.Abs(v)))
	case bool:
		return field == strconv.FormatBool(v)
	case string:
		return field == v
	}
	return field == fmt.Sprint(jv)
}

// withFirstLimit adds the topology's first limit under topology_first_.
func withFirstLimit(flat map[string]any, lane map[string]any) map[string]any {
	topo, _ := lane["topology"].(map[string]any)
	limits, _ := topo["limits"].([]any)
	if len(limits) > 0 {
		for k, v := range flatten("topology_first", limits[0].(map[string]any)) {
			flat[k] = v
		}
	}
	return flat
}

// holdRates holds a row's rates to the trace's counts: successes per unique
// request, refusals and sheds per attempt.
func holdRates(t *testing.T, where string, c map[string]int64, row map[string]string) {
	t.Helper()
	for _, r := range []struct {
		col    string
		n, per int64
	}{
		{"success_rate", c["succeeded"], c["unique"]},
		{"refused_rate", c["refused"], c["attempts"]},
		{"shed_rate", c["shed"], c["attempts"]},
	} {
		want := 0.0
		if r.per > 0 {
			want = float64(r.n) / float64(r.per)
		}
		if !sameValue(row[r.col], want) {
			t.Errorf("%s: %s = %q, the trace says %d/%d = %v", where, r.col, row[r.col], r.n, r.per, want)
		}
	}
}
