package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/rlsim/rlsim/contention"
	"github.com/rlsim/rlsim/report/chart"
	"github.com/rlsim/rlsim/report/textlayout"
	"github.com/rlsim/rlsim/sim"
)

// This file is the contention study's kind of run: its table, JSON, CSV, page,
// findings and figure (see kind).

func writeContention(w io.Writer, c *contention.Config, r contention.Result, width int) {
	runs := max(c.Runs, 1)
	schedule := ""
	if c.Schedule != sim.ScheduleBaseFirst {
		schedule = ", schedule " + c.Schedule.String()
	}
	textlayout.Wrap(w, fmt.Sprintf("optimistic concurrency: backoff base %s, cap %s%s; mean of %d run(s), seed %d",
		FormatDuration(c.Base), FormatDuration(c.Cap), schedule, runs, c.Seed), "", "", width)
	jitters, clients := contentionAxes(r)
	cell := map[[2]int]contention.Row{}
	for _, row := range r.Rows {
		cell[[2]int{row.Clients, int(row.Jitter)}] = row
	}
	for _, part := range []struct {
		title string
		value func(contention.Row) string
	}{
		{"write calls until every client succeeded", contentionCalls},
		{"time until the last client succeeded", contentionCompletion},
	} {
		title := part.title
		if runs >= 2 {
			title += fmt.Sprintf(" (mean ± half its 95%% interval over the %d runs)", runs)
		}
		fmt.Fprintln(w)
		textlayout.Wrap(w, title, "", "", width)
		head := []string{"clients"}
		for _, j := range jitters {
			head = append(head, j.String())
		}
		t := &textlayout.Table{Head: head}
		for _, n := range clients {
			row := []string{strconv.Itoa(n)}
			for _, j := range jitters {
				if v, ok := cell[[2]int{n, int(j)}]; ok {
					row = append(row, part.value(v))
				} else {
					row = append(row, "-")
				}
			}
			t.Add(row...)
		}
		t.Write(w)
	}
	writeFindings(w, ContentionFindings(r), width)
}

// contentionCalls is a cell's mean write calls, ± half its 95% interval when the
// runs give one.
func contentionCalls(r contention.Row) string {
	s := strconv.FormatFloat(r.Calls, 'f', 0, 64)
	if r.Runs >= 2 {
		s += " ±" + strconv.FormatFloat((r.CallsHigh-r.CallsLow)/2, 'f', 0, 64)
	}
	return s
}

// contentionCompletion is a cell's mean completion time, ± half its 95% interval
// when the runs give one.
func contentionCompletion(r contention.Row) string {
	s := FormatDuration(r.Completion)
	if r.Runs >= 2 {
		s += " ±" + FormatDuration((r.CompletionHigh-r.CompletionLow)/2)
	}
	return s
}

// contentionAxes lists the jitter kinds and client counts of a sweep in the order met.
func contentionAxes(r contention.Result) ([]sim.JitterKind, []int) {
	var jitters []sim.JitterKind
	var clients []int
	seenJ, seenC := map[sim.JitterKind]bool{}, map[int]bool{}
	for _, row := range r.Rows {
		if !seenJ[row.Jitter] {
			seenJ[row.Jitter] = true
			jitters = append(jitters, row.Jitter)
		}
		if !seenC[row.Clients] {
			seenC[row.Clients] = true
			clients = append(clients, row.Clients)
		}
	}
	return jitters, clients
}

