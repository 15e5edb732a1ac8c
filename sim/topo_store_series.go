package sim

import (
	"time"

	"github.com/rlsim/rlsim/sim/window"
)

// shardSeries is one shard's figures per time bucket (ShardResult.Series),
// counted as calls are sent (in time order): a call adds to its sending
// bucket, and the latencies of the bucket under way are kept in one
// histogram, summed up when the next bucket starts. Nothing is allocated per
// call: the points grow a bucket at a time.
type shardSeries struct {
	bucket time.Duration
	points []ShardPoint
	lat    window.Histogram // the latencies of bucket cur's calls
	cur    int              // the bucket lat holds; -1 before the first call
	wrote  int              // the bucket of the latest write; -1 before the first
	keys   int64            // what the shard held after its latest write
	bytes  int64
}

// shardMemory is what a shard holds now: its keys and bytes; ok false
// without a memory model.
type shardMemory struct {
	keys, bytes int64
	ok          bool
}

func newShardSeries(bucket, duration time.Duration) shardSeries {
	n := 1
	if bucket > 0 {
		n = min(int(duration/bucket)+1, 4096)
	}
	return shardSeries{bucket: bucket, points: make([]ShardPoint, 0, n), cur: -1, wrote: -1}
}

// memoryOf is what shard i holds now.
func (s *shardStore) memoryOf(i int) shardMemory {
	if s.mem == nil {
		return shardMemory{}
	}
	sh := &s.mem.shards[i]
	return shardMemory{keys: sh.keys, bytes: sh.used, ok: true}
}

// index is the bucket holding t.
func (ss *shardSeries) index(t time.Duration) int {
	if ss.bucket <= 0 {
		return 0
	}
	return int(t / ss.bucket)
}

// fill grows the series to n points.
func (ss *shardSeries) fill(n int) {
	for len(ss.points) < n {
		ss.points = append(ss.points, ShardPoint{Start: time.Duration(len(ss.points)) * ss.bucket, Keys: ss.keys, Memory: ss.bytes})
	}
}

// count adds a call sent at at, answered a, to its bucket; mem is what the
// shard holds after it. A bucket's first write replaces what it carried over.
func (ss *shardSeries) count(at time.Duration, a storeAnswer, mem shardMemory) {
	i := ss.index(at)
	if i != ss.cur {
		ss.sum()
		ss.cur = i
		ss.fill(i + 1) // a bucket no call reached holds what the latest write left
	}
	p := &ss.points[i]
	p.Calls++
	switch a.outcome {
	case StoreDown:
		p.Refused++
	case StoreQueueFull:
		p.Refused++
		p.QueueFull++
	case StoreTimedOut:
		p.TimedOut++
		ss.lat.Add(a.roundTrip)
	case StoreOutOfMemory:
		p.RefusedWrites++
		ss.lat.Add(a.roundTrip)
	default:
		ss.lat.Add(a.roundTrip)
	}
	if !mem.ok || (a.outcome != StoreAnswered && a.outcome != StoreOutOfMemory) {
		return
	}
	if ss.wrote != i {
		ss.wrote, p.Keys, p.Memory = i, 0, 0
	}
	ss.keys, ss.bytes = mem.keys, mem.bytes
	p.Keys, p.Memory = max(p.Keys, mem.keys), max(p.Memory, mem.bytes)
}

// sum writes bucket cur's latencies into its point and empties the histogram.
func (ss *shardSeries) sum() {
	if ss.cur < 0 || ss.lat.Count() == 0 {
		return
	}
	p := ss.lat.Percentiles()
	ss.points[ss.cur].MeanLatency, ss.points[ss.cur].P99Latency = p.Mean, p.P99
	ss.lat.Reset()
}

// result is the series so far, at least n points long (the lane's series),
// leaving the series as it was: views read results mid-run.
func (ss *shardSeries) result(n int) []ShardPoint {
	out := make([]ShardPoint, max(n, len(ss.points)))
	copy(out, ss.points)
	for i := len(ss.points); i < len(out); i++ {
		out[i] = ShardPoint{Start: time.Duration(i) * ss.bucket, Keys: ss.keys, Memory: ss.bytes}
	}
	if ss.cur >= 0 && ss.lat.Count() > 0 {
		p := ss.lat.Percentiles()
		out[ss.cur].MeanLatency, out[ss.cur].P99Latency = p.Mean, p.P99
	}
	return out
}
