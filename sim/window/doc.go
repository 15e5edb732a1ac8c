// Package window is the exact-window core of rlsim's measurement: per key,
// the admissions inside a trailing window of fixed length, from which it finds
// the most admitted in any window (over every start time), how long a key's
// window held more than the limit, and, fed every decision, the verdicts of an
// exact sliding log of the same limit (the lanes' cross-check), in the memory
// of one window shared between the two while they agree.
//
// A Tracker is that core for one limit's keys, dense ids from 0. Time is
// virtual, integer nanoseconds since the start; admissions and decisions are
// given in non-decreasing time. A Histogram records durations in log-linear
// buckets. Neither is safe for concurrent use; neither allocates per event
// once it has grown to the most admissions held at once.
//
// The package imports only the standard library: sim builds on it, and its
// tests hold it to brute force and to algorithms.SlidingLog.
package window

import (
	"math/bits"
	"time"
	"unsafe"
)

// Peak is the most admitted in one window: Count cost units in [Start, End)
// for Key, against Limit; Ratio = Count/Limit. It is laid out as
// sim.WindowPeak, which converts from it.
type Peak struct {
	Count      int64
	Start, End time.Duration
	Key        string
	Limit      int64
	Ratio      float64
}

// FurtherOver reports whether a holds more against its limit than b against
// its own: a.Count/a.Limit > b.Count/b.Limit, exactly (in 128 bits).
func (a Peak) FurtherOver(b Peak) bool {
	ahi, alo := bits.Mul64(uint64(a.Count), uint64(b.Limit))
	bhi, blo := bits.Mul64(uint64(b.Count), uint64(a.Limit))
	return ahi > bhi || ahi == bhi && alo > blo
}

// FastPaths turns a Tracker's fast paths off, for differential tests that
// hold them to the general path (sim's fast-path switches): the zero value
// takes them all, and is what every run outside tests uses. A checked tracker
// reads it when it is made and at Restart, any tracker at SetFastPaths;
// never while it runs.
type FastPaths struct {
	// InlineCheckOff sends every verdict through the general check, never
	// the inlined common case (checkInLine).
	InlineCheckOff bool
	// RecentOff gives a key whose log parts a keyWindow log even when every
	// request costs the same, never a recentLog; with no unit, CheckRun then
	// checks one decision at a time.
	RecentOff bool
	// InlineAddOff sends every Add of an unchecked tracker through the
	// general path, never the common case in one loop (Add).
	InlineAddOff bool
}

// SetFastPaths turns off the fast paths off names (see FastPaths), before
// the tracker's first Add.
func (p *Tracker) SetFastPaths(off FastPaths) {
	p.off = off
	if p.checked {
		p.setUnit()
	}
}

// ownLines is make([]T, n) with a backing array that shares no cache line with
// another allocation (sim's ownLines, which says why): trackers of lanes that
// run at once on several cores write their keys' windows on every event.
func ownLines[T any](n int) []T {
	size := int(unsafe.Sizeof(*new(T)))
	if size == 0 || n*size > minLineAligned {
		return make([]T, n)
	}
	return make([]T, n, (minLineAligned+size)/size)
}

// minLineAligned is the size above which every Go size class is a multiple of 64.
const minLineAligned = 480
