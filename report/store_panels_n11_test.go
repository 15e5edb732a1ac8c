package report

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// TestStorePanelsTopAboveEveryShardsHighest: each store panel's y axis runs
// from 0 to a tenth above the highest value any shard's lines reach in it
// (memory: or maxmemory, when higher), at least 1; x from 0 to the run's end:
// calls and failed calls per second, latency (mean and p99) in ms, memory in bytes.
// Random series, the highest anywhere but last.
func TestStorePanelsTopAboveEveryShardsHighest(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 3))
	bucket := 250 * time.Millisecond
	for trial := range 20 {
		n := 3 + rng.IntN(10)
		var shards []sim.ShardResult
		for range 1 + rng.IntN(3) {
			pts := make([]sim.ShardPoint, n)
			for i := range pts {
				pts[i] = sim.ShardPoint{Start: time.Duration(i) * bucket, Calls: rng.Int64N(100), Refused: rng.Int64N(9),
					TimedOut: rng.Int64N(9), RefusedWrites: rng.Int64N(9), MeanLatency: time.Duration(rng.Int64N(5e6)),
					P99Latency: time.Duration(rng.Int64N(2e7)), Memory: rng.Int64N(1e6)}
			}
			for i := range pts { // each failure kind the highest in a third of the trials
				switch trial % 3 {
				case 0:
					pts[i].TimedOut *= 20
				case 1:
					pts[i].Refused *= 20
				case 2:
					pts[i].RefusedWrites *= 20
				}
			}
			pts[n-1] = sim.ShardPoint{Start: time.Duration(n-1) * bucket} // the last the lowest
			shards = append(shards, sim.ShardResult{Series: pts})
		}
		if trial == 0 {
			shards = shards[:1]
			shards[0].Series = []sim.ShardPoint{{Start: 0}, {Start: bucket}} // nothing at all: a top of 1
		}
		r := sim.Result{Duration: time.Duration(n) * bucket, Bucket: bucket,
			Lanes: []sim.LaneResult{{Lane: sim.LaneTokenBucket, Topology: &sim.TopologyResult{Shards: shards}}}}
		topo := &sim.Topology{Store: sim.Store{Capacity: 100, MaxMemory: rng.Int64N(2e6)}}
		panels, metrics := storeSeriesPanels(r, r.Lanes[0], topo)
		if len(panels) != len(metrics) || len(panels) != 4 {
			t.Fatalf("%d panels of %d metrics, want 4", len(panels), len(metrics))
		}
		per := bucket.Seconds()
		ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
		highest := map[string]func(p sim.ShardPoint) float64{
			"calls":        func(p sim.ShardPoint) float64 { return float64(p.Calls) / per },
			"latency":      func(p sim.ShardPoint) float64 { return max(ms(p.MeanLatency), ms(p.P99Latency)) },
			"memory held":  func(p sim.ShardPoint) float64 { return float64(p.Memory) },
			"failed calls": func(p sim.ShardPoint) float64 { return float64(max(p.TimedOut, p.Refused, p.RefusedWrites)) / per },
		}
		for i, m := range metrics {
			top := 0.0
			for _, sh := range shards {
				for _, p := range sh.Series {
					top = max(top, highest[m.title](p))
				}
			}
			if m.title == "memory held" {
				top = max(top, float64(topo.Store.MaxMemory))
			}
			p := panels[i]
			if want := max(top*1.1, 1); p.Y.Min != 0 || p.Y.Max != want || p.X.Min != 0 || p.X.Max != end(r) {
				t.Errorf("trial %d, %s: x %v..%v y %v..%v, want x 0..%v y 0..%v", trial, m.title, p.X.Min, p.X.Max, p.Y.Min, p.Y.Max, end(r), want)
			}
			if p.Title.Text != m.title {
				t.Errorf("panel %d titled %q, want %q", i, p.Title.Text, m.title)
			}
		}
	}
}
