package replay

import (
	"math"
	"strings"
	"testing"
	"time"
)

// place: a line at most late behind the latest is placed, one more is too
// late; a line behind the last one released is behind the full buffer; one
// at the same time as the last released is placed.
func TestPromiseReorderPlace(t *testing.T) {
	q := reorder{late: 5}
	if q.place(math.MinInt64) != placed {
		t.Errorf("an empty buffer places every time")
	}
	q.push(event{at: 100, seq: 1})
	for _, tc := range []struct {
		at   int64
		want placement
	}{{95, placed}, {94, tooLate}, {100, placed}, {1 << 40, placed}} {
		if got := q.place(tc.at); got != tc.want {
			t.Errorf("latest 100, late 5: place(%d) = %d, want %d", tc.at, got, tc.want)
		}
	}
	if q.push(event{at: 94, seq: 2}) {
		t.Errorf("push(94) with the latest at 100, late 5: placed")
	}
	e, ok := q.pop(true)
	if !ok || e.at != 100 {
		t.Fatalf("pop(true) = %+v, %v", e, ok)
	}
	for _, tc := range []struct {
		at   int64
		want placement
	}{{99, behindFull}, {100, placed}, {95, behindFull}, {94, tooLate}} {
		if got := q.place(tc.at); got != tc.want {
			t.Errorf("latest 100 released: place(%d) = %d, want %d", tc.at, got, tc.want)
		}
	}
}

// pop releases the earliest event once it can no longer be overtaken (at
// most late behind the latest), not before; all releases everything.
func TestPromiseReorderPopBoundary(t *testing.T) {
	q := reorder{late: 5}
	q.push(event{at: 100, seq: 1})
	q.push(event{at: 103, seq: 2})
	if e, ok := q.pop(false); ok {
		t.Errorf("latest 103, late 5: popped %+v; 100 is within reach", e)
	}
	q.advance(104)
	if e, ok := q.pop(false); ok {
		t.Errorf("latest 104: popped %+v, want none (100 > 99)", e)
	}
	q.advance(105)
	if e, ok := q.pop(false); !ok || e.at != 100 {
		t.Errorf("latest 105: pop = %+v, %v; want 100 (exactly late behind)", e, ok)
	}
	if e, ok := q.pop(false); ok {
		t.Errorf("latest 105: popped %+v, want 103 kept", e)
	}
	q.advance(50) // not later: no effect
	if q.maxSeen != 105 {
		t.Errorf("advance(50) after 105: latest %d", q.maxSeen)
	}
	if e, ok := q.pop(true); !ok || e.at != 103 || q.held() != 0 {
		t.Errorf("pop(true) = %+v, %v, held %d", e, ok, q.held())
	}
	if _, ok := q.pop(true); ok {
		t.Errorf("pop(true) of an empty buffer: an event")
	}
}

// Events out of order come back in (at, seq) order: ties keep the log's order.
func TestPromiseReorderOrder(t *testing.T) {
	q := reorder{late: 1000}
	ats := []int64{10, 5, 7, 5, 6, 10, 1, 9, 5, 8, 2, 3}
	for i, at := range ats {
		if !q.push(event{at: at, seq: int64(i + 1)}) {
			t.Fatalf("push(%d) refused", at)
		}
	}
	if q.high != len(ats) {
		t.Errorf("high %d, want %d", q.high, len(ats))
	}
	var prev event
	for i := range ats {
		e, ok := q.pop(true)
		if !ok {
			t.Fatalf("pop %d: none", i)
		}
		if i > 0 && !less(prev, e) {
			t.Errorf("pop %d: %+v after %+v", i, e, prev)
		}
		prev = e
	}
	// the three events at 5 came as seq 2, 4, 9
	q = reorder{late: 1000}
	for i, at := range []int64{9, 5, 5, 5} {
		q.push(event{at: at, seq: int64(10 - i)})
	}
	var seqs []int64
	for range 3 {
		e, _ := q.pop(true)
		seqs = append(seqs, e.seq)
	}
	if seqs[0] != 7 || seqs[1] != 8 || seqs[2] != 9 {
		t.Errorf("ties at 5 with seq 9, 8, 7 pushed: popped seq %v, want 7 8 9", seqs)
	}
}

// A full buffer (held at max) releases its earliest at once, so it then
// holds fewer than max.
func TestPromiseReorderFull(t *testing.T) {
	q := reorder{late: 1 << 40, max: 3}
	for i := range 3 {
		q.push(event{at: int64(100 + i), seq: int64(i)})
		if i < 2 {
			if e, ok := q.pop(false); ok {
				t.Errorf("%d held of 3: popped %+v", q.held()+1, e)
			}
		}
	}
	e, ok := q.pop(false)
	if !ok || e.at != 100 || q.held() != 2 {
		t.Errorf("3 held of 3: pop = %+v, %v, held %d; want 100 released, 2 held", e, ok, q.held())
	}
	if _, ok := q.pop(false); ok {
		t.Errorf("2 held of 3: a second pop released")
	}
}

