package output

import (
	"bytes"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// perSecond: plain up to 10,000 a second, thousands (k) from there, millions
// (M) with a decimal from 1,000,000 and without one from 10,000,000.
func TestPerSecondBoundaries(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{
		{0, "0"}, {9_999, "9999"}, {10_000, "10 k"}, {999_000, "999 k"},
		{1_000_000, "1.0 M"}, {9_900_000, "9.9 M"}, {10_000_000, "10 M"}, {250_000_000, "250 M"},
	} {
		if got := perSecond(tc.n, time.Second); got != tc.want {
			t.Errorf("perSecond(%d, 1s) = %q, want %q", tc.n, got, tc.want)
		}
	}
	if got := perSecond(20_000, 2*time.Second); got != "10 k" {
		t.Errorf("perSecond(20000, 2s) = %q, want 10 k (per second of the elapsed)", got)
	}
}

// Update redraws only when the percentage moved; Clear wipes a drawn line and
// writes nothing when none was.
func TestProgressLineRedrawsOnlyOnAMove(t *testing.T) {
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	var b bytes.Buffer
	p := NewProgressLine(&b, "w", func() time.Time { return now })
	p.Clear()
	if b.Len() != 0 {
		t.Errorf("Clear before any line wrote %q, want nothing", b.String())
	}
	end := 100 * time.Second
	p.Update(sim.Progress{Now: 10 * time.Second, End: end})
	first := b.Len()
	if first == 0 {
		t.Fatal("the first Update drew nothing")
	}
	p.Update(sim.Progress{Now: 10*time.Second + 900*time.Millisecond, End: end}) // still 10%
	if b.Len() != first {
		t.Errorf("an Update at the same percentage redrew: %q", b.String()[first:])
	}
	p.Update(sim.Progress{Now: 11 * time.Second, End: end})
	if got, want := b.String()[first:], "\r\x1b[Kw:  11%  t=11s of 1m40s"; got != want {
		t.Errorf("Update at 11%% wrote %q, want %q", got, want)
	}
	b.Reset()
	p.Clear()
	if got := b.String(); got != "\r\x1b[K" {
		t.Errorf("Clear after a line wrote %q, want \\r\\x1b[K", got)
	}
	b.Reset()
	p.Update(sim.Progress{Now: 5 * time.Second, End: 0})
	if b.Len() != 0 {
		t.Errorf("Update of a run without an end wrote %q, want nothing", b.String())
	}
}

// ProgressLines is nil without a writer, else one line per scenario, named.
func TestProgressLinesPerScenario(t *testing.T) {
	if ProgressLines(nil, time.Now) != nil {
		t.Error("ProgressLines(nil) is not nil")
	}
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	var b bytes.Buffer
	update, clear := ProgressLines(&b, func() time.Time { return now })("burst")
	update(sim.Progress{Now: 50 * time.Second, End: 100 * time.Second})
	clear()
	if got, want := b.String(), "\r\x1b[Kburst:  50%  t=50s of 1m40s\r\x1b[K"; got != want {
		t.Errorf("a scenario's progress wrote %q, want %q", got, want)
	}
}
