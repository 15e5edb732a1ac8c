package web

import (
	"time"

	"github.com/rlsim/rlsim/sim"
)

// markKinds is how many marks a column counts, in sim's order (sim.Mark).
const markKinds = sim.MarkKinds

// binSlices is how many columns each lane keeps for the page to hover over: more
// than a screen is wide.
const binSlices = 1024

// bins is what a session draws from: every lane's attempts counted per
// column of virtual time (column k covers [k×width, (k+1)×width)) by the
// simulation as it runs (sim.Options.Columns), with the first attempt of each
// mark in each column, so that a frame sends only the columns that changed
// and a hover can be answered with a real request. No trace is built.
// Memory is bounded by binSlices, whatever the number of clients. Record
// bins a trace into the same columns (sim.Columns.Record).
type bins struct {
	*sim.Columns
}

func newBins(width time.Duration, lanes []sim.LaneKind) *bins {
	return &bins{sim.NewColumns(width, binSlices, len(lanes))}
}

// column is one column of one lane as a frame sends it: its index and the
// count of each mark.
type column struct {
	I int64            `json:"i"`
	N [markKinds]int64 `json:"n"`
}

// flush returns the columns of row i that changed since the last flush.
func (b *bins) flush(i int) []column {
	ring := b.Lane(i)
	from, last, ok := ring.Changed()
	if !ok {
		return []column{}
	}
	cols := make([]column, 0, last-from+1)
	for k := from; k <= last; k++ {
		c, _ := ring.Held(k)
		cols = append(cols, column{I: k, N: c.N})
	}
	return cols
}

// sample is the first attempt of mark in column k of row i, if still held.
func (b *bins) sample(i int, k int64, mark int) (sim.TraceRecord, bool) {
	if i < 0 || i >= b.Lanes() || mark < 0 || mark >= markKinds {
		return sim.TraceRecord{}, false
	}
	ring := b.Lane(i)
	c, ok := ring.Held(k)
	if !ok || k > ring.Last() {
		return sim.TraceRecord{}, false
	}
	rec := c.Sample[mark]
	return rec, rec.At >= 0
}
