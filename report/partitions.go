package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/rlsim/rlsim/report/textlayout"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// partitionLanes are the lanes of r whose concurrency limit has partitions.
func partitionLanes(r sim.Result) []*sim.LaneResult {
	var out []*sim.LaneResult
	for i := range r.Lanes {
		if len(r.Lanes[i].Partitions) > 0 {
			out = append(out, &r.Lanes[i])
		}
	}
	return out
}

// writePartitions prints, per lane with partitions, what each partition of
// its limit did; nothing when no lane has them.
func writePartitions(w io.Writer, r sim.Result, width int) {
	lanes := partitionLanes(r)
	if len(lanes) == 0 {
		return
	}
	fmt.Fprintln(w)
	textlayout.Wrap(w, "partitions of the concurrency limit: attempts of their classes", "", "  ", width)
	partitionTable(lanes).Fit(width, nil).Write(w)
}

// partitionsHTML is the partitions table of the HTML report, nil when no lane has one.
func partitionsHTML(r sim.Result) *htmlTable {
	lanes := partitionLanes(r)
	if len(lanes) == 0 {
		return nil
	}
	t := partitionTable(lanes)
	return &htmlTable{Title: "Partitions of the concurrency limit", Head: t.Head, Rows: t.Rows(), Text3: true,
		Notes: []string{"Per partition of an adaptive lane's limit: its classes, its share, the places it was guaranteed (max(1, ⌈⌊limit⌋ × share⌉), fewest–most as the limit adapted), the attempts of its classes the limit admitted and refused (503), and the most of them in flight at once."}}
}

// partitionTable has one row per lane and partition.
func partitionTable(lanes []*sim.LaneResult) *textlayout.Table {
	t := &textlayout.Table{Head: []string{"lane", "partition", "classes", "share", "guaranteed", "admitted", "refused", "most in flight"}}
	t.Left = 3
	for _, l := range lanes {
		for i, p := range l.Partitions {
			name := ""
			if i == 0 {
				name = l.Title()
			}
			t.Add(name, scenarios.Escape(p.Name), escapeAll(p.Classes), percentF(p.Share), guaranteed(p),
				count(p.Admitted), count(p.Refused), strconv.Itoa(p.MostInFlight))
		}
	}
	return t
}

// guaranteed is the places p was guaranteed: "9", or "6–10" when the limit moved.
func guaranteed(p sim.PartitionResult) string {
	lo, hi := p.Guaranteed[0], p.Guaranteed[1]
	if lo == hi {
		return strconv.Itoa(lo)
	}
	return fmt.Sprintf("%d–%d", lo, hi)
}

// escapeAll is names, escaped, joined by commas.
func escapeAll(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = scenarios.Escape(n)
	}
	return strings.Join(out, ", ")
}

// partitionFindings reports, per group of lanes with the same figures, what
// each partition of the limit took and was refused.
func partitionFindings(r sim.Result) []string {
	groups := map[string][]string{}
	var order []string
	for _, l := range partitionLanes(r) {
		var per []string
		for _, p := range l.Partitions {
			per = append(per, fmt.Sprintf("%s (share %s, guaranteed %s places) had %d admitted and %d refused, at most %d in flight at once",
				scenarios.Escape(p.Name), percentF(p.Share), guaranteed(p), p.Admitted, p.Refused, p.MostInFlight))
		}
		s := strings.Join(per, "; ")
		if groups[s] == nil {
			order = append(order, s)
		}
		groups[s] = append(groups[s], l.Title())
	}
	var out []string
	for _, s := range order {
		out = append(out, fmt.Sprintf("under %s, the partitions of the concurrency limit: %s", list(groups[s]), s))
	}
	return out
}
