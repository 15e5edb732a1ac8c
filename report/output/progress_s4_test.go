package output

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// The ETA is the time left at the pace so far rounded to the nearest second:
// a quarter of the way in 1.9s leaves 5.7s, shown as 6s; 1.7s leaves 5.1s, 5s.
func TestProgressLineRoundsTheETA(t *testing.T) {
	for _, tc := range []struct {
		elapsed time.Duration
		want    string
	}{
		{1900 * time.Millisecond, "ETA 6s"},
		{1700 * time.Millisecond, "ETA 5s"},
		{500 * time.Millisecond, "ETA 2s"}, // 1.5s, half away from zero
		{100 * time.Millisecond, "ETA 0s"}, // 0.3s
	} {
		start := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
		now := start
		var b bytes.Buffer
		p := NewProgressLine(&b, "w", func() time.Time { return now })
		now = start.Add(tc.elapsed)
		p.Update(sim.Progress{Now: 25 * time.Second, End: 100 * time.Second, Events: 1000})
		if got := b.String(); !strings.HasSuffix(got, "  "+tc.want) {
			t.Errorf("quarter way after %v: wrote %q, want it to end %q", tc.elapsed, got, tc.want)
		}
	}
}

// With no wall time gone yet there is no pace: the line stops after the
// virtual time, with no rate and no ETA; a run with no end draws nothing.
func TestProgressLineNeedsAPace(t *testing.T) {
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	var b bytes.Buffer
	p := NewProgressLine(&b, "w", func() time.Time { return now })
	p.Update(sim.Progress{Now: 25 * time.Second, End: 100 * time.Second, Events: 1000})
	if got, want := b.String(), "\r\x1b[Kw:  25%  t=25s of 1m40s"; got != want {
		t.Errorf("Update with no wall time gone wrote %q, want %q", got, want)
	}
	b.Reset()
	p = NewProgressLine(&b, "w", func() time.Time { return now })
	p.Update(sim.Progress{Now: 25 * time.Second, End: 0, Events: 1000})
	p.Clear()
	if b.Len() != 0 {
		t.Errorf("Update and Clear of a run with no end wrote %q, want nothing", b.String())
	}
}
