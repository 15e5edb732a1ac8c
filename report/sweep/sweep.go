package sweep

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/rlsim/rlsim/report"
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/run/sweep"
)

// Report is a sweep (or one scenario run over several seeds) ready to render:
// the result, and the objective's recommendations when one was asked.
type Report struct {
	Result    *sweep.Result
	Objective *sweep.Objective // nil: none asked
	Recommend []sweep.Recommendation
	// Checks are the scenario's checks on the means over the seeds (rlsim run --seeds).
	Checks []sweep.SpreadCheck
	// Command is the command line that runs the sweep again; "": not known
	// (a merge of shards).
	Command string
}

// New is r rendered with the objective o (nil: none).
func New(r *sweep.Result, o *sweep.Objective) Report {
	s := Report{Result: r, Objective: o}
	if o != nil {
		s.Recommend = o.Recommend(r)
	}
	return s
}

// row is one lane's totals (class "") or one class of it, at one point.
type row struct {
	point int
	lane  run.LaneFigures // of the point's first seed: names only
	li    int
	class string
	ci    int // index into lane.Classes; -1: totals
}

// rows lists every row of a sweep: point by point, lane by lane, the totals
// then each class.
func (s Report) rows() []row {
	var out []row
	for pi, pt := range s.Result.Points {
		if len(pt.Runs) == 0 {
			continue
		}
		for li, l := range pt.Runs[0].Lanes {
			out = append(out, row{point: pi, lane: l, li: li, ci: -1})
			for ci, c := range l.Classes {
				out = append(out, row{point: pi, lane: l, li: li, class: c.Name, ci: ci})
			}
		}
	}
	return out
}

// spread is the spread over the point's seeds of figure f in row r.
func (s Report) spread(r row, f int) sweep.Spread {
	var values []run.Num
	for _, sr := range s.Result.Points[r.point].Runs {
		if r.li >= len(sr.Lanes) {
			continue
		}
		l := sr.Lanes[r.li]
		if r.ci < 0 {
			values = append(values, l.Totals[f])
		} else if r.ci < len(l.Classes) {
			values = append(values, l.Classes[r.ci].Values[f])
		}
	}
	return sweep.SpreadOf(values)
}

// applies reports whether figure f is measured on r's kind of row.
func (r row) applies(f run.Figure) bool {
	if r.ci < 0 {
		return f.HasLane()
	}
	return f.HasClass()
}

// formatSpread writes a spread in the figure's unit: 97.1% ± 0.4%, 12.3/s ±
// 0.2/s, 1.2s ± 80ms, 1.20 ± 0.05; the mean alone with one seed; "-" for none.
func formatSpread(name string, s sweep.Spread, seeds int) string {
	if s.N == 0 || math.IsNaN(s.Mean) {
		return "-"
	}
	text := formatFigure(name, s.Mean)
	if seeds > 1 {
		text += " ± " + formatFigure(name, s.Half)
	}
	return text
}

func formatFigure(name string, v float64) string {
	switch {
	case strings.HasSuffix(name, "_rate") && name != "admitted_rate":
		return strconv.FormatFloat(100*v, 'f', 1, 64) + "%"
	case name == "admitted_rate":
		return strconv.FormatFloat(v, 'f', 2, 64) + "/s"
	case strings.HasSuffix(name, "_s"):
		return report.FormatDuration(time.Duration(v * float64(time.Second)))
	case name == "peak_ratio" || name == "retry_amplification" || name == "fairness":
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

// pointLabel is a point's values as --set flags write them: limits[0].limit=20.
func (s Report) pointLabel(pi int) string {
	var parts []string
	for i, v := range s.Result.Points[pi].Values {
		parts = append(parts, s.Result.Varies[i].Path+"="+v)
	}
	return strings.Join(parts, " ")
}

// describe says what was run, in one line.
func (s Report) describe() string {
	r := s.Result
	seeds := fmt.Sprintf("seed %d", r.Seed)
	spread := "; each figure is one run's (one seed: no interval)"
	if r.Seeds > 1 {
		seeds = fmt.Sprintf("%d seeds (%d to %d)", r.Seeds, r.Seed, r.Seed+uint64(r.Seeds)-1)
		spread = "; each figure is the mean ± the half-width of its 95% interval (Student's t)"
	}
	if len(r.Varies) == 0 {
		return fmt.Sprintf("%s over %s%s", r.Scenario, seeds, spread)
	}
	return fmt.Sprintf("%s: %d points × %s%s", r.Scenario, len(r.Points), seeds, spread)
}
