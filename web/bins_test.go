package web

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// The column ring, as it wraps, holds exactly the counts of the columns it
// still holds: a column reused for a later one starts from zero, whether the
// ring moves on by one column, by a few, or by more than its length at once
// (a playground once kept a wrapped column's old counts). It is checked
// against a plain map of every column's counts, attempt by attempt.
func TestBinRingForgetsWhatItWrapsOver(t *testing.T) {
	const width = time.Millisecond
	for _, gaps := range []struct {
		name string
		gap  func(r *rand.Rand) time.Duration
	}{
		{"steady", func(r *rand.Rand) time.Duration { return time.Duration(r.IntN(3)) * width / 2 }},
		{"jumps of part of the ring", func(r *rand.Rand) time.Duration {
			return time.Duration(r.IntN(binSlices/3)) * width
		}},
		{"jumps past the ring", func(r *rand.Rand) time.Duration {
			return time.Duration(binSlices+r.IntN(3*binSlices)) * width
		}},
	} {
		t.Run(gaps.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			b := newBins(width, []sim.LaneKind{sim.LaneTokenBucket})
			want := map[int64][markKinds]int64{}
			at := time.Duration(0)
			events := []sim.TraceEvent{sim.TraceAdmit, sim.TraceRefuse, sim.TraceDelay}
			for i := range 3 * binSlices {
				at += gaps.gap(rng)
				ev := events[rng.IntN(len(events))]
				if err := b.Record(&sim.TraceRecord{Lane: sim.LaneTokenBucket, At: at, Event: ev}); err != nil {
					t.Fatal(err)
				}
				k := int64(at / width)
				n := want[k]
				n[markOf(ev)]++
				want[k] = n
				if i%97 != 0 {
					continue
				}
				ring := b.Lane(0)
				for c := ring.First(); c <= ring.Last(); c++ {
					if cell, _ := ring.Held(c); cell.N != want[c] {
						got := cell.N
						t.Fatalf("after %d attempts (t=%v): column %d holds %v, want %v", i+1, at, c, got, want[c])
					}
				}
				for _, col := range b.flush(0) {
					if col.N != want[col.I] {
						t.Fatalf("after %d attempts: column %d sent as %v, want %v", i+1, col.I, col.N, want[col.I])
					}
				}
			}
		})
	}
}

// markOf is the mark of a trace event, or -1 for one the page does not draw.
func markOf(ev sim.TraceEvent) int {
	if m, ok := sim.MarkOf(ev); ok {
		return int(m)
	}
	return -1
}
