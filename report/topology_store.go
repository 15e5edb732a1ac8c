package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rlsim/rlsim/report/textlayout"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// realStore reports whether topo's store has shards, a capacity, a memory or
// changes: the run then has a table of its shards.
func realStore(topo *sim.Topology) bool {
	return topo != nil && (topo.Store.Real() || len(topo.Stores) > 0)
}

// storePhrase says the store's shards, capacity, queue and memory in a few
// words: ", 4 shards of 2000 calls/s, queue 500, 1000000 bytes allkeys-lru".
func storePhrase(s sim.Store) string {
	out := ""
	if s.Shards > 1 {
		out += fmt.Sprintf(", %d shards", s.Shards)
	}
	if s.Capacity > 0 {
		out += fmt.Sprintf(", %s calls/s a shard (%s)", trimFloat(s.Capacity, 1), s.Service)
	}
	if s.QueueLimit > 0 {
		out += fmt.Sprintf(", queue %d", s.QueueLimit)
	}
	if s.MaxMemory > 0 {
		out += fmt.Sprintf(", maxmemory %d bytes %s", s.MaxMemory, s.Eviction)
	}
	for _, ch := range s.Changes {
		out += ", " + changeWords(ch)
	}
	return out
}

func changeWords(ch sim.StoreChange) string {
	w := "t=" + FormatDuration(ch.At)
	if ch.Down {
		return w + " down"
	}
	if ch.Latency.Mean > 0 {
		w += " " + FormatDuration(ch.Latency.Mean) + " round trip"
	}
	if ch.Capacity > 0 {
		w += " " + trimFloat(ch.Capacity, 1) + " calls/s"
	}
	return w + " up"
}

// shardTitle is the title of the store's table by shard; shardDrop the order
// in which a narrow terminal drops its columns.
const shardTitle = "the store, by shard"

var shardDrop = []string{"bytes", "p50", "keys", "mean wait", "refused writes", "evicted"}

// shardTable gives, per lane and shard of the store, its calls, failures,
// queue, latency and memory; nil unless the store has shards, a capacity or
// a memory.
func shardTable(r sim.Result, topo *sim.Topology) *textlayout.Table {
	if !realStore(topo) && !slices.ContainsFunc(r.Lanes, func(l sim.LaneResult) bool { return l.Topology != nil && len(l.Topology.Shards) > 0 }) {
		return nil
	}
	mem := topo.Store.MaxMemory > 0 || slices.ContainsFunc(r.Lanes, func(l sim.LaneResult) bool { return l.Topology != nil && hasMemory(l.Topology.Shards) })
	t := &textlayout.Table{Head: []string{"lane", "shard", "calls", "refused", "timed out", "peak queue", "mean wait", "p50", "p99", "keys", "bytes"}}
	if mem {
		t.Head = append(t.Head, "evicted", "refused writes")
	}
	t.Left = 1
	for _, l := range r.Lanes {
		if l.Topology == nil {
			continue
		}
		for i, s := range l.Topology.Shards {
			name := ""
			if i == 0 {
				name = fleetLaneName(l)
			}
			row := []string{name, shardCell(i, s), count(s.Calls), count(s.Refused), count(s.TimedOut), fmt.Sprint(s.PeakQueue),
				FormatDuration(time.Duration(s.MeanWait * 1e9)), dash(s.Latency.Count, FormatDuration(s.Latency.P50)),
				dash(s.Latency.Count, FormatDuration(s.Latency.P99)), count(s.KeysPeak), count(s.MemoryPeak)}
			if mem {
				row = append(row, count(s.Evictions), count(s.RefusedWrites))
			}
			t.Add(row...)
		}
	}
	if len(t.Rows()) == 0 {
		return nil
	}
	return t
}

// shardCell names shard i in the table: "1", or "1 (abuse)" on a named store.
func shardCell(i int, s sim.ShardResult) string {
	if s.Store != "" {
		return fmt.Sprintf("%d (%s)", i, scenarios.Escape(s.Store))
	}
	return fmt.Sprint(i)
}

// hasMemory reports whether some shard counted evictions or refused writes
// (a store with a maxmemory).
func hasMemory(shards []sim.ShardResult) bool {
	return slices.ContainsFunc(shards, func(s sim.ShardResult) bool { return s.Evictions+s.RefusedWrites > 0 })
}

