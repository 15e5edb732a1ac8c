package sweep

import (
	"fmt"
	"io"
	"strings"

	"github.com/rlsim/rlsim/report/textlayout"
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/run/sweep"
)

// sweepTableFigures are the figures the sweep's terminal table shows, with
// their headers; JSON and CSV hold every figure.
var sweepTableFigures = []struct{ name, head string }{
	{"success_rate", "success"},
	{"refused_rate", "refused"},
	{"shed_rate", "shed"},
	{"admitted_rate", "admitted"},
	{"p99_time_to_success_s", "p99 to success"},
	{"peak_ratio", "vs limit"},
	{"retry_amplification", "retry amp"},
}

// sweepDrop is the order a narrow terminal drops the sweep table's columns
// (after the columns with nothing to say); the varied values, lane, class,
// success and admitted stay.
var sweepDrop = []string{"retry amp", "p99 to success", "shed", "vs limit", "refused"}

// WriteTable writes sweeps as tables, a row per point, lane and class
// (the lane's totals first, as class "all"), then the recommendations and
// findings, and the command that reproduces each sweep; every column.
func WriteTable(w io.Writer, sweeps []Report) error { return WriteTableFit(w, sweeps, 0) }

// WriteTableFit is WriteTable fitted to width columns (0: the full
// layout): the columns in sweepDrop go first, and the lines wrap.
func WriteTableFit(w io.Writer, sweeps []Report, width int) error {
	for i, s := range sweeps {
		if i > 0 {
			fmt.Fprintln(w)
		}
		if err := s.writeTable(w, width); err != nil {
			return err
		}
	}
	return nil
}

func (s Report) writeTable(w io.Writer, width int) error {
	textlayout.Wrap(w, s.describe(), "", "", width)
	fmt.Fprintln(w)
	t := &textlayout.Table{Left: len(s.Result.Varies) + 2}
	for _, v := range s.Result.Varies {
		t.Head = append(t.Head, v.Path)
	}
	t.Head = append(t.Head, "lane", "class")
	for _, f := range sweepTableFigures {
		t.Head = append(t.Head, f.head)
	}
	for _, r := range s.rows() {
		var cells []string
		cells = append(cells, s.Result.Points[r.point].Values...)
		class := r.class
		if r.ci < 0 {
			class = "all"
		}
		cells = append(cells, r.lane.Title, class)
		for _, f := range sweepTableFigures {
			fi := run.FigureIndex(f.name)
			cell := "-"
			if r.applies(run.Figures[fi]) {
				cell = formatSpread(f.name, s.spread(r, fi), s.Result.Seeds)
			}
			cells = append(cells, cell)
		}
		t.Add(cells...)
	}
	t.Fit(width, sweepDrop).Write(w)
	lines := s.recommendationLines()
	lines = append(lines, s.Findings()...)
	lines = append(lines, s.spreadCheckLines()...)
	if len(lines) > 0 || s.Command != "" {
		fmt.Fprintln(w)
	}
	for _, l := range lines {
		body := strings.TrimLeft(l, " ")
		first := l[:len(l)-len(body)]
		textlayout.Wrap(w, body, first, first+"  ", width)
	}
	if s.Command != "" {
		// One line however narrow the terminal, so that it pastes whole.
		fmt.Fprintln(w, "reproduce: "+s.Command)
	}
	return nil
}

// recommendationLines tell the objective and, lane by lane, the point it picks.
func (s Report) recommendationLines() []string {
	if s.Objective == nil {
		return nil
	}
	var conds []string
	for _, wh := range s.Objective.Where {
		conds = append(conds, strings.TrimPrefix(wh.Flag, "--where "))
	}
	head := "recommended: " + s.Objective.Find.Text
	if len(conds) > 0 {
		head += " where " + strings.Join(conds, " and ")
	}
	head += " (on the means over seeds)"
	lines := []string{head}
	for _, rec := range s.Recommend {
		if rec.Point < 0 {
			lines = append(lines, fmt.Sprintf("  %s: no point meets every --where", rec.Title))
			continue
		}
		lines = append(lines, fmt.Sprintf("  %s: %s=%s (%s)", rec.Title, s.Objective.Find.Path, rec.Value, s.measuredAt(rec)))
	}
	return lines
}

// measuredAt tells each where's figure at the recommended point of one lane.
func (s Report) measuredAt(rec sweep.Recommendation) string {
	pt := s.Result.Points[rec.Point]
	li := laneIndex(pt, rec.Lane)
	var parts []string
	for _, wh := range s.Objective.Where {
		if !wh.Applies(rec.Lane) {
			continue
		}
		sp, _ := wh.Measured(pt, li)
		who := "all"
		if wh.Class != "" {
			who = wh.Class
		}
		parts = append(parts, fmt.Sprintf("%s %s %s", who, wh.Metric, measureAgainst(wh.Check, sp, s.Result.Seeds)))
	}
	if len(parts) == 0 {
		return "no --where"
	}
	return strings.Join(parts, "; ")
}

func laneIndex(pt sweep.PointResult, lane string) int {
	for i, l := range pt.Runs[0].Lanes {
		if l.Lane == lane {
			return i
		}
	}
	return -1
}
