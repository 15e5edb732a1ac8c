package report

import (
	"cmp"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// JSONVersion is the version of the JSON output; docs/output.md describes it.
// Adding a field keeps the version; renaming or removing one, or changing a
// meaning, bumps it.
const JSONVersion = 2

type jsonOutput struct {
	Version int       `json:"version"`
	Runs    []jsonRun `json:"runs"`
}

type jsonRun struct {
	Scenario    string            `json:"scenario"`
	Description string            `json:"description,omitempty"`
	Kind        string            `json:"kind"` // "comparison" or "contention"
	Seed        uint64            `json:"seed"`
	DurationS   float64           `json:"duration_s,omitempty"`
	BucketS     float64           `json:"bucket_s,omitempty"`
	Limits      []jsonLimit       `json:"limits,omitempty"`
	RuleChanges []jsonRuleChange  `json:"rule_changes,omitempty"`
	Topology    *jsonTopologySpec `json:"topology,omitempty"`
	Lanes       []jsonLane        `json:"lanes,omitempty"`
	Checks      []jsonCheck       `json:"checks,omitempty"`
	Contention  *jsonContention   `json:"contention,omitempty"`
}

type jsonLimit struct {
	Name    string  `json:"name"`
	Key     string  `json:"key"`
	Limit   int64   `json:"limit"`
	WindowS float64 `json:"window_s"`
	Burst   int64   `json:"burst"`
	// Concurrency, for a concurrency limit: the most requests of a key in
	// flight at once (limit, window_s and burst are then 0).
	Concurrency int64 `json:"concurrency,omitempty"`
	// Shadow is true for a limit that starts as a dry run (enforce: false).
	Shadow bool `json:"shadow,omitempty"`
	// State, with a topology: where the limit's state lives, in the scenario's words.
	State        string      `json:"state,omitempty"`
	LocalLimit   string      `json:"local_limit,omitempty"`
	SyncInterval float64     `json:"sync_interval_s,omitempty"`
	OnStoreError string      `json:"on_store_error,omitempty"`
	Fallback     *jsonPolicy `json:"fallback,omitempty"`
	Store        string      `json:"store,omitempty"` // a shared limit's named store (topology.stores); absent for topology.store
}

// jsonRuleChange is one rule push: from at_s on, limit has this policy (when
// policy is set; otherwise each lane keeps its own) and is a shadow limit or not.
type jsonRuleChange struct {
	AtS    float64     `json:"at_s"`
	Limit  string      `json:"limit"`
	Policy *jsonPolicy `json:"policy,omitempty"`
	Shadow bool        `json:"shadow"`
}

// jsonPolicy is the first limit's policy as a lane applied it.
type jsonPolicy struct {
	Limit   int64   `json:"limit"`
	WindowS float64 `json:"window_s"`
	Burst   int64   `json:"burst"`
}

type jsonLane struct {
	Lane      string     `json:"lane"`
	Algorithm string     `json:"algorithm"`
	Title     string     `json:"title"`
	Policy    jsonPolicy `json:"policy"`
	Attempts  int64      `json:"attempts"`
	Unique    int64      `json:"unique"`
	Admitted  int64      `json:"admitted"`
	Refused   int64      `json:"refused"`
	// RefusalStatus is the HTTP status of the lane's refusals (429 unless the
	// lane or its product says another).
	RefusalStatus int   `json:"refusal_status"`
	Shed          int64 `json:"shed"`
	Delayed       int64 `json:"delayed"`
	Dropped       int64 `json:"dropped"`
	Succeeded     int64 `json:"succeeded"`
	GaveUp        int64 `json:"gave_up"`
	Pending       int64 `json:"pending"`
	// Abandoned, TimedOut, WastedWorkS and RetriesDenied: requests abandoned
	// at their client's deadline, attempts given up at its timeout, the
	// backend's seconds of work on answers that came too late, and retries a
	// retry budget refused (present when not 0).
	Abandoned     int64            `json:"abandoned,omitempty"`
	TimedOut      int64            `json:"timed_out,omitempty"`
	WastedWorkS   float64          `json:"wasted_work_s,omitempty"`
	RetriesDenied int64            `json:"retries_denied,omitempty"`
	RefusedBy     []jsonLimitCount `json:"refused_by"`
	// ShadowRefused and ShadowRefusedBy: attempts a shadow limit would have
	// refused (present when the run has a shadow limit).
	ShadowRefused          int64             `json:"shadow_refused,omitempty"`
	ShadowRefusedBy        []jsonLimitCount  `json:"shadow_refused_by,omitempty"`
	Delay                  jsonPercentiles   `json:"delay"`
	Peak                   jsonPeak          `json:"peak"`
	OverLimit              bool              `json:"over_limit"`
	TimeOverLimitS         float64           `json:"time_over_limit_s"`
	RetryAmplification     float64           `json:"retry_amplification"`
	AllDoneS               float64           `json:"all_done_s"`
	Fairness               float64           `json:"fairness"`
	ClassFairness          float64           `json:"class_fairness"`
	KeyFairness            float64           `json:"key_fairness"`
	LimitedNothing         bool              `json:"limited_nothing"`
	Verdicts               string            `json:"verdicts"`
	Classes                []jsonClass       `json:"classes"`
	Backend                jsonBackend       `json:"backend"`
	RetryAfter             jsonRetryAfter    `json:"retry_after"`
	Headers                jsonHeaders       `json:"headers"`
	SlidingLogDisagreement float64           `json:"sliding_log_disagreement"`
	Series                 []jsonSeriesPoint `json:"series"`
	// Topology: what the replicas and the store did (present with a topology,
	// in the lanes it applies to).
	Topology *jsonTopology `json:"topology,omitempty"`
	// Setup: the lane's own stores and placements (present for a lane with a
	// contract of its own, lanes[i].topology or placement fields).
	Setup *jsonSetup `json:"setup,omitempty"`
	// Adaptive: the adaptive lanes' state over time (AIMD, Vegas, Gradient2, client throttling).
	Adaptive *jsonAdaptive `json:"adaptive,omitempty"`
	// KeyTables: what a lane's bounded key tables did (present with the lane
	// option keys), one per limit.
	KeyTables []jsonKeyTable `json:"key_tables,omitempty"`
	// NearLimit: an envoy_ratelimit lane's near_limit statistic, per limit
	// (present in such lanes only).
	NearLimit []jsonLimitCount `json:"near_limit,omitempty"`
	// InFlight: per concurrency limit of the chain, the most requests of one
	// key in flight at once (present when the chain has one).
	InFlight []jsonLimitCount `json:"in_flight,omitempty"`
	// ShedBy: per load shedder of the backend, the attempts it shed (present
	// with shedders); Criticality: the outcomes per criticality (present with
	// shedders or a group not critical).
	ShedBy      []jsonLimitCount  `json:"shed_by,omitempty"`
	Criticality []jsonCriticality `json:"criticality,omitempty"`
	// Partitions: what each partition of a concurrency lane's limit did
	// (present in a lane with partitions).
	Partitions []jsonLimitPartition `json:"partitions,omitempty"`
}

type jsonLimitPartition struct {
	Name          string   `json:"name"`
	Classes       []string `json:"classes"`
	Share         float64  `json:"share"`
	GuaranteedMin int      `json:"guaranteed_min"`
	GuaranteedMax int      `json:"guaranteed_max"`
	Admitted      int64    `json:"admitted"`
	Refused       int64    `json:"refused"`
	MostInFlight  int      `json:"most_in_flight"`
}

type jsonCriticality struct {
	Criticality    string `json:"criticality"`
	Offered        int64  `json:"offered"`
	Served         int64  `json:"served"`
	Refused        int64  `json:"refused"`
	Shed           int64  `json:"shed"`
	ShedByShedders int64  `json:"shed_by_shedders"`
}

type jsonKeyTable struct {
	Limit     string `json:"limit"`
	Size      int    `json:"size"`
	Evicted   int64  `json:"evicted"`
	Refused   int64  `json:"refused"`
	Untracked int64  `json:"untracked"`
}

type jsonTopology struct {
	Replicas            int                 `json:"replicas"`
	Routing             string              `json:"routing"`
	StoreCalls          int64               `json:"store_calls"`
	StoreCallsPerSecond float64             `json:"store_calls_per_s"`
	StoreErrors         int64               `json:"store_errors"`
	Waiting             int64               `json:"waiting"`
	StoreLatency        jsonPercentiles     `json:"store_latency"`
	Limits              []jsonLimitTopology `json:"limits"`
	Phases              []jsonPhase         `json:"phases"`
	PhasesCut           bool                `json:"phases_cut,omitempty"`
	Remedies            jsonRemedies        `json:"remedies"`
	Restarts            int                 `json:"restarts,omitempty"`
	Health              *jsonHealth         `json:"health,omitempty"`
	Shards              []jsonShard         `json:"shards,omitempty"`
}

// jsonRemedies is what the circuit breakers, the refusal cache and token leases did (sim.Remedies).
type jsonRemedies struct {
	Breakers     []jsonBreaker `json:"breakers"`
	BreakerOpens int64         `json:"breaker_opens"`
	BreakerSaved int64         `json:"breaker_saved_calls"`
	BreakerOpenS float64       `json:"breaker_open_s"`
	CacheHits    int64         `json:"cache_refusals"`
	CacheSaved   int64         `json:"cache_saved_calls"`
	CacheDiffers int64         `json:"cache_differs"`
	LeaseLocal   int64         `json:"lease_local"`
	LeaseTaken   int64         `json:"lease_taken"`
	LeaseExpired int64         `json:"lease_expired"`
}

// jsonBreaker is one replica's breaker on one shard that opened.
type jsonBreaker struct {
	Replica int     `json:"replica"`
	Shard   int     `json:"shard"`
	Opens   int64   `json:"opens"`
	Saved   int64   `json:"saved_calls"`
	OpenS   float64 `json:"open_s"`
}

// jsonHealth is what the health check did (sim.HealthResult).
type jsonHealth struct {
	Probes     int64     `json:"probes"`
	Failed     int64     `json:"failed"`
	Removals   int       `json:"removals"`
	OutS       []float64 `json:"out_s"`
	NoHealthy  int64     `json:"no_healthy"`
	NoHealthyS float64   `json:"no_healthy_s"`
}

func healthJSON(h *sim.HealthResult) *jsonHealth {
	if h == nil {
		return nil
	}
	j := &jsonHealth{Probes: h.Probes, Failed: h.Failed, Removals: h.Removals, OutS: []float64{}, NoHealthy: h.NoHealthy, NoHealthyS: secs(h.NoHealthyFor)}
	for _, d := range h.Out {
		j.OutS = append(j.OutS, secs(d))
	}
	return j
}

// jsonPhase is a moment that changed what the fleet did (sim.Phase); replica
// and shard -1 mean the whole fleet and every shard.
type jsonPhase struct {
	At      float64 `json:"t"`
	Kind    string  `json:"kind"`
	Replica int     `json:"replica"`
	Shard   int     `json:"shard"`
	Limit   string  `json:"limit,omitempty"`
}

type jsonLimitTopology struct {
	Limit          string          `json:"limit"`
	State          string          `json:"state"`
	Fleet          jsonPeak        `json:"fleet_peak"`
	Replica        jsonPeak        `json:"replica_peak"`
	Arrived        jsonPeak        `json:"backend_peak"`
	Exact          jsonPeak        `json:"exact_peak"`
	BusiestReplica int             `json:"busiest_replica"`
	StoreCalls     int64           `json:"store_calls"`
	Overshoot      int64           `json:"overshoot"`
	Unavailable    jsonUnavailable `json:"unavailable"`
	Outage         []jsonOutage    `json:"outage_classes"`
}

type jsonUnavailable struct {
	Open   int64 `json:"open"`
	Closed int64 `json:"closed"`
	Local  int64 `json:"local"`
}

type jsonOutage struct {
	Name     string `json:"class"`
	Decided  int64  `json:"decided"`
	Admitted int64  `json:"admitted"`
}

func topologyJSON(t *sim.TopologyResult) *jsonTopology {
	if t == nil {
		return nil
	}
	peak := func(p sim.WindowPeak) jsonPeak {
		return jsonPeak{p.Count, secs(p.Start), secs(p.End), p.Key, p.Limit, finite(p.Ratio)}
	}
	jt := &jsonTopology{Replicas: t.Replicas, Routing: t.Routing.String(), StoreCalls: t.StoreCalls,
		StoreCallsPerSecond: finite(t.StoreCallsPerSecond), StoreErrors: t.StoreErrors, Waiting: t.Waiting,
		StoreLatency: percentiles(t.StoreLatency), Limits: []jsonLimitTopology{}, Phases: []jsonPhase{}, PhasesCut: t.PhasesCut,
		Restarts: t.Restarts, Health: healthJSON(t.Health)}
	jt.Remedies = remediesJSON(t.Remedies)
	jt.Shards = shardsJSON(t.Shards)
	for _, p := range t.Phases {
		jt.Phases = append(jt.Phases, jsonPhase{At: secs(p.At), Kind: p.Kind.String(), Replica: p.Replica, Shard: p.Shard, Limit: p.Limit})
	}
	for _, l := range t.Limits {
		jl := jsonLimitTopology{Limit: l.Limit, State: l.State.String(), Fleet: peak(l.Fleet), Replica: peak(l.Replica),
			Arrived: peak(l.Arrived), Exact: peak(l.Exact),
			BusiestReplica: l.BusiestReplica, StoreCalls: l.StoreCalls, Overshoot: l.Overshoot, Unavailable: jsonUnavailable(l.Unavailable),
			Outage: []jsonOutage{}}
		for _, c := range l.Classes {
			jl.Outage = append(jl.Outage, jsonOutage(c))
		}
		jt.Limits = append(jt.Limits, jl)
	}
	return jt
}

func remediesJSON(r sim.Remedies) jsonRemedies {
	j := jsonRemedies{Breakers: []jsonBreaker{}, BreakerOpens: r.BreakerOpens, BreakerSaved: r.BreakerSaved,
		BreakerOpenS: secs(r.BreakerOpenTime), CacheHits: r.CacheHits, CacheSaved: r.CacheSaved, CacheDiffers: r.CacheDiffers,
		LeaseLocal: r.LeaseLocal, LeaseTaken: r.LeaseTaken, LeaseExpired: r.LeaseExpired}
	for _, b := range r.Breakers {
		j.Breakers = append(j.Breakers, jsonBreaker{Replica: b.Replica, Shard: b.Shard, Opens: b.Opens, Saved: b.Saved, OpenS: secs(b.OpenTime)})
	}
	return j
}

type jsonLimitCount struct {
	Limit string `json:"limit"`
	Count int64  `json:"count"`
}

type jsonPercentiles struct {
	Count int64   `json:"count"`
	P50S  float64 `json:"p50_s"`
	P90S  float64 `json:"p90_s"`
	P99S  float64 `json:"p99_s"`
	MaxS  float64 `json:"max_s"`
	MeanS float64 `json:"mean_s"`
}

type jsonPeak struct {
	Count  int64   `json:"count"`
	StartS float64 `json:"start_s"`
	EndS   float64 `json:"end_s"`
	Key    string  `json:"key"`
	Limit  int64   `json:"limit"`
	Ratio  float64 `json:"ratio"`
}

type jsonClass struct {
	Name      string `json:"name"`
	Clients   int    `json:"clients"`
	Unique    int64  `json:"unique"`
	Attempts  int64  `json:"attempts"`
	Admitted  int64  `json:"admitted"`
	Refused   int64  `json:"refused"`
	Shed      int64  `json:"shed"`
	Dropped   int64  `json:"dropped"`
	Succeeded int64  `json:"succeeded"`
	GaveUp    int64  `json:"gave_up"`
	// Abandoned, TimedOut and RetriesDenied: the class's (present when not 0).
	Abandoned     int64 `json:"abandoned,omitempty"`
	TimedOut      int64 `json:"timed_out,omitempty"`
	RetriesDenied int64 `json:"retries_denied,omitempty"`
	// ShadowRefused: the class's attempts a shadow limit would have refused.
	ShadowRefused int64 `json:"shadow_refused,omitempty"`
	// RefusedBy: per limit of the chain, the class's attempts it refused;
	// ShedBy: per load shedder, the attempts it shed (present with shedders);
	// ShedByLane: the 503s of the lane's concurrency limit (AIMD, Vegas,
	// Gradient2); ShedNoHealthy: the load balancer's, with no replica in its
	// rotation (present when not 0); ShedOther: the class's other 503s (the
	// backend's queue or outage).
	RefusedBy     []jsonLimitCount `json:"refused_by"`
	ShedBy        []jsonLimitCount `json:"shed_by,omitempty"`
	ShedByLane    int64            `json:"shed_by_lane"`
	ShedNoHealthy int64            `json:"shed_no_healthy,omitempty"`
	ShedOther     int64            `json:"shed_other"`
	Pace          bool             `json:"pace"`       // the class paces itself from the quota headers
	FairShare     float64          `json:"fair_share"` // max-min fair share of the lane's successes, in requests
	// Rates: successes per unique request, refusals and sheds per attempt.
	SuccessRate   float64         `json:"success_rate"`
	RefusedRate   float64         `json:"refused_rate"`
	ShedRate      float64         `json:"shed_rate"`
	TimeToSuccess jsonPercentiles `json:"time_to_success"`
}

func classJSON(c sim.ClassResult) jsonClass {
	return jsonClass{Name: c.Name, Clients: c.Clients, Unique: c.Unique, Attempts: c.Attempts,
		Admitted: c.Admitted, Refused: c.Refused, Shed: c.Shed, Dropped: c.Dropped, Succeeded: c.Succeeded,
		GaveUp: c.GaveUp, Abandoned: c.Abandoned, TimedOut: c.TimedOut, RetriesDenied: c.RetriesDenied, ShadowRefused: c.ShadowRefused, Pace: c.Pace, FairShare: finite(c.FairShare), SuccessRate: fraction(c.Succeeded, c.Unique), RefusedRate: fraction(c.Refused, c.Attempts),
		ShedRate: fraction(c.Shed, c.Attempts), TimeToSuccess: percentiles(c.TimeToSuccess),
		RefusedBy: limitCounts(c.RefusedBy), ShedBy: limitCounts(c.ShedBy), ShedByLane: c.ShedByLane, ShedNoHealthy: c.ShedNoHealthy, ShedOther: c.ShedOther}
}

// limitCounts is counts in the JSON, an empty list for none.
func limitCounts(counts []sim.LimitCount) []jsonLimitCount {
	out := []jsonLimitCount{}
	for _, n := range counts {
		out = append(out, jsonLimitCount(n))
	}
	return out
}

// fraction is n/of, 0 when of is 0.
func fraction(n, of int64) float64 {
	if of == 0 {
		return 0
	}
	return float64(n) / float64(of)
}

type jsonBackend struct {
	Served      int64           `json:"served"`
	Latency     jsonPercentiles `json:"latency"`
	Utilisation float64         `json:"utilisation"`
	MaxInFlight int             `json:"max_in_flight"`
	MaxQueue    int             `json:"max_queue"`
	// Dropped: waiting requests CoDel dropped with 503 (present when not 0).
	Dropped int64 `json:"dropped,omitempty"`
}

type jsonRetryAfter struct {
	Given       int64 `json:"given"`
	RetriedAt   int64 `json:"retried_at"`
	SucceededAt int64 `json:"succeeded_at"`
}

type jsonHeaders struct {
	RateLimit       string   `json:"ratelimit"`
	RateLimitPolicy string   `json:"ratelimit_policy"`
	RetryAfter      string   `json:"retry_after"`
	Lines           []string `json:"lines"` // every header line as sent, in the scenario's header style
}

func toJSONHeaders(h sim.Headers) jsonHeaders {
	lines := h.Lines
	if lines == nil {
		lines = []string{}
	}
	return jsonHeaders{RateLimit: h.RateLimit, RateLimitPolicy: h.RateLimitPolicy, RetryAfter: h.RetryAfter, Lines: lines}
}

type jsonSeriesPoint struct {
	StartS    float64 `json:"start_s"`
	Attempts  int64   `json:"attempts"`
	Admitted  int64   `json:"admitted"`
	Refused   int64   `json:"refused"`
	Shed      int64   `json:"shed"`
	Delayed   int64   `json:"delayed"`
	Dropped   int64   `json:"dropped"`
	Succeeded int64   `json:"succeeded"`
	InFlight  int     `json:"in_flight"`
}

func secs(d time.Duration) float64 { return d.Seconds() }

// finite keeps JSON encodable: NaN and infinities (a ratio of nothing) become 0.
func finite(f float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return f
}

// WriteJSON writes the runs as one versioned JSON document (docs/output.md).
func WriteJSON(w io.Writer, runs []Run) error {
	doc := jsonOutput{Version: JSONVersion, Runs: []jsonRun{}}
	for _, o := range runs {
		doc.Runs = append(doc.Runs, toJSON(o))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

func toJSON(o Run) jsonRun {
	s := o.Scenario
	run := jsonRun{Scenario: s.Name, Description: s.Description, Checks: checksJSON(o.Checks)}
	o.kind().fillJSON(&run)
	return run
}

func (c comparison) fillJSON(run *jsonRun) {
	r := c.Result
	run.Kind, run.Seed, run.DurationS, run.BucketS = "comparison", r.Seed, secs(r.Duration), secs(r.Bucket)
	topo := c.topology()
	run.Topology = topologySpecJSON(topo)
	for _, l := range r.Limits {
		jl := jsonLimit{Name: l.Name, Key: l.Key.String(), Limit: l.Policy.Limit, WindowS: secs(l.Policy.Window), Burst: l.Policy.EffectiveBurst(), Shadow: l.Shadow, Concurrency: l.Concurrency}
		if topo != nil {
			placementJSON(&jl, l)
		}
		run.Limits = append(run.Limits, jl)
	}
	for _, ch := range r.Rules {
		jc := jsonRuleChange{AtS: secs(ch.At), Limit: r.Limits[ch.Limit].Name, Shadow: ch.Shadow}
		if ch.Policy != (algorithms.Policy{}) {
			jc.Policy = &jsonPolicy{ch.Policy.Limit, secs(ch.Policy.Window), ch.Policy.EffectiveBurst()}
		}
		run.RuleChanges = append(run.RuleChanges, jc)
	}
	for _, l := range r.Lanes {
		jl := jsonLane{
			Lane: l.Name, Algorithm: l.Lane.String(), Title: l.Title(),
			Policy:   jsonPolicy{l.Policy.Limit, secs(l.Policy.Window), l.Policy.EffectiveBurst()},
			Attempts: l.Attempts, Unique: l.Unique, Admitted: l.Admitted, Refused: l.Refused, RefusalStatus: cmp.Or(l.RefusalStatus, sim.StatusTooManyRequests), Shed: l.Shed,
			Delayed: l.Delayed, Dropped: l.Dropped, Succeeded: l.Succeeded, GaveUp: l.GaveUp, Pending: l.Pending,
			Abandoned: l.Abandoned, TimedOut: l.TimedOut, WastedWorkS: secs(l.WastedWork), RetriesDenied: l.RetriesDenied,
			RefusedBy: []jsonLimitCount{}, Delay: percentiles(l.Delay),
			Peak:           jsonPeak{l.Peak.Count, secs(l.Peak.Start), secs(l.Peak.End), l.Peak.Key, l.Peak.Limit, finite(l.Peak.Ratio)},
			OverLimit:      l.Over(),
			TimeOverLimitS: secs(l.TimeOverLimit), RetryAmplification: finite(l.RetryAmplification),
			AllDoneS: secs(l.AllDoneAt), Fairness: finite(l.Fairness), ClassFairness: finite(l.ClassFairness), KeyFairness: finite(l.KeyFairness),
			LimitedNothing: l.LimitedNothing(), Verdicts: fmt.Sprintf("%016x", l.Verdicts), Classes: []jsonClass{},
			Backend: jsonBackend{l.Backend.Served, percentiles(l.Backend.Latency), finite(l.Backend.Utilisation),
				l.Backend.MaxInFlight, l.Backend.MaxQueue, l.Backend.Dropped},
			RetryAfter:             jsonRetryAfter(l.RetryAfter),
			Headers:                toJSONHeaders(l.Headers),
			SlidingLogDisagreement: finite(l.SlidingLogDisagreement),
			Series:                 []jsonSeriesPoint{},
			Topology:               topologyJSON(l.Topology),
			Setup:                  setupJSON(l.Setup),
		}
		for _, rb := range l.RefusedBy {
			jl.RefusedBy = append(jl.RefusedBy, jsonLimitCount(rb))
		}
		jl.ShadowRefused = l.ShadowRefused
		for _, rb := range l.ShadowRefusedBy {
			jl.ShadowRefusedBy = append(jl.ShadowRefusedBy, jsonLimitCount(rb))
		}
		for _, c := range l.Classes {
			jl.Classes = append(jl.Classes, classJSON(c))
		}
		for _, p := range l.Series {
			jl.Series = append(jl.Series, jsonSeriesPoint{secs(p.Start), p.Attempts, p.Admitted, p.Refused,
				p.Shed, p.Delayed, p.Dropped, p.Succeeded, p.InFlight})
		}
		jl.Adaptive = adaptiveJSON(l)
		for _, kt := range l.KeyTables {
			jl.KeyTables = append(jl.KeyTables, jsonKeyTable{kt.Limit, kt.Size, kt.Evicted, kt.Refused, kt.Untracked})
		}
		for _, n := range l.NearLimit {
			jl.NearLimit = append(jl.NearLimit, jsonLimitCount(n))
		}
		for _, n := range l.InFlight {
			jl.InFlight = append(jl.InFlight, jsonLimitCount(n))
		}
		for _, n := range l.ShedBy {
			jl.ShedBy = append(jl.ShedBy, jsonLimitCount(n))
		}
		for _, c := range l.Criticality {
			jl.Criticality = append(jl.Criticality, jsonCriticality{c.Criticality.String(), c.Offered, c.Served, c.Refused, c.Shed, c.ShedByShedders})
		}
		for _, p := range l.Partitions {
			jl.Partitions = append(jl.Partitions, jsonLimitPartition{p.Name, p.Classes, p.Share, p.Guaranteed[0], p.Guaranteed[1], p.Admitted, p.Refused, p.MostInFlight})
		}
		run.Lanes = append(run.Lanes, jl)
	}
}

func percentiles(p sim.Percentiles) jsonPercentiles {
	return jsonPercentiles{p.Count, secs(p.P50), secs(p.P90), secs(p.P99), secs(p.Max), secs(p.Mean)}
}

// csvColumns are the columns of --format csv for a comparison: the scenario and
// its seed, then laneColumns' CSV columns (those of a topology only when a run
// has one); one row per lane (class empty), then one per client class of that
// lane, where the lane-wide columns are empty.
func csvColumns(topology bool) []string {
	head := []string{"scenario", "seed"}
	for _, c := range csvLaneColumns(topology) {
		head = append(head, c.csv)
	}
	return append(head, "checks_passed", "checks_failed")
}

// WriteCSV writes one row per lane, or per cell of a contention study; the two
// kinds have different columns and cannot share one CSV.
func WriteCSV(w io.Writer, runs []Run) error {
	cw := csv.NewWriter(w)
	topology := anyTopology(runs)
	for i, o := range runs {
		k := o.kind()
		if i == 0 {
			cw.Write(k.csvColumns(topology))
		}
		k.writeCSV(cw, o.Scenario.Name, topology)
	}
	cw.Flush()
	return cw.Error()
}

// csvFloat and csvInt format CSV fields: floats in the shortest exact form, integers plainly.
func csvFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
func csvInt(x int64) string     { return strconv.FormatInt(x, 10) }

func (comparison) csvColumns(topology bool) []string { return csvColumns(topology) }

func (k comparison) writeCSV(cw *csv.Writer, name string, topology bool) {
	seed := strconv.FormatUint(k.Result.Seed, 10)
	cols := csvLaneColumns(topology)
	row := make([]string, 2+len(cols)+2)
	row[0], row[1] = name, seed
	for i := range k.Result.Lanes {
		l := &k.Result.Lanes[i]
		for j, c := range cols {
			row[2+j] = c.lane(l)
		}
		row[len(row)-2], row[len(row)-1] = checkCounts(k.Checks, l.Name, "")
		cw.Write(row)
		for ci := range l.Classes {
			for j, c := range cols {
				row[2+j] = ""
				if c.of != nil {
					row[2+j] = c.of(l, &l.Classes[ci])
				}
			}
			row[len(row)-2], row[len(row)-1] = checkCounts(k.Checks, l.Name, l.Classes[ci].Name)
			cw.Write(row)
		}
	}
}
