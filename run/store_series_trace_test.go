package run

import (
	"strconv"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
	"github.com/rlsim/rlsim/sim/window"
)

// shardBucket is one shard's bucket recounted from the trace.
type shardBucket struct {
	calls, refused, queueFull, timedOut, oom int64
	lat                                      window.Histogram
}

// TestStoreSeriesIsTheTrace: every figure of each shard's series, per bucket
// by the time each call was sent (at_ns − store_ns), is what the trace's
// store column recounts: the calls, each kind of failure, the mean and p99
// latency of the calls served or timed out. On hot-key-shard (4 shards, a
// queue that fills: timeouts and queue-full refusals) and on it with a
// maxmemory too small for its keys under noeviction (refused writes). The
// calls still in flight at the end are the result's Waiting; every bucket a
// call of which can still be waiting (within the timeout of the end) is left
// out of the per-bucket check.
func TestStoreSeriesIsTheTrace(t *testing.T) {
	for _, sets := range [][]string{
		{"duration=1s"},
		{"duration=1s", "topology.store.maxmemory=300"},
	} {
		res, rows := traceRows(t, "hot-key-shard", sets...)
		kinds := map[string]int{}
		for li, l := range res.Lanes {
			got := recountShards(t, rows, l.Name, len(l.Topology.Shards), res.Bucket)
			timeout := 50 * time.Millisecond
			last := res.Duration + res.Duration - timeout // the lane's end (a drain of the duration) less the timeout
			var sent, traced int64
			for s, sh := range l.Topology.Shards {
				for i, p := range sh.Series {
					sent += p.Calls
					var g shardBucket
					if i < len(got[s]) {
						g = got[s][i]
					}
					traced += g.calls
					if p.Start+res.Bucket > last {
						continue
					}
					want := sim.ShardPoint{Start: p.Start, Calls: g.calls, Refused: g.refused, QueueFull: g.queueFull,
						TimedOut: g.timedOut, RefusedWrites: g.oom, Keys: p.Keys, Memory: p.Memory}
					if !g.lat.IsZero() && g.lat.Count() > 0 {
						pc := g.lat.Percentiles()
						want.MeanLatency, want.P99Latency = pc.Mean, pc.P99
					}
					if p != want {
						t.Fatalf("%v lane %d shard %d bucket %d: %+v, the trace %+v", sets, li, s, i, p, want)
					}
					kinds["timed out"] += int(p.TimedOut)
					kinds["queue full"] += int(p.QueueFull)
					kinds["oom"] += int(p.RefusedWrites)
					kinds["answered"] += int(p.Calls - p.Refused - p.TimedOut - p.RefusedWrites)
				}
			}
			if sent-traced != l.Topology.Waiting || sent != l.Topology.StoreCalls {
				t.Errorf("%v lane %d: %d calls in the series, %d traced, %d waiting, %d store calls", sets, li, sent, traced, l.Topology.Waiting, l.Topology.StoreCalls)
			}
		}
		for _, k := range []string{"timed out", "queue full", "answered"} {
			if kinds[k] == 0 {
				t.Errorf("%v: no call %s; the test shows nothing of it", sets, k)
			}
		}
		if len(sets) > 1 && kinds["oom"] == 0 {
			t.Errorf("%v: no write refused; the test shows nothing of it", sets)
		}
	}
}

// recountShards is, per shard and bucket, lane's store calls in the trace.
func recountShards(t *testing.T, rows []map[string]string, lane string, shards int, bucket time.Duration) [][]shardBucket {
	t.Helper()
	out := make([][]shardBucket, shards)
	for _, r := range rows {
		if r["lane"] != lane || r["store"] == "" {
			continue
		}
		at, err1 := strconv.ParseInt(r["at_ns"], 10, 64)
		lat, err2 := strconv.ParseInt(r["store_ns"], 10, 64)
		s, err3 := strconv.Atoi(r["shard"])
		if err1 != nil || err2 != nil || err3 != nil {
			t.Fatalf("row %v: at_ns, store_ns or shard not a number", r)
		}
		i := int(time.Duration(at-lat) / bucket)
		for len(out[s]) <= i {
			out[s] = append(out[s], shardBucket{lat: window.NewHistogram()})
		}
		b := &out[s][i]
		b.calls++
		switch r["store"] {
		case "refused":
			b.refused++
		case "queue_full":
			b.refused++
			b.queueFull++
		case "timed_out":
			b.timedOut++
			b.lat.Add(time.Duration(lat))
		case "oom":
			b.oom++
			b.lat.Add(time.Duration(lat))
		case "answered":
			b.lat.Add(time.Duration(lat))
		default:
			t.Fatalf("row %v: store %q", r, r["store"])
		}
	}
	return out
}
