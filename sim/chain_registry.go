package sim

import (
	"fmt"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// LaneClass is what kind of limiter a lane is, which decides how a request
// meets it.
type LaneClass uint8

const (
	// RateLimiter lanes apply a per-key algorithm to every limit of the chain.
	RateLimiter LaneClass = iota
	// ConcurrencyLimiter lanes bound the requests in flight to the backend,
	// instead of the chain; their limit is not a rate.
	ConcurrencyLimiter
	// ClientGate lanes drop requests in each client before they are sent, in
	// front of the chain enforced by a rate-limiter lane.
	ClientGate
)

// LaneInfo is everything rlsim knows about one lane: one row of the lane
// registry, which validation, scenario names, the JSON Schema, completion, the
// report and the TUI all read. Adding a lane is adding a row (and its settings);
// a per-key lane's row is its algorithm through rateOf, which replay, conform's
// twin, the topology states and the fast paths all take it from.
type LaneInfo struct {
	Kind    LaneKind // the row's index in the registry
	Name    string   // in scenario files, tables and traces: "token_bucket"
	Title   string   // for people: "token bucket"
	Short   string   // for narrow terminals: at most 12 bytes
	Class   LaneClass
	Default bool // runs when a scenario names no lanes
	// Product is the product and version a product lane decides as ("nginx
	// 1.22.1"); "" for a textbook algorithm.
	Product string
	// Status is the HTTP status of the lane's refusals when the scenario
	// gives none (nginx's limit_req_status defaults to 503); zero is 429.
	Status int
	// Settings is the section of a scenario file, and the Config field path, of
	// the lane's own settings ("aimd"); "" when it has none.
	Settings string

	// fast is what fast paths the lane's per-key limiter takes: declared by
	// every RateLimiter row (fastNone for none), read by the paths that
	// depend on it, and held to what the limiter does by TestLaneFastPaths.
	fast laneFast
	// burst is whether the per-key limiter has a burst apart from its limit,
	// which a divided limit divides too (the window counters have none).
	burst bool

	// Exactly one builder is set, the one of Class.
	rate        func(p algorithms.Policy, r laneRule) (newState func(keys int) decider, err error)
	concurrency func(c *Config) (concurrencyLimiter, error)
	gate        func(c *Config, clients int) (clientGate, error)

	// The lane's own settings in Config, if it has any: defaults fills their zero
	// fields, check adds their problems, shedRetryAfter is the Retry-After of a
	// concurrency limiter's 503.
	defaults       func(c *Config)
	check          func(ck *checker, c *Config)
	shedRetryAfter func(c *Config) time.Duration
}

// laneTable is the registry, indexed by LaneKind; row 0 is LaneDefault. It is
// filled by init because its rows' checks read it.
var laneTable []LaneInfo

func init() { laneTable = numbered(laneRows()) }

// numbered sets each row's Kind to its index, so that a row needs no LaneKind
// constant of its own.
func numbered(rows []LaneInfo) []LaneInfo {
	for i := range rows {
		rows[i].Kind = LaneKind(i)
	}
	return rows
}

func laneRows() []LaneInfo {
	return []LaneInfo{
		LaneDefault: {Name: "default", Title: "default", Short: "default"},
		LaneFixedWindow: {Kind: LaneFixedWindow, Name: "fixed_window", Title: "fixed window", Short: "fixed window",
			Default: true, rate: rateOf(algorithms.NewFixedWindow), fast: fastDirect | fastAdmits | fastAnswers},
		LaneSlidingLog: {Kind: LaneSlidingLog, Name: "sliding_log", Title: "sliding log", Short: "sliding log",
			Default: true, rate: rateOf(algorithms.NewSlidingLog), fast: fastDirect | fastAdmits},
		LaneSlidingWindowCounter: {Kind: LaneSlidingWindowCounter, Name: "sliding_window_counter", Title: "sliding window counter",
			Short: "sliding ctr", Default: true, rate: rateOf(algorithms.NewSlidingWindowCounter), fast: fastDirect | fastAdmits},
		LaneTokenBucket: {Kind: LaneTokenBucket, Name: "token_bucket", Title: "token bucket", Short: "token bucket",
			Default: true, rate: rateOf(algorithms.NewTokenBucket), fast: fastDirect | fastAdmits | fastAnswers, burst: true},
		LaneLeakyBucket: {Kind: LaneLeakyBucket, Name: "leaky_bucket", Title: "leaky bucket", Short: "leaky bucket",
			Default: true, rate: rateOf(algorithms.NewLeakyBucket), fast: fastDirect | fastDelays, burst: true},
		LaneGCRA: {Kind: LaneGCRA, Name: "gcra", Title: "GCRA", Short: "GCRA", Default: true, rate: rateOf(algorithms.NewGCRA),
			fast: fastDirect | fastAdmits | fastAnswers, burst: true},
		LaneAIMD: {Kind: LaneAIMD, Name: "aimd", Title: "AIMD concurrency", Short: "AIMD", Class: ConcurrencyLimiter,
			Default: true, Settings: "aimd", concurrency: newAIMD, defaults: aimdDefaults, check: checkAIMD,
			shedRetryAfter: func(c *Config) time.Duration { return c.AIMD.RetryAfter }},
		LaneClientThrottle: {Kind: LaneClientThrottle, Name: "client_throttle", Title: "client throttling", Short: "throttling",
			Class: ClientGate, Default: true, Settings: "throttle", gate: newThrottleGate, defaults: throttleDefaults, check: checkThrottle},
		LaneVegas: {Kind: LaneVegas, Name: "vegas", Title: "Vegas concurrency", Short: "Vegas", Class: ConcurrencyLimiter,
			Settings: "vegas", concurrency: newVegas, defaults: vegasDefaults, check: checkVegas,
			shedRetryAfter: func(c *Config) time.Duration { return c.Vegas.RetryAfter }},
		LaneGradient2: {Kind: LaneGradient2, Name: "gradient2", Title: "Gradient2 concurrency", Short: "Gradient2", Class: ConcurrencyLimiter,
			Settings: "gradient2", concurrency: newGradient2, defaults: gradient2Defaults, check: checkGradient2,
			shedRetryAfter: func(c *Config) time.Duration { return c.Gradient2.RetryAfter }},
		LaneNginx: {Name: "nginx", Title: "nginx limit_req", Short: "nginx", Product: "nginx 1.22.1", Status: 503, Settings: "nginx",
			rate: productOf[algorithms.NginxState](newNginxRule), check: checkNginx, fast: fastDirect | fastDelays, burst: true},
		LaneEnvoyLocal: {Name: "envoy_local", Title: "Envoy local rate limit", Short: "envoy local", Product: "Envoy 1.34",
			Settings: "envoy_local", rate: productOf[algorithms.EnvoyLocalState](newEnvoyLocalRule), check: checkProduct, fast: fastDirect | fastAdmits | fastAnswers, burst: true},
		LaneEnvoyRateLimit: {Name: "envoy_ratelimit", Title: "Envoy global rate limit", Short: "envoy rls", Product: "envoyproxy/ratelimit f2fb157",
			Settings: "envoy_ratelimit", rate: productOf[envoyRLSCounted](newEnvoyRateLimitRule), check: checkEnvoyRateLimit, fast: fastDirect | fastAdmits | fastAnswers},
		LaneKong: {Name: "kong", Title: "Kong rate-limiting", Short: "kong", Product: "Kong 3.9.3",
			Settings: "kong", rate: productOf[algorithms.KongState](newKongRule), check: checkProduct, fast: fastDirect | fastAdmits | fastAnswers},
		LaneKongAdvanced: {Name: "kong_advanced", Title: "Kong rate-limiting-advanced", Short: "kong adv", Product: "Kong Enterprise 3.x",
			Settings: "kong_advanced", rate: productOf[algorithms.KongAdvancedState](newKongAdvancedRule), check: checkProduct, fast: fastDirect | fastAdmits | fastAnswers},
		LaneTraefik: {Name: "traefik", Title: "Traefik RateLimit", Short: "traefik", Product: "Traefik 3.7.9",
			rate: productOf[algorithms.TraefikState](newTraefikRule), fast: fastDirect | fastAdmits | fastAnswers | fastDelays, burst: true},
		LaneAWSAPIGateway: {Name: "aws_apigw", Title: "AWS API Gateway throttling", Short: "aws apigw", Product: "AWS API Gateway",
			rate: productOf[algorithms.AWSThrottleState](newAWSAPIGatewayRule), fast: fastDirect | fastAdmits | fastAnswers, burst: true},
		LaneAWSWAF: {Name: "aws_waf", Title: "AWS WAF rate-based rule", Short: "aws waf", Product: "AWS WAF", Status: 403,
			Settings: "aws_waf", rate: productOf[algorithms.AWSWAFState](newAWSWAFRule), check: checkProduct, fast: fastDirect | fastAdmits},
		LaneCloudflare: {Name: "cloudflare", Title: "Cloudflare rate limiting rule", Short: "cloudflare", Product: "Cloudflare",
			Settings: "cloudflare", rate: productOf[algorithms.CloudflareState](newCloudflareRule), check: checkProduct, fast: fastDirect | fastAdmits | fastAnswers},
		LaneHAProxy: {Name: "haproxy", Title: "HAProxy stick table", Short: "haproxy", Product: "HAProxy 2.6", Status: 403,
			Settings: "haproxy", rate: productOf[algorithms.HAProxyState](newHAProxyRule), check: checkProduct, fast: fastDirect | fastAdmits},
		LaneAWSQuota: {Name: "aws_quota", Title: "AWS API Gateway quota", Short: "aws quota", Product: "AWS API Gateway",
			Settings: "aws_quota", check: checkProduct, rate: productOf[algorithms.AWSQuotaState](newAWSQuotaRule), fast: fastDirect | fastAdmits | fastAnswers},
	}
}

// rateOf adapts an algorithm's constructor to the registry: it checks the policy
// once and returns a builder of dense per-key state tables. The algorithm must
// charge (algorithms.Charging): a synced limit charges the store's state with
// every replica's admissions, so no row is built without it.
func rateOf[S any, A rule[S]](newAlg func(algorithms.Policy) (A, error)) func(algorithms.Policy, laneRule) (func(int) decider, error) {
	return func(p algorithms.Policy, r laneRule) (func(int) decider, error) {
		a, err := newAlg(p)
		if err != nil {
			return nil, err
		}
		return withOptions[S](a, r.options())
	}
}

// rule is what a rate-limiter lane's algorithm must be (rateOf).
type rule[S any] interface {
	algorithms.Algorithm[S]
	algorithms.Charging[S]
}

// Lanes is the registry: every lane rlsim knows, in canonical order.
func Lanes() []LaneInfo { return append([]LaneInfo(nil), laneTable[1:]...) }

// Info is the registry's row for lane k; for LaneDefault or a kind not in the
// registry, a row with only a name and title.
func (k LaneKind) Info() LaneInfo {
	if int(k) >= len(laneTable) {
		name := fmt.Sprintf("LaneKind(%d)", k)
		return LaneInfo{Kind: k, Name: name, Title: name, Short: name}
	}
	return laneTable[k]
}

// known reports whether k is a lane of the registry.
func (k LaneKind) known() bool { return k != LaneDefault && int(k) < len(laneTable) }

// LaneKinds is one more than the largest LaneKind: a table indexed by lane kind
// has this many rows.
func LaneKinds() int { return len(laneTable) }

// DefaultLanes are the lanes a scenario runs when it names none, in canonical order.
func DefaultLanes() []LaneKind {
	var ks []LaneKind
	for _, l := range laneTable[1:] {
		if l.Default {
			ks = append(ks, l.Kind)
		}
	}
	return ks
}

// LanesOf lists the names of the lanes of class c, in canonical order.
func LanesOf(c LaneClass) []string {
	var names []string
	for _, l := range laneTable[1:] {
		if l.Class == c {
			names = append(names, l.Name)
		}
	}
	return names
}

// AddTestLane appends to the registry, until undo is called, a rate-limiter
// lane named name whose per-key algorithm newAlg builds, taking no fast path:
// how tests hold every lane list to the registry with a toy algorithm. For
// tests only: not while anything else reads the registry.
func AddTestLane[S any, A interface {
	algorithms.Algorithm[S]
	algorithms.Charging[S]
}](name string, newAlg func(algorithms.Policy) (A, error)) (kind LaneKind, undo func()) {
	before := laneTable
	kind = LaneKind(len(before))
	laneTable = numbered(append(append([]LaneInfo(nil), before...),
		LaneInfo{Name: name, Title: name, Short: name, rate: rateOf[S](newAlg), fast: fastNone}))
	return kind, func() { laneTable = before }
}

// String is the lane's scenario-file name, e.g. "token_bucket".
func (k LaneKind) String() string { return k.Info().Name }

// Title is the lane's name for people, e.g. "token bucket".
func (k LaneKind) Title() string { return k.Info().Title }

// LaneNames, KeyNames, ArrivalNames, RetryNames, JitterNames, ServiceNames,
// RetryAfterNames (what a client honouring Retry-After may read),
// HeaderStyleNames (the styles of quota headers), ChainNames (the limit
// chain's charging modes) and ScheduleNames (the contention study's backoff
// schedules) list the valid names in order, for parsers and error messages.
func LaneNames() []string {
	var names []string
	for _, l := range laneTable[1:] {
		names = append(names, l.Name)
	}
	return names
}

// ParseLane maps a lane's name to its kind; ok is false for an unknown name.
func ParseLane(s string) (LaneKind, bool) {
	for i, n := range LaneNames() {
		if n == s {
			return LaneKind(i + 1), true
		}
	}
	return LaneKind(1), false
}
