package report

import (
	"bytes"
	"image/png"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// The store figure draws every bucket of a shard's series, the last one
// included: a series whose only calls are in its last bucket shows them as a
// raised step at the right end of the calls panel (top left), from the last
// bucket's start to the axis' end; none of them raised elsewhere.
func TestStoreFigureDrawsTheLastBucket(t *testing.T) {
	const n = 10
	bucket := 100 * time.Millisecond
	pts := make([]sim.ShardPoint, n)
	lane := make([]sim.Point, n)
	for i := range pts {
		pts[i].Start, lane[i].Start = time.Duration(i)*bucket, time.Duration(i)*bucket
	}
	pts[n-1].Calls = 50
	r := sim.Result{Duration: n * bucket, Bucket: bucket, Lanes: []sim.LaneResult{{Lane: sim.LaneTokenBucket, Series: lane,
		Topology: &sim.TopologyResult{Shards: []sim.ShardResult{{Series: pts}}}}}}
	f := StoreSeriesFigure(r, &sim.Topology{Replicas: []sim.ReplicaStep{{Count: 2}}, Store: sim.Store{Capacity: 100}})
	if f == nil {
		t.Fatal("no store figure for a lane with a shard's series")
	}
	b, err := f.PNG()
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	want := shardColour(0)
	wr, wg, wb, _ := want.RGBA()
	size := img.Bounds().Size()
	close := func(x, y int) bool {
		r, g, b, _ := img.At(x, y).RGBA()
		d := func(a, b uint32) uint32 { return max(a, b) - min(a, b) }
		return d(r, wr)+d(g, wg)+d(b, wb) < 0x3000
	}
	// The calls panel: the left half, below the legend, above the second row.
	var xs, ys []int
	for y := size.Y * 15 / 100; y < size.Y/2; y++ {
		for x := 0; x < size.X/2; x++ {
			if close(x, y) {
				xs, ys = append(xs, x), append(ys, y)
			}
		}
	}
	if len(xs) == 0 {
		t.Fatal("no line of the shard's colour in the calls panel")
	}
	left, right, base := xs[0], xs[0], ys[0]
	for i := range xs {
		left, right, base = min(left, xs[i]), max(right, xs[i]), max(base, ys[i])
	}
	raised, from, to := 0, right, left
	for i := range xs {
		if ys[i] < base-20 { // well above the zero line
			raised++
			from, to = min(from, xs[i]), max(to, xs[i])
			if xs[i] < left+(right-left)*85/100 {
				t.Fatalf("a raised pixel at x=%d, left of the last bucket (the line spans x=%d..%d)", xs[i], left, right)
			}
		}
	}
	if raised < 10 || (to-from)*n < (right-left)*7/10 {
		t.Errorf("%d raised pixels of the shard's colour, x=%d..%d of the line's %d..%d: the last bucket (a tenth of the axis) is not drawn across",
			raised, from, to, left, right)
	}
}
