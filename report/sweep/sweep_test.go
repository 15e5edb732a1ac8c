package sweep

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"image/png"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/run/sweep"
)

// spreadSweep is a one-point sweep of two lanes whose users' success rates
// over the seeds are a and b.
func spreadSweep(a, b []float64) Report {
	succ := run.FigureIndex("success_rate")
	pt := sweep.PointResult{}
	for k := range a {
		var sr sweep.SeedRun
		for li, v := range [][]float64{a, b} {
			totals, users := nanNums(), nanNums()
			totals[succ], users[succ] = run.Num(v[k]), run.Num(v[k])
			totals[run.FigureIndex("peak_ratio")] = 1
			name := []string{"token_bucket", "fixed_window"}[li]
			sr.Lanes = append(sr.Lanes, run.LaneFigures{Lane: name, Title: strings.ReplaceAll(name, "_", " "), Totals: totals,
				Classes: []run.ClassFigures{{Name: "users", Values: users}}})
		}
		pt.Runs = append(pt.Runs, sr)
	}
	return New(&sweep.Result{Header: sweep.Header{Scenario: "s", Seeds: len(a), Seed: 1}, Points: []sweep.PointResult{pt}}, nil)
}

func nanNums() []run.Num {
	v := make([]run.Num, len(run.Figures))
	for i := range v {
		v[i] = run.Num(math.NaN())
	}
	return v
}

func TestSpreadFindingsClaimOnlyBeyondTheSpread(t *testing.T) {
	tests := []struct {
		name      string
		a, b      []float64
		claim     bool
		wantWords string
	}{
		{"apart", []float64{0.99, 0.98, 0.99, 0.98}, []float64{0.80, 0.82, 0.81, 0.80}, true,
			"all clients: success: token bucket kept success at 98.5% ± 0.9%, fixed window at 80.8% ± 1.5%; the difference exceeds the spread over 4 seeds"},
		{"overlapping", []float64{0.99, 0.90, 0.97, 0.91}, []float64{0.95, 0.88, 0.93, 0.90}, false,
			"all clients: success: every lane from fixed window (91.5% ± 4.9%) to token bucket (94.3% ± 7.0%) lies within the spread over 4 seeds; no lane is claimed different"},
	}
	tests = append(tests, struct {
		name      string
		a, b      []float64
		claim     bool
		wantWords string
	}{"one seed", []float64{0.99}, []float64{0.80}, true,
		"all clients: success: token bucket kept success at 99.0%, fixed window at 80.0%; one seed measures no spread to weigh the difference against"})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			found := spreadSweep(tc.a, tc.b).Findings()
			text := strings.Join(found, "\n")
			if !strings.Contains(text, tc.wantWords) {
				t.Errorf("findings:\n%s\nwant the line:\n%s", text, tc.wantWords)
			}
			// the claim must agree with the intervals it quotes
			a, b := sweep.SpreadOf(nums(tc.a)), sweep.SpreadOf(nums(tc.b))
			if a.Differs(b) != tc.claim {
				t.Errorf("the intervals %+v and %+v: Differs = %v, want %v", a, b, a.Differs(b), tc.claim)
			}
		})
	}
}

func nums(v []float64) []run.Num {
	out := make([]run.Num, len(v))
	for i, x := range v {
		out[i] = run.Num(x)
	}
	return out
}

