package report

import (
	"fmt"
	"strconv"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// laneColumn is one column of a comparison's per-lane statistics, defined once
// for the three tables that show them: the terminal table, the HTML report's
// table and the CSV. A column may appear in some of them only.
type laneColumn struct {
	head string // header in the terminal and HTML tables
	csv  string // header in the CSV; "" when the CSV lacks the column
	// term and html say whether the terminal and HTML tables show the column
	// for a result; nil: never.
	term, html func(sim.Result) bool
	// drop is the column's place in the order a narrow terminal drops columns
	// (1 first); 0: kept to the last.
	drop int
	text func(l *sim.LaneResult) string                     // as the tables print it
	sort func(i int, l *sim.LaneResult) string              // the HTML table's sort key
	lane func(l *sim.LaneResult) string                     // a lane's CSV field
	of   func(l *sim.LaneResult, c *sim.ClassResult) string // a class's CSV field; nil: empty
	// topology marks a column the CSV has only when a run of it has a topology.
	topology bool
}

func always(sim.Result) bool        { return true }
func withClasses(r sim.Result) bool { return len(classNames(r)) > 1 }

// laneColumns are the per-lane columns in the order every table shows them.
var laneColumns = append([]laneColumn{
	{head: "lane", csv: "lane", term: always, html: always,
		text: func(l *sim.LaneResult) string { return l.Title() },
		sort: func(i int, _ *sim.LaneResult) string { return fmt.Sprint(i) },
		lane: func(l *sim.LaneResult) string { return l.Name },
		of:   func(l *sim.LaneResult, _ *sim.ClassResult) string { return l.Name }},
	{csv: "class", lane: func(*sim.LaneResult) string { return "" },
		of: func(_ *sim.LaneResult, c *sim.ClassResult) string { return c.Name }},
	countColumn("offered", "attempts", 10, func(l *sim.LaneResult) int64 { return l.Attempts },
		func(c *sim.ClassResult) int64 { return c.Attempts }),
	csvCount("unique", func(l *sim.LaneResult) int64 { return l.Unique }, func(c *sim.ClassResult) int64 { return c.Unique }),
	countColumn("admitted", "admitted", 0, func(l *sim.LaneResult) int64 { return l.Admitted },
		func(c *sim.ClassResult) int64 { return c.Admitted }),
	countColumn("refused", "refused", 0, func(l *sim.LaneResult) int64 { return l.Refused },
		func(c *sim.ClassResult) int64 { return c.Refused }),
	{head: "would refuse", term: hasShadow, html: hasShadow, drop: 11,
		text: func(l *sim.LaneResult) string { return count(l.ShadowRefused) },
		sort: func(_ int, l *sim.LaneResult) string { return fmt.Sprint(l.ShadowRefused) }},
	countColumn("shed", "shed", 8, func(l *sim.LaneResult) int64 { return l.Shed },
		func(c *sim.ClassResult) int64 { return c.Shed }),
	countColumn("delayed", "delayed", 7, func(l *sim.LaneResult) int64 { return l.Delayed }, nil),
	countColumn("dropped", "dropped", 6, func(l *sim.LaneResult) int64 { return l.Dropped },
		func(c *sim.ClassResult) int64 { return c.Dropped }),
	csvCount("succeeded", func(l *sim.LaneResult) int64 { return l.Succeeded }, func(c *sim.ClassResult) int64 { return c.Succeeded }),
	csvCount("gave_up", func(l *sim.LaneResult) int64 { return l.GaveUp }, func(c *sim.ClassResult) int64 { return c.GaveUp }),
	csvCount("pending", func(l *sim.LaneResult) int64 { return l.Pending },
		func(c *sim.ClassResult) int64 { return c.Unique - c.Succeeded - c.GaveUp }),
	csvShare("success_rate", func(l *sim.LaneResult) (int64, int64) { return l.Succeeded, l.Unique },
		func(c *sim.ClassResult) (int64, int64) { return c.Succeeded, c.Unique }),
	csvShare("refused_rate", func(l *sim.LaneResult) (int64, int64) { return l.Refused, l.Attempts },
		func(c *sim.ClassResult) (int64, int64) { return c.Refused, c.Attempts }),
	csvShare("shed_rate", func(l *sim.LaneResult) (int64, int64) { return l.Shed, l.Attempts },
		func(c *sim.ClassResult) (int64, int64) { return c.Shed, c.Attempts }),
	csvClassOnly("p50_to_success_s", func(c *sim.ClassResult) float64 { return secs(c.TimeToSuccess.P50) }),
	csvClassOnly("p99_to_success_s", func(c *sim.ClassResult) float64 { return secs(c.TimeToSuccess.P99) }),
	csvClassOnly("fair_share", func(c *sim.ClassResult) float64 { return c.FairShare }),
	{head: "p99 delay", csv: "p99_delay_s", term: always, html: always, drop: 2,
		text: func(l *sim.LaneResult) string { return dash(l.Delay.Count, FormatDuration(l.Delay.P99)) },
		sort: nanos(func(l *sim.LaneResult) time.Duration { return l.Delay.P99 }),
		lane: func(l *sim.LaneResult) string { return csvFloat(secs(l.Delay.P99)) }},
	countColumn("max in window", "peak_count", 4, func(l *sim.LaneResult) int64 { return l.Peak.Count }, nil),
	{csv: "peak_start_s", lane: func(l *sim.LaneResult) string { return csvFloat(secs(l.Peak.Start)) }},
	{csv: "peak_key", lane: func(l *sim.LaneResult) string { return l.Peak.Key }},
	{csv: "peak_limit", lane: func(l *sim.LaneResult) string { return csvInt(l.Peak.Limit) }},
	{head: "vs limit", csv: "peak_ratio", term: always, html: always,
		text: func(l *sim.LaneResult) string { return ratio(*l) },
		sort: number(func(l *sim.LaneResult) float64 { return l.Peak.Ratio }),
		lane: func(l *sim.LaneResult) string { return csvFloat(l.Peak.Ratio) }},
	{csv: "over_limit", lane: func(l *sim.LaneResult) string {
		return strconv.FormatBool(l.Over())
	}},
	{head: "time over limit", html: always,
		text: func(l *sim.LaneResult) string { return FormatDuration(l.TimeOverLimit) },
		sort: nanos(func(l *sim.LaneResult) time.Duration { return l.TimeOverLimit })},
	fixedColumn("retry amp", "retry_amplification", always, always, 3, func(l *sim.LaneResult) float64 { return l.RetryAmplification }),
	{head: "all done", csv: "all_done_s", html: always,
		text: func(l *sim.LaneResult) string { return FormatDuration(l.AllDoneAt) },
		sort: nanos(func(l *sim.LaneResult) time.Duration { return l.AllDoneAt }),
		lane: func(l *sim.LaneResult) string { return csvFloat(secs(l.AllDoneAt)) }},
	fixedColumn("fairness", "fairness", always, always, 5, func(l *sim.LaneResult) float64 { return l.Fairness }),
	fixedColumn("class fairness", "class_fairness", withClasses, always, 9, func(l *sim.LaneResult) float64 { return l.ClassFairness }),
	{head: "disagrees with sliding log", html: always,
		text: func(l *sim.LaneResult) string { return trimFloat(100*finite(l.SlidingLogDisagreement), 1) + "%" },
		sort: number(func(l *sim.LaneResult) float64 { return l.SlidingLogDisagreement })},
	{head: "p99 latency", csv: "backend_p99_latency_s", term: hasBackend, html: hasBackend, drop: 1,
		text: func(l *sim.LaneResult) string { return dash(l.Backend.Served, FormatDuration(l.Backend.Latency.P99)) },
		sort: nanos(func(l *sim.LaneResult) time.Duration { return l.Backend.Latency.P99 }),
		lane: func(l *sim.LaneResult) string { return csvFloat(secs(l.Backend.Latency.P99)) }},
	{head: "utilisation", html: hasBackend,
		text: func(l *sim.LaneResult) string { return trimFloat(100*finite(l.Backend.Utilisation), 0) + "%" },
		sort: number(func(l *sim.LaneResult) float64 { return l.Backend.Utilisation })},
	csvCount("retry_after_given", func(l *sim.LaneResult) int64 { return l.RetryAfter.Given }, nil),
	csvCount("retried_at_retry_after", func(l *sim.LaneResult) int64 { return l.RetryAfter.RetriedAt }, nil),
	csvCount("admitted_at_retry_after", func(l *sim.LaneResult) int64 { return l.RetryAfter.SucceededAt }, nil),
	csvCount("shadow_refused", func(l *sim.LaneResult) int64 { return l.ShadowRefused },
		func(c *sim.ClassResult) int64 { return c.ShadowRefused }),
}, topologyColumns...)

// hasShadow reports whether some limit of r is a shadow at some time of the run.
func hasShadow(r sim.Result) bool {
	for _, l := range r.Limits {
		if l.Shadow {
			return true
		}
	}
	for _, ch := range r.Rules {
		if ch.Shadow {
			return true
		}
	}
	return false
}

// countColumn is a count in every table; class, when not nil, gives a class's.
func countColumn(head, csv string, drop int, lane func(*sim.LaneResult) int64, class func(*sim.ClassResult) int64) laneColumn {
	c := csvCount(csv, lane, class)
	c.head, c.term, c.html, c.drop = head, always, always, drop
	c.text = func(l *sim.LaneResult) string { return count(lane(l)) }
	c.sort = func(_ int, l *sim.LaneResult) string { return fmt.Sprint(lane(l)) }
	return c
}

// csvCount is a count in the CSV only.
func csvCount(csv string, lane func(*sim.LaneResult) int64, class func(*sim.ClassResult) int64) laneColumn {
	c := laneColumn{csv: csv, lane: func(l *sim.LaneResult) string { return csvInt(lane(l)) }}
	if class != nil {
		c.of = func(_ *sim.LaneResult, cr *sim.ClassResult) string { return csvInt(class(cr)) }
	}
	return c
}

// csvShare is n/of, 0 when of is 0, in the CSV only.
func csvShare(csv string, lane func(*sim.LaneResult) (int64, int64), class func(*sim.ClassResult) (int64, int64)) laneColumn {
	return laneColumn{csv: csv,
		lane: func(l *sim.LaneResult) string { return csvFloat(fraction(lane(l))) },
		of:   func(_ *sim.LaneResult, c *sim.ClassResult) string { return csvFloat(fraction(class(c))) }}
}

// csvClassOnly is a figure of a class's row in the CSV, empty in a lane's.
func csvClassOnly(csv string, class func(*sim.ClassResult) float64) laneColumn {
	return laneColumn{csv: csv, lane: func(*sim.LaneResult) string { return "" },
		of: func(_ *sim.LaneResult, c *sim.ClassResult) string { return csvFloat(class(c)) }}
}

// fixedColumn is a ratio printed with two decimals.
func fixedColumn(head, csv string, term, html func(sim.Result) bool, drop int, v func(*sim.LaneResult) float64) laneColumn {
	return laneColumn{head: head, csv: csv, term: term, html: html, drop: drop,
		text: func(l *sim.LaneResult) string { return fixed2(v(l)) },
		sort: number(v),
		lane: func(l *sim.LaneResult) string { return csvFloat(v(l)) }}
}

// nanos is a sort key of a duration, in integer nanoseconds.
func nanos(v func(*sim.LaneResult) time.Duration) func(int, *sim.LaneResult) string {
	return func(_ int, l *sim.LaneResult) string { return fmt.Sprint(int64(v(l))) }
}

// number is a sort key of a float, NaN and infinities as 0.
func number(v func(*sim.LaneResult) float64) func(int, *sim.LaneResult) string {
	return func(_ int, l *sim.LaneResult) string { return fmt.Sprint(finite(v(l))) }
}

// termColumns are the columns the terminal table shows for r, and the order in
// which a narrow terminal drops them.
func termColumns(r sim.Result) (cols []laneColumn, drop []string) {
	byDrop := map[int]string{}
	for _, c := range laneColumns {
		if c.term != nil && c.term(r) {
			cols = append(cols, c)
			if c.drop > 0 {
				byDrop[c.drop] = c.head
			}
		}
	}
	for i := 1; len(drop) < len(byDrop); i++ {
		if h, ok := byDrop[i]; ok {
			drop = append(drop, h)
		}
	}
	return cols, drop
}

// csvLaneColumns are the CSV's per-lane columns, with those of a topology or not.
func csvLaneColumns(topology bool) []laneColumn {
	var cols []laneColumn
	for _, c := range laneColumns {
		if c.csv != "" && (topology || !c.topology) {
			cols = append(cols, c)
		}
	}
	return cols
}
