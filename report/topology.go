package report

import (
	"fmt"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// hasTopology reports whether some lane of r ran in a topology (replicas and a store).
func hasTopology(r sim.Result) bool {
	for _, l := range r.Lanes {
		if l.Topology != nil {
			return true
		}
	}
	return false
}

// hasState reports whether some limit of some lane of r keeps its state in one of states.
func hasState(r sim.Result, states ...sim.StateKind) bool {
	for _, l := range r.Lanes {
		if l.Topology == nil {
			continue
		}
		for _, lt := range l.Topology.Limits {
			for _, s := range states {
				if lt.State == s {
					return true
				}
			}
		}
	}
	return false
}

func usesStore(r sim.Result) bool { return hasState(r, sim.StateShared, sim.StateSynced) }
func hasShared(r sim.Result) bool { return hasState(r, sim.StateShared) }

// anyTopology reports whether some comparison of runs ran in a topology.
func anyTopology(runs []Run) bool {
	for _, o := range runs {
		if o.Result != nil && hasTopology(*o.Result) {
			return true
		}
	}
	return false
}

// topologyColumns are the per-lane columns of a run in a topology: shown (and
// in the CSV) only when it has one. A lane the topology does not apply to
// (AIMD, Vegas, Gradient2) reads "-" in the tables and empty fields in the CSV.
var topologyColumns = []laneColumn{
	topoColumn("replicas", "replicas", hasTopology, 16, func(t *sim.TopologyResult) string { return count(int64(t.Replicas)) },
		func(t *sim.TopologyResult) float64 { return float64(t.Replicas) }),
	{head: "replica max", term: hasTopology, html: hasTopology, drop: 17,
		text: firstLimitCell(func(lt sim.LimitTopology) string {
			return fmt.Sprintf("%d (%s×)", lt.Replica.Count, sim.RatioText(lt.Replica.Count, lt.Replica.Limit, false))
		}),
		sort: func(_ int, l *sim.LaneResult) string {
			return firstLimitCell(func(lt sim.LimitTopology) string { return fmt.Sprint(finite(lt.Replica.Ratio)) })(l)
		}},
	{csv: "replica_peak_count", topology: true, lane: csvFirstLimit(func(lt sim.LimitTopology) string { return csvInt(lt.Replica.Count) })},
	{csv: "replica_peak_ratio", topology: true, lane: csvFirstLimit(func(lt sim.LimitTopology) string { return csvFloat(finite(lt.Replica.Ratio)) })},
	{csv: "busiest_replica", topology: true, lane: csvFirstLimit(func(lt sim.LimitTopology) string { return csvInt(int64(lt.BusiestReplica)) })},
	{csv: "overshoot", topology: true, lane: csvFirstLimit(func(lt sim.LimitTopology) string { return csvInt(lt.Overshoot) })},
	{csv: "backend_peak_count", topology: true, lane: csvFirstLimit(func(lt sim.LimitTopology) string { return csvInt(lt.Arrived.Count) })},
	{csv: "exact_peak_count", topology: true, lane: csvFirstLimit(func(lt sim.LimitTopology) string { return csvInt(lt.Exact.Count) })},
	topoColumn("store calls/s", "store_calls_per_s", usesStore, 15, func(t *sim.TopologyResult) string { return trimFloat(t.StoreCallsPerSecond, 1) },
		func(t *sim.TopologyResult) float64 { return t.StoreCallsPerSecond }),
	{csv: "store_calls", topology: true, lane: csvTopology(func(t *sim.TopologyResult) string { return csvInt(t.StoreCalls) })},
	topoColumn("store p50", "store_p50_s", hasShared, 13, func(t *sim.TopologyResult) string {
		return dash(t.StoreLatency.Count, FormatDuration(t.StoreLatency.P50))
	},
		func(t *sim.TopologyResult) float64 { return secs(t.StoreLatency.P50) }),
	topoColumn("store p99", "store_p99_s", hasShared, 14, func(t *sim.TopologyResult) string {
		return dash(t.StoreLatency.Count, FormatDuration(t.StoreLatency.P99))
	},
		func(t *sim.TopologyResult) float64 { return secs(t.StoreLatency.P99) }),
	topoColumn("store errors", "store_errors", hasShared, 12, func(t *sim.TopologyResult) string { return count(t.StoreErrors) },
		func(t *sim.TopologyResult) float64 { return float64(t.StoreErrors) }),
	unavailableColumn("store_down_open", func(u sim.StoreCounts) int64 { return u.Open }),
	unavailableColumn("store_down_closed", func(u sim.StoreCounts) int64 { return u.Closed }),
	unavailableColumn("store_down_local", func(u sim.StoreCounts) int64 { return u.Local }),
	outageClassColumn("store_down_decided", func(c sim.OutageClass) int64 { return c.Decided }),
	outageClassColumn("store_down_admitted", func(c sim.OutageClass) int64 { return c.Admitted }),
}

// topoColumn is a figure of the lane's topology in the tables (when show says
// so) and the CSV; csv's value is exact.
func topoColumn(head, csv string, show func(sim.Result) bool, drop int, text func(*sim.TopologyResult) string, v func(*sim.TopologyResult) float64) laneColumn {
	return laneColumn{head: head, csv: csv, term: show, html: show, drop: drop, topology: true,
		text: func(l *sim.LaneResult) string {
			if l.Topology == nil {
				return "-"
			}
			return text(l.Topology)
		},
		sort: func(_ int, l *sim.LaneResult) string {
			if l.Topology == nil {
				return "0"
			}
			return fmt.Sprint(finite(v(l.Topology)))
		},
		lane: csvTopology(func(t *sim.TopologyResult) string { return csvFloat(v(t)) })}
}

// csvTopology is a CSV field of the lane's topology, empty without one.
func csvTopology(v func(*sim.TopologyResult) string) func(*sim.LaneResult) string {
	return func(l *sim.LaneResult) string {
		if l.Topology == nil {
			return ""
		}
		return v(l.Topology)
	}
}

// firstLimitCell is a table cell of the first limit's topology figures, "-" without them.
func firstLimitCell(v func(sim.LimitTopology) string) func(*sim.LaneResult) string {
	return func(l *sim.LaneResult) string {
		if l.Topology == nil || len(l.Topology.Limits) == 0 {
			return "-"
		}
		return v(l.Topology.Limits[0])
	}
}

// csvFirstLimit is firstLimitCell for the CSV: empty without a topology.
func csvFirstLimit(v func(sim.LimitTopology) string) func(*sim.LaneResult) string {
	return func(l *sim.LaneResult) string {
		if l.Topology == nil || len(l.Topology.Limits) == 0 {
			return ""
		}
		return v(l.Topology.Limits[0])
	}
}

// unavailableColumn is a CSV count, over every limit of the chain, of the
// decisions taken one way while the store was unavailable.
func unavailableColumn(csv string, v func(sim.StoreCounts) int64) laneColumn {
	return laneColumn{csv: csv, topology: true, lane: csvTopology(func(t *sim.TopologyResult) string {
		var n int64
		for _, lt := range t.Limits {
			n += v(lt.Unavailable)
		}
		return csvInt(n)
	})}
}

// outageClassColumn is a CSV count, over every limit of the chain, of a
// class's decisions while the store was unavailable; the lane's row sums its classes.
func outageClassColumn(csv string, v func(sim.OutageClass) int64) laneColumn {
	sum := func(t *sim.TopologyResult, class int) int64 {
		var n int64
		for _, lt := range t.Limits {
			for i, c := range lt.Classes {
				if class < 0 || i == class {
					n += v(c)
				}
			}
		}
		return n
	}
	return laneColumn{csv: csv, topology: true,
		lane: csvTopology(func(t *sim.TopologyResult) string { return csvInt(sum(t, -1)) }),
		of: func(l *sim.LaneResult, c *sim.ClassResult) string {
			if l.Topology == nil {
				return ""
			}
			for i := range l.Classes {
				if &l.Classes[i] == c {
					return csvInt(sum(l.Topology, i))
				}
			}
			return ""
		}}
}

// outageTime is how long the store was down within [0, end).
func outageTime(t *sim.Topology, end time.Duration) time.Duration {
	var d time.Duration
	if t == nil {
		return 0
	}
	for _, o := range storeDownSpans(t) {
		d += max(0, min(o.To, end)-min(o.From, end))
	}
	return d
}

// jsonTopologySpec is the scenario's topology as the run applied it (the
// run's; a lane's figures are its jsonTopology).
type jsonTopologySpec struct {
	Replicas []jsonReplicaStep `json:"replicas"` // the fleet's size from at_s on; more than one step is an autoscaler
	Routing  string            `json:"routing"`
	HashKey  string            `json:"hash_key,omitempty"`
	Store    jsonStore         `json:"store"`
	Stores   []jsonNamedStore  `json:"stores,omitempty"`
	Health   *jsonHealthSpec   `json:"health,omitempty"`
}

// jsonNamedStore is a store of its own (topology.stores).
type jsonNamedStore struct {
	Name                string           `json:"name"`
	LatencyMeanS        float64          `json:"latency_mean_s"`
	LatencyDistribution string           `json:"latency_distribution"`
	TimeoutS            float64          `json:"timeout_s,omitempty"`
	Outages             []jsonOutageSpan `json:"outages"`
	Shards              int              `json:"shards"`
	Capacity            float64          `json:"capacity,omitempty"`
	QueueLimit          int              `json:"queue_limit,omitempty"`
	MaxMemory           int64            `json:"maxmemory,omitempty"`
}

// jsonSetup is a lane's own contract: its limits' placements and its stores.
type jsonSetup struct {
	Limits   []jsonLimit       `json:"limits"`
	Topology *jsonTopologySpec `json:"topology"`
}

// setupJSON is a lane's own setup as the JSON writes it; nil for none.
func setupJSON(s *sim.LaneSetup) *jsonSetup {
	if s == nil {
		return nil
	}
	js := &jsonSetup{Topology: topologySpecJSON(s.Topology)}
	for _, l := range s.Limits {
		jl := jsonLimit{Name: l.Name, Key: l.Key.String(), Limit: l.Policy.Limit, WindowS: secs(l.Policy.Window), Burst: l.Policy.EffectiveBurst(), Shadow: l.Shadow, Concurrency: l.Concurrency}
		placementJSON(&jl, l)
		js.Limits = append(js.Limits, jl)
	}
	return js
}

// jsonHealthSpec is the health check as it ran (defaults filled).
type jsonHealthSpec struct {
	Endpoint       string  `json:"endpoint"`
	IntervalS      float64 `json:"interval_s"`
	UnhealthyAfter int     `json:"unhealthy_after"`
	HealthyAfter   int     `json:"healthy_after"`
}

type jsonPartition struct {
	FromS    float64 `json:"from_s"`
	ToS      float64 `json:"to_s"`
	Replicas []int   `json:"replicas"`
	Kind     string  `json:"kind"`
}

type jsonReplicaStep struct {
	AtS   float64 `json:"at_s"`
	Count int     `json:"count"`
}

type jsonStore struct {
	LatencyMeanS        float64          `json:"latency_mean_s"`
	LatencyDistribution string           `json:"latency_distribution"`
	Atomic              bool             `json:"atomic"`
	TimeoutS            float64          `json:"timeout_s,omitempty"`
	Outages             []jsonOutageSpan `json:"outages"`
	RestartsS           []float64        `json:"restarts_s,omitempty"`
	Partitions          []jsonPartition  `json:"partitions,omitempty"`
}

type jsonOutageSpan struct {
	FromS float64 `json:"from_s"`
	ToS   float64 `json:"to_s"`
	Flush bool    `json:"flush,omitempty"`
}

func topologySpecJSON(t *sim.Topology) *jsonTopologySpec {
	if t == nil {
		return nil
	}
	jt := &jsonTopologySpec{Routing: t.Routing.String(), Store: jsonStore{LatencyMeanS: secs(t.Store.Latency.Mean),
		LatencyDistribution: t.Store.Latency.Kind.String(), Atomic: !t.Store.Racy, TimeoutS: secs(t.Store.Timeout), Outages: []jsonOutageSpan{}}}
	if t.Routing == sim.RoutingHash {
		jt.HashKey = t.HashKey.String()
	}
	for _, s := range t.Replicas {
		jt.Replicas = append(jt.Replicas, jsonReplicaStep{secs(s.At), s.Count})
	}
	for _, o := range t.Store.Outages {
		jt.Store.Outages = append(jt.Store.Outages, jsonOutageSpan{secs(o.From), secs(o.To), o.Flush})
	}
	lossSpecJSON(jt, t)
	for _, ns := range t.Stores {
		st := ns.Store
		js := jsonNamedStore{Name: ns.Name, LatencyMeanS: secs(st.Latency.Mean), LatencyDistribution: st.Latency.Kind.String(), TimeoutS: secs(st.Timeout),
			Outages: []jsonOutageSpan{}, Shards: max(1, st.Shards), Capacity: st.Capacity, QueueLimit: st.QueueLimit, MaxMemory: st.MaxMemory}
		for _, o := range st.Outages {
			js.Outages = append(js.Outages, jsonOutageSpan{secs(o.From), secs(o.To), o.Flush})
		}
		jt.Stores = append(jt.Stores, js)
	}
	return jt
}

// lossSpecJSON writes the store's restarts and partitions, and the health
// check, into jt.
func lossSpecJSON(jt *jsonTopologySpec, t *sim.Topology) {
	for _, at := range t.Store.Restarts {
		jt.Store.RestartsS = append(jt.Store.RestartsS, secs(at))
	}
	for _, p := range t.Store.Partitions {
		kind := map[bool]string{false: "refused", true: "hung"}[p.Hung]
		jt.Store.Partitions = append(jt.Store.Partitions, jsonPartition{secs(p.From), secs(p.To), p.Replicas, kind})
	}
	if h := t.WithHealthDefaults().Health; h != nil {
		jt.Health = &jsonHealthSpec{h.Endpoint, secs(h.Interval), h.UnhealthyAfter, h.HealthyAfter}
	}
}

// placementJSON writes where limit l's state lives into jl.
func placementJSON(jl *jsonLimit, l sim.Limit) {
	jl.State = l.State.String()
	switch l.State {
	case sim.StateLocal:
		jl.LocalLimit = l.LocalLimit.String()
	case sim.StateSynced:
		jl.SyncInterval = secs(l.SyncInterval)
	case sim.StateShared:
		jl.Store = l.Store
		jl.OnStoreError = l.OnStoreError.String()
		if l.OnStoreError == sim.FailLocal {
			jl.Fallback = &jsonPolicy{l.Fallback.Limit, secs(l.Fallback.Window), l.Fallback.EffectiveBurst()}
		}
	}
}
