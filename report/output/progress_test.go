package output

import (
	"bytes"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// TestProgressLineShowsEventsPerSecondAndETA drives the line with a fake clock:
// the rate is the events so far over the wall time so far, and the ETA is the
// virtual time left at the pace so far.
func TestProgressLineShowsEventsPerSecondAndETA(t *testing.T) {
	tests := []struct {
		name    string
		elapsed time.Duration
		p       sim.Progress
		want    string
	}{
		{"quarter in 5s", 5 * time.Second, sim.Progress{Now: 25 * time.Second, End: 100 * time.Second, Events: 60_000_000},
			"\r\x1b[Kw:  25%  t=25s of 1m40s  12 M events/s  ETA 15s"},
		{"half in 2s", 2 * time.Second, sim.Progress{Now: 50 * time.Second, End: 100 * time.Second, Events: 3_000_000},
			"\r\x1b[Kw:  50%  t=50s of 1m40s  1.5 M events/s  ETA 2s"},
		{"slow", 4 * time.Second, sim.Progress{Now: 10 * time.Second, End: 100 * time.Second, Events: 100_000},
			"\r\x1b[Kw:  10%  t=10s of 1m40s  25 k events/s  ETA 36s"},
		{"nothing yet", time.Second, sim.Progress{Now: 0, End: 100 * time.Second, Events: 7},
			"\r\x1b[Kw:   0%  t=0 of 1m40s"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
			now := start
			var b bytes.Buffer
			p := NewProgressLine(&b, "w", func() time.Time { return now })
			now = start.Add(tc.elapsed)
			p.Update(tc.p)
			if got := b.String(); got != tc.want {
				t.Errorf("Update(%+v) after %v wrote %q, want %q", tc.p, tc.elapsed, got, tc.want)
			}
		})
	}
}
