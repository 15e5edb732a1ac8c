package sim

import (
	"math"
	"time"
)

// Columns counts each lane's attempts per column of virtual time by mark, as
// a timeline bins the trace (column k covers [k×Width, (k+1)×Width)), while
// the lanes run, fast paths included, so that a view that draws columns needs
// no trace (Options.Columns). Each column also keeps the first attempt of
// each mark. Where a fast path has no Decision at hand (the kernel, the
// quick and direct paths admitting by the verdict alone) that attempt's
// record says who, when and what, but not the quota headers (Answered false);
// the counts are exactly the trace's (TestColumnsAsTraced).
//
// NewColumns makes one. Record bins a trace into it as the lanes count, for
// a view that reads a trace (and tests). Each lane
// writes only its own ring, so lanes may run at once; a reader reads between
// steps of RunUntil.
type Columns struct {
	Width time.Duration
	held  int
	lanes []ColumnRing
}

// NewColumns returns Columns of width w (w > 0), holding the latest held
// columns (held > 0) of each of lanes lanes; NewContext and Run give it as
// many as the run has if that is not the number.
func NewColumns(w time.Duration, held, lanes int) *Columns {
	if w <= 0 || held <= 0 {
		panic("sim.NewColumns: width and columns held must be positive")
	}
	c := &Columns{Width: w, held: held}
	c.size(lanes)
	return c
}

// Lanes is how many lanes' columns it counts.
func (c *Columns) Lanes() int { return len(c.lanes) }

// Lane is the columns of lane i, by its index in the run (TraceRecord.LaneIndex).
func (c *Columns) Lane(i int) *ColumnRing { return &c.lanes[i] }

// size gives c a ring per lane, each empty.
func (c *Columns) size(lanes int) {
	c.lanes = make([]ColumnRing, lanes)
	for i := range c.lanes {
		c.lanes[i] = ColumnRing{Bins: NewBins(c.Width, c.held, (*Column).clear, (*Column).clear), dirty: math.MaxInt64, last: -1}
	}
}

// ColumnRing is one lane's latest columns and what changed since Changed was
// last asked.
type ColumnRing struct {
	*Bins[Column]
	dirty int64 // the first column changed since the last Changed; math.MaxInt64 when none
	last  int64 // the latest column counted in; -1 before any
	// hot is the column last counted in (column k, covering [from, to)),
	// so that the next attempts in it, nearly all of them, are counted
	// without the two divisions that find a column (hot.from = hot.to: none).
	hot struct {
		k        int64
		from, to time.Duration
		col      *Column
	}
}

// Column is one column of one lane: how many attempts of each mark, and the
// first of each.
type Column struct {
	N      [MarkKinds]int64
	Sample [MarkKinds]TraceRecord // the first attempt of each mark; At < 0 when none
}

func (c *Column) clear() {
	*c = Column{}
	for k := range c.Sample {
		c.Sample[k].At = -1
	}
}

// Last is the latest column counted in, -1 before any.
func (r *ColumnRing) Last() int64 { return r.last }

// Changed is the range of columns counted in since the last call, from
// (never before the oldest held) to last; ok is false when none was.
func (r *ColumnRing) Changed() (from, last int64, ok bool) {
	if r.dirty == math.MaxInt64 {
		return 0, 0, false
	}
	from = max(r.dirty, r.First())
	r.dirty = math.MaxInt64
	return from, r.last, true
}

// At is column k, moving the ring forward past older columns when k is
// beyond its end (Bins.At); nil for a column already forgotten. The ring
// moved, the column last counted in may be gone: the next count finds its
// column by its time.
func (r *ColumnRing) At(k int64) *Column {
	r.hot.from, r.hot.to = 0, 0
	return r.Bins.At(k)
}

// count adds one attempt of mark m at time at; it reports whether that
// attempt is its column's first of m, whose record the caller then keeps.
func (r *ColumnRing) count(m Mark, at time.Duration) (c *Column, first bool) {
	h := &r.hot
	k, c := h.k, h.col
	if at < h.from || at >= h.to || hotColumnOff {
		k = r.Column(at)
		if c = r.Bins.At(k); c == nil {
			return nil, false
		}
		h.k, h.col = k, c
		h.from, h.to = time.Duration(k)*r.Width, time.Duration(k+1)*r.Width
	}
	c.N[m]++
	r.dirty = min(r.dirty, k)
	r.last = max(r.last, k)
	return c, c.N[m] == 1
}

// Record counts trace record r in its lane's columns, as the lanes count
// their attempts, and keeps it if it is its column's first of its mark. It
// implements TraceSink and never fails; a record of a lane it does not count,
// at a negative instant or of no mark is left out. Each lane's records come
// in time order.
func (c *Columns) Record(r *TraceRecord) error {
	m, ok := MarkOf(r.Event)
	if !ok || r.LaneIndex < 0 || r.LaneIndex >= len(c.lanes) || r.At < 0 {
		return nil
	}
	if col, first := c.lanes[r.LaneIndex].count(m, r.At); first {
		col.Sample[m] = *r
	}
	return nil
}