// ContentionFindings reads a contention study in plain words, at the largest
// client count: the backoff kind with the fewest write calls is named the winner
// only when its 95% interval over the runs overlaps no other kind's; kinds within
// run-to-run spread of it share the place, and with one run no winner is named.
func ContentionFindings(r contention.Result) []string {
	jitters, clients := contentionAxes(r)
	if len(clients) == 0 || len(jitters) < 2 {
		return nil
	}
	n := clients[len(clients)-1]
	var cells []contention.Row
	for _, row := range r.Rows {
		if row.Clients == n {
			cells = append(cells, row)
		}
	}
	best, worst := cells[0], cells[0]
	for _, c := range cells[1:] {
		if c.Calls < best.Calls {
			best = c
		}
		if c.Calls > worst.Calls {
			worst = c
		}
	}
	if best.Jitter == worst.Jitter {
		return nil
	}
	if best.Runs < 2 {
		return []string{fmt.Sprintf("at %d clients, %s needed %s write calls and %s %s, but from one run each: run-to-run spread is unknown, so no winner is named (set runs to 2 or more)",
			n, jitterPhrase(best.Jitter), trimFloat(best.Calls, 0), jitterPhrase(worst.Jitter), trimFloat(worst.Calls, 0))}
	}
	var tied []string
	for _, c := range cells {
		if c.Jitter != best.Jitter && !best.Separated(c) {
			tied = append(tied, fmt.Sprintf("%s (%s)", jitterPhrase(c.Jitter), callsInterval(c)))
		}
	}
	most := fmt.Sprintf("%s made the most, %s; over %d runs", jitterPhrase(worst.Jitter), callsInterval(worst), best.Runs)
	if len(tied) == 0 {
		return []string{fmt.Sprintf("at %d clients, %s made the fewest write calls, beyond run-to-run spread of every other kind: %s, finishing at %s; %s",
			n, jitterPhrase(best.Jitter), callsInterval(best), FormatDuration(best.Completion), most)}
	}
	verb := "differs"
	if len(tied) > 1 {
		verb = "differ"
	}
	return []string{fmt.Sprintf("at %d clients, %s made the fewest write calls, %s, but %s %s from it by less than run-to-run spread: no single winner; %s",
		n, jitterPhrase(best.Jitter), callsInterval(best), list(tied), verb, most)}
}

// callsInterval is a cell's mean write calls with its 95% interval.
func callsInterval(c contention.Row) string {
	return fmt.Sprintf("%s calls, 95%% interval %s–%s", trimFloat(c.Calls, 0), trimFloat(c.CallsLow, 0), trimFloat(c.CallsHigh, 0))
}

func jitterPhrase(j sim.JitterKind) string {
	switch j {
	case sim.JitterNone:
		return "backoff without jitter"
	case sim.JitterNoBackoff:
		return "no backoff at all"
	}
	return j.String() + " jitter"
}

// contentionLines gives, per jitter kind in the order met, the mean write calls
// and the completion time (s) against the number of clients.
func contentionLines(r contention.Result) (jitters []sim.JitterKind, calls, completion []plotter.XYs) {
	jitters, _ = contentionAxes(r)
	index := map[sim.JitterKind]int{}
	for i, j := range jitters {
		index[j] = i
	}
	calls = make([]plotter.XYs, len(jitters))
	completion = make([]plotter.XYs, len(jitters))
	for _, row := range r.Rows {
		i := index[row.Jitter]
		calls[i] = append(calls[i], plotter.XY{X: float64(row.Clients), Y: row.Calls})
		completion[i] = append(completion[i], plotter.XY{X: float64(row.Clients), Y: row.Completion.Seconds()})
	}
	return jitters, calls, completion
}

// ContentionFigure plots the backoff contention study: write calls and time to
// completion against the number of clients, one line per jitter kind.
func ContentionFigure(r contention.Result) *chart.Figure {
	jitters, calls, completion := contentionLines(r)
	left := chart.NewPlot("write calls until every client succeeded", "clients", "calls")
	right := chart.NewPlot("time until the last client succeeded", "clients", "seconds")
	var legend []chart.LegendEntry
	for i, j := range jitters {
		clr := chart.SeriesColours[i%len(chart.SeriesColours)]
		for _, side := range []struct {
			p   *plot.Plot
			pts plotter.XYs
		}{{left, calls[i]}, {right, completion[i]}} {
			ln, pts, err := plotter.NewLinePoints(side.pts)
			if err != nil {
				continue
			}
			ln.LineStyle = chart.LineStyle(clr, 1.6, false)
			pts.GlyphStyle.Color, pts.GlyphStyle.Radius, pts.GlyphStyle.Shape = clr, vg.Points(2.5), draw.CircleGlyph{}
			side.p.Add(ln, pts)
		}
		name := j.String() + " jitter"
		switch j {
		case sim.JitterNone:
			name = "no jitter"
		case sim.JitterNoBackoff:
			name = "no backoff"
		}
		legend = append(legend, chart.LegendEntry{Label: name, Colour: clr, Line: true})
	}
	left.Y.Min, right.Y.Min = 0, 0
	return &chart.Figure{Name: "contention", Title: "Backoff and jitter: clients racing to update one row",
		Caption: "Each point is the mean over the runs of one cell of the sweep. Jitter spreads the retries, so fewer collide: fewer calls and an earlier finish.",
		Legend:  legend, Width: 11 * vg.Inch, Height: 4.8 * vg.Inch, Body: chart.Grid([]*plot.Plot{left, right}, 2)}
}

