package replay

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/rlsim/rlsim/report/textlayout"
)

// WriteText writes the replay as tables: one per limit, a row per lane, every
// column (the layout for files, pipes and golden files).
func WriteText(w io.Writer, r *Result) error { return WriteTextFit(w, r, 0) }

// textDrop is the order in which a narrow terminal drops the table's columns
// (after those with nothing to say); JSON and CSV keep them all.
var textDrop = []string{"top key (refused, peak)", "keys refused", "legit-looking caught"}

// WriteTextFit is WriteText for a terminal width columns wide: each table drops
// columns, as rlsim run's does (textlayout.Table.Fit), until it fits. A width of 0
// or less prints every column.
func WriteTextFit(w io.Writer, r *Result, width int) error {
	var b strings.Builder
	fmt.Fprintf(&b, "replayed %d requests (%d lines; %d bad, %d more than %s late", r.Requests, r.Lines, r.Bad, r.TooLate, r.Late)
	if r.BehindFull > 0 {
		fmt.Fprintf(&b, ", %d behind a full reorder buffer", r.BehindFull)
	}
	b.WriteString(")")
	if r.Requests > 0 {
		fmt.Fprintf(&b, " from %s to %s UTC", r.First.Format("2006-01-02 15:04:05"), r.Last.Format("2006-01-02 15:04:05"))
	}
	b.WriteString("\n")
	for _, bad := range r.Shown {
		fmt.Fprintf(&b, "  bad line %s\n", bad)
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	for _, l := range r.Limits {
		fmt.Fprintf(&b, "\nlimit %s: %d keys", l.Limit, l.Keys)
		if r.retired > 0 {
			fmt.Fprintf(&b, " (a key back after %v idle counts again)", r.retireAfter)
		}
		fmt.Fprintf(&b, "; per-key peak per window p50 %d, p90 %d, p99 %d, max %d\n",
			l.PeakP50, l.PeakP90, l.PeakP99, l.PeakMax)
		requests := "requests"
		if l.LegitBelow == 1 {
			requests = "request"
		}
		fmt.Fprintf(&b, "legit-looking: at most %d %s per window in %.0f%% of the windows a key was active\n",
			l.LegitBelow, requests, 100*l.LegitShare)
		delays := r.products && slices.ContainsFunc(l.Lanes, func(x LaneResult) bool { return x.Delayed > 0 })
		t := &textlayout.Table{Head: []string{"lane", "would refuse", "keys refused", "legit-looking caught", "top key (refused, peak)"}}
		if delays {
			t.Head = slices.Insert(t.Head, 2, "would delay")
		}
		for _, lane := range l.Lanes {
			top := "-"
			if len(lane.Top) > 0 {
				k := lane.Top[0]
				top = fmt.Sprintf("%s (%d, %d)", k.Key, k.Refused, k.Peak)
			}
			row := []string{lane.Lane, i64(lane.Refused), strconv.Itoa(lane.KeysRefused), strconv.Itoa(lane.LegitCaught), top}
			if delays {
				row = slices.Insert(row, 2, i64(lane.Delayed))
			}
			t.Add(row...)
		}
		t.Fit(width, textDrop).Write(&b)
		writeFleet(&b, r, l, width)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJSON writes the replay as indented JSON.
func WriteJSON(w io.Writer, r *Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteCSV writes one row per limit and lane.
func WriteCSV(w io.Writer, r *Result) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"limit", "lane", "refused", "delayed", "keys_refused", "legit_keys_caught", "top_key", "top_key_refused", "top_key_peak_per_window"})
	for _, l := range r.Limits {
		for _, lane := range l.Lanes {
			top := KeyCount{}
			if len(lane.Top) > 0 {
				top = lane.Top[0]
			}
			_ = cw.Write([]string{l.Limit, lane.Lane, i64(lane.Refused), i64(lane.Delayed), strconv.Itoa(lane.KeysRefused),
				strconv.Itoa(lane.LegitCaught), top.Key, i64(top.Refused), i64(top.Peak)})
		}
	}
	cw.Flush()
	return cw.Error()
}

func i64(n int64) string { return strconv.FormatInt(n, 10) }

// writeFleet writes a limit's fleet table, as rlsim run's (report's
// fleetTable): per lane the most admitted in any window across the fleet,
// the busiest replica and its most, and the admissions beyond the limit.
func writeFleet(b *strings.Builder, r *Result, l LimitResult, width int) {
	t := &textlayout.Table{Head: []string{"lane", "state", "fleet max", "replica", "replica max", "admitted beyond limit"}}
	t.Left = 2
	for _, lane := range l.Lanes {
		if f := lane.Fleet; f != nil {
			t.Add(lane.Lane, f.Place, f.Fleet.Cell(), strconv.Itoa(f.BusiestReplica), f.Replica.Cell(), i64(f.Beyond))
		}
	}
	if len(t.Rows()) == 0 {
		return
	}
	fmt.Fprintf(b, "\nthrough %d replicas (%s): the most admitted in one window for one key, across the fleet and on the busiest replica\n", r.Replicas, r.Routing)
	t.Fit(width, []string{"replica", "state"}).Write(b)
}
