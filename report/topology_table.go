package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/rlsim/rlsim/report/textlayout"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// titledTable is a table with a title, as the terminal prints it under the
// comparison and the HTML report shows it.
type titledTable struct {
	Title string
	Notes []string // lines under the title: what the table's names mean
	*textlayout.Table
}

// topologyTables are the tables of a run in a topology: each limit across the
// fleet, and, when a store was unavailable, what each class met at each limit
// then. None without a topology.
func topologyTables(r sim.Result, topo *sim.Topology) []titledTable {
	if !hasTopology(r) {
		return nil
	}
	var notes []string
	for _, l := range r.Limits {
		notes = append(notes, scenarios.Escape(l.Name)+": "+stateWords(l))
	}
	if own := setupNotes(r); own != nil {
		notes = append(baseNotes(r), own...)
	}
	out := []titledTable{{"limits across the fleet" + fleetPhrase(topo), notes, fleetTable(r)}}
	if t := outageTable(r); t != nil {
		out = append(out, titledTable{"while the store was unavailable, by limit and class", nil, t})
	}
	if t := shardTable(r, topo); t != nil {
		out = append(out, titledTable{shardTitle, nil, t})
	}
	return out
}

// fleetPhrase says the fleet and the store in a few words: " (4 replicas,
// round robin; store atomic, 1ms mean round trip; down 30s)".
func fleetPhrase(t *sim.Topology) string {
	if t == nil || len(t.Replicas) == 0 {
		return ""
	}
	s := fmt.Sprintf(" (%d replicas", t.Replicas[0].Count)
	if t.Replicas[0].Count == 1 {
		s = " (1 replica"
	}
	for _, st := range t.Replicas[1:] {
		s += fmt.Sprintf(", %d from t=%s", st.Count, FormatDuration(st.At))
	}
	s += ", " + routingWords(t)
	st := t.Store
	check := "atomic"
	if st.Racy {
		check = "read-then-write"
	}
	s += "; store " + check
	if st.Latency.Mean > 0 {
		s += ", " + FormatDuration(st.Latency.Mean) + " mean round trip"
	}
	if st.Timeout > 0 {
		s += ", timeout " + FormatDuration(st.Timeout)
	}
	for _, o := range st.Outages {
		s += fmt.Sprintf(", down t=%s–%s", FormatDuration(o.From), FormatDuration(o.To))
		if o.Flush {
			s += " and back empty"
		}
	}
	if b := st.Breaker; b.Failures > 0 {
		s += fmt.Sprintf(", breaker %d failures in %s open %s", b.Failures, FormatDuration(b.Window), FormatDuration(b.Cooldown))
	}
	if st.RefusalCache {
		s += ", refusal cache"
	}
	if st.Lease > 0 {
		s += fmt.Sprintf(", leases of %d", st.Lease)
	}
	return s + storePhrase(st) + lossPhrase(t) + ")"
}

func routingWords(t *sim.Topology) string {
	switch t.Routing {
	case sim.RoutingRandom:
		return "random routing"
	case sim.RoutingHash:
		return "routed by " + t.HashKey.String()
	}
	return "round robin"
}

// stateWords is where a limit's state lives, in a few words: "shared, fails
// open", "synced every 1s".
func stateWords(l sim.Limit) string {
	switch l.State {
	case sim.StateShared:
		if l.Store != "" {
			return strings.Replace(stateWords(sim.Limit{State: l.State, OnStoreError: l.OnStoreError, LocalLimit: l.LocalLimit, Fallback: l.Fallback}),
				"shared", "shared on "+storeWords(l.Store), 1)
		}
		if l.OnStoreError == sim.FailLocal && l.LocalLimit == sim.LocalDivided {
			return fmt.Sprintf("shared, falls back to %d per %s divided over the replicas", l.Fallback.Limit, FormatDuration(l.Fallback.Window))
		}
		if l.OnStoreError == sim.FailLocal {
			return fmt.Sprintf("shared, falls back to %d per %s on each replica", l.Fallback.Limit, FormatDuration(l.Fallback.Window))
		}
		return "shared, fails " + l.OnStoreError.String()
	case sim.StateSynced:
		return "synced every " + FormatDuration(l.SyncInterval)
	}
	if l.LocalLimit == sim.LocalDivided {
		return "local, each replica enforcing it divided by the replica count"
	}
	return "local, each replica enforcing all of it"
}

// peakCell is a window peak and its ratio to the limit: "80 (8×)".
func peakCell(p sim.WindowPeak) string {
	return fmt.Sprintf("%d (%s×)", p.Count, sim.RatioText(p.Count, p.Limit, false))
}