type jsonContention struct {
	Base float64 `json:"base_s"`
	Cap  float64 `json:"cap_s"`
	// Schedule is base_first (retry n sleeps base×2ⁿ⁻¹) or brooker (base×2ⁿ).
	Schedule string        `json:"schedule"`
	Runs     int           `json:"runs"`
	Rows     []jsonContRow `json:"rows"`
}

type jsonContRow struct {
	Clients     int     `json:"clients"`
	Jitter      string  `json:"jitter"`
	Calls       float64 `json:"calls"`
	CompletionS float64 `json:"completion_s"`
	// The 95% confidence intervals of the two means over the runs.
	CallsLow        float64 `json:"calls_low"`
	CallsHigh       float64 `json:"calls_high"`
	CompletionLowS  float64 `json:"completion_low_s"`
	CompletionHighS float64 `json:"completion_high_s"`
}

func toJSONContRow(r contention.Row) jsonContRow {
	return jsonContRow{Clients: r.Clients, Jitter: r.Jitter.String(), Calls: finite(r.Calls), CompletionS: secs(r.Completion),
		CallsLow: finite(r.CallsLow), CallsHigh: finite(r.CallsHigh),
		CompletionLowS: secs(r.CompletionLow), CompletionHighS: secs(r.CompletionHigh)}
}

// csvContentionColumns are the columns for a contention study, one row per cell.
var csvContentionColumns = []string{"scenario", "seed", "clients", "jitter", "calls", "completion_s",
	"calls_low", "calls_high", "completion_low_s", "completion_high_s"}

// study renders a contention study: one row per cell of its sweep.
type study struct{ Run }

func (s study) writeTable(w io.Writer, width int) {
	writeContention(w, s.Scenario.Contention, *s.Contention, width)
}

func (s study) fillJSON(run *jsonRun) {
	c := s.Scenario.Contention
	run.Kind, run.Seed = "contention", c.Seed
	jc := &jsonContention{Base: secs(c.Base), Cap: secs(c.Cap), Schedule: c.Schedule.String(), Runs: max(c.Runs, 1), Rows: []jsonContRow{}}
	for _, r := range s.Contention.Rows {
		jc.Rows = append(jc.Rows, toJSONContRow(r))
	}
	run.Contention = jc
}

func (study) csvColumns(bool) []string { return csvContentionColumns }

func (s study) writeCSV(cw *csv.Writer, name string, _ bool) {
	f := csvFloat
	seed := strconv.FormatUint(s.Scenario.Contention.Seed, 10)
	for _, r := range s.Contention.Rows {
		cw.Write([]string{name, seed, strconv.Itoa(r.Clients), r.Jitter.String(), f(r.Calls), f(secs(r.Completion)),
			f(r.CallsLow), f(r.CallsHigh), f(secs(r.CompletionLow)), f(secs(r.CompletionHigh))})
	}
}

func (s study) fillPage(hp *htmlPageData) {
	c := s.Scenario.Contention
	hp.Summary = fmt.Sprintf("optimistic concurrency: backoff base %s, cap %s; mean of %d run(s), seed %d",
		FormatDuration(c.Base), FormatDuration(c.Cap), max(c.Runs, 1), c.Seed)
	hp.Findings = ContentionFindings(*s.Contention)
	hp.Head = []string{"clients", "backoff", "write calls", "completion"}
	for _, r := range s.Contention.Rows {
		hp.Rows = append(hp.Rows, []cell{{fmt.Sprint(r.Clients), fmt.Sprint(r.Clients)}, {r.Jitter.String(), r.Jitter.String()},
			{contentionCalls(r), fmt.Sprint(r.Calls)}, {contentionCompletion(r), fmt.Sprint(int64(r.Completion))}})
	}
}

func (s study) figures() []*chart.Figure {
	if s.Contention == nil {
		return nil
	}
	return []*chart.Figure{ContentionFigure(*s.Contention)}
}

func (s study) seed() uint64 { return s.Scenario.Contention.Seed }