func TestSweepOutputsAgree(t *testing.T) {
	s := spreadSweep([]float64{0.99, 0.98, 0.99, 0.98}, []float64{0.80, 0.82, 0.81, 0.80})
	var tbl, js, cs bytes.Buffer
	if err := WriteTable(&tbl, []Report{s}); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(&js, []Report{s}); err != nil {
		t.Fatal(err)
	}
	if err := WriteCSV(&cs, []Report{s}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tbl.String(), "token bucket  users  98.5% ± 0.9%") {
		t.Errorf("the table lacks the users' success of token bucket:\n%s", tbl.String())
	}
	var out struct {
		Version int
		Sweeps  []struct {
			Points []struct {
				Lanes []struct {
					Classes []struct {
						Figures map[string]struct {
							Mean, CI95 float64
							N          int
						}
					}
				}
			}
		}
	}
	if err := json.Unmarshal(js.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	got := out.Sweeps[0].Points[0].Lanes[0].Classes[0].Figures["success_rate"]
	want := sweep.SpreadOf(nums([]float64{0.99, 0.98, 0.99, 0.98}))
	if got.Mean != want.Mean || got.CI95 != want.Half || got.N != 4 {
		t.Errorf("JSON success_rate = %+v, want %+v", got, want)
	}
	rows, err := csv.NewReader(&cs).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	if rows[2][col["class"]] != "users" || rows[2][col["success_rate_mean"]] != csvFloat(want.Mean) || rows[2][col["success_rate_ci95"]] != csvFloat(want.Half) {
		t.Errorf("CSV row %q, want users with mean %v and ci95 %v", rows[2], want.Mean, want.Half)
	}
	if rows[1][col["class"]] != "" || rows[1][col["p99_time_to_success_s_mean"]] != "" {
		t.Errorf("CSV totals row %q: want an empty class and no class-only figure", rows[1])
	}
}

func TestSweepFiguresDraw(t *testing.T) {
	vary := sweep.Vary{Path: "limits[0].limit", Values: []string{"10", "20"}}
	base := spreadSweep([]float64{0.9, 0.95}, []float64{0.8, 0.85}).Result.Points[0]
	one := &sweep.Result{Header: sweep.Header{Scenario: "s", Seeds: 2, Varies: []sweep.Vary{vary}},
		Points: []sweep.PointResult{base, base}}
	one.Points[0].Values, one.Points[1].Values = []string{"10"}, []string{"20"}
	two := &sweep.Result{Header: sweep.Header{Scenario: "s", Seeds: 2, Varies: []sweep.Vary{vary, {Path: "limits[0].burst", Values: []string{"5"}}}},
		Points: []sweep.PointResult{base, base}}
	two.Points[0].Values, two.Points[1].Values = []string{"10", "5"}, []string{"20", "5"}
	for _, tc := range []struct {
		r     *sweep.Result
		names []string
	}{{one, []string{"sweep-lines"}}, {two, []string{"sweep-lines", "sweep-heatmap"}}} {
		figs := Figures(New(tc.r, nil))
		if len(figs) != len(tc.names) {
			t.Fatalf("%d varies: %d figures, want %v", len(tc.r.Varies), len(figs), tc.names)
		}
		for i, f := range figs {
			if f.Name != tc.names[i] {
				t.Errorf("%d varies: figure %d is %s, want %s", len(tc.r.Varies), i, f.Name, tc.names[i])
			}
			b, err := f.PNG()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := png.Decode(bytes.NewReader(b)); err != nil {
				t.Errorf("%s: %v", f.Name, err)
			}
		}
	}
}

// TestDocsNameEverySweepFigure keeps docs/output.md's section on sweeps whole.
func TestDocsNameEverySweepFigure(t *testing.T) {
	doc, err := os.ReadFile("../../docs/output.md")
	if err != nil {
		t.Fatal(err)
	}
	_, part, _ := strings.Cut(string(doc), "## Seeds and sweeps")
	for _, f := range run.Figures {
		if !strings.Contains(part, "`"+f.Name+"`") {
			t.Errorf("docs/output.md's sweep section does not name the figure %s", f.Name)
		}
	}
	for _, col := range []string{"scenario", "point", "set", "lane", "class", "success_rate_mean", "success_rate_ci95"} {
		if !strings.Contains(part, "`"+col+"`") {
			t.Errorf("docs/output.md's sweep section does not name the CSV column %s", col)
		}
	}
}

// TestOneSeedIsNotSeeds: a one-seed sweep says "1 seed" where it names the
// seeds, never "1 seeds" nor a mean over them.
func TestOneSeedIsNotSeeds(t *testing.T) {
	s := spreadSweep([]float64{0.9}, []float64{0.9})
	text := strings.Join(s.Findings(), "\n")
	if want := "every lane at 90.0% over 1 seed"; !strings.Contains(text, want) || strings.Contains(text, "1 seeds") {
		t.Errorf("findings of a one-seed sweep:\n%s\nwant %q and never \"1 seeds\"", text, want)
	}
	if got := meanOver(1); got != "the figure from 1 seed" {
		t.Errorf("meanOver(1) = %q, want the figure from 1 seed", got)
	}
}

// Lanes whose lines coincide in every panel would hide one another: the legend
// names the one drawn under, and only when every point of every panel agrees.
func TestSweepLinesSayWhichCoincide(t *testing.T) {
	vary := sweep.Vary{Path: "limits[0].limit", Values: []string{"10", "20"}}
	for _, tc := range []struct {
		a, b []float64
		same bool
	}{{[]float64{0.9, 0.95}, []float64{0.9, 0.95}, true}, {[]float64{0.9, 0.95}, []float64{0.9, 0.96}, false}} {
		pt := spreadSweep(tc.a, tc.b).Result.Points[0]
		r := &sweep.Result{Header: sweep.Header{Scenario: "s", Seeds: 2, Varies: []sweep.Vary{vary}}, Points: []sweep.PointResult{pt, pt}}
		r.Points[0].Values, r.Points[1].Values = []string{"10"}, []string{"20"}
		fig := New(r, nil).lineFigure()
		if got := fig.Legend[0].Label; got != "token bucket" {
			t.Errorf("first lane's legend %q", got)
		}
		if got, want := fig.Legend[1].Label, "fixed window (same as token bucket, drawn under it)"; (got == want) != tc.same || !strings.HasPrefix(got, "fixed window") {
			t.Errorf("success %v and %v: second lane's legend %q (coincide: %v)", tc.a, tc.b, got, tc.same)
		}
	}
}
