package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// WriteTable prints each run as a comparison table and its findings, as "rlsim run" shows them.
func WriteTable(w io.Writer, runs []Run) error {
	for i, o := range runs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s\n", o.Scenario.Name)
		if o.Scenario.Description != "" {
			fmt.Fprintf(w, "%s\n", o.Scenario.Description)
		}
		if o.Contention != nil {
			writeContention(w, o.Scenario.Contention, *o.Contention)
		} else {
			writeComparison(w, *o.Result)
		}
	}
	return nil
}

func writeComparison(w io.Writer, r sim.Result) {
	fmt.Fprintf(w, "%s; %s of traffic, seed %d\n\n", describeLimits(r.Limits), FormatDuration(r.Duration), r.Seed)
	withBackend := false
	for _, l := range r.Lanes {
		withBackend = withBackend || l.Backend.Served > 0
	}
	head := []string{"lane", "offered", "admitted", "refused", "shed", "delayed", "dropped",
		"p99 delay", "max in window", "vs limit", "retry amp", "fairness"}
	if withBackend {
		head = append(head, "p99 latency")
	}
	t := &Table{Head: head}
	for _, l := range r.Lanes {
		row := []string{l.Lane.Title(), count(l.Attempts), count(l.Admitted), count(l.Refused), count(l.Shed),
			count(l.Delayed), count(l.Dropped), dash(l.Delay.Count, FormatDuration(l.Delay.P99)),
			count(l.Peak.Count), ratio(l.Peak), fixed2(l.RetryAmplification), fixed2(l.Fairness)}
		if withBackend {
			row = append(row, dash(l.Backend.Served, FormatDuration(l.Backend.Latency.P99)))
		}
		t.Add(row...)
	}
	t.Write(w)
	if classes := classNames(r); len(classes) > 1 {
		fmt.Fprintf(w, "\nrequests that succeeded, by class\n")
		c := &Table{Head: append([]string{"lane"}, classes...)}
		for _, l := range r.Lanes {
			row := []string{l.Lane.Title()}
			for _, cl := range l.Classes {
				row = append(row, percent(cl.Succeeded, cl.Unique))
			}
			c.Add(row...)
		}
		c.Write(w)
	}
	writePacing(w, r)
	writeRetryAfter(w, r)
	writeFindings(w, Findings(r))
}

func writeContention(w io.Writer, c *sim.ContentionConfig, r sim.ContentionResult) {
	runs := max(c.Runs, 1)
	schedule := ""
	if c.Schedule != sim.ScheduleBaseFirst {
		schedule = ", schedule " + c.Schedule.String()
	}
	fmt.Fprintf(w, "optimistic concurrency: backoff base %s, cap %s%s; mean of %d run(s), seed %d\n",
		FormatDuration(c.Base), FormatDuration(c.Cap), schedule, runs, c.Seed)
	jitters, clients := contentionAxes(r)
	cell := map[[2]int]sim.ContentionRow{}
	for _, row := range r.Rows {
		cell[[2]int{row.Clients, int(row.Jitter)}] = row
	}
	for _, part := range []struct {
		title string
		value func(sim.ContentionRow) string
	}{
		{"write calls until every client succeeded", contentionCalls},
		{"time until the last client succeeded", contentionCompletion},
	} {
		title := part.title
		if runs >= 2 {
			title += fmt.Sprintf(" (mean ± half its 95%% interval over the %d runs)", runs)
		}
		fmt.Fprintf(w, "\n%s\n", title)
		head := []string{"clients"}
		for _, j := range jitters {
			head = append(head, j.String())
		}
		t := &Table{Head: head}
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
	writeFindings(w, ContentionFindings(r))
}

// contentionCalls is a cell's mean write calls, ± half its 95% interval when the
// runs give one.
func contentionCalls(r sim.ContentionRow) string {
	s := strconv.FormatFloat(r.Calls, 'f', 0, 64)
	if r.Runs >= 2 {
		s += " ±" + strconv.FormatFloat((r.CallsHigh-r.CallsLow)/2, 'f', 0, 64)
	}
	return s
}

// contentionCompletion is a cell's mean completion time, ± half its 95% interval
// when the runs give one.
func contentionCompletion(r sim.ContentionRow) string {
	s := FormatDuration(r.Completion)
	if r.Runs >= 2 {
		s += " ±" + FormatDuration((r.CompletionHigh-r.CompletionLow)/2)
	}
	return s
}

// writeFindings lists the plain-words findings under the tables, if any.
func writeFindings(w io.Writer, fs []string) {
	if len(fs) == 0 {
		return
	}
	fmt.Fprintf(w, "\nfindings\n")
	for _, f := range fs {
		fmt.Fprintf(w, "  - %s\n", f)
	}
}

// contentionAxes lists the jitter kinds and client counts of a sweep in the order met.
func contentionAxes(r sim.ContentionResult) ([]sim.JitterKind, []int) {
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

func describeLimits(limits []sim.Limit) string {
	var parts []string
	for _, l := range limits {
		p := l.Policy
		s := fmt.Sprintf("%s %d per %s", l.Name, p.Limit, FormatDuration(p.Window))
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

// Table lays out text columns: the first left-aligned, the rest right-aligned.
type Table struct {
	Head []string
	// Text left-aligns every column; otherwise only the first is, and the rest,
	// numbers, are right-aligned.
	Text bool
	rows [][]string
}

// Add appends a row.
func (t *Table) Add(cells ...string) { t.rows = append(t.rows, cells) }

// Write prints the head and the rows.
func (t *Table) Write(w io.Writer) {
	widths := make([]int, len(t.Head))
	for _, row := range append([][]string{t.Head}, t.rows...) {
		for i, c := range row {
			if i < len(widths) {
				widths[i] = max(widths[i], len([]rune(c)))
			}
		}
	}
	for _, row := range append([][]string{t.Head}, t.rows...) {
		var b strings.Builder
		for i := range widths {
			c := ""
			if i < len(row) {
				c = row[i]
			}
			pad := strings.Repeat(" ", widths[i]-len([]rune(c)))
			switch {
			case i == 0:
				b.WriteString(c + pad)
			case t.Text:
				b.WriteString("  " + c + pad)
			default:
				b.WriteString("  " + pad + c)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
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

// ratio shows the peak against the limit, flagged when over it.
func ratio(p sim.WindowPeak) string {
	if p.Limit == 0 {
		return "-"
	}
	s := strconv.FormatFloat(p.Ratio, 'f', 2, 64) + "×"
	if p.Count > p.Limit {
		s += " OVER"
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
		return trimFloat(float64(d)/float64(time.Microsecond), 1) + "µs"
	case d < time.Second:
		return trimFloat(float64(d)/float64(time.Millisecond), 1) + "ms"
	case d < time.Minute:
		return trimFloat(d.Seconds(), 2) + "s"
	}
	s := d.Round(time.Second).String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	return s
}

func trimFloat(f float64, decimals int) string {
	s := strconv.FormatFloat(f, 'f', decimals, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}
