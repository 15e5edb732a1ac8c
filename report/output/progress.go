package output

import (
	"fmt"
	"io"
	"time"

	"github.com/rlsim/rlsim/report"
	"github.com/rlsim/rlsim/sim"
)

// ProgressLine redraws one line on a terminal as a run advances: how far in
// virtual time, the events per second of wall time so far and the time left
// at that pace (ETA). The wall clock is the caller's: a ProgressLine reads
// only the clock it is given.
type ProgressLine struct {
	w     io.Writer
	name  string
	last  int64            // the percentage last drawn, -1 before the first
	clock func() time.Time // the wall clock
	start time.Time
}

// ProgressLines is a RunOptions.Progress that draws a ProgressLine on w for
// each scenario, timed by clock; nil when w is nil (no progress).
func ProgressLines(w io.Writer, clock func() time.Time) func(name string) (update func(sim.Progress), clear func()) {
	if w == nil {
		return nil
	}
	return func(name string) (func(sim.Progress), func()) {
		p := NewProgressLine(w, name, clock)
		return p.Update, p.Clear
	}
}

// NewProgressLine draws the progress of the run called name on w, timed by clock.
func NewProgressLine(w io.Writer, name string, clock func() time.Time) *ProgressLine {
	return &ProgressLine{w: w, name: name, last: -1, clock: clock, start: clock()}
}

// Update redraws the line for pr, when its percentage moved.
func (p *ProgressLine) Update(pr sim.Progress) {
	if pr.End <= 0 {
		return
	}
	pct := int64(pr.Now) * 100 / int64(pr.End)
	if pct == p.last {
		return
	}
	p.last = pct
	fmt.Fprintf(p.w, "\r\x1b[K%s: %3d%%  t=%s of %s", p.name, pct, report.FormatDuration(pr.Now), report.FormatDuration(pr.End))
	elapsed := p.clock().Sub(p.start)
	if elapsed <= 0 || pr.Now <= 0 {
		return
	}
	fmt.Fprintf(p.w, "  %s events/s", perSecond(pr.Events, elapsed))
	left := time.Duration(float64(elapsed) * float64(pr.End-pr.Now) / float64(pr.Now))
	fmt.Fprintf(p.w, "  ETA %v", left.Round(time.Second))
}

// perSecond is n per elapsed, in thousands (k) or millions (M) past 10,000.
func perSecond(n int64, elapsed time.Duration) string {
	r := float64(n) / elapsed.Seconds()
	switch {
	case r >= 1e7:
		return fmt.Sprintf("%.0f M", r/1e6)
	case r >= 1e6:
		return fmt.Sprintf("%.1f M", r/1e6)
	case r >= 1e4:
		return fmt.Sprintf("%.0f k", r/1e3)
	}
	return fmt.Sprintf("%.0f", r)
}

// Clear wipes the line, if one was drawn.
func (p *ProgressLine) Clear() {
	if p.last >= 0 {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
