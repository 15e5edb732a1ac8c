package web

import (
	"math"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// Mark kinds, in the order a column's counts list them.
const (
	markAdmitted = iota
	markDelayed
	markRefused
	markShed
	markDropped
	markKinds
)

// markOf is the mark of a trace event, or -1 for one the page does not draw.
func markOf(ev sim.TraceEvent) int {
	switch ev {
	case sim.TraceAdmit:
		return markAdmitted
	case sim.TraceDelay:
		return markDelayed
	case sim.TraceRefuse:
		return markRefused
	case sim.TraceShed:
		return markShed
	case sim.TraceDrop:
		return markDropped
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
	width time.Duration
	row   []int // lane kind → row; -1 for lanes not run
	rows  []binRing
}

type binRing struct {
	cells []binCell
	first int64 // the oldest column held
	dirty int64 // the first column changed since the last frame; math.MaxInt64 when none
	last  int64 // the latest column written
}

type binCell struct {
	n      [markKinds]int64
	sample [markKinds]sim.TraceRecord // the first attempt of each mark; At < 0 when none
}

func newBins(width time.Duration, lanes []sim.LaneKind) *bins {
	b := &bins{width: width, row: make([]int, sim.LaneKinds()), rows: make([]binRing, len(lanes))}
	for i := range b.row {
		b.row[i] = -1
	}
	for i, k := range lanes {
		b.row[k] = i
		b.rows[i] = binRing{cells: make([]binCell, binSlices), dirty: math.MaxInt64, last: -1}
		for c := range b.rows[i].cells {
			b.rows[i].cells[c].clear()
		}
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
	if mark < 0 || int(r.Lane) >= len(b.row) || b.row[r.Lane] < 0 || r.At < 0 {
		return nil
	}
	ring := &b.rows[b.row[r.Lane]]
	k := int64(r.At / b.width)
	c := ring.at(k)
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

// at is column k, moving the ring forward past older columns; nil for a
// column already forgotten.
func (r *binRing) at(k int64) *binCell {
	n := int64(len(r.cells))
	if k < r.first {
		return nil
	}
	if k >= r.first+n {
		for c := max(r.first, k-2*n+1); c <= k-n; c++ {
			r.cells[c%n].clear()
		}
		r.first = k - n + 1
	}
	return &r.cells[k%n]
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
	from := max(ring.dirty, ring.first)
	cols := make([]column, 0, ring.last-from+1)
	for k := from; k <= ring.last; k++ {
		cols = append(cols, column{I: k, N: ring.cells[k%int64(len(ring.cells))].n})
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
	if k < ring.first || k > ring.last {
		return sim.TraceRecord{}, false
	}
	rec := ring.cells[k%int64(len(ring.cells))].sample[mark]
	return rec, rec.At >= 0
}