// fleetTable gives, per lane and limit, the most admitted in any window
// across the fleet, the busiest replica and its most, the limit's store calls
// and, when the store was unavailable, how the limit decided then.
func fleetTable(r sim.Result) *textlayout.Table {
	down := anyUnavailable(r)
	store := usesStore(r)
	arrived := anyArrivedApart(r)
	t := &textlayout.Table{Head: []string{"lane", "limit", "fleet max", "replica", "replica max"}}
	if arrived {
		t.Head = append(t.Head, "backend max")
	}
	if store {
		t.Head = append(t.Head, "calls")
	}
	if down {
		t.Head = append(t.Head, "failed open", "closed", "fell back")
	}
	t.Left = 2
	for _, l := range r.Lanes {
		if l.Topology == nil {
			continue
		}
		for i, lt := range l.Topology.Limits {
			name := ""
			if i == 0 {
				name = fleetLaneName(l)
			}
			row := []string{name, scenarios.Escape(lt.Limit), peakCell(lt.Fleet), fmt.Sprint(lt.BusiestReplica), peakCell(lt.Replica)}
			if arrived {
				row = append(row, peakCell(lt.Arrived))
			}
			if store {
				row = append(row, count(lt.StoreCalls))
			}
			if down {
				u := lt.Unavailable
				row = append(row, count(u.Open), count(u.Closed), count(u.Local))
			}
			t.Add(row...)
		}
	}
	return t
}

// anyArrivedApart reports whether some limit's admissions, counted as they
// reached the backend, peaked apart from the limit's own count (store round
// trips of different lengths): the fleet table then shows both.
func anyArrivedApart(r sim.Result) bool {
	for _, l := range r.Lanes {
		if l.Topology == nil {
			continue
		}
		for _, lt := range l.Topology.Limits {
			if lt.Arrived.Count != lt.Fleet.Count {
				return true
			}
		}
	}
	return false
}

func anyUnavailable(r sim.Result) bool {
	for _, l := range r.Lanes {
		if l.Topology == nil {
			continue
		}
		for _, lt := range l.Topology.Limits {
			if u := lt.Unavailable; u.Open+u.Closed+u.Local > 0 {
				return true
			}
		}
	}
	return false
}

// outageTable gives, per lane, limit and class, the attempts a limit decided
// while its store was unavailable and those it let through (classes it
// decided none of left out); nil when no limit decided any.
func outageTable(r sim.Result) *textlayout.Table {
	t := &textlayout.Table{Head: []string{"lane", "limit", "class", "decided", "let through"}}
	t.Left = 3
	for _, l := range r.Lanes {
		if l.Topology == nil {
			continue
		}
		first := true
		for _, lt := range l.Topology.Limits {
			if u := lt.Unavailable; u.Open+u.Closed+u.Local == 0 {
				continue
			}
			limit := scenarios.Escape(lt.Limit)
			for _, c := range lt.Classes {
				if c.Decided == 0 {
					continue // a class this limit does not count (another endpoint's)
				}
				lane := ""
				if first {
					lane, first = fleetLaneName(l), false
				}
				t.Add(lane, limit, scenarios.Escape(c.Name), count(c.Decided), count(c.Admitted))
				limit = ""
			}
		}
	}
	if len(t.Rows()) == 0 {
		return nil
	}
	return t
}

// fleetDrop is the order in which a narrow terminal drops the fleet table's columns.
var fleetDrop = []string{"replica", "calls", "closed", "fell back", "backend max"}

// writeTopology prints the topology's tables, fitted to width.
func writeTopology(w io.Writer, r sim.Result, topo *sim.Topology, width int) {
	for _, t := range topologyTables(r, topo) {
		fmt.Fprintln(w)
		textlayout.Wrap(w, t.Title, "", "", width)
		for _, n := range t.Notes {
			textlayout.Wrap(w, n, "  ", "    ", width)
		}
		drop := fleetDrop
		if t.Title == shardTitle {
			drop = shardDrop
		}
		t.Fit(width, drop).Write(w)
	}
}

// topology is the topology the run's scenario set, nil for none.
func (o Run) topology() *sim.Topology {
	if o.Scenario == nil || o.Scenario.Config == nil {
		return nil
	}
	return o.Scenario.Config.Topology
}

// fleetVerdict is what a lane's verdict says of its topology: the busiest
// replica against the fleet, the store's latency and its failed calls.
func fleetVerdict(l sim.LaneResult) []string {
	t := l.Topology
	if t == nil || len(t.Limits) == 0 {
		return nil
	}
	lt := t.Limits[0]
	out := []string{fmt.Sprintf("Across up to %d replicas: at most %d in one window on one replica, %d across the fleet (%s).",
		t.Replicas, lt.Replica.Count, lt.Fleet.Count, scenarios.Escape(lt.Limit))}
	if lt.Arrived.Count != lt.Fleet.Count {
		out = append(out, fmt.Sprintf("The backend saw %d in one window, as the store's answers came back.", lt.Arrived.Count))
	}
	if t.StoreLatency.P99 > 0 {
		out = append(out, fmt.Sprintf("The store added p50 %s, p99 %s to a decision.", FormatDuration(t.StoreLatency.P50), FormatDuration(t.StoreLatency.P99)))
	}
	if t.StoreErrors > 0 {
		out = append(out, fmt.Sprintf("%s decisions met a failed store call.", count(t.StoreErrors)))
	}
	return out
}

// fleetLaneName is the name the topology's tables and findings give lane l.
func fleetLaneName(l sim.LaneResult) string { return l.Title() }
