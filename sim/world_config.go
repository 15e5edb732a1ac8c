package sim

import (
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// Config describes one world to simulate: the clients, the limits they meet, the
// backend behind them and the lanes (limiting strategies) to compare. Durations are
// virtual time. The zero values of optional parts mean "absent" or the documented
// default; Validate reports every problem at once.
type Config struct {
	Name     string
	Duration time.Duration // how long new requests may start
	// Drain is how long after Duration retries and queues may still run; zero means
	// Duration (so the run ends at 2×Duration at the latest).
	Drain time.Duration
	Seed  uint64
	// Start is the wall-clock instant of the run's t=0, which the product
	// lanes whose windows follow the clock or the calendar read (Envoy's
	// global rate limit, Kong, Cloudflare, API Gateway quotas); the zero value
	// is 1970-01-01 00:00 UTC.
	Start time.Time

	// Limits is the chain a request passes, most specific first. Every lane applies
	// its own algorithm to each limit in the chain; a refusal names the limit that tripped.
	Limits []Limit
	// Lanes to run, in order; empty means DefaultLanes(). A kind may run as
	// several lanes when Variants gives them names of their own.
	Lanes []LaneKind
	// Variants set lanes apart from others of their kind, Variants[i] lane
	// Lanes[i]: a name of its own and its own lane settings (per-limit policies
	// are Overrides naming the lane). A missing or zero entry is the lane under
	// its kind's name with the Config's settings.
	Variants []Variant
	// HeaderStyle is how the server writes its quota headers; the zero value is
	// the IETF draft's RateLimit and RateLimit-Policy.
	HeaderStyle HeaderStyle
	// Chain is how a chain of several limits charges a request; the zero value,
	// ChainAllOrNothing, charges no limit when any limit refuses.
	Chain ChainMode
	// Overrides give one lane another policy for one limit of the chain (a leaky
	// bucket with a deeper queue, say); the other lanes keep the chain's.
	Overrides []LaneOverride
	// Rules are the rule pushes scheduled during the run, in any order; changes at
	// the same instant apply in the order given, before any request at that instant.
	Rules []RuleChange
	// Lane-specific settings.
	AIMD      AIMDSettings
	Throttle  ThrottleSettings
	Vegas     VegasSettings
	Gradient2 Gradient2Settings
	// ConcurrencyPartitions share the concurrency lanes' limit among classes of
	// clients; none means one limit for all.
	ConcurrencyPartitions []ConcurrencyPartition

	Clients []ClientGroup
	// Backend is the service behind the limiter; nil means an infinitely fast one.
	Backend *Backend
	// Topology is the fleet of replicas and the store the limits live in; nil is
	// one perfect limiter (every check atomic, instantaneous, always answered).
	Topology *Topology

	// Bucket is the width of the time-series buckets; zero means about Duration/200
	// (at least 1ms), chosen so that whole buckets make the first limit's window
	// exactly (or whole windows one bucket).
	Bucket time.Duration

	// options and product are the lane options and product settings of the
	// lane applying this Config (laneConfig): set only in a lane's own copy.
	options LaneOptions
	product ProductSettings
}

// Limit is one link of the limit chain: a policy counted by one key.
type Limit struct {
	Name   string // names the limit in refusals; defaults to "<key>"
	Key    KeyKind
	Policy algorithms.Policy
	// Concurrency, when positive, makes the limit a concurrency limit instead
	// of a rate (Stripe's concurrent-requests limiter, nginx limit_conn,
	// HAProxy maxconn per key): at most Concurrency requests of a key in
	// flight at once, whatever their cost; Policy is then zero. A request is
	// in flight from the instant the chain admits it (delayed or not) until
	// its answer: the backend's (success, or 503 when it sheds), or a later
	// limit's refusal. Without a backend a request is answered the instant it
	// is released, so it holds its place only while a leaky limit delays it.
	// A refusal carries no Retry-After (no one knows when a place frees), and
	// the limit sends no quota headers. Not with a Topology; never the first
	// limit of the chain (the most admitted in a window is measured on it).
	Concurrency int64
	// NoHeaders keeps the limit out of every quota header (RateLimit,
	// RateLimit-Policy, X-RateLimit-*): a security limit on an unauthenticated
	// endpoint need not tell an attacker how fast to probe. Retry-After is still sent.
	NoHeaders bool
	// Shadow makes the limit a dry run (nginx limit_req_dry_run, Envoy's shadow
	// mode): it decides every request that reaches it and counts the ones it
	// would refuse, but lets them go on, sends no quota headers and delays
	// nothing. Its state is charged as if it enforced, as nginx accounts excessive
	// requests "as usual": a would-be refusal charges nothing.
	Shadow bool
	// Endpoint, when set, makes the limit count only the requests of clients
	// whose Identity.Endpoint is Endpoint (a limit on the login endpoint); the
	// others pass it as if it were not in the chain. Empty counts every request.
	Endpoint string

	// Where the limit's state lives when Config.Topology is set (ignored
	// otherwise). State: local (the zero value), shared or synced.
	State StateKind
	// LocalLimit is the per-replica policy of a limit each replica counts alone:
	// a local limit's, or with OnStoreError FailLocal the fallback's: whole (the
	// zero value) or divided by the current replica count.
	LocalLimit LocalLimit
	// SyncInterval is how often a synced limit syncs with the store (required
	// for StateSynced).
	SyncInterval time.Duration
	// OnStoreError is what a shared limit decides when its store call fails:
	// open (the zero value), closed or local (on Fallback, per replica).
	OnStoreError FailMode
	// Fallback is the per-replica policy of FailLocal.
	Fallback algorithms.Policy
	// Store names the store a shared limit keeps its state in: one of
	// Topology.Stores, or "" for Topology.Store. The shared limits that count
	// one client's requests are on one store (a decision makes one call).
	Store string
}

// Placement is where a limit's state lives in a topology: Limit's fields of
// that name (a lane's own placement, Variant.Placements).
type Placement struct {
	State        StateKind
	LocalLimit   LocalLimit
	SyncInterval time.Duration
	OnStoreError FailMode
	Fallback     algorithms.Policy
	Store        string
}

// Placement is where l's state lives.
func (l Limit) Placement() Placement {
	return Placement{State: l.State, LocalLimit: l.LocalLimit, SyncInterval: l.SyncInterval,
		OnStoreError: l.OnStoreError, Fallback: l.Fallback, Store: l.Store}
}

// placed is l with its state where p puts it.
func (l Limit) placed(p Placement) Limit {
	l.State, l.LocalLimit, l.SyncInterval, l.OnStoreError, l.Fallback, l.Store =
		p.State, p.LocalLimit, p.SyncInterval, p.OnStoreError, p.Fallback, p.Store
	return l
}

// RuleChange is a rule push: from At on, limit Limits[Limit] of the chain has
// policy Policy (in every lane, replacing any override; the zero Policy keeps
// each lane's) and is a shadow limit or not. A change of policy starts every
// key of that limit afresh, as a limiter rebuilt from a pushed config does; a
// change of enforcement alone keeps the state.
type RuleChange struct {
	At     time.Duration
	Limit  int
	Policy algorithms.Policy
	Shadow bool
}

// ChainMode is how a limit chain charges a request that one of its limits refuses.
type ChainMode uint8

const (
	// ChainAllOrNothing checks every limit before charging any: a request that any
	// limit refuses is counted by none, as nginx does with several limit_req zones.
	ChainAllOrNothing ChainMode = iota
	// ChainChargeUntilRefused decides the limits in order and stops at the first
	// refusal: the limits before it have already counted the request.
	ChainChargeUntilRefused
)

// LaneOverride replaces, in one lane only, the policy of Limits[Limit]. The lane
// is the one named Name, or, when Name is empty, the one named after kind Lane.
type LaneOverride struct {
	Lane   LaneKind
	Name   string
	Limit  int
	Policy algorithms.Policy
}

// Variant is what sets a lane apart from other lanes of its kind: one algorithm
// can then run side by side with different settings (a token bucket with burst
// 20 beside one with burst 100).
type Variant struct {
	// Name names the lane in results, traces and overrides: lower case letters,
	// digits, '_' and '-', at most MaxLaneName bytes; "" means the kind's name.
	// The lanes of a Config have distinct names, and a lane may bear the name of
	// a kind only if it is of that kind.
	Name string
	// AIMD, Throttle, Vegas and Gradient2, when set, change the Config's settings of the
	// lane's kind in this lane alone: their non-zero fields replace the Config's.
	AIMD      *AIMDSettings
	Throttle  *ThrottleSettings
	Vegas     *VegasSettings
	Gradient2 *Gradient2Settings
	// Partitions, when not nil, replace the Config's ConcurrencyPartitions in
	// this lane, a concurrency lane's (an empty list: no partitions).
	Partitions *[]ConcurrencyPartition
	// Options change how the lane's per-key limiter decides (a rate-limiter
	// lane's, or a client_throttle lane's server chain).
	Options LaneOptions
	// Product is a product lane's own settings (the one of its product).
	Product ProductSettings
	// Topology, when set, is the lane's own fleet and stores in place of
	// Config.Topology (which must be set): the same traffic through another
	// contract. Only the stores may differ (Store and Stores); replicas,
	// routing and health are the Config's.
	Topology *Topology
	// Placements, when set, are the lane's own placement of each limit of the
	// chain, one per limit in chain order, in place of the Limits' own.
	Placements *[]Placement
}

// KeyKind is what a limit counts by.
type KeyKind uint8

const (
	KeyGlobal KeyKind = iota
	KeyIP
	KeyUser
	KeyAPIKey
	KeyTenant
	KeyEndpoint
)

// LaneKind is one limiting strategy; the registry (Lanes, LaneKind.Info) says
// what each is, and DefaultLanes which run when a Config names none.
type LaneKind uint8

const (
	// LaneDefault (the zero value) means "the default lane" where a lane is optional.
	LaneDefault LaneKind = iota
	LaneFixedWindow
	LaneSlidingLog
	LaneSlidingWindowCounter
	LaneTokenBucket
	LaneLeakyBucket
	LaneGCRA
	LaneAIMD
	LaneClientThrottle
	LaneVegas
	LaneNginx
	LaneEnvoyLocal
	LaneEnvoyRateLimit
	LaneKong
	LaneKongAdvanced
	LaneTraefik
	LaneAWSAPIGateway
	LaneAWSWAF
	LaneCloudflare
	LaneHAProxy
	LaneAWSQuota
	LaneGradient2
)

// ClientGroup is Count identical clients.
type ClientGroup struct {
	Name     string // the class, for per-class outcomes ("users", "abuser")
	Count    int
	Identity Identity
	Arrivals []Arrival
	Cost     int64 // cost units per request; zero means 1
	Retry    Retry
	// Criticality is how much the group's requests matter to the load
	// shedders (Backend.Shedding); the zero value is critical.
	Criticality Criticality
	// Pace makes the clients read the quota headers of every answer: when the
	// quota left is 0 they hold every send, first attempts and retries alike,
	// until the reset the headers give. Clients that do not pace discover the
	// limit by hitting it.
	Pace bool
	// RTT is the network round trip between a client and the service: an
	// attempt reaches the limiter RTT/2 after the client sends it, and its
	// answer (a refusal too) reaches the client RTT/2 after it was given; the
	// client's next try starts from when it hears. Zero is the same instant.
	// RTTKind is its distribution: constant (the zero value), or exponential
	// with mean RTT, drawn afresh for every attempt, half each way.
	RTT     time.Duration
	RTTKind ServiceKind
	// Deadline, when positive, is how long a client waits for a request's
	// answer from its first send: an answer, or a retry's send, later than
	// that is abandoned (counted in LaneResult.Abandoned and as given up);
	// the backend, not knowing, serves it all the same, and its service time
	// is counted as wasted (LaneResult.WastedWork).
	Deadline time.Duration
	// Timeout, when positive, is how long a client waits for one attempt's
	// answer from its send (as an HTTP client's timeout, Envoy's
	// per_try_timeout, gRPC's per-attempt timeout): an answer heard later is
	// lost to it. At Timeout+1ns after the send the client gives the attempt
	// up (counted in LaneResult.TimedOut) and applies its retry policy as to
	// an answer of status 504 (StatusTimeout), within Deadline if it has one;
	// the service still does the attempt's work, counted as wasted
	// (LaneResult.WastedWork) when the backend serves it.
	Timeout time.Duration
	// ServiceFactor scales the backend's service time for the group's
	// requests (a slow endpoint, a heavy query): each takes ServiceFactor ×
	// the time drawn from Backend.Service, or from a change's Service after
	// it. Zero means 1; it needs a Backend.
	ServiceFactor float64
}

// Identity gives each client its keys. Each field is a template in which "{i}" is
// replaced by the client's index within its group (0-based) and "{g}" by the group
// name; a template without "{i}" is shared by the whole group (a NAT address, one
// tenant). Empty fields default to "{g}-{i}" so every client is distinct.
type Identity struct {
	User, IP, APIKey, Tenant, Endpoint string
}

// ArrivalKind is the shape of an arrival process.
type ArrivalKind uint8

const (
	// ArrivalBurst sends Count requests at At, spread evenly over [At, At+Spread).
	ArrivalBurst ArrivalKind = iota
	// ArrivalConstant sends at Rate, the k-th request at Start + k×Per/Count, until Stop.
	ArrivalConstant
	// ArrivalPoisson sends with exponential gaps of mean Per/Count, from Start until Stop.
	ArrivalPoisson
	// ArrivalOnOff sends at Rate during On, then is silent for Off, repeating from Start until Stop.
	ArrivalOnOff
	// ArrivalIdleThenBurst is silent for Idle from Start, then sends a burst of Count
	// spread over Spread, repeating until Stop.
	ArrivalIdleThenBurst
)

// Rate is Count requests per Per: an exact rational rate.
type Rate struct {
	Count int64
	Per   time.Duration
}

// Arrival is one component of a client's arrival process; a client's arrivals are
// the union of its components. Stop zero means the scenario's Duration.
type Arrival struct {
	Kind        ArrivalKind
	Start, Stop time.Duration
	Rate        Rate          // constant, poisson, on/off
	At          time.Duration // burst
	Count       int           // burst, idle-then-burst
	Spread      time.Duration // burst, idle-then-burst
	On, Off     time.Duration // on/off
	Idle        time.Duration // idle-then-burst
}

// RetryKind is how a client schedules a retry after a refusal (429), a shed (503) or
// a local drop.
type RetryKind uint8

const (
	RetryNone RetryKind = iota
	RetryImmediate
	RetryFixed
	RetryExponential
)

// JitterKind randomises an exponential backoff (AWS "Exponential Backoff And Jitter").
// The sleep before retry n (n = 1 for the first retry) is min(cap, base×2ⁿ⁻¹): see backoff.
type JitterKind uint8

const (
	JitterNone         JitterKind = iota // sleep = min(cap, base×2ⁿ⁻¹)
	JitterFull                           // uniform(0, sleep)
	JitterEqual                          // sleep/2 + uniform(0, sleep/2)
	JitterDecorrelated                   // min(cap, uniform(base, 3×previous sleep))
	// JitterNoBackoff sleeps 0: no backoff at all, the contention study's baseline
	// (its reference simulator's NoBackoff). Clients say retry kind immediate instead.
	JitterNoBackoff
)

// Retry is a client's retry policy. MaxAttempts counts the first attempt; zero means
// no limit other than the simulation's end.
type Retry struct {
	Kind        RetryKind
	Delay       time.Duration // fixed
	Base, Cap   time.Duration // exponential
	Jitter      JitterKind
	MaxAttempts int
	// HonorRetryAfter waits at least the Retry-After an answer carries, plus a
	// uniform(0, RetryAfterJitter) draw. RetryAfter says which value it waits: the
	// header's whole seconds (the default) or the limiter's exact one.
	HonorRetryAfter  bool
	RetryAfterJitter time.Duration
	RetryAfter       RetryAfterMode
	// On are the HTTP statuses the client retries (a refusal's is its lane's,
	// LaneResult.RefusalStatus; a shed's 503); it gives up on any other. Empty
	// retries every refusal and shed. A request its own throttle dropped is
	// never sent, so it has no status: On does not apply to it.
	On []int
	// Budget, when set, bounds each client's retries by a share of its
	// requests, as Finagle's RetryBudget does (see RetryBudget); nil retries
	// as the rest of the policy says.
	Budget *RetryBudget
}

// RetryBudget is Finagle's token retry budget (twitter/finagle,
// finagle-core/.../service/RetryBudget.scala, TokenRetryBudget over
// TokenBucket.newLeakyBucket), one per client: every new request deposits
// 1000 tokens, a retry withdraws ⌊1000/Ratio⌋ (1 when Ratio is 0, which
// deposits nothing) and is allowed only when the tokens held are at least
// that (≥, not >); deposits and withdrawals expire TTL after they are made,
// and a reserve of MinPerSecond × TTL's whole seconds withdrawals' worth is
// always held. So in any span of TTL ending at a retry, retries ≤ requests ×
// 1000/⌊1000/Ratio⌋ (Ratio × requests, but for the rounding) + MinPerSecond ×
// TTL's whole seconds. Finagle expires in ten slices of
// TTL, approximately; rlsim expires each token exactly TTL later. gRPC's retry
// throttling (gRFC A6) differs: one count per server name in a client
// process, max_tokens of it; each failure takes 1 and each success gives
// token_ratio, and retries stop while the count is at most max_tokens/2 — it
// reacts to failures, not to requests.
type RetryBudget struct {
	Ratio        float64       // retries per request, 0 to 1000 (Finagle's percentCanRetry)
	MinPerSecond int           // retries per second always allowed (Finagle's minRetriesPerSec)
	TTL          time.Duration // how long a deposit lasts, 1s to 60s (Finagle's bounds); zero means 10s
}

// RetryAfterMode is what a client honouring Retry-After reads.
type RetryAfterMode uint8

const (
	// RetryAfterHeader reads the header as HTTP sends it: delay-seconds, a whole
	// number of seconds, rounded up from the limiter's exact value (RFC 9110 §10.2.3).
	RetryAfterHeader RetryAfterMode = iota
	// RetryAfterExact reads the limiter's exact value, to the nanosecond, as a
	// client of a server that sends sub-second hints could.
	RetryAfterExact
)

// HeaderRetryAfter is d as the Retry-After header carries it: whole seconds,
// rounded up, so never sooner than d. It is the one rounding every header, trace
// column and client in rlsim uses.
func HeaderRetryAfter(d time.Duration) time.Duration {
	return time.Duration(ceilSeconds(d)) * time.Second
}

// Backend is the service behind the limiter: Capacity parallel servers, a bounded
// FIFO queue of QueueSize, and service times; Changes alter capacity or service
// time over time. Capacity 0 is an outage: every request is answered 503 at once.
type Backend struct {
	Capacity  int
	QueueSize int
	Service   Service
	Changes   []BackendChange
	// RetryAfter is the Retry-After sent with a 503 when the backend sheds (queue
	// full, or down); zero sends none.
	RetryAfter time.Duration
	// Shedding is the load shedders in front of the backend; nil sheds only
	// when the queue is full or the backend down.
	Shedding *Shedding
	// Discipline is the order the queue serves in: FIFO (the zero value) or LIFO.
	Discipline QueueDiscipline
	// CoDel, when set, drops (503) requests whose wait in the queue stays
	// above a target, by CoDel's control law (RFC 8289).
	CoDel *CoDel
}

// QueueDiscipline is the order a backend's queue serves its waiting requests.
type QueueDiscipline uint8

const (
	QueueFIFO QueueDiscipline = iota // oldest first
	QueueLIFO                        // newest first, as adaptive LIFO under overload
)

// CoDel is RFC 8289's controlled delay on a backend's queue, applied when a
// server takes the next waiting request: once that request's wait (its
// sojourn) has stayed at or above Target for Interval, CoDel drops it and
// takes the next, and keeps dropping at intervals of Interval/√count while the
// waits stay above Target (RFC 8289 §5's dodequeue and control law; the
// "queue holds less than a packet" test reads "no other request waits").
// Zero fields take the RFC's defaults, Target 5ms and Interval 100ms.
type CoDel struct {
	Target, Interval time.Duration
}

// ServiceKind is the distribution of service times.
type ServiceKind uint8

const (
	ServiceConstant ServiceKind = iota
	ServiceExponential
)

// Service is a service-time distribution with the given mean.
type Service struct {
	Kind ServiceKind
	Mean time.Duration
}

// BackendChange sets, from At on, the capacity and (when Service.Mean > 0) the
// service time.
type BackendChange struct {
	At       time.Duration
	Capacity int
	Service  Service
}

// HeaderStyle is how a server writes its quota headers.
type HeaderStyle uint8

// AIMDSettings configure the AIMD concurrency lane, which limits requests in flight
// to the backend instead of applying the limit chain. Zero fields take defaults:
// Initial 10, Min 1, Max 1000, Target 2× the backend's mean service time (100ms
// without a backend), Backoff 0.9.
type AIMDSettings struct {
	Initial, Min, Max float64
	Target            time.Duration
	Backoff           float64
	// RetryAfter is the Retry-After sent with a 503 over the limit; zero sends none.
	RetryAfter time.Duration
}

// ThrottleSettings configure the client-throttling lane: every client runs the
// adaptive throttle in front of the limit chain, enforced server-side by Server
// (token bucket by default). Zero fields take defaults: K 2, Period 2m.
type ThrottleSettings struct {
	K      float64
	Period time.Duration
	Server LaneKind // one of the six per-key lanes; LaneDefault means token bucket
}

// VegasSettings configure the Vegas concurrency lane (algorithms.Vegas), which
// limits requests in flight to the backend instead of applying the limit chain.
// Zero fields take the defaults of Netflix concurrency-limits: Initial 20, Max
// 1000, Smoothing 1, ProbeMultiplier 30.
type VegasSettings struct {
	Initial, Max    float64
	Smoothing       float64
	ProbeMultiplier int
	// RetryAfter is the Retry-After sent with a 503 over the limit; zero sends none.
	RetryAfter time.Duration
}

// Gradient2Settings configure the Gradient2 concurrency lane (algorithms.Gradient2),
// which limits requests in flight to the backend instead of applying the limit
// chain. Zero fields take the defaults of Netflix concurrency-limits'
// Gradient2Limit: Initial 20, Min 20, Max 200, Smoothing 0.2, QueueSize 4,
// LongWindow 600, RTTTolerance 1.5.
type Gradient2Settings struct {
	Initial, Min, Max float64
	Smoothing         float64
	QueueSize         float64
	LongWindow        int
	RTTTolerance      float64
	// RetryAfter is the Retry-After sent with a 503 over the limit; zero sends none.
	RetryAfter time.Duration
}

const (
	// HeadersDraft writes RateLimit-Policy and RateLimit as the IETF draft
	// draft-ietf-httpapi-ratelimit-headers-11 does: one named policy per limit of
	// the chain, and the service limit of the one nearest exhaustion.
	HeadersDraft HeaderStyle = iota
	// HeadersLegacy writes the de facto X-RateLimit-Limit, X-RateLimit-Remaining
	// and X-RateLimit-Reset (delta-seconds) of the limit nearest exhaustion.
	HeadersLegacy
)
