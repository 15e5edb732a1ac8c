package sim

import (
	"testing"
	"time"
)

// BenchmarkTopologyRatios runs BenchmarkTopology's topologies and the plain
// path side by side in one process, a slice of simulated time of each in
// turn, and reports each topology's time per attempt as a ratio to the plain
// path's on the same traffic (the figures the topology targets are stated
// in, docs/performance.md): a machine whose speed drifts (other jobs, a noisy
// neighbour) slows both sides of each ratio alike. A slice is a fiftieth of
// the run (some milliseconds: long enough that a slice's start, its caches
// cold from the other worlds', costs nothing beside it), timed on the wall
// clock. One op is one slice of each. The model_ rows are bench/model.yaml's
// traffic (100 Poisson clients, a global 8,000/s, bursts of 100: the plain
// path superposes them) behind the same 8 replicas, 200 s of it.
func BenchmarkTopologyRatios(b *testing.B) {
	same := topologyRows()
	synced := func(l *Limit) { l.State, l.SyncInterval = StateSynced, 10*time.Millisecond }
	fleet := func() *Topology { return &Topology{Replicas: []ReplicaStep{{Count: 8}}} }
	rows := []struct {
		name  string
		cfg   Config
		plain int // the row of the plain path on the same traffic
	}{
		{"plain", same["plain"], 0},
		{"local", same["local"], 0},
		{"synced_every_10ms", same["synced_every_10ms"], 0},
		{"shared_atomic", same["shared_atomic"], 0},
		{"shared_atomic_exp", same["shared_atomic_exp"], 0},
		{"model_plain", modelBehind(nil, func(*Limit) {}), 5},
		{"model_local", modelBehind(fleet(), func(*Limit) {}), 5},
		{"model_synced", modelBehind(fleet(), synced), 5},
	}
	runs := make([]*slicedRun, len(rows))
	for i, r := range rows {
		runs[i] = newSlicedRun(b, r.cfg)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, r := range runs {
			r.slice(b)
		}
	}
	for i, r := range rows {
		if i != r.plain {
			b.ReportMetric(runs[i].perAttempt()/runs[r.plain].perAttempt(), r.name+"/plain")
		}
	}
	b.ReportMetric(runs[0].perAttempt(), "plain-ns/attempt")
}

// modelBehind is 200 s of bench/model.yaml's traffic behind topo, its limit placed by place.
func modelBehind(topo *Topology, place func(*Limit)) Config {
	cfg := manyClientsSameRequests(100)
	cfg.Duration, cfg.Topology = 200*time.Second, topo
	place(&cfg.Limits[0])
	return cfg
}

// slicedRun is one world run a slice of simulated time at a time, its time
// and attempts summed over the slices.
type slicedRun struct {
	cfg      Config
	s        *Simulation
	at       time.Duration
	took     time.Duration
	attempts int64
}

func newSlicedRun(b *testing.B, cfg Config) *slicedRun {
	r := &slicedRun{cfg: cfg}
	r.fresh(b)
	return r
}

// fresh starts the world anew, warmed up for a second (heap, rings, pools grown).
func (r *slicedRun) fresh(b *testing.B) {
	s, err := New(r.cfg, Options{})
	if err != nil {
		b.Fatal(err)
	}
	s.RunUntil(time.Second)
	r.s, r.at = s, time.Second
}

// slice runs the next fiftieth of the world's duration, counted.
func (r *slicedRun) slice(b *testing.B) {
	if r.at += r.cfg.Duration / 50; r.at > r.s.End() {
		r.fresh(b)
		r.at += r.cfg.Duration / 50
	}
	tries, start := r.s.attempts(), time.Now()
	r.s.RunUntil(r.at)
	r.took += time.Since(start)
	r.attempts += r.s.attempts() - tries
}

// perAttempt is the nanoseconds an attempt took, over every slice.
func (r *slicedRun) perAttempt() float64 {
	return float64(r.took.Nanoseconds()) / float64(max(r.attempts, 1))
}
