package sweep

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"
)

// docs/output.md: objective holds find, where[] as written (<= not escaped),
// and recommended[] with lane, point (an index into points, null for none)
// and value; vary[] is empty, not null, for run --seeds; set[] is path=value.
func TestSweepJSONObjective(t *testing.T) {
	s := objectiveSweep(t, []float64{0.95, 0.95}, []float64{0.5, 0.5}, "min limits[0].limit", "class users success >= 90%", "success <= 100%")
	var b bytes.Buffer
	if err := WriteJSON(&b, []Report{s}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), `\u003c`) || strings.Contains(b.String(), `\u003e`) {
		t.Errorf("the JSON escapes < or >:\n%s", b.String())
	}
	var out struct {
		Version int `json:"version"`
		Sweeps  []struct {
			Vary   []json.RawMessage `json:"vary"`
			Points []struct {
				Set []string `json:"set"`
			} `json:"points"`
			Objective struct {
				Find        string   `json:"find"`
				Where       []string `json:"where"`
				Recommended []struct {
					Lane  string          `json:"lane"`
					Point json.RawMessage `json:"point"`
					Value *string         `json:"value"`
				} `json:"recommended"`
			} `json:"objective"`
		} `json:"sweeps"`
	}
	if err := json.Unmarshal(b.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if out.Version != 1 || len(out.Sweeps) != 1 {
		t.Fatalf("version %d, %d sweeps; want 1, 1", out.Version, len(out.Sweeps))
	}
	sw := out.Sweeps[0]
	if len(sw.Points) != 1 || strings.Join(sw.Points[0].Set, " ") != "limits[0].limit=10" {
		t.Errorf("points = %+v, want one with set [limits[0].limit=10]", sw.Points)
	}
	o := sw.Objective
	if o.Find != "min limits[0].limit" || strings.Join(o.Where, "|") != "class users success >= 90%|success <= 100%" {
		t.Errorf("objective find %q where %q", o.Find, o.Where)
	}
	if len(o.Recommended) != 2 {
		t.Fatalf("recommended = %+v, want one per lane", o.Recommended)
	}
	tb, fw := o.Recommended[0], o.Recommended[1]
	if tb.Lane != "token_bucket" || string(tb.Point) != "0" || tb.Value == nil || *tb.Value != "10" {
		t.Errorf("token bucket's recommendation = %s %s %v, want point 0, value 10", tb.Lane, tb.Point, tb.Value)
	}
	if fw.Lane != "fixed_window" || string(fw.Point) != "null" || fw.Value != nil {
		t.Errorf("fixed window's recommendation = %s %s %v, want point null and no value", fw.Lane, fw.Point, fw.Value)
	}

	var seeds bytes.Buffer
	if err := WriteJSON(&seeds, []Report{spreadSweep([]float64{1}, []float64{1})}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(seeds.String(), `"vary": []`) || !strings.Contains(seeds.String(), `"set": []`) || strings.Contains(seeds.String(), `"objective"`) {
		t.Errorf("run --seeds JSON: want vary [] and set [], no objective:\n%.400s", seeds.String())
	}
	var none bytes.Buffer
	if err := WriteJSON(&none, nil); err != nil || !strings.Contains(none.String(), `"sweeps": []`) {
		t.Errorf("WriteJSON of no sweeps = %q, %v; want sweeps []", none.String(), err)
	}
}

// WriteCSV: a row per point, lane and class, the class empty for the totals,
// the set as path=value, and a figure's ci95 empty with one seed.
func TestSweepCSVRows(t *testing.T) {
	s := objectiveSweep(t, []float64{0.95}, []float64{0.5}, "min limits[0].limit")
	var b bytes.Buffer
	if err := WriteCSV(&b, []Report{s}); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 5 {
		t.Fatalf("%d rows, want a header and 4 (2 lanes × totals and users)", len(recs))
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	var got []string
	for _, r := range recs[1:] {
		got = append(got, r[col["point"]]+" "+r[col["set"]]+" "+r[col["lane"]]+" "+r[col["class"]]+" "+r[col["success_rate_mean"]]+" ["+r[col["success_rate_ci95"]]+"]")
	}
	want := []string{
		"0 limits[0].limit=10 token_bucket  0.95 []",
		"0 limits[0].limit=10 token_bucket users 0.95 []",
		"0 limits[0].limit=10 fixed_window  0.5 []",
		"0 limits[0].limit=10 fixed_window users 0.5 []",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
