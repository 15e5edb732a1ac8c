package sim

import (
	"time"

	"github.com/rlsim/rlsim/sim/window"
)

// runHistogram is a window.Histogram that takes a run of equal values in one
// AddN: a store with a constant latency adds the same round trip on every
// call. AddN of v n times leaves the histogram as n Adds of v would (the
// same bucket count, count, sum modulo 2⁶⁴ and max), so its percentiles are
// the same. flush before reading hist; the zero value is not ready (newRunHistogram).
type runHistogram struct {
	hist    window.Histogram
	last    time.Duration
	pending int64 // how many of last wait to be added
	runs    int64 // runs of two or more added at once (for the tests' reach)
}

func newRunHistogram() runHistogram { return runHistogram{hist: window.NewHistogram()} }

// Add records v.
func (h *runHistogram) Add(v time.Duration) {
	if storeRunsOff {
		h.hist.Add(v)
		return
	}
	if v != h.last && h.pending > 0 {
		h.flush()
	}
	h.last = v
	h.pending++
}

// flush adds the pending run.
func (h *runHistogram) flush() {
	if h.pending > 0 {
		if h.pending > 1 {
			h.runs++
		}
		h.hist.AddN(h.last, h.pending)
		h.pending = 0
	}
}

// Percentiles is what it has recorded, the pending run included.
func (h *runHistogram) Percentiles() window.Percentiles {
	h.flush()
	return h.hist.Percentiles()
}
