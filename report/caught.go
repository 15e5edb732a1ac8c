package report

import (
	"fmt"
	"io"

	"github.com/rlsim/rlsim/report/textlayout"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// caughtLanes are the lanes of r whose "which limiter caught which" table
// tells more than the class table: more than one limit, or a load shedder.
func caughtLanes(r sim.Result) []*sim.LaneResult {
	var out []*sim.LaneResult
	for i := range r.Lanes {
		if l := &r.Lanes[i]; len(l.RefusedBy) > 1 || len(l.ShedBy) > 0 || noHealthyOf(l) > 0 {
			out = append(out, l)
		}
	}
	return out
}

// writeCaught prints, for the lanes of caughtLanes, which limiter caught
// which class's attempts: per limit its 429s, per shedder its 503s, the
// other 503s, and the requests served; nothing when no lane has one.
func writeCaught(w io.Writer, r sim.Result, width int) {
	lanes := caughtLanes(r)
	if len(lanes) == 0 {
		return
	}
	title := "which limiter caught which"
	if len(lanes) == 1 {
		title += ", " + lanes[0].Title()
	}
	fmt.Fprintln(w)
	textlayout.Wrap(w, title+": attempts, requests served", "", "  ", width)
	caughtTable(lanes, len(lanes) > 1).Fit(width, nil).Write(w)
}

// caughtHTML is the caught table of the HTML report, nil when no lane has one.
func caughtHTML(r sim.Result) *htmlTable {
	lanes := caughtLanes(r)
	if len(lanes) == 0 {
		return nil
	}
	t := caughtTable(lanes, true)
	return &htmlTable{Title: "Which limiter caught which", Head: t.Head, Rows: t.Rows(),
		Notes: []string{"Attempts per class: refused (429) by each limit, shed (503) by each load shedder, by an adaptive lane's own limit, by the load balancer with no replica in its rotation (no replica), or otherwise (the backend's queue or outage); and the requests served."}}
}

// caughtTable has one row per lane and class, the columns of caughtHead;
// the lane column only withLane.
func caughtTable(lanes []*sim.LaneResult, withLane bool) *textlayout.Table {
	adaptive, balancer := anyAdaptive(lanes), anyNoHealthy(lanes)
	t := &textlayout.Table{Head: caughtHead(lanes[0], adaptive, balancer)}
	t.Left = 2
	if !withLane {
		t.Head, t.Left = t.Head[1:], 1
	}
	for _, l := range lanes {
		for i, c := range l.Classes {
			row := []string{scenarios.Escape(c.Name), count(c.Attempts)}
			if withLane {
				name := ""
				if i == 0 {
					name = l.Title()
				}
				row = append([]string{name}, row...)
			}
			for _, n := range c.RefusedBy {
				row = append(row, count(n.Count))
			}
			for _, n := range c.ShedBy {
				row = append(row, count(n.Count))
			}
			if adaptive {
				row = append(row, "-")
				if l.Lane.Info().Class == sim.ConcurrencyLimiter {
					row[len(row)-1] = count(c.ShedByLane)
				}
			}
			if balancer {
				row = append(row, count(c.ShedNoHealthy))
			}
			t.Add(append(row, count(c.ShedOther), count(c.Succeeded))...)
		}
	}
	return t
}

// caughtHead is the caught table's header: lane, class, attempts, "429 NAME"
// per limit of the chain, "503 fleet" and "503 util" per shedder (fleet
// usage, utilisation), "503 adaptive" when adaptive (a lane's own
// concurrency limit: AIMD, Vegas, Gradient2), "503 no replica" when
// balancer (the load balancer, with no replica in its rotation), "503
// other", served.
func caughtHead(l *sim.LaneResult, adaptive, balancer bool) []string {
	head := []string{"lane", "class", "attempts"}
	for i, n := range l.RefusedBy {
		name := n.Limit
		if name == "" {
			name = fmt.Sprintf("limit %d", i+1)
		}
		head = append(head, "429 "+scenarios.Escape(name))
	}
	for _, n := range l.ShedBy {
		head = append(head, "503 "+shedderHeads[n.Limit])
	}
	if adaptive {
		head = append(head, "503 adaptive")
	}
	if balancer {
		head = append(head, "503 no replica")
	}
	return append(head, "503 other", "served")
}

// noHealthyOf is lane l's 503s from the load balancer with no replica in its rotation.
func noHealthyOf(l *sim.LaneResult) int64 {
	if l.Topology == nil || l.Topology.Health == nil {
		return 0
	}
	return l.Topology.Health.NoHealthy
}

// anyNoHealthy reports whether a lane of lanes had the load balancer answer 503 with no replica in its rotation.
func anyNoHealthy(lanes []*sim.LaneResult) bool {
	for _, l := range lanes {
		if noHealthyOf(l) > 0 {
			return true
		}
	}
	return false
}

// anyAdaptive reports whether a lane of lanes is a concurrency limiter.
func anyAdaptive(lanes []*sim.LaneResult) bool {
	for _, l := range lanes {
		if l.Lane.Info().Class == sim.ConcurrencyLimiter {
			return true
		}
	}
	return false
}

// shedderHeads are the shedders' short names in the caught table's header.
var shedderHeads = map[string]string{"fleet_usage": "fleet", "utilisation": "util"}
