package report

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// Every time axis counts exactly the buckets the run has, however the
// duration rounds in floating point: a rate plot once lost its last bucket
// (or drew one past the end) when Duration.Seconds() times 1e9 came back one
// nanosecond off. Each lane's rate line has a point at the end of its series'
// last bucket, counting that bucket's admissions.
func TestRatePlotKeepsItsLastBucket(t *testing.T) {
	checked := 0
	for _, bucket := range []time.Duration{time.Millisecond, 3 * time.Millisecond, 7 * time.Millisecond, 100 * time.Millisecond, 333333333} {
		for k := int64(1); k <= 1200; k++ {
			d := time.Duration(k) * bucket
			series := make([]sim.Point, k)
			for i := range series {
				series[i] = sim.Point{Start: time.Duration(i) * bucket}
			}
			series[k-1].Admitted = 1
			r := sim.Result{Duration: d, Bucket: bucket, Lanes: []sim.LaneResult{{Series: series}}}
			if got := buckets(r); got != int(k) {
				t.Fatalf("duration %v in buckets of %v: the axes span %d buckets, want %d", d, bucket, got, k)
			}
			window := bucket
			line := trailingRate(series, bucket, window, admittedOf, rateBuckets(r, window, admittedOf))
			if len(line) < int(k) || line[k-1].Y == 0 || line[k-1].X != (time.Duration(k)*bucket).Seconds() {
				t.Fatalf("duration %v in buckets of %v: the rate line's point for the last bucket is missing or empty", d, bucket)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("nothing checked")
	}
}

// The demo's work plot spreads its points over the plot: its lanes all finish
// near 9.9s with 82 to 152 attempts, and axes drawn from zero once crowded
// every dot into one corner.
func TestWorkPlotSpreadsItsPoints(t *testing.T) {
	_, r := runBuiltin(t, "demo", nil)
	pts := workPoints(r)
	var unique float64
	for _, l := range r.Lanes {
		unique = max(unique, float64(l.Unique))
	}
	xmin, xmax, ymin, ymax := workRange(pts, unique)
	lo, hi := unique, unique
	for _, pt := range pts {
		if pt.X < xmin || pt.X > xmax || pt.Y < ymin || pt.Y > ymax {
			t.Fatalf("point %v outside the axes [%v, %v] × [%v, %v]", pt, xmin, xmax, ymin, ymax)
		}
		lo, hi = min(lo, pt.Y), max(hi, pt.Y)
	}
	if f := (hi - lo) / (ymax - ymin); f < 0.6 {
		t.Errorf("the points span %.0f%% of the y axis [%v, %v]; want most of it", 100*f, ymin, ymax)
	}
	if xmin == 0 {
		t.Errorf("the x axis starts at 0 though every lane finished after %vs", pts[0].X)
	}
}
