package report

import (
	"math"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// statsTable: the HTML table shows the terminal's columns and more; each cell
// carries the raw value it sorts by (durations in integer nanoseconds, the lane
// by its place, NaN as 0); backend columns only when some lane served.
func TestPromiseStatsTableCells(t *testing.T) {
	r := sim.Result{Lanes: []sim.LaneResult{
		{Lane: sim.LaneGCRA, TimeOverLimit: 1500 * time.Millisecond, SlidingLogDisagreement: 0.125, Fairness: math.NaN()},
		{Lane: sim.LaneTokenBucket, SlidingLogDisagreement: math.NaN()},
	}}
	cellOf := func(head []string, rows [][]cell, lane int, h string) (cell, bool) {
		for j, x := range head {
			if x == h {
				return rows[lane][j], true
			}
		}
		return cell{}, false
	}
	head, rows := statsTable(r)
	for _, h := range []string{"time over limit", "all done", "disagrees with sliding log", "fairness"} {
		if _, ok := cellOf(head, rows, 0, h); !ok {
			t.Errorf("HTML table lacks %q: %v", h, head)
		}
	}
	for _, h := range []string{"utilisation", "p99 latency", "would refuse"} {
		if _, ok := cellOf(head, rows, 0, h); ok {
			t.Errorf("HTML table shows %q without its data", h)
		}
	}
	for _, tc := range []struct {
		lane      int
		head      string
		text, key string
	}{
		{0, "lane", r.Lanes[0].Title(), "0"},
		{1, "lane", r.Lanes[1].Title(), "1"},
		{0, "time over limit", "1.5s", "1500000000"},
		{0, "disagrees with sliding log", "12.5%", "0.125"},
		{1, "disagrees with sliding log", "0%", "0"},
		{0, "fairness", "NaN", "0"},
	} {
		c, _ := cellOf(head, rows, tc.lane, tc.head)
		if tc.head == "fairness" {
			if c.Sort != tc.key {
				t.Errorf("lane %d %s sorts by %q, want %q", tc.lane, tc.head, c.Sort, tc.key)
			}
			continue
		}
		if c.Text != tc.text || c.Sort != tc.key {
			t.Errorf("lane %d %s = {%q, %q}, want {%q, %q}", tc.lane, tc.head, c.Text, c.Sort, tc.text, tc.key)
		}
	}
	r.Lanes[0].Backend = sim.BackendStats{Served: 3, Utilisation: 0.456}
	head, rows = statsTable(r)
	c, ok := cellOf(head, rows, 0, "utilisation")
	if !ok || c.Text != "46%" {
		t.Errorf("utilisation = %q (shown %v), want 46%%", c.Text, ok)
	}
	if _, ok := cellOf(head, rows, 0, "p99 latency"); !ok {
		t.Error("a lane served, yet no p99 latency column")
	}
	if c, _ := cellOf(head, rows, 1, "p99 latency"); c.Text != "-" {
		t.Errorf("p99 latency of a lane that served nothing = %q, want -", c.Text)
	}
}
