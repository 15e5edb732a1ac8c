package report

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// The in-flight panels share one scale: from 0 to the most in flight of any
// lane at any bucket (here a middle lane's middle bucket) plus 8%, at least 1
// when nothing was in flight; the time axis runs to the result's end.
func TestInFlightPanelsShareTheHighestTop(t *testing.T) {
	series := func(v ...int64) []sim.Point {
		var ps []sim.Point
		for i, n := range v {
			ps = append(ps, sim.Point{Start: time.Duration(i) * time.Second, InFlight: int(n)})
		}
		return ps
	}
	for _, tc := range []struct {
		lanes [][]int64
		top   float64
	}{
		{[][]int64{{1, 2, 1}, {3, 40, 2}, {5, 6, 7}}, 40 * 1.08},
		{[][]int64{{0, 0}, {0}}, 1},
	} {
		r := *sample().Result
		r.Lanes = r.Lanes[:len(tc.lanes)]
		for i, v := range tc.lanes {
			r.Lanes[i].Series = series(v...)
		}
		panels := inFlightPanels(r)
		if len(panels) != len(tc.lanes) {
			t.Fatalf("%d panels, want %d", len(panels), len(tc.lanes))
		}
		for i, p := range panels {
			if p.Y.Min != 0 || p.Y.Max != tc.top || p.X.Min != 0 || p.X.Max != end(r) {
				t.Errorf("lanes %v: panel %d axes x [%g, %g] y [%g, %g], want x [0, %g] y [0, %g]", tc.lanes, i, p.X.Min, p.X.Max, p.Y.Min, p.Y.Max, end(r), tc.top)
			}
			if p.Title.Text != r.Lanes[i].Title() {
				t.Errorf("panel %d titled %q, want %q", i, p.Title.Text, r.Lanes[i].Title())
			}
		}
	}
}
