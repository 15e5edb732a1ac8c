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
	// Adaptive is the adaptive lanes' (AIMD, Vegas, client throttling) state over time; nil for the others.
	Adaptive *AdaptiveState

	// Topology is what the replicas and the store did; nil without a topology
	// and for a lane it does not apply to (a concurrency limiter).
	Topology *TopologyResult
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
	// ShadowRefused counts the class's attempts a shadow limit would have refused.
	ShadowRefused int64
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
