package run

import (
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// Every figure of Measure is its definition (docs/output.md, docs/scenarios.md)
// on a hand-made result whose counts all differ, so a figure reading the wrong
// field or dividing by the wrong one shows: rates per attempt or per unique
// request, admitted per second of the duration, p99s in seconds, and NaN where
// a figure does not apply.
func TestGapsMeasureEveryFigure(t *testing.T) {
	l := sim.LaneResult{Lane: sim.LaneTokenBucket, Name: "token_bucket",
		Attempts: 100, Unique: 50, Admitted: 60, Refused: 20, Shed: 10, Delayed: 7, Dropped: 3,
		Succeeded: 40, GaveUp: 6, Peak: sim.WindowPeak{Ratio: 1.25}, RetryAmplification: 2.5, Fairness: 0.75,
		Delay: sim.Percentiles{Count: 7, P99: 250 * time.Millisecond, P50: time.Millisecond, Max: time.Second},
		Classes: []sim.ClassResult{{Name: "users",
			Attempts: 80, Unique: 32, Admitted: 48, Refused: 16, Shed: 4, Dropped: 2, Succeeded: 24, GaveUp: 5,
			TimeToSuccess: sim.Percentiles{Count: 24, P99: 1500 * time.Millisecond, P50: time.Millisecond, Max: 3 * time.Second}},
			{Name: "idle"}}}
	r := &sim.Result{Duration: 4 * time.Second, Lanes: []sim.LaneResult{l}}
	nan := math.NaN()
	want := map[string][3]float64{ // lane, users, idle
		"attempts":              {100, 80, 0},
		"unique":                {50, 32, 0},
		"admitted":              {60, 48, 0},
		"refused":               {20, 16, 0},
		"shed":                  {10, 4, 0},
		"delayed":               {7, nan, nan},
		"dropped":               {3, 2, 0},
		"succeeded":             {40, 24, 0},
		"gave_up":               {6, 5, 0},
		"success_rate":          {0.8, 0.75, 0},
		"refused_rate":          {0.2, 0.2, 0},
		"shed_rate":             {0.1, 0.05, 0},
		"admitted_rate":         {15, 12, 0},
		"p99_time_to_success_s": {nan, 1.5, nan},
		"p99_delay_s":           {0.25, nan, nan},
		"peak_ratio":            {1.25, nan, nan},
		"retry_amplification":   {2.5, nan, nan},
		"fairness":              {0.75, nan, nan},
	}
	if len(want) != len(Figures) {
		t.Errorf("%d figures, the test knows %d: add the new ones", len(Figures), len(want))
	}
	got := Measure(r)
	if len(got) != 1 || len(got[0].Totals) != len(Figures) || len(got[0].Classes) != 2 {
		t.Fatalf("Measure = %+v, want one lane of %d figures and two classes", got, len(Figures))
	}
	same := func(a Num, b float64) bool {
		if math.IsNaN(b) {
			return math.IsNaN(float64(a))
		}
		return math.Abs(float64(a)-b) <= 1e-12*math.Max(1, math.Abs(b))
	}
	for i, f := range Figures {
		w, ok := want[f.Name]
		if !ok {
			t.Errorf("figure %s: the test does not know it", f.Name)
			continue
		}
		vals := []Num{got[0].Totals[i], got[0].Classes[0].Values[i], got[0].Classes[1].Values[i]}
		for k, who := range []string{"lane", "users", "idle"} {
			if !same(vals[k], w[k]) {
				t.Errorf("%s of %s = %v, want %v", f.Name, who, vals[k], w[k])
			}
		}
		if f.HasLane() != !math.IsNaN(w[0]) || f.HasClass() != !math.IsNaN(w[1]) {
			t.Errorf("%s: HasLane %v HasClass %v, want %v %v", f.Name, f.HasLane(), f.HasClass(), !math.IsNaN(w[0]), !math.IsNaN(w[1]))
		}
		if FigureIndex(f.Name) != i {
			t.Errorf("FigureIndex(%q) = %d, want %d", f.Name, FigureIndex(f.Name), i)
		}
	}
	if FigureIndex("no_such") != -1 {
		t.Errorf("FigureIndex of no figure = %d, want -1", FigureIndex("no_such"))
	}
	// Nothing measured is null in JSON and reads back as NaN.
	b, err := json.Marshal([]Num{Num(nan), 1.5, Num(math.Inf(1))})
	if err != nil || string(b) != "[null,1.5,null]" {
		t.Errorf("JSON of NaN, 1.5, +Inf = %s, %v; want [null,1.5,null]", b, err)
	}
	var back []Num
	if err := json.Unmarshal([]byte("[null,1.5]"), &back); err != nil || len(back) != 2 || !math.IsNaN(float64(back[0])) || back[1] != 1.5 {
		t.Errorf("reading [null,1.5] = %v, %v", back, err)
	}
}
