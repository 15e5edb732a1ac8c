package web

import (
	"math"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// markKinds is how many marks a column counts, in sim's order (sim.Mark).
const markKinds = sim.MarkKinds

// markOf is the mark of a trace event, or -1 for one the page does not draw.
func markOf(ev sim.TraceEvent) int {
	if m, ok := sim.MarkOf(ev); ok {
		return int(m)
	}
	return -1
}

// binSlices is how many columns each lane keeps for the page to hover over: more
// than a screen is wide.
const binSlices = 1024

// bins is the trace sink of a session: it counts every lane's attempts per
// column of virtual time (column k covers [k×width, (k+1)×width)) and keeps the
// first attempt of each mark in each column, so that a frame sends only the
// columns that changed and a hover can be answered with a real request. Memory
// is bounded by binSlices, whatever the number of clients.
type bins struct {
	rows []binRing // one per lane, by its index in the run (TraceRecord.LaneIndex)
}

// binRing is one lane's columns, with what changed since the last frame.
type binRing struct {
	*sim.Bins[binCell]
	dirty int64 // the first column changed since the last frame; math.MaxInt64 when none
	last  int64 // the latest column written
}

type binCell struct {
	n      [markKinds]int64
	sample [markKinds]sim.TraceRecord // the first attempt of each mark; At < 0 when none
}

func newBins(width time.Duration, lanes []sim.LaneKind) *bins {
	b := &bins{rows: make([]binRing, len(lanes))}
	for i := range lanes {
		b.rows[i] = binRing{Bins: sim.NewBins(width, binSlices, (*binCell).clear, (*binCell).clear), dirty: math.MaxInt64, last: -1}
	}
	return b
}

func (c *binCell) clear() {
	*c = binCell{}
	for k := range c.sample {
		c.sample[k].At = -1
	}
}

// Record counts one trace record. It implements sim.TraceSink and never fails.
// Each lane's records come in time order.
func (b *bins) Record(r *sim.TraceRecord) error {
	mark := markOf(r.Event)
	if mark < 0 || r.LaneIndex < 0 || r.LaneIndex >= len(b.rows) || r.At < 0 {
		return nil
	}
	ring := &b.rows[r.LaneIndex]
	k := ring.Column(r.At)
	c := ring.At(k)
	if c == nil {
		return nil
	}
	c.n[mark]++
	if c.sample[mark].At < 0 {
		c.sample[mark] = *r
	}
	ring.dirty = min(ring.dirty, k)
	ring.last = max(ring.last, k)
	return nil
}

// column is one column of one lane as a frame sends it: its index and the
// count of each mark.
type column struct {
	I int64            `json:"i"`
	N [markKinds]int64 `json:"n"`
}

// flush returns the columns of row i that changed since the last flush.
func (b *bins) flush(i int) []column {
	ring := &b.rows[i]
	if ring.dirty == math.MaxInt64 {
		return []column{}
	}
	from := max(ring.dirty, ring.First())
	cols := make([]column, 0, ring.last-from+1)
	for k := from; k <= ring.last; k++ {
		c, _ := ring.Held(k)
		cols = append(cols, column{I: k, N: c.n})
	}
	ring.dirty = math.MaxInt64
	return cols
}

// sample is the first attempt of mark in column k of row i, if still held.
func (b *bins) sample(i int, k int64, mark int) (sim.TraceRecord, bool) {
	if i < 0 || i >= len(b.rows) || mark < 0 || mark >= markKinds {
		return sim.TraceRecord{}, false
	}
	ring := &b.rows[i]
	c, ok := ring.Held(k)
	if !ok || k > ring.last {
		return sim.TraceRecord{}, false
	}
	rec := c.sample[mark]
	return rec, rec.At >= 0
}
