package sweep

import (
	"fmt"

	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/run/sweep"
)

// Findings compare the lanes of a one-point sweep (a run over several seeds):
// for the success rate of each class and for the peak against the limit, the
// best and the worst lane, claimed different only when their 95% intervals do
// not overlap. A sweep of several points has none: its table is the finding.
func (s Report) Findings() []string {
	if len(s.Result.Points) != 1 || len(s.Result.Points[0].Runs) == 0 {
		return nil
	}
	var lines []string
	first := s.Result.Points[0].Runs[0].Lanes
	if len(first) < 2 {
		return nil
	}
	success := run.FigureIndex("success_rate")
	classes := []int{-1}
	if len(first[0].Classes) > 1 { // one class is all clients: said once
		for ci := range first[0].Classes {
			classes = append(classes, ci)
		}
	}
	for _, ci := range classes {
		who := "all clients"
		if ci >= 0 {
			who = first[0].Classes[ci].Name
		}
		lines = append(lines, s.compare(success, ci, who+": success", "kept success at"))
	}
	lines = append(lines, s.compare(run.FigureIndex("peak_ratio"), -1, "most admitted in any window vs limit", "peaked at"))
	return lines
}

// compare names the lanes with the highest and the lowest mean of figure f in
// class ci (-1: totals) and says whether they differ beyond the spread.
func (s Report) compare(f, ci int, subject, verb string) string {
	name := run.Figures[f].Name
	lanes := s.Result.Points[0].Runs[0].Lanes
	hi, lo := -1, -1
	var spreads []sweep.Spread
	for li := range lanes {
		sp := s.spread(row{point: 0, li: li, ci: ci}, f)
		spreads = append(spreads, sp)
		if sp.N == 0 {
			continue
		}
		if hi < 0 || sp.Mean > spreads[hi].Mean {
			hi = li
		}
		if lo < 0 || sp.Mean < spreads[lo].Mean {
			lo = li
		}
	}
	seeds := s.Result.Seeds
	if hi < 0 {
		return fmt.Sprintf("%s: nothing measured", subject)
	}
	h, l := spreads[hi], spreads[lo]
	if h.Mean == l.Mean {
		return fmt.Sprintf("%s: every lane at %s over %s", subject, formatFigure(name, h.Mean), seedCount(seeds))
	}
	if seeds < 2 {
		return fmt.Sprintf("%s: %s %s %s, %s at %s; one seed measures no spread to weigh the difference against",
			subject, lanes[hi].Title, verb, formatSpread(name, h, seeds), lanes[lo].Title, formatSpread(name, l, seeds))
	}
	if h.Differs(l) {
		return fmt.Sprintf("%s: %s %s %s, %s at %s; the difference exceeds the spread over %d seeds",
			subject, lanes[hi].Title, verb, formatSpread(name, h, seeds), lanes[lo].Title, formatSpread(name, l, seeds), seeds)
	}
	return fmt.Sprintf("%s: every lane from %s (%s) to %s (%s) lies within the spread over %d seeds; no lane is claimed different",
		subject, lanes[lo].Title, formatSpread(name, l, seeds), lanes[hi].Title, formatSpread(name, h, seeds), seeds)
}

// seedCount is "1 seed" or "n seeds".
func seedCount(n int) string {
	if n == 1 {
		return "1 seed"
	}
	return fmt.Sprintf("%d seeds", n)
}
