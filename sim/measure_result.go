package sim

import (
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// Result is what a run measured, one LaneResult per lane in the order run.
type Result struct {
	Name     string
	Seed     uint64
	Duration time.Duration
	Limits   []Limit
	Bucket   time.Duration // width of each lane's Series points
	Lanes    []LaneResult
	// HeaderStyle is how the server wrote its quota headers (see ResponseHeaders).
	HeaderStyle HeaderStyle
	// Rules are the rule pushes up to the time measured, in the order applied.
	Rules []RuleChange
	// Topology is the scenario's topology as configured (replica steps, store
	// outages: what a timeline marks), nil without one; each lane's figures are
	// in its LaneResult.Topology.
	Topology *Topology
}

// LaneResult is what one limiting strategy did to the scenario's traffic.
// Counts are of attempts unless named otherwise; a request is one unique piece of
// work a client wants done, an attempt is one try of it (the first or a retry).
type LaneResult struct {
	Lane LaneKind
	// Name is the lane's name (Config.LaneName): its kind's, or its variant's.
	Name string
	// Policy is the first limit's policy as this lane applied it: the chain's,
	// unless an override replaced it.
	Policy algorithms.Policy
	// KeyTables are what the lane's bounded key tables did (LaneOptions.Keys),
	// one per limit of the chain; nil without one. A rule push starts a limit's
	// table afresh: its figures before the push are kept as an entry of their own.
	KeyTables []KeyTableStats
	// NearLimit is, in an envoy_ratelimit lane, each limit's near_limit
	// statistic (envoyproxy/ratelimit's NEAR_LIMIT_RATIO): the hits counted
	// beyond ⌊requests_per_unit × ratio⌋ and within requests_per_unit, refused
	// ones too. Limits in a topology count it in the store, so only shared
	// ones have it; nil in other lanes.
	NearLimit []LimitCount
	// InFlight is, per concurrency limit of the chain (Limit.Concurrency), in
	// chain order, the most requests of one key it had in flight at once:
	// never more than its Concurrency. Nil when the chain has none, and in a
	// lane without a chain.
	InFlight []LimitCount
	// ShedBy is, per load shedder of the backend (Backend.Shedding), in the
	// order they decide, the attempts it shed (counted in Shed too); nil
	// without shedders. Criticality is the outcomes per criticality of the
	// client groups, most critical first: nil when no shedder is set and
	// every group is critical.
	ShedBy      []LimitCount
	Criticality []CriticalityResult
	// Partitions is, in a concurrency lane with partitions
	// (ConcurrencyPartition), what each did, in the order configured; nil
	// without partitions.
	Partitions []PartitionResult
	// RefusalStatus is the HTTP status the lane refuses with
	// (Config.RefusalStatus): 429 unless the lane or its product says another.
	RefusalStatus int

	Attempts  int64 // attempts that reached the lane, retries included
	Unique    int64 // unique requests (first attempts)
	Admitted  int64 // attempts the limiter let through, now or late
	Refused   int64 // 429: refused by a limit
	Shed      int64 // 503: backend full or down, or over a concurrency limit
	Delayed   int64 // admitted late (leaky queue)
	Dropped   int64 // dropped client-side by the adaptive throttle
	Succeeded int64 // unique requests that eventually got a success
	GaveUp    int64 // unique requests abandoned (no retry policy or attempts exhausted)
	Pending   int64 // unique requests unfinished when the simulation ended
	// Abandoned counts the unique requests their client abandoned at its
	// deadline (ClientGroup.Deadline), counted in GaveUp too; WastedWork is
	// the backend's service time spent on requests whose answer came too late.
	Abandoned  int64
	WastedWork time.Duration
	// TimedOut counts the attempts their client gave up at its Timeout
	// (ClientGroup.Timeout), each then retried or given up by its policy.
	TimedOut int64
	// RetriesDenied counts the retries a retry budget (Retry.Budget) refused:
	// each such request was given up.
	RetriesDenied int64

	RefusedBy []LimitCount // refusals per limit of the chain, in chain order
	// ShadowRefused counts the attempts that a shadow limit (Limit.Shadow) would
	// have refused and let go on; ShadowRefusedBy counts them per limit, in chain
	// order (an attempt two shadow limits would refuse counts once in
	// ShadowRefused and once for each).
	ShadowRefused   int64
	ShadowRefusedBy []LimitCount
	Delay           Percentiles // of delayed attempts' waits

	// Peak is the most cost admitted in any window of the first limit's length for
	// one key of the first limit: the exact maximum over every start time.
	Peak          WindowPeak
	TimeOverLimit time.Duration // longest total time one key spent over the limit

	RetryAmplification float64       // attempts per unique request
	AllDoneAt          time.Duration // when the last request succeeded or gave up

	Classes []ClassResult // per client group
	// Fairness is Jain's index over clients, each client's identity its own key:
	// of each client's successes against its max-min fair share of all the
	// lane's successes. 1 is fair; 1/n is one client taking everything.
	Fairness float64
	// KeyFairness is the same index over the first limit's keys (each key one
	// party asking what its clients asked): 1 when the limit counts one key.
	KeyFairness float64
	// ClassFairness is the same index over client classes, each class one party
	// owed the sum of its clients' fair shares.
	ClassFairness float64

	// Verdicts is a hash of every decision the lane made (admit, refuse, shed,
	// delay, drop) with its time and client class, in order: two lanes with equal
	// Verdicts decided alike on every attempt.
	Verdicts uint64

	Backend    BackendStats
	RetryAfter RetryAfterStats
	Headers    Headers // what a server sent with this lane's first refusal

	// SlidingLogDisagreement is the fraction of this lane's decisions that an exact
	// sliding log with the first limit, fed the same attempts, decided differently.
	SlidingLogDisagreement float64

	Series []Point // time series, Result.Bucket wide each
	// Adaptive is the adaptive lanes' (AIMD, Vegas, Gradient2, client throttling) state over time; nil for the others.
	Adaptive *AdaptiveState

	// Topology is what the replicas and the store did; nil without a topology
	// and for a lane it does not apply to (a concurrency limiter).
	Topology *TopologyResult
	// Setup is the lane's own stores and placements (Variant.Topology and
	// Placements), nil when it runs the Result's.
	Setup *LaneSetup
}

// LaneSetup is a lane's own contract with its fleet: the topology it runs
// (its stores) and its chain's limits as it places them.
type LaneSetup struct {
	Topology *Topology
	Limits   []Limit
}

// LimitCount counts events for one named limit.
type LimitCount struct {
	Limit string
	Count int64
}

// Percentiles summarise a distribution of durations. Values are exact to within
// 1% (log-linear histogram); Max is exact. Count is the number of samples.
type Percentiles struct {
	Count              int64
	P50, P90, P99, Max time.Duration
	Mean               time.Duration
}

// WindowPeak is the most admitted in any window: Count cost units in [Start, End)
// for Key, against Limit; Ratio = Count/Limit.
type WindowPeak struct {
	Count      int64
	Start, End time.Duration
	Key        string
	Limit      int64
	Ratio      float64
}

// ClassResult is the outcome for one client group.
type ClassResult struct {
	Name      string
	Clients   int
	Unique    int64
	Attempts  int64
	Admitted  int64
	Refused   int64
	Shed      int64
	Dropped   int64
	Succeeded int64
	GaveUp    int64
	// Abandoned, TimedOut and RetriesDenied are the class's share of the lane's.
	Abandoned     int64
	TimedOut      int64
	RetriesDenied int64
	// ShadowRefused counts the class's attempts a shadow limit would have refused.
	ShadowRefused int64
	// RefusedBy is, per limit of the chain in chain order, the class's
	// attempts it refused (they sum to Refused). ShedBy is, per load shedder
	// of the backend (as LaneResult.ShedBy), the class's attempts it shed; nil
	// without shedders. ShedByLane is the class's 503s of the lane's own
	// concurrency limit (AIMD, Vegas, Gradient2; 0 in other lanes).
	// ShedNoHealthy is the class's 503s from the load balancer with no replica
	// in its rotation (failed health checks; HealthResult.NoHealthy counts the
	// lane's). ShedOther is the class's other 503s (Shed less the shedders',
	// the lane's and the load balancer's): the backend's queue full or down.
	RefusedBy     []LimitCount
	ShedBy        []LimitCount
	ShedByLane    int64
	ShedNoHealthy int64
	ShedOther     int64
	// FairShare is the class's max-min fair share, in requests, of all the
	// successes of its lane: the sum of what its clients would have got had the
	// lane split the successes evenly by client, none getting more than it asked.
	FairShare float64
	// TimeToSuccess is the time from a request's first attempt to its success,
	// over the class's succeeded requests.
	TimeToSuccess Percentiles
	Pace          bool // the class's clients pace themselves from the quota headers
}

// BackendStats describe the service behind the limiter (zero without a backend).
type BackendStats struct {
	Served      int64
	Latency     Percentiles // queueing + service, of served requests
	Utilisation float64     // busy server-time / available server-time
	MaxInFlight int
	MaxQueue    int
	// Dropped counts the waiting requests CoDel dropped (Backend.CoDel), each
	// answered 503 and counted in Shed too.
	Dropped int64
}

// RetryAfterStats: how many answers (429s, and 503s of a backend or AIMD set to
// send one) carried a Retry-After, how many retries of clients honouring it came
// exactly at the moment they were told (as they read it: the header's whole
// seconds by default), and how many of those the limiter admitted.
type RetryAfterStats struct {
	Given       int64
	RetriedAt   int64
	SucceededAt int64
}

// Point is one time bucket of a lane's series starting at Start.
type Point struct {
	Start     time.Duration
	Attempts  int64
	Admitted  int64
	Refused   int64
	Shed      int64
	Delayed   int64
	Dropped   int64
	Succeeded int64
	InFlight  int // most requests in the backend during the bucket
	// ShadowRefused counts attempts a shadow limit would have refused.
	ShadowRefused int64
}

// Title is the lane's name for people (see LaneTitle).
func (r *LaneResult) Title() string { return LaneTitle(r.Lane, r.Name) }

// StoreCounts counts a limit's decisions taken while its store was unavailable,
// by how they were taken.
type StoreCounts struct {
	Open, Closed, Local int64
}

// TopologyResult is what the topology did in one lane (LaneResult.Topology).
type TopologyResult struct {
	// Replicas is the largest fleet of the run; Routing as configured.
	Replicas int
	Routing  Routing
	// StoreCalls counts round trips to the store: one per atomic check, two per
	// racy one, one per replica per sync of a synced limit, failed calls
	// included; StoreCallsPerSecond is StoreCalls over the scenario's Duration.
	StoreCalls          int64
	StoreCallsPerSecond float64
	// StoreErrors counts decisions whose store call failed (outage or timeout).
	StoreErrors int64
	// Waiting counts the attempts still waiting on the store when the run
	// ended (counted in Attempts, answered by nothing yet).
	Waiting int64
	// StoreLatency is the latency the store added to each decision that called
	// it (both round trips of a racy check; Timeout for a timed-out one).
	StoreLatency Percentiles
	// Limits is one entry per limit of the chain, in chain order.
	Limits []LimitTopology
	// Phases are the moments that changed what the fleet did, in time order
	// (at most maxPhases; PhasesCut when more happened).
	Phases    []Phase
	PhasesCut bool
	// Remedies is what the circuit breakers, the refusal cache and token leases did.
	Remedies Remedies
	// Health is what the health check did (nil without one).
	Health *HealthResult
	// Restarts counts the store's restarts (Store.Restarts and flushing outages).
	Restarts int
	// Shards is one entry per shard of the store, in shard order, when some
	// limit calls a real store (Store.Real: shards, a capacity, a memory or
	// changes).
	Shards []ShardResult
}

// LimitTopology is what one limit of the chain did across the fleet.
type LimitTopology struct {
	Limit string
	State StateKind
	// Fleet is the most admitted in any window of the limit's length for one key
	// of the limit, counted across the whole fleet, against the configured limit,
	// each admission at the instant the limit decided it (the store's decision
	// instant for a store call; plus the delay of a late admission).
	Fleet WindowPeak
	// Replica is the same counted per replica: the busiest replica's busiest
	// window; BusiestReplica is its index.
	Replica        WindowPeak
	BusiestReplica int
	// Arrived is Fleet counted at the instants the admissions reached the
	// backend: after the store's answer came back to the replica (and the
	// delay). Round trips of different lengths reorder answers in flight, so
	// the backend may see more in a window than the limit decided.
	Arrived WindowPeak
	// Exact is what one exact limiter of the same algorithm and policy (one
	// state, no replicas, no store) admitted deciding the same attempts at the
	// same instants: its most admitted in any window for one key.
	Exact WindowPeak
	// StoreCalls counts this limit's calls (see TopologyResult.StoreCalls).
	StoreCalls int64
	// Overshoot is Fleet.Count − Exact.Count when positive: how many more the
	// fleet admitted in its busiest window than one exact limiter admitted in
	// its busiest, on the same attempts (for a synced limit, the price of its
	// StoreCalls). A limit placed exactly (one replica, or an atomic store) has none.
	Overshoot int64
	// Unavailable counts the limit's decisions while its store was unavailable,
	// by how they were taken (a synced limit decides locally and counts none).
	Unavailable StoreCounts
	// Classes is, per client group, what the limit decided while its store was
	// unavailable: the attempts it decided and those it let through.
	Classes []OutageClass
}

// OutageClass is what one client group met at a limit while its store was unavailable.
type OutageClass struct {
	Name     string
	Decided  int64
	Admitted int64
}

// LaneSnapshot is a lane's live figures, for views that drive a Simulation step
// by step.
type LaneSnapshot struct {
	Lane      LaneKind
	Name      string        // the lane's name (Config.LaneName)
	Now       time.Duration // the lane's clock: its latest event
	Attempts  int64
	Admitted  int64
	Refused   int64
	Delayed   int64
	Shed      int64
	Dropped   int64
	Succeeded int64
	Peak      WindowPeak // the busiest window so far
	// OverLimit is true once some window has held more than the first limit,
	// unless the lane is not limiting (see NotLimiting).
	OverLimit bool
	InFlight  int     // requests in the backend now
	Limit     float64 // the current concurrency limit (concurrency-limiter lanes only)
	// KeyInFlight, Criticality and Partitions are LaneResult's InFlight,
	// Criticality and Partitions so far: nil when the lane has none.
	KeyInFlight []LimitCount
	Criticality []CriticalityResult
	Partitions  []PartitionResult
}

// Title is the lane's name for people (see LaneTitle).
func (s *LaneSnapshot) Title() string { return LaneTitle(s.Lane, s.Name) }
