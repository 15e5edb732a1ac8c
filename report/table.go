package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/rlsim/rlsim/report/textlayout"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// WriteTable prints each run as a comparison table and its findings, as "rlsim
// run" shows them when stdout is not a terminal: every column, one line per
// finding, a stable layout for programs and golden files.
func WriteTable(w io.Writer, runs []Run) error { return WriteTableFit(w, runs, 0) }

// WriteTableFit is WriteTable for a terminal width columns wide: tables drop
// their least telling columns until they fit, and the description and findings
// wrap at the width. A width of 0 or less prints everything (WriteTable).
func WriteTableFit(w io.Writer, runs []Run, width int) error {
	for i, o := range runs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s\n", scenarios.Escape(o.Scenario.Name))
		if o.Scenario.Description != "" {
			textlayout.Wrap(w, scenarios.Escape(o.Scenario.Description), "", "", width)
		}
		o.kind().writeTable(w, width)
	}
	return nil
}

// comparison renders a limiter comparison: one row per lane.
type comparison struct{ Run }

func (c comparison) writeTable(w io.Writer, width int) {
	r := *c.Result
	textlayout.Wrap(w, fmt.Sprintf("%s; %s of traffic, seed %d", describeLimits(r.Limits), FormatDuration(r.Duration), r.Seed), "", "", width)
	fmt.Fprintln(w)
	cols, drop := termColumns(r)
	t := &textlayout.Table{}
	for _, c := range cols {
		t.Head = append(t.Head, c.head)
	}
	for i := range r.Lanes {
		row := make([]string, len(cols))
		for j, c := range cols {
			row[j] = c.text(&r.Lanes[i])
		}
		t.Add(row...)
	}
	t.Fit(width, drop)
	t.Write(w)
	if withClasses(r) {
		fmt.Fprintf(w, "\nwho was served, by class\n")
		classTable(r).Fit(width, classDrop).Write(w)
	}
	writeCaught(w, r, width)
	writePartitions(w, r, width)
	writeTopology(w, r, c.topology(), width)
	writePacing(w, r)
	writeRetryAfter(w, r)
	writeFindings(w, c.Findings(), width)
	writeChecks(w, c.Checks, width)
}

// classDrop is the order in which a narrow terminal drops the class table's columns.
var classDrop = []string{"p50 to success", "shed", "gave up", "refused", "p99 to success"}

// classTable shows, per lane and class, the share of requests that succeeded,
// the share of attempts refused and shed, the requests given up, how long a
// success took from the first attempt (p50, p99), and the part of its fair
// share of the lane's successes the class got.
func classTable(r sim.Result) *textlayout.Table {
	t := &textlayout.Table{Head: []string{"lane", "class", "succeeded", "refused", "shed", "gave up",
		"p50 to success", "p99 to success", "of fair share"}}
	t.Left = 2
	for _, l := range r.Lanes {
		for i, c := range l.Classes {
			name := ""
			if i == 0 {
				name = l.Title()
			}
			share := "-"
			if c.FairShare > 0 {
				share = percentF(float64(c.Succeeded) / c.FairShare)
			}
			t.Add(name, scenarios.Escape(c.Name), percent(c.Succeeded, c.Unique), percent(c.Refused, c.Attempts),
				percent(c.Shed, c.Attempts), count(c.GaveUp), dash(c.TimeToSuccess.Count, FormatDuration(c.TimeToSuccess.P50)),
				dash(c.TimeToSuccess.Count, FormatDuration(c.TimeToSuccess.P99)), share)
		}
	}
	return t
}

// writeFindings lists the plain-words findings under the tables, if any, each
// wrapped at width (0: one line each).
func writeFindings(w io.Writer, fs []string, width int) {
	if len(fs) == 0 {
		return
	}
	fmt.Fprintf(w, "\nfindings\n")
	for _, f := range fs {
		textlayout.Wrap(w, f, "  - ", "    ", width)
	}
}

func describeLimits(limits []sim.Limit) string {
	var parts []string
	for _, l := range limits {
		if l.Concurrency > 0 {
			parts = append(parts, describeConcurrency(l))
			continue
		}
		p := l.Policy
		s := fmt.Sprintf("%s %d per %s", scenarios.Escape(l.Name), p.Limit, FormatDuration(p.Window))
		if b := p.EffectiveBurst(); b != p.Limit {
			s += fmt.Sprintf(" (burst %d)", b)
		}
		if l.Name != l.Key.String() {
			s += " by " + l.Key.String()
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "no limit"
	}
	return "limit " + strings.Join(parts, ", then ")
}

func classNames(r sim.Result) []string {
	if len(r.Lanes) == 0 {
		return nil
	}
	var names []string
	for _, c := range r.Lanes[0].Classes {
		names = append(names, c.Name)
	}
	return names
}

func count(n int64) string { return strconv.FormatInt(n, 10) }

func fixed2(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) }

func dash(n int64, s string) string {
	if n == 0 {
		return "-"
	}
	return s
}

func percent(n, of int64) string {
	if of == 0 {
		return "-"
	}
	return strconv.FormatFloat(100*float64(n)/float64(of), 'f', 0, 64) + "%"
}

// ratio shows the peak against the limit, flagged when over it
// (sim.LaneResult.Over); a lane that limited nothing is not judged against the
// limit, nor a concurrency lane against the rate.
func ratio(l sim.LaneResult) string {
	p := l.Peak
	if p.Limit == 0 {
		return "-"
	}
	if l.NotLimiting() {
		return "not limiting"
	}
	s := sim.RatioText(p.Count, p.Limit, true) + "×"
	switch {
	case l.Over():
		s += " OVER"
	case l.Lane.Info().Class == sim.ConcurrencyLimiter:
		s += " (concurrency)" // its limit is not the rate
	}
	return s
}

// FormatDuration writes a duration for people: 0, 850µs, 12.5ms, 950ms, 1.25s, 2m30s.
func FormatDuration(d time.Duration) string {
	switch {
	case d == 0:
		return "0"
	case d < 0:
		return "-" + FormatDuration(-d)
	case d < time.Microsecond:
		return strconv.FormatInt(int64(d), 10) + "ns"
	case d < time.Millisecond:
		return inUnit(d, time.Microsecond, 1, "µs", 1000, "1ms")
	case d < time.Second:
		return inUnit(d, time.Millisecond, 1, "ms", 1000, "1s")
	case d < time.Minute:
		return inUnit(d, time.Second, 2, "s", 60, "1m")
	}
	s := d.Round(time.Second).String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	return s
}

// inUnit writes d in unit with the given decimals. A value that rounds up to
// per units (999.96ms) is written as the next unit's one, so a column never shows
// "1000ms" beside "1s".
func inUnit(d, unit time.Duration, decimals int, suffix string, per int, next string) string {
	s := trimFloat(float64(d)/float64(unit), decimals)
	if s == strconv.Itoa(per) {
		return next
	}
	return s + suffix
}

func trimFloat(f float64, decimals int) string {
	s := strconv.FormatFloat(f, 'f', decimals, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

func (c comparison) seed() uint64 { return c.Result.Seed }
