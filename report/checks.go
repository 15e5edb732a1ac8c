package report

import (
	"fmt"
	"io"

	"github.com/rlsim/rlsim/report/textlayout"
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// writeChecks lists the scenario's checks as measured: pass or FAIL, the lane
// and class, the check as written and the value measured.
func writeChecks(w io.Writer, results []run.CheckResult, width int) {
	if len(results) == 0 {
		return
	}
	fmt.Fprintf(w, "\nchecks: %s\n", checksPassed(results))
	head, rows := checkRows(results)
	t := &textlayout.Table{Head: head, Text: true}
	for _, row := range rows {
		t.Add(row...)
	}
	t.Fit(width, nil) // every column says which check it is: none is dropped
	t.Write(w)
}

// checksPassed says how many checks passed: "2 of 3 passed".
func checksPassed(results []run.CheckResult) string {
	return fmt.Sprintf("%d of %d passed", len(results)-run.Failed(results), len(results))
}

// checkRows are the checks section's head and rows, as the table and the
// HTML report show them.
func checkRows(results []run.CheckResult) ([]string, [][]string) {
	var rows [][]string
	for _, r := range results {
		rows = append(rows, []string{checkVerdict(r), sim.LaneTitle(r.Kind, r.Lane), ClassOrAll(r.Class), checkText(r), measured(r)})
	}
	return []string{"result", "lane", "class", "check", "measured"}, rows
}

func checkVerdict(r run.CheckResult) string {
	if r.Pass {
		return "pass"
	}
	return "FAIL"
}

// ClassOrAll names a check's client class as the tables write it: "all" for
// every class, otherwise escaped for the terminal.
func ClassOrAll(class string) string {
	if class == "" {
		return "all"
	}
	return scenarios.Escape(class)
}

// checkText is the check as the file states it: success_rate >= 99%.
func checkText(r run.CheckResult) string {
	return fmt.Sprintf("%s %s %s", r.Metric, r.Op, scenarios.Escape(r.Text))
}

func measured(r run.CheckResult) string {
	if r.None {
		return "none (no request succeeded)"
	}
	return scenarios.FormatMeasure(r.Check, r.Got)
}

// jsonCheck is one check's result in the JSON output.
type jsonCheck struct {
	Lane   string  `json:"lane"`
	Class  string  `json:"class,omitempty"` // absent: the lane's totals
	Metric string  `json:"metric"`
	Op     string  `json:"op"`
	Want   float64 `json:"want"`           // in the metric's unit: a fraction, seconds, per second, a ratio
	Got    float64 `json:"got"`            // the same unit; 0 when none
	None   bool    `json:"none,omitempty"` // nothing to measure: the check failed
	Pass   bool    `json:"pass"`
}

func checksJSON(results []run.CheckResult) []jsonCheck {
	var out []jsonCheck
	for _, r := range results {
		want, got := r.Want, r.Got
		if r.Metric == scenarios.P99TimeToSuccess {
			want, got = want/1e9, got/1e9
		}
		out = append(out, jsonCheck{Lane: r.Lane, Class: r.Class, Metric: string(r.Metric), Op: r.Op,
			Want: finite(want), Got: finite(got), None: r.None, Pass: r.Pass})
	}
	return out
}

// checkCounts are the CSV's checks_passed and checks_failed of one row: the
// checks measured on lane and class ("" for the lane's totals).
func checkCounts(results []run.CheckResult, lane string, class string) (passed, failed string) {
	var p, f int64
	for _, r := range results {
		if r.Lane != lane || r.Class != class {
			continue
		}
		if r.Pass {
			p++
		} else {
			f++
		}
	}
	return csvInt(p), csvInt(f)
}
