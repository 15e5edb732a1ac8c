package sweep

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/run/sweep"
	"github.com/rlsim/rlsim/sim"
)

// seedResult is one seed's run of 4s: 15 of 20 requests succeeded, 15 of 25
// attempts admitted, 5 refused; the delays' p99 is delay and the class's
// p99 time to success ten times it.
func seedResult(delay time.Duration) *sim.Result {
	l := sim.LaneResult{Lane: sim.LaneTokenBucket, Name: "token_bucket", Attempts: 25, Unique: 20, Admitted: 15, Refused: 5, Succeeded: 15,
		Delay: sim.Percentiles{Count: 3, P99: delay}, Peak: sim.WindowPeak{Count: 15, Limit: 10, Ratio: 1.5}, RetryAmplification: 1.25, Fairness: 0.9,
		Classes: []sim.ClassResult{{Name: "api", Unique: 20, Attempts: 25, Admitted: 15, Refused: 5, Succeeded: 15,
			TimeToSuccess: sim.Percentiles{Count: 15, P99: 10 * delay}}}}
	return &sim.Result{Duration: 4 * time.Second, Lanes: []sim.LaneResult{l}}
}

func unitSweep() Report {
	r := &sweep.Result{Header: sweep.Header{Scenario: "units", Seed: 1, Seeds: 2, Varies: []sweep.Vary{}, PointCount: 1},
		Points: []sweep.PointResult{{Index: 0, Runs: []sweep.SeedRun{
			{Seed: 1, Lanes: run.Measure(seedResult(20 * time.Millisecond))},
			{Seed: 2, Lanes: run.Measure(seedResult(40 * time.Millisecond))},
		}}}}
	return New(r, nil)
}

// The sweep JSON and CSV give each figure in its documented unit: the rates
// as fractions, admitted_rate per second, p99_time_to_success_s and
// p99_delay_s in seconds, and their ci95 in the same unit as the mean.
func TestSweepFigureUnits(t *testing.T) {
	delayHalf := float64(sweep.SpreadOf([]run.Num{0.02, 0.04}).Half)
	want := []struct {
		class      string
		name       string
		mean, ci95 float64
	}{
		{"", "success_rate", 0.75, 0}, {"", "refused_rate", 0.2, 0}, {"", "admitted_rate", 3.75, 0},
		{"", "p99_delay_s", 0.03, delayHalf}, {"", "peak_ratio", 1.5, 0}, {"", "retry_amplification", 1.25, 0},
		{"api", "success_rate", 0.75, 0}, {"api", "admitted_rate", 3.75, 0}, {"api", "p99_time_to_success_s", 0.3, 10 * delayHalf},
	}
	if delayHalf <= 0 || delayHalf > 1 {
		t.Fatalf("the interval of 20ms and 40ms is %v s", delayHalf)
	}

	var b bytes.Buffer
	if err := WriteJSON(&b, []Report{unitSweep()}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Sweeps []struct {
			Points []struct {
				Lanes []struct {
					Figures map[string]jsonSpread
					Classes []struct {
						Class   string
						Figures map[string]jsonSpread
					}
				}
			}
		}
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	lane := doc.Sweeps[0].Points[0].Lanes[0]
	for _, w := range want {
		figs := lane.Figures
		if w.class != "" {
			figs = lane.Classes[0].Figures
		}
		f, ok := figs[w.name]
		if !ok || math.Abs(float64(f.Mean)-w.mean) > 1e-9 || f.N != 2 || f.CI95 == nil || math.Abs(float64(*f.CI95)-w.ci95) > 1e-9 {
			t.Errorf("JSON %s %s = %+v, want mean %v, ci95 %v, n 2", w.class, w.name, f, w.mean, w.ci95)
		}
	}

	b.Reset()
	if err := WriteCSV(&b, []Report{unitSweep()}); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil || len(rows) != 3 {
		t.Fatalf("%d rows, %v: want the head, the lane and its class", len(rows), err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for _, w := range want {
		row := rows[1]
		if w.class != "" {
			row = rows[2]
		}
		if got := row[col[w.name+"_mean"]]; got != csvFloat(w.mean) && !closeText(got, w.mean) {
			t.Errorf("CSV %s %s_mean = %q, want %v", w.class, w.name, got, w.mean)
		}
		if got := row[col[w.name+"_ci95"]]; !closeText(got, w.ci95) {
			t.Errorf("CSV %s %s_ci95 = %q, want %v", w.class, w.name, got, w.ci95)
		}
	}
	if got := rows[1][col["p99_time_to_success_s_mean"]]; got != "" {
		t.Errorf("the lane's row has p99_time_to_success_s_mean %q, want empty (a class's figure)", got)
	}
}

func closeText(s string, want float64) bool {
	var f float64
	if err := json.Unmarshal([]byte(s), &f); err != nil {
		return false
	}
	return math.Abs(f-want) < 1e-9
}

// With one seed a figure has no interval: the JSON leaves ci95 out and the
// CSV leaves _ci95 empty, while the mean is still written.
func TestOneSeedHasNoInterval(t *testing.T) {
	r := &sweep.Result{Header: sweep.Header{Scenario: "units", Seed: 1, Seeds: 1, Varies: []sweep.Vary{}, PointCount: 1},
		Points: []sweep.PointResult{{Runs: []sweep.SeedRun{{Seed: 1, Lanes: run.Measure(seedResult(20 * time.Millisecond))}}}}}
	var b bytes.Buffer
	if err := WriteJSON(&b, []Report{New(r, nil)}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Sweeps []struct {
			Points []struct {
				Lanes []struct{ Figures map[string]map[string]any }
			}
		}
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for name, f := range doc.Sweeps[0].Points[0].Lanes[0].Figures {
		if _, ok := f["ci95"]; ok || f["n"] != 1.0 {
			t.Errorf("one seed: figure %s = %v, want n 1 and no ci95", name, f)
		}
	}
	if f := doc.Sweeps[0].Points[0].Lanes[0].Figures["p99_delay_s"]; f["mean"] != 0.02 {
		t.Errorf("one seed: p99_delay_s = %v, want mean 0.02", f)
	}
	b.Reset()
	if err := WriteCSV(&b, []Report{New(r, nil)}); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil || len(rows) < 2 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	for i, h := range rows[0] {
		if strings.HasSuffix(h, "_ci95") && rows[1][i] != "" {
			t.Errorf("one seed: CSV %s = %q, want empty", h, rows[1][i])
		}
	}
	if i := slices.Index(rows[0], "p99_delay_s_mean"); i < 0 || rows[1][i] != "0.02" {
		t.Errorf("one seed: CSV p99_delay_s_mean missing or not 0.02: %v", rows[1])
	}
}
