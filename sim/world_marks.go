package sim

import "time"

// Mark is what a lanes timeline counts an attempt as, by its trace event: the
// report, the terminal view and the playground all count and draw these five,
// in this order.
type Mark uint8

const (
	MarkAdmitted Mark = iota
	MarkDelayed       // admitted late, by a shaping queue
	MarkRefused       // 429
	MarkShed          // 503, by a full backend
	MarkDropped       // dropped client-side by an adaptive throttle
)

// MarkKinds is the number of marks.
const MarkKinds = int(MarkDropped) + 1

// MarkInfo is how every view names and draws one mark.
type MarkInfo struct {
	Name   string // short, as the terminal's legend and the playground name it: "refused"
	Legend string // as the report's figure legend names it: "refused (429)"
	Glyph  string // the terminal's cell, which carries the meaning without colour
	Colour string // the report's and the playground's colour, #RRGGBB (Okabe–Ito)
	ANSI   string // the terminal's colour, an ANSI colour index
	Bold   bool   // the terminal draws it bold
}

// markTable is the one table of marks; the views read it through Info.
var markTable = [MarkKinds]MarkInfo{
	MarkAdmitted: {Name: "admitted", Legend: "admitted", Glyph: "█", Colour: "#0072B2", ANSI: "2"},
	MarkDelayed:  {Name: "delayed", Legend: "delayed (admitted late)", Glyph: "─", Colour: "#E69F00", ANSI: "3"},
	MarkRefused:  {Name: "refused", Legend: "refused (429)", Glyph: "x", Colour: "#D55E00", ANSI: "1", Bold: true},
	MarkShed:     {Name: "shed", Legend: "shed (503)", Glyph: "!", Colour: "#CC79A7", ANSI: "5", Bold: true},
	MarkDropped:  {Name: "dropped", Legend: "dropped by the client", Glyph: "/", Colour: "#999999", ANSI: "6"},
}

// Info is how m is named and drawn; it panics for a value outside the table.
func (m Mark) Info() MarkInfo { return markTable[m] }

func (m Mark) String() string { return markTable[m].Name }

// MarkOf is the mark of a trace event; ok is false for one no timeline draws
// (TraceSuccess).
func MarkOf(e TraceEvent) (m Mark, ok bool) {
	switch e {
	case TraceAdmit:
		return MarkAdmitted, true
	case TraceDelay:
		return MarkDelayed, true
	case TraceRefuse:
		return MarkRefused, true
	case TraceShed:
		return MarkShed, true
	case TraceDrop:
		return MarkDropped, true
	}
	return 0, false
}

// Bins is the one binner of trace records: it holds the latest columns of one
// lane's virtual time in a ring, column k covering [k×Width, (k+1)×Width), so
// that what it holds is bounded whatever the length of the run. What a column
// counts is the caller's (C); Bins only places records and forgets old columns.
//
// The zero value holds nothing; NewBins makes one. A Bins is not safe for
// concurrent use.
type Bins[C any] struct {
	Width time.Duration
	cells []C
	first int64 // the oldest column held
	// forget is called on each column leaving the ring and must leave it as
	// a new column; nil zeroes it.
	forget func(*C)
}

// NewBins returns a Bins of n columns of width w (w > 0), each made by fresh
// and, when it leaves the ring, handed to forget (nil: zeroed).
func NewBins[C any](w time.Duration, n int, fresh, forget func(*C)) *Bins[C] {
	if w <= 0 || n <= 0 {
		panic("sim.NewBins: width and columns must be positive")
	}
	b := &Bins[C]{Width: w, cells: make([]C, n), forget: forget}
	if fresh != nil {
		for i := range b.cells {
			fresh(&b.cells[i])
		}
	}
	return b
}

// Column is the column that holds time at.
func (b *Bins[C]) Column(at time.Duration) int64 { return int64(at / b.Width) }

// At is column k, moving the ring forward past older columns when k is beyond
// its end; nil for a column already forgotten.
func (b *Bins[C]) At(k int64) *C {
	n := int64(len(b.cells))
	if k < b.first {
		return nil
	}
	if k >= b.first+n {
		for c := max(b.first, k-2*n+1); c <= k-n; c++ { // columns before max(…) were forgotten already
			if b.forget != nil {
				b.forget(&b.cells[c%n])
			} else {
				var zero C
				b.cells[c%n] = zero
			}
		}
		b.first = k - n + 1
	}
	return &b.cells[k%n]
}

// Held is column k without moving the ring; ok is false for a column not held.
func (b *Bins[C]) Held(k int64) (c *C, ok bool) {
	n := int64(len(b.cells))
	if k < b.first || k >= b.first+n {
		return nil, false
	}
	return &b.cells[k%n], true
}

// First is the oldest column held.
func (b *Bins[C]) First() int64 { return b.first }
