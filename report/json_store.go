package report

import "github.com/rlsim/rlsim/sim"

// jsonShard is what one shard of the store did (sim.ShardResult).
type jsonShard struct {
	Shard         int              `json:"shard"`
	Store         string           `json:"store,omitempty"` // the named store it is a shard of; absent for topology.store
	Calls         int64            `json:"calls"`
	Refused       int64            `json:"refused"`
	QueueFull     int64            `json:"queue_full"`
	TimedOut      int64            `json:"timed_out"`
	PeakQueue     int              `json:"peak_queue"`
	MeanQueue     float64          `json:"mean_queue"`
	MeanWait      float64          `json:"mean_wait_s"`
	Latency       jsonPercentiles  `json:"latency"`
	KeysPeak      int64            `json:"keys_peak"`
	MemoryPeak    int64            `json:"memory_peak_bytes"`
	Evictions     int64            `json:"evictions"`
	RefusedWrites int64            `json:"refused_writes"`
	Expired       int64            `json:"expired"`
	Series        []jsonShardPoint `json:"series"`
}

// jsonShardPoint is one time bucket of a shard (sim.ShardPoint).
type jsonShardPoint struct {
	StartS        float64 `json:"start_s"`
	Calls         int64   `json:"calls"`
	Refused       int64   `json:"refused"`
	QueueFull     int64   `json:"queue_full"`
	TimedOut      int64   `json:"timed_out"`
	RefusedWrites int64   `json:"refused_writes"`
	MeanLatencyS  float64 `json:"mean_latency_s"`
	P99LatencyS   float64 `json:"p99_latency_s"`
	Keys          int64   `json:"keys"`
	MemoryBytes   int64   `json:"memory_bytes"`
}

func shardSeriesJSON(pts []sim.ShardPoint) []jsonShardPoint {
	out := make([]jsonShardPoint, 0, len(pts))
	for _, p := range pts {
		out = append(out, jsonShardPoint{StartS: secs(p.Start), Calls: p.Calls, Refused: p.Refused, QueueFull: p.QueueFull,
			TimedOut: p.TimedOut, RefusedWrites: p.RefusedWrites, MeanLatencyS: secs(p.MeanLatency), P99LatencyS: secs(p.P99Latency),
			Keys: p.Keys, MemoryBytes: p.Memory})
	}
	return out
}

func shardsJSON(shards []sim.ShardResult) []jsonShard {
	var out []jsonShard
	for i, s := range shards {
		out = append(out, jsonShard{Shard: i, Store: s.Store, Calls: s.Calls, Refused: s.Refused, QueueFull: s.QueueFull, TimedOut: s.TimedOut,
			PeakQueue: s.PeakQueue, MeanQueue: finite(s.MeanQueue), MeanWait: finite(s.MeanWait), Latency: percentiles(s.Latency),
			KeysPeak: s.KeysPeak, MemoryPeak: s.MemoryPeak, Evictions: s.Evictions, RefusedWrites: s.RefusedWrites, Expired: s.Expired,
			Series: shardSeriesJSON(s.Series)})
	}
	return out
}