// storeFindings says what the store's shards and memory did, lanes alike named together.
func storeFindings(r sim.Result, topo *sim.Topology) []string {
	if !realStore(topo) {
		return nil
	}
	out := byLanes(r, hotShardFinding)
	return append(out, byLanes(r, memoryFinding)...)
}

// hotShardFinding: one shard took at least twice the calls of the others
// of its store on average: its share, its latency and failures against
// theirs (each store's shards told apart).
func hotShardFinding(l sim.LaneResult) string {
	var out []string
	for from := 0; from < len(l.Topology.Shards); {
		to := from + 1
		for to < len(l.Topology.Shards) && l.Topology.Shards[to].Store == l.Topology.Shards[from].Store {
			to++
		}
		if s := hotShardOf(l.Topology.Shards, from, to); s != "" {
			out = append(out, s)
		}
		from = to
	}
	return strings.Join(out, "; ")
}

// hotShardOf is hotShardFinding of the shards [from, to) of one store.
func hotShardOf(all []sim.ShardResult, from, to int) string {
	sh := all[from:to]
	if len(sh) < 2 {
		return ""
	}
	hot, total := 0, int64(0)
	for i, s := range sh {
		total += s.Calls
		if s.Calls > sh[hot].Calls {
			hot = i
		}
	}
	others := total - sh[hot].Calls
	if total == 0 || sh[hot].Calls*int64(len(sh)-1) < 2*others {
		return ""
	}
	var p99 time.Duration
	for i, s := range sh {
		if i != hot {
			p99 = max(p99, s.Latency.P99)
		}
	}
	h := sh[hot]
	whose := "the store"
	if h.Store != "" {
		whose = storeWords(h.Store) + "'s"
	}
	s := fmt.Sprintf("shard %d of %d took %s of %s calls (%d of %d), its p99 latency %s against at most %s on the others, its queue at most %d",
		from+hot, len(sh), percent(h.Calls, total), whose, h.Calls, total, FormatDuration(h.Latency.P99), FormatDuration(p99), h.PeakQueue)
	if failed := h.TimedOut + h.Refused; failed > 0 {
		s += fmt.Sprintf("; %d of its calls failed (%d timed out, %d refused)", failed, h.TimedOut, h.Refused)
	}
	return s
}

// memoryFinding: the store's memory filled: keys evicted (the limits forget
// them) or writes refused (the calls failed).
func memoryFinding(l sim.LaneResult) string {
	var ev, ref, keys, bytes int64
	for _, s := range l.Topology.Shards {
		ev, ref = ev+s.Evictions, ref+s.RefusedWrites
		keys, bytes = max(keys, s.KeysPeak), max(bytes, s.MemoryPeak)
	}
	switch {
	case ev > 0:
		return fmt.Sprintf("the store's memory filled (at most %d keys, %d bytes on a shard): %d keys were evicted, each forgotten key's limit starting afresh, so the limits under-count", keys, bytes, ev)
	case ref > 0:
		return fmt.Sprintf("the store's memory filled (at most %d keys, %d bytes on a shard): %d calls failed as their writes did not fit (noeviction), each limit deciding them by its fail mode", keys, bytes, ref)
	}
	return ""
}

// storeDownSpans are the intervals the store was down: its outages, and the
// stretches from a change with down to the next change (or for ever), in
// time order.
func storeDownSpans(topo *sim.Topology) []sim.Outage {
	out := append([]sim.Outage(nil), topo.Store.Outages...)
	ch := topo.Store.Changes
	for i, c := range ch {
		if !c.Down || (i > 0 && ch[i-1].Down) {
			continue
		}
		to := sim.MaxTime
		for _, d := range ch[i+1:] {
			if !d.Down {
				to = d.At
				break
			}
		}
		out = append(out, sim.Outage{From: c.At, To: to})
	}
	slices.SortStableFunc(out, func(a, b sim.Outage) int { return cmp.Compare(a.From, b.From) })
	return out
}

// storeFullWords says which of lane l's store calls failed for its queue or
// its memory, for the findings' reasons the store was unavailable.
func storeFullWords(l sim.LaneResult, store string) []string {
	var queue, mem int64
	for _, s := range l.Topology.Shards {
		if s.Store == store {
			queue, mem = queue+s.QueueFull, mem+s.RefusedWrites
		}
	}
	var out []string
	if queue > 0 {
		out = append(out, fmt.Sprintf("or its queue full: %d calls", queue))
	}
	if mem > 0 {
		out = append(out, fmt.Sprintf("or its memory full: %d writes", mem))
	}
	return out
}