// ring: a FIFO across wrap-arounds and growth.
func TestPromiseRingFIFO(t *testing.T) {
	var r ring
	next, want := int64(0), int64(0)
	push := func(n int) {
		for range n {
			r.push(event{seq: next})
			next++
		}
	}
	pop := func(n int) {
		for range n {
			if r.first().seq != want {
				t.Fatalf("first = %d, want %d", r.first().seq, want)
			}
			if e := r.pop(); e.seq != want {
				t.Fatalf("pop = %d, want %d", e.seq, want)
			}
			want++
		}
	}
	push(10)
	pop(7)
	push(12) // wraps in 16
	if len(r.buf) != 16 || r.n != 15 {
		t.Errorf("15 held after wrapping: buffer %d, held %d; want 16 and 15", len(r.buf), r.n)
	}
	push(2) // grows while wrapped
	if len(r.buf) != 32 || r.n != 17 {
		t.Errorf("17 held: buffer %d, held %d; want 32 and 17", len(r.buf), r.n)
	}
	pop(17)
	push(40)
	pop(40)
	if r.n != 0 {
		t.Errorf("held %d, want 0", r.n)
	}
}

// floorHour is the start of the UTC hour, before 1970 too.
func TestPromiseFloorHour(t *testing.T) {
	h := int64(time.Hour)
	for _, tc := range []struct{ at, want int64 }{
		{0, 0}, {1, 0}, {h - 1, 0}, {h, h}, {h + 1, h}, {-1, -h}, {-h, -h}, {-h - 1, -2 * h},
	} {
		if got := floorHour(tc.at); got != tc.want {
			t.Errorf("floorHour(%d) = %d, want %d", tc.at, got, tc.want)
		}
	}
	if got := span(math.MinInt64, math.MaxInt64); got != math.MaxUint64 {
		t.Errorf("span(min, max) = %d", got)
	}
	if got := years(MaxSpan); got != "100 years" {
		t.Errorf("years(MaxSpan) = %q, want 100 years", got)
	}
}

// beyond: a log may cover exactly MaxSpan from its first hour, not 1ns more,
// either way.
func TestPromiseBeyond(t *testing.T) {
	first := time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC).UnixNano()
	hour := floorHour(first)
	q := reorder{late: 0}
	q.push(event{at: first})
	if got := q.beyond(hour+int64(MaxSpan)+1, first, false); got != "" {
		t.Errorf("no request yet: %q", got)
	}
	if got := q.beyond(hour+int64(MaxSpan), first, true); got != "" {
		t.Errorf("exactly MaxSpan after the first hour: %q", got)
	}
	got := q.beyond(hour+int64(MaxSpan)+1, first, true)
	if !strings.Contains(got, "is more than 100 years after the log's first hour, 2026-03-01T09:00:00Z") {
		t.Errorf("1ns more: %q", got)
	}
	// before the first line: from its own hour to the latest line
	q2 := reorder{late: 0}
	q2.push(event{at: hour})
	if got := q2.beyond(hour-int64(MaxSpan), hour, true); got != "" {
		t.Errorf("an hour exactly MaxSpan before the latest: %q", got)
	}
	got = q2.beyond(hour-int64(MaxSpan)-1, hour, true) // its hour starts 1h earlier
	if !strings.Contains(got, "is more than 100 years before the log's latest line, 2026-03-01T09:00:00Z") {
		t.Errorf("1ns earlier: %q", got)
	}
	if got := q.beyond(first-int64(MaxSpan)+int64(30*time.Minute), first, true); got != "" {
		t.Errorf("an hour start MaxSpan-30m before a latest at :30: %q", got)
	}
	if got := q.beyond(first-int64(MaxSpan), first, true); got == "" {
		t.Errorf("a line MaxSpan before a latest at :30, its hour 30m earlier still: not beyond")
	}
}

// batchLen: batchSize events, fewer past 256 limits, at least 1.
func TestPromiseBatchLen(t *testing.T) {
	for _, tc := range []struct{ limits, want int }{{1, 8192}, {256, 8192}, {257, 2097152 / 257}, {1 << 21, 1}, {1 << 22, 1}} {
		if got := batchLen(tc.limits); got != tc.want {
			t.Errorf("batchLen(%d) = %d, want %d", tc.limits, got, tc.want)
		}
	}
}
