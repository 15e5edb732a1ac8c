package sim

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"hash"
	"hash/fnv"
	"io/fs"
	"math"
	"math/rand/v2"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// The differential harness: one test that holds every fast path, and every
// way of batching or sharing work, to the general path. It runs random worlds
// (diffWorld) with each switch of fastPathSwitches flipped one at a time from
// the fastest setting (in the worlds that read it: fast_diff_reach_test.go),
// with none set (as rlsim runs), and with every fast path
// off (the general path: the general loop, decideChain and Decide, check, a
// keyWindow log, lanes one after another, nothing shared), and requires the
// same result figure for figure: the verdict hashes, every field of Result
// and its JSON, and the events processed. With a trace (which keeps the quick
// path, the direct path and the kernel off but not the rest), the fastest and
// the general settings must write the same trace, record for record, and the
// same result as without one. Counted in columns (Options.Columns), the
// fastest and rlsim run's settings must count what the general path's trace
// bins to, column for column (checkColumns).
//
// The corpus was checked against bugs planted one at a time in the fast paths
// (issue 23), each of which it must catch: GCRA's and the token bucket's
// header-free Answer ignoring the cost or off by one unit or one instant, the
// fixed window's and the sliding log's and counter's fast arithmetic, <= made
// < at a window's end in the batched check, checkInLine and the recent logs,
// a follower's tallies and verdicts, the kernel's tallies, the direct path's
// per-algorithm switch, the quick path's conditions, a one-shot group's
// sequence numbers, warming that draws, and sharing despite rule pushes. The
// worlds that reach the rarest of them are drawn on purpose (diffBusyKey,
// diffOneUnitOfRoom, diffOffset). Product lanes join the worlds with policies
// their products can say (diffProducts), and have long worlds of their own
// (diffProductWorld); those were checked against bugs planted in the
// products' fast paths: Kong's Admit admitting at its limit, nginx's Queue
// never delaying, HAProxy's Admit forgetting the entry, Envoy's local Admit
// forgetting the bucket was used, AWS WAF's Admit not moving its ring on,
// Cloudflare's Admit ignoring a ban, the advanced Kong plugin's Admit off its
// clock of whole seconds. (The properties of algorithms/products_fast_test.go
// catch what changes no verdict of a run, such as an Admit that leaves to
// Decide what it could admit.) The delaying lanes' kernel (fast_delays.go)
// was checked against, with TestKernelReleasesTieWithArrivals: releases past
// a stop, a release's time to success or AllDoneAt left out, a delay folded
// as an admission, a delayed request's decision not counted, the first
// refusal's headers not kept, a superposed run going on past a release it
// scheduled, and a release taken before a heap event it ties with. The
// concurrency limiters' kernel (fast_conc.go) was checked against, with
// TestFastPathsWithAdaptiveConcurrency and TestKernelShedIsTheGeneralPath:
// the adaptive state sampled without the request held, with the limit before
// the release, or read before the acquire; a release with a latency; the
// cross-check told a refusal or asked for key 0; a column's sample without
// the limiter's state or after the release; partitions, a scoped limit, a
// backend or a client gate let in; an admission counted as refused; and a
// shed not counted by class, not cross-checked, checked before the batch,
// not folded or not sampled.

// diffShape is the fuzz target's knobs on diffWorld: each bit forces a
// dimension the seed would otherwise draw.
type diffShape uint8

const (
	shapeOneKey    diffShape = 1 << iota // the first limit is global: one key
	shapeManyKeys                        // the first limit counts by user, one key per client
	shapeUnitCost                        // every request costs the same (the recent logs, batched checks)
	shapeNoHeaders                       // the first limit sends no headers
	shapeKernel                          // one limit, no backend, topology, shadow, rule, retry: the kernel's world
	shapeShare                           // lanes that may share requests: two or more of the Admitters, one limit
	shapeRetries                         // every group retries, honouring Retry-After exactly
	shapeTopology                        // a topology
)

// diffWindows are the windows of diffWorld's limits; arrivals are placed on
// their multiples.
var diffWindows = []time.Duration{10 * time.Millisecond, 100 * time.Millisecond, 250 * time.Millisecond, time.Second}

// diffWorld is a random world for the harness from seed, shaped by shape:
// small enough to run in a millisecond or so, and drawn to reach the fast
// paths' edges: costs above 1, limits that send no headers, arrivals, bursts,
// retries and rule pushes exactly on window boundaries, one key and many,
// variants and overrides of the first limit (lanes that share requests but
// not their limit), shadow limits, backends and topologies.
func diffWorld(seed uint64, shape diffShape) Config {
	rnd := rand.New(rand.NewPCG(seed, 0xd1ff))
	chance := func(n int) bool { return rnd.IntN(n) == 0 }
	has := func(s diffShape) bool { return shape&s != 0 }
	w := diffWindows[rnd.IntN(len(diffWindows))]
	c := Config{
		Name:     fmt.Sprintf("diff-%d-%d", seed, shape),
		Duration: w * time.Duration(2+rnd.IntN(6)),
		Seed:     seed,
		Bucket:   []time.Duration{0, w / 2, w, 3 * w / 7}[rnd.IntN(4)],
	}
	c.Duration = min(c.Duration, 2*time.Second)
	if chance(3) {
		c.Drain = []time.Duration{w, w / 3, 2 * time.Second}[rnd.IntN(3)]
	}
	kernel := has(shapeKernel) || chance(3)

	// The chain: the first limit over one key or many.
	limits := 1
	if !kernel && !has(shapeShare) && chance(2) {
		limits = 2 + rnd.IntN(2)
	}
	for i := range limits {
		l := Limit{Key: KeyKind(rnd.IntN(6)), NoHeaders: chance(2)}
		l.Policy = algorithms.Policy{Limit: 1 + rnd.Int64N(12), Window: w}
		if i > 0 || chance(4) {
			l.Policy.Window = diffWindows[rnd.IntN(len(diffWindows))]
		}
		l.Policy.Burst = diffBurst(rnd, l.Policy.Limit)
		if !kernel && chance(6) {
			l.Shadow = true
		}
		c.Limits = append(c.Limits, l)
	}
	switch first := &c.Limits[0]; {
	case has(shapeOneKey):
		first.Key = KeyGlobal
	case has(shapeManyKeys):
		first.Key = KeyUser
	}
	if has(shapeNoHeaders) {
		c.Limits[0].NoHeaders = true
	}
	c.Chain, c.HeaderStyle = ChainMode(rnd.IntN(2)), HeaderStyle(rnd.IntN(2))

	// The clients.
	unit := 1 + rnd.Int64N(3)
	if rnd.IntN(3) > 0 {
		unit = 1
	}
	uniform := has(shapeUnitCost) || chance(2)
	for g := range 1 + rnd.IntN(3) {
		grp := ClientGroup{Name: fmt.Sprintf("g%d", g), Count: 1 + rnd.IntN(8), Cost: unit}
		if has(shapeManyKeys) || chance(3) {
			grp.Count = 20 + rnd.IntN(100)
		}
		if !uniform {
			grp.Cost = 1 + rnd.Int64N(4) // above the limit, now and then: never admitted
		}
		shared := []string{"", "", "{g}", "shared"}
		grp.Identity = Identity{User: shared[rnd.IntN(4)], IP: shared[rnd.IntN(4)], Tenant: shared[rnd.IntN(4)]}
		for range 1 + b2i(chance(4)) {
			grp.Arrivals = append(grp.Arrivals, diffArrival(rnd, w, c.Duration, grp.Count))
		}
		if !kernel && (has(shapeRetries) || chance(2)) {
			grp.Retry = diffRetry(rnd, w, has(shapeRetries))
		} else if chance(3) {
			grp.Retry = Retry{Kind: RetryFixed, Delay: w, MaxAttempts: 1} // retries nothing: the kernel's still
		}
		grp.Pace = !kernel && chance(5)
		c.Clients = append(c.Clients, grp)
	}

	// The lanes: often two or more that may share requests, and variants of
	// them with an override of the first limit (the same limit or not).
	var rate []LaneKind // the lanes that may share requests
	for _, info := range Lanes() {
		if info.fast.shares() && info.Product == "" {
			rate = append(rate, info.Kind)
		}
	}
	for _, info := range Lanes() {
		if info.Product != "" {
			continue // diffProducts adds them, with the policies they read
		}
		if (info.Class == RateLimiter && chance(3)) || chance(8) {
			c.Lanes = append(c.Lanes, info.Kind)
		}
	}
	if has(shapeShare) || chance(3) {
		for range 2 + rnd.IntN(2) {
			c.Lanes = append(c.Lanes, rate[rnd.IntN(len(rate))])
		}
	}
	if len(c.Lanes) == 0 {
		c.Lanes = []LaneKind{rate[rnd.IntN(len(rate))]}
	}
	c.Variants = make([]Variant, len(c.Lanes))
	seen := map[LaneKind]int{}
	for i, k := range c.Lanes {
		if seen[k]++; seen[k] == 1 && !chance(3) {
			continue
		}
		v := &c.Variants[i]
		v.Name = fmt.Sprintf("%v-%d", k, i)
		if k.Info().Class == ConcurrencyLimiter || k.Info().Class == ClientGate || chance(4) {
			continue
		}
		p := c.Limits[0].Policy
		switch rnd.IntN(3) {
		case 0:
			p.Limit = 1 + rnd.Int64N(12)
		case 1:
			p.Burst = diffBurst(rnd, p.Limit)
		default:
			p.Window = diffWindows[rnd.IntN(len(diffWindows))]
		}
		p.Burst = max(p.Burst, 4) // room for the costliest request
		c.Overrides = append(c.Overrides, LaneOverride{Name: v.Name, Policy: p})
	}
	if chance(5) {
		c.Overrides = append(c.Overrides, LaneOverride{Lane: rate[rnd.IntN(len(rate))], Policy: algorithms.Policy{Limit: 1 + rnd.Int64N(12), Window: w, Burst: 4}})
	}
	if chance(4) {
		c.Throttle = ThrottleSettings{K: float64(1 + rnd.IntN(3)), Period: w * 24, Server: []LaneKind{LaneDefault, LaneGCRA, LaneLeakyBucket}[rnd.IntN(3)]}
	}

	// Rule pushes on window boundaries, a backend, a topology.
	if !kernel || chance(3) {
		for range rnd.IntN(3) {
			ch := RuleChange{At: w * time.Duration(rnd.IntN(6)), Limit: rnd.IntN(len(c.Limits))}
			if !kernel {
				ch.Shadow = chance(3)
			}
			if chance(2) {
				ch.Policy = algorithms.Policy{Limit: 1 + rnd.Int64N(12), Window: diffWindows[rnd.IntN(len(diffWindows))], Burst: rnd.Int64N(10)}
			}
			c.Rules = append(c.Rules, ch)
		}
	}
	if !kernel && chance(5) {
		c.Backend = &Backend{Capacity: 1 + rnd.IntN(4), QueueSize: rnd.IntN(6), Service: Service{Kind: ServiceKind(rnd.IntN(2)), Mean: w / 4},
			RetryAfter: []time.Duration{0, w}[rnd.IntN(2)]}
		if chance(2) {
			c.Backend.Changes = []BackendChange{{At: 2 * w, Capacity: rnd.IntN(3), Service: Service{Mean: w}}}
		}
	}
	if has(shapeTopology) || (!kernel && chance(6)) {
		diffTopology(rnd, &c, w)
	}
	switch {
	case (has(shapeOneKey) && has(shapeUnitCost) && chance(2)) || chance(14):
		diffBusyKey(rnd, &c, w, kernel)
	case has(shapeOneKey) && has(shapeKernel):
		diffOneUnitOfRoom(rnd, &c, w)
		diffTime(seed, &c, w)
		return c
	}
	diffProducts(seed, &c)
	diffTime(seed, &c, w)
	diffContract(seed, &c, w)
	return c
}

// diffTime gives, now and then, c's client groups a round trip, a deadline,
// a retry budget, a timeout per attempt or a service factor and its backend a LIFO or CoDel queue, which keep a lane
// off the kernel (kernelFits). It draws from a stream of its own, so the rest
// of each world is drawn as it was before these came.
func diffTime(seed uint64, c *Config, w time.Duration) {
	rnd := rand.New(rand.NewPCG(seed, 0x71de))
	chance := func(n int) bool { return rnd.IntN(n) == 0 }
	// Rarely in a world the kernel may take, not to starve the harness of
	// kernel lanes; but now and then, to hold kernelFits to it.
	often := 40
	if c.Backend != nil || slices.ContainsFunc(c.Clients, func(g ClientGroup) bool { return g.Retry.Kind != RetryNone }) {
		often = 3
	}
	for g := range c.Clients {
		grp := &c.Clients[g]
		if chance(often) {
			grp.RTT = w / time.Duration(1+rnd.IntN(8))
			grp.RTTKind = ServiceKind(rnd.IntN(2))
		}
		if chance(2 * often) {
			grp.Deadline = w * time.Duration(1+rnd.IntN(3))
		}
		if grp.Retry.Kind != RetryNone && chance(4) {
			grp.Retry.Budget = &RetryBudget{Ratio: []float64{0, 0.1, 0.5}[rnd.IntN(3)], MinPerSecond: 1 + rnd.IntN(3), TTL: time.Second}
		}
		if !grp.Pace && chance(2*often) {
			grp.Timeout = grp.RTT + w/time.Duration(1+rnd.IntN(4))
		}
		if c.Backend != nil && chance(3) {
			grp.ServiceFactor = []float64{0.5, 2, 10}[rnd.IntN(3)]
		}
	}
	if b := c.Backend; b != nil && chance(3) {
		b.Discipline = QueueDiscipline(rnd.IntN(2))
		if b.QueueSize > 0 && chance(2) {
			b.CoDel = &CoDel{Target: w / 8, Interval: w}
		}
	}
}

// diffProducts adds to c two to four product lanes, each with a policy its
// product can say for every limit of the chain (diffProductPolicy) and now
// and then product settings of its own; where c pushes new policies, they
// become ones every product says (12, 15 or 18 a minute: API Gateway's rate
// is whole thousandths a second, AWS WAF's limit 10 or more). It draws from a
// stream of its own, so the worlds of the textbook lanes are drawn as they
// were before product lanes came to the harness (the corpus the planted bugs
// of the textbook fast paths were checked on); a quarter of the worlds, and
// half of those that push policies, get none.
func diffProducts(seed uint64, c *Config) {
	rnd := rand.New(rand.NewPCG(seed, 0x9d0c))
	pushes := slices.ContainsFunc(c.Rules, func(r RuleChange) bool { return r.Policy != (algorithms.Policy{}) })
	if rnd.IntN(4) == 0 || (pushes && rnd.IntN(2) == 0) {
		return
	}
	var products []LaneKind
	for _, info := range Lanes() {
		// A quota's periods are days: no rule push here (a minute) can say them.
		if info.Product != "" && info.Class == RateLimiter && !(pushes && info.Kind == LaneAWSQuota) {
			products = append(products, info.Kind)
		}
	}
	for range 2 + rnd.IntN(3) {
		k := products[rnd.IntN(len(products))]
		name := fmt.Sprintf("%v-%d", k, len(c.Lanes))
		c.Lanes = append(c.Lanes, k)
		c.Variants = append(c.Variants, Variant{Name: name, Product: diffProductSettings(rnd, k)})
		for j, l := range c.Limits {
			if p, ok := diffProductPolicy(rnd, k, l.Policy); ok {
				c.Overrides = append(c.Overrides, LaneOverride{Name: name, Limit: j, Policy: p})
			}
		}
	}
	for i := range c.Rules {
		if c.Rules[i].Policy != (algorithms.Policy{}) {
			c.Rules[i].Policy = algorithms.Policy{Limit: 12 + 3*rnd.Int64N(3), Window: time.Minute}
		}
	}
}

// diffProductPolicy is p as product lane k can say it, and true, or false
// when k says p as it is (Envoy's local bucket, Traefik and API Gateway read
// any of diffWorld's policies): nginx's rate is per second or minute; the
// window products (envoyproxy/ratelimit, Kong, Kong's advanced plugin, AWS
// WAF, Cloudflare, HAProxy) have no burst apart from the limit; their windows
// are a unit (1s), whole seconds, AWS WAF's evaluation windows (1m, with a
// limit of 10 or more) and Cloudflare's periods (10s).
func diffProductPolicy(rnd *rand.Rand, k LaneKind, p algorithms.Policy) (algorithms.Policy, bool) {
	switch k {
	case LaneNginx:
		p.Window = []time.Duration{time.Second, time.Second, time.Second, time.Minute}[rnd.IntN(4)]
	case LaneEnvoyRateLimit, LaneKong:
		p.Window, p.Burst = time.Second, 0
	case LaneKongAdvanced:
		p.Window, p.Burst = time.Duration(1+rnd.IntN(2))*time.Second, 0
	case LaneAWSWAF:
		p.Window, p.Limit, p.Burst = time.Minute, 10+rnd.Int64N(12), 0
	case LaneCloudflare:
		p.Window, p.Burst = 10*time.Second, 0
	case LaneHAProxy:
		p.Burst = 0
	case LaneAWSQuota:
		p.Window, p.Burst = []time.Duration{24 * time.Hour, 7 * 24 * time.Hour, 30 * 24 * time.Hour}[rnd.IntN(3)], 0
	default:
		return p, false
	}
	if p.Burst == 0 {
		p.Limit = max(p.Limit, 4) // room for the costliest request
	}
	return p, true
}

// diffProductSettings is, half the time, product settings of lane k that
// change how it decides (nginx's delay= and nodelay, Envoy's stepwise
// refill and empty start, envoyproxy/ratelimit's shadow mode and local cache,
// Kong's redis policy and a second period, the advanced plugin's fixed window
// and disabled penalty, Cloudflare's ban and its counting, HAProxy's expire);
// AWS WAF always evaluates every second, so that a run of 2s sees its
// refusals.
func diffProductSettings(rnd *rand.Rand, k LaneKind) ProductSettings {
	var s ProductSettings
	if k == LaneAWSWAF {
		s.AWSWAF = &AWSWAFSettings{EvaluationInterval: time.Second}
	}
	if rnd.IntN(2) == 0 {
		return s
	}
	flip := func() bool { return rnd.IntN(2) == 0 }
	switch k {
	case LaneNginx:
		s.Nginx = &NginxSettings{Default: []NginxDelay{{}, {NoDelay: true}, {Delay: 1 + rnd.Int64N(3)}}[rnd.IntN(3)]}
	case LaneEnvoyLocal:
		s.EnvoyLocal = &EnvoyLocalSettings{Stepwise: flip()}
		if flip() {
			s.EnvoyLocal.Start = new(int64)
		}
	case LaneEnvoyRateLimit:
		s.EnvoyRateLimit = &EnvoyRateLimitSettings{ShadowMode: flip(), LocalCache: flip()}
	case LaneKong:
		s.Kong = &KongSettings{Redis: flip()}
		if flip() {
			s.Kong.Minute = 100
		}
	case LaneKongAdvanced:
		s.KongAdvanced = &KongAdvancedSettings{Fixed: flip(), DisablePenalty: flip()}
	case LaneCloudflare:
		s.Cloudflare = &CloudflareSettings{MitigationTimeout: time.Duration(rnd.IntN(2)) * time.Second, ExcludeBlocked: flip()}
	case LaneHAProxy:
		s.HAProxy = &HAProxySettings{Expire: time.Duration(1+rnd.IntN(300)) * 10 * time.Millisecond}
	}
	return s
}

// diffProductWorld is a world of product lanes alone, from seed: two to four
// of them, each with the policy and now and then the settings diffProducts
// gives it, over long enough (35s, or 130s with AWS WAF) for what the short
// worlds of diffWorld cannot show: AWS WAF's ring of intervals going round
// its 60s window, Cloudflare's bans ending and its 10s period sliding,
// windows of whole seconds rolling under arrivals between them, counters that
// expire. Traffic comes on and off, three times the limit for 3s in 10s, with
// a slow Poisson client beside it (one a second, which a ban or the window's
// sliding shows), over one key or one per client; in the kernel's world or
// with retries. Each Cloudflare lane bans for 1s to 8s.
func diffProductWorld(seed uint64) Config {
	rnd := rand.New(rand.NewPCG(seed, 0x10a9))
	limit := 10 + rnd.Int64N(20)
	c := Config{Name: fmt.Sprintf("diff-products-%d", seed), Duration: 35 * time.Second, Seed: seed,
		Limits: []Limit{{Key: []KeyKind{KeyGlobal, KeyUser}[rnd.IntN(2)], NoHeaders: rnd.IntN(3) == 0,
			Policy: algorithms.Policy{Limit: limit, Window: time.Second}}}}
	var products []LaneKind
	for _, info := range Lanes() {
		if info.Product != "" && info.Class == RateLimiter {
			products = append(products, info.Kind)
		}
	}
	for range 2 + rnd.IntN(3) {
		k := products[rnd.IntN(len(products))]
		if k == LaneAWSWAF {
			c.Duration = 130 * time.Second
		}
		name := fmt.Sprintf("%v-%d", k, len(c.Lanes))
		c.Lanes = append(c.Lanes, k)
		v := Variant{Name: name, Product: diffProductSettings(rnd, k)}
		if k == LaneCloudflare {
			v.Product.Cloudflare = &CloudflareSettings{MitigationTimeout: time.Duration(1+rnd.IntN(8)) * time.Second, ExcludeBlocked: rnd.IntN(2) == 0}
		}
		c.Variants = append(c.Variants, v)
		if p, ok := diffProductPolicy(rnd, k, c.Limits[0].Policy); ok {
			c.Overrides = append(c.Overrides, LaneOverride{Name: name, Policy: p})
		}
	}
	burst := ClientGroup{Name: "on-off", Count: 1 + rnd.IntN(3), Cost: 1, Arrivals: []Arrival{{Kind: ArrivalOnOff,
		Start: time.Duration(rnd.Int64N(int64(time.Second))), Rate: Rate{Count: 3 * limit, Per: time.Second}, On: 3 * time.Second, Off: 7 * time.Second}}}
	slow := ClientGroup{Name: "slow", Count: 1, Cost: 1, Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 1, Per: time.Second}}}}
	c.Clients = []ClientGroup{burst, slow}
	if rnd.IntN(2) == 0 {
		for g := range c.Clients {
			c.Clients[g].Retry = diffRetry(rnd, time.Second, rnd.IntN(2) == 0)
		}
	}
	return c
}

// diffOneUnitOfRoom is a world in which a token bucket or GCRA lane refuses a
// request while an exact sliding log of its limit has room for exactly one
// more, after agreeing with it on everything since the two last parted, and
// the batched check takes that decision in line (checkSharedRun): a spike
// over the limit (the log parts, and the key has been over the limit), a
// window idle (they rejoin), a steady rate above 64 a window (the key's ring
// grows), then a lower one, then a burst that the bucket's burst admits up to
// one unit short of the limit.
func diffOneUnitOfRoom(rnd *rand.Rand, c *Config, w time.Duration) {
	limit := 90 + rnd.Int64N(10)
	steady := 55 + rnd.Int64N(8)                // the batch that takes the burst starts with room for it in the ring
	burst := limit - steady - 1 + rnd.Int64N(2) // as the bucket holds all its tokens or one less
	c.Limits = []Limit{{Key: KeyGlobal, NoHeaders: rnd.IntN(2) == 0, Policy: algorithms.Policy{Limit: limit, Window: w, Burst: burst}}}
	c.Duration, c.Drain, c.Rules, c.Overrides, c.Backend, c.Topology = 7*w, 0, nil, nil, nil, nil
	c.Lanes = []LaneKind{LaneTokenBucket, LaneGCRA, LaneSlidingLog}[:2+rnd.IntN(2)]
	c.Variants = nil
	constant := func(from, to time.Duration, n int64) Arrival {
		return Arrival{Kind: ArrivalConstant, Start: from, Stop: to, Rate: Rate{Count: n, Per: w}}
	}
	c.Clients = []ClientGroup{{Name: "traffic", Count: 1, Cost: 1, Arrivals: []Arrival{
		constant(0, w, 3*limit),
		constant(5*w/2, 9*w/2, 70+rnd.Int64N(15)),
		constant(9*w/2, 7*w, steady),
	}}, {Name: "burst", Count: 1, Cost: 1, Arrivals: []Arrival{{Kind: ArrivalBurst, At: 6*w + w/3 + time.Duration(rnd.Int64N(int64(w)/steady)), Count: 2 * int(burst)}}}}
}

// diffBusyKey makes c's first limit a large one over one key (40 to 200 a
// window), and its traffic one to three times as much: a window holds more
// admissions than a batch of decisions, so the batched check runs in line
// (checkRunInLine) and the cross-check's logs part and grow.
func diffBusyKey(rnd *rand.Rand, c *Config, w time.Duration, kernel bool) {
	limit := 40 + rnd.Int64N(80)
	burst := []int64{0, limit / 4, limit / 2, limit + rnd.Int64N(limit)}[rnd.IntN(4)]
	c.Limits[0].Key, c.Limits[0].Policy = KeyGlobal, algorithms.Policy{Limit: limit, Window: w, Burst: burst}
	c.Duration, c.Drain = w*time.Duration(3+rnd.IntN(3)), min(c.Drain, w)
	c.Overrides, c.Rules = nil, nil
	unit := []int64{1, 1, 2}[rnd.IntN(3)]
	for g := range c.Clients {
		grp := &c.Clients[g]
		grp.Cost = unit
		per := (1 + rnd.Int64N(2)) * limit / int64(len(c.Clients))
		switch rnd.IntN(4) {
		case 3: // on and off, idle a whole window: the cross-check's log and the window rejoin
			grp.Count, grp.Arrivals = 1, []Arrival{{Kind: ArrivalOnOff, Start: diffOffset(rnd, w), Rate: Rate{Count: per, Per: w}, On: 2 * w, Off: w + w/4}}
		case 0: // one client at a constant rate, some arrivals on boundaries
			grp.Count, grp.Arrivals = 1, []Arrival{{Kind: ArrivalConstant, Start: diffOffset(rnd, w), Rate: Rate{Count: per, Per: w}}}
		case 1: // a superposed group
			grp.Count = 2 + rnd.IntN(4)
			grp.Arrivals = []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: max(1, per/int64(grp.Count)), Per: w}}}
		default: // bursts at a boundary
			grp.Count = 1 + rnd.IntN(3)
			grp.Arrivals = []Arrival{{Kind: ArrivalBurst, At: w * time.Duration(1+rnd.IntN(2)), Count: int(limit) / grp.Count}}
			grp.Arrivals = append(grp.Arrivals, Arrival{Kind: ArrivalConstant, Rate: Rate{Count: per, Per: w}})
		}
		if kernel {
			grp.Retry = Retry{}
		}
	}
}

// diffOffset is a time on a window boundary, or a nanosecond either side of one.
func diffOffset(rnd *rand.Rand, w time.Duration) time.Duration {
	return max(0, w*time.Duration(rnd.IntN(2))+[]time.Duration{0, 0, 0, -1, 1}[rnd.IntN(5)])
}

// diffBurst is a burst for a limit: none (the limit), or room for the
// costliest request (4) and up to twice the limit more.
func diffBurst(rnd *rand.Rand, limit int64) int64 {
	if rnd.IntN(3) == 0 {
		return 0
	}
	return 4 + rnd.Int64N(2*limit+1)
}

// diffArrival is an arrival component whose times fall on window boundaries
// (multiples of w) where it has times to place.
func diffArrival(rnd *rand.Rand, w, duration time.Duration, count int) Arrival {
	start := diffOffset(rnd, w)
	// Few arrivals per client in a large group: the run stays small.
	busy := func(n int64) int64 { return 1 + rnd.Int64N(max(1, n/int64(count))) }
	switch rnd.IntN(6) {
	case 0: // a burst of one at a boundary: a one-shot group
		return Arrival{Kind: ArrivalBurst, At: diffOffset(rnd, w) + w*time.Duration(rnd.IntN(2)), Count: 1}
	case 1:
		return Arrival{Kind: ArrivalBurst, At: w * time.Duration(rnd.IntN(3)), Count: int(busy(12)),
			Spread: []time.Duration{0, w, w / 2}[rnd.IntN(3)]}
	case 2: // Poisson: superposed when the group has several clients
		return Arrival{Kind: ArrivalPoisson, Start: start, Rate: Rate{Count: busy(40), Per: w}}
	case 3:
		return Arrival{Kind: ArrivalOnOff, Start: start, Rate: Rate{Count: []int64{1, 2, 5}[busy(3)-1], Per: w}, On: w, Off: w / 2}
	case 4:
		return Arrival{Kind: ArrivalIdleThenBurst, Start: start, Idle: w, Count: int(busy(8))}
	}
	// Constant: every k-th arrival on a boundary, and a stop on one.
	a := Arrival{Kind: ArrivalConstant, Start: start, Rate: Rate{Count: []int64{1, 2, 4, 5, 10}[busy(5)-1], Per: w}}
	if rnd.IntN(3) == 0 {
		a.Stop = min(duration, a.Start+w*time.Duration(1+rnd.IntN(3)))
	}
	return a
}

// diffRetry is a retry policy whose sleeps are fractions of w; honour makes
// it honour Retry-After exactly (a retry then lands where the limit said).
func diffRetry(rnd *rand.Rand, w time.Duration, honour bool) Retry {
	r := Retry{Kind: RetryKind(1 + rnd.IntN(3)), MaxAttempts: 2 + rnd.IntN(3)}
	switch r.Kind {
	case RetryFixed:
		r.Delay = []time.Duration{w, w / 2, w / 4}[rnd.IntN(3)]
	case RetryExponential:
		r.Base, r.Cap, r.Jitter = w/4, 4*w, JitterKind(rnd.IntN(4))
	}
	if honour || rnd.IntN(2) == 0 {
		r.HonorRetryAfter, r.RetryAfter = true, RetryAfterMode(rnd.IntN(2))
		if honour {
			r.RetryAfter = RetryAfterExact
		}
	}
	return r
}

// diffTopology gives c replicas and a store, and places each limit.
func diffTopology(rnd *rand.Rand, c *Config, w time.Duration) {
	t := &Topology{Replicas: []ReplicaStep{{Count: 1 + rnd.IntN(3)}}, Routing: Routing(rnd.IntN(3)), HashKey: KeyKind(rnd.IntN(6))}
	if rnd.IntN(2) == 0 {
		t.Replicas = append(t.Replicas, ReplicaStep{At: 2 * w, Count: 1 + rnd.IntN(4)})
	}
	t.Store = Store{Latency: Service{Kind: ServiceKind(rnd.IntN(2)), Mean: []time.Duration{0, w / 10}[rnd.IntN(2)]}, Racy: rnd.IntN(2) == 0}
	if rnd.IntN(3) == 0 {
		t.Store.Outages = []Outage{{From: w, To: 3 * w}}
	}
	c.Topology = t
	for i := range c.Limits {
		l := &c.Limits[i]
		l.State, l.LocalLimit = StateKind(rnd.IntN(3)), LocalLimit(rnd.IntN(2))
		l.SyncInterval, l.OnStoreError = w/2, FailMode(rnd.IntN(3))
		l.Fallback = algorithms.Policy{Limit: 1 + rnd.Int64N(6), Window: w}
	}
}

// diffContract gives, now and then, c's topology a named store holding
// every shared limit, and one lane a contract of its own: its own breaker
// and fail modes (Variant.Topology, Placements). It draws from a stream of
// its own, so the rest of the world is drawn as before.
func diffContract(seed uint64, c *Config, w time.Duration) {
	if c.Topology == nil {
		return
	}
	rnd := rand.New(rand.NewPCG(seed, 0xc047))
	if l := &c.Limits[0]; rnd.IntN(2) == 0 && l.isRate() {
		l.State, l.OnStoreError, l.LocalLimit = StateShared, FailMode(rnd.IntN(2)), LocalFull // a store to call, in more of the worlds
	}
	shared := slices.ContainsFunc(c.Limits, func(l Limit) bool { return l.State == StateShared })
	if shared && rnd.IntN(3) != 0 {
		st := Store{Latency: Service{Kind: ServiceKind(rnd.IntN(2)), Mean: []time.Duration{0, w / 5}[rnd.IntN(2)]},
			Capacity: []float64{0, 40 / w.Seconds()}[rnd.IntN(2)], Timeout: []time.Duration{0, w / 3}[rnd.IntN(2)]}
		c.Topology.Stores = []NamedStore{{Name: "abuse", Store: st}}
		for i := range c.Limits {
			if c.Limits[i].State == StateShared {
				c.Limits[i].Store = "abuse"
			}
		}
	}
	lanes := c.LanesRun()
	if len(lanes) == 0 {
		return
	}
	c.Lanes = slices.Clone(lanes)
	for len(c.Variants) < len(c.Lanes) {
		c.Variants = append(c.Variants, Variant{})
	}
	i := rnd.IntN(len(c.Lanes))
	t := *c.Topology
	if shared {
		t.Store.Breaker = Breaker{Failures: 1 + rnd.IntN(3), Window: w, Cooldown: w / 2, Probes: 1 + rnd.IntN(2)}
	}
	t.Store.RefusalCache = shared && rnd.IntN(2) == 0
	places := make([]Placement, len(c.Limits))
	for j, l := range c.Limits {
		places[j] = l.Placement()
		if l.State == StateShared {
			places[j].OnStoreError = FailMode(rnd.IntN(3))
			if places[j].OnStoreError != FailLocal {
				places[j].LocalLimit = LocalFull
			}
		}
	}
	c.Variants[i].Topology, c.Variants[i].Placements = &t, &places
}

// switchSet is a setting of every switch of fastPathSwitches, by name, and
// whether to run through New and RunToEnd (every lane built at once, none
// released as it ends) instead of Run.
type switchSet struct {
	name   string
	on     map[string]bool
	viaNew bool
	flips  string // the switch flipped from the fastest setting, if one
}

// callsAStore reports whether some lane of cfg may call a store on an
// attempt: a topology and a limit shared in it, or so placed by a variant.
func callsAStore(cfg *Config) bool {
	if cfg.Topology == nil {
		return false
	}
	for _, l := range cfg.Limits {
		if l.State == StateShared {
			return true
		}
	}
	for _, v := range cfg.Variants {
		if v.Placements != nil && slices.ContainsFunc(*v.Placements, func(p Placement) bool { return p.State == StateShared }) {
			return true
		}
	}
	return false
}

// diffSets are the settings the harness runs: the fastest (every fast path
// on and sharing and warming forced), that through New, none set (as rlsim
// runs), each switch flipped from the fastest one at a time, and last the
// general path (diffGeneral).
func diffSets() []switchSet {
	fastest := map[string]bool{"shared_always": true, "warm_always": true}
	sets := []switchSet{{name: "fastest", on: fastest}, {name: "fastest_via_new", on: fastest, viaNew: true}, {name: "as_run", on: map[string]bool{}}}
	for _, sw := range fastPathSwitches {
		on := map[string]bool{}
		for k, v := range fastest {
			on[k] = v
		}
		on[sw.name] = !on[sw.name]
		verb := "on"
		if !on[sw.name] {
			verb = "off"
		}
		sets = append(sets, switchSet{name: "fastest_" + strings.TrimSuffix(strings.TrimSuffix(sw.name, "_off"), "_always") + "_" + verb, on: on, flips: sw.name})
	}
	return append(sets, diffGeneral())
}

// diffGeneral is the general path: every fast path off, nothing forced on.
func diffGeneral() switchSet {
	on := map[string]bool{}
	for _, sw := range fastPathSwitches {
		on[sw.name] = strings.HasSuffix(sw.name, "_off")
	}
	return switchSet{name: "general", on: on}
}

// with calls f with the switches set as s says, and every one back off after.
func (s switchSet) with(f func()) {
	for _, sw := range fastPathSwitches {
		*sw.flag = s.on[sw.name]
	}
	defer func() {
		for _, sw := range fastPathSwitches {
			*sw.flag = false
		}
	}()
	f()
}

// diffRun is what a run of a world shows: its result and its JSON, the events
// processed, the error, and with a trace the hash of every record.
type diffRun struct {
	res    Result
	json   string
	events int64
	err    string
	trace  uint64
}

// runDiff runs cfg through Run with the switches of s, traced or not.
func runDiff(cfg Config, s switchSet, traced bool) diffRun {
	var out diffRun
	s.with(func() {
		opt := Options{Progress: func(p Progress) { out.events = max(out.events, p.Events) }}
		var sink *traceHasher
		if traced {
			sink = &traceHasher{}
			opt.Trace = sink
		}
		var res Result
		var err error
		if s.viaNew {
			var sim *Simulation
			if sim, err = New(cfg, opt); err == nil {
				res, err = sim.RunToEnd(context.Background())
			}
		} else {
			res, err = Run(context.Background(), cfg, opt)
		}
		out.res = res
		if err != nil {
			out.err = err.Error()
		}
		if b, err := json.Marshal(res); err != nil {
			out.json = "json: " + err.Error()
		} else {
			out.json = string(b)
		}
		if sink != nil {
			out.trace = sink.sum()
		}
	})
	return out
}

// diff is where a and b first differ, or "" when they do not.
func (a *diffRun) diff(b *diffRun) string {
	switch {
	case a.err != b.err:
		return fmt.Sprintf("error %q, want %q", a.err, b.err)
	case a.trace != b.trace:
		return fmt.Sprintf("trace hash %#x, want %#x", a.trace, b.trace)
	}
	if !reflect.DeepEqual(a.res, b.res) { // or a NaN, which valueDiff passes
		if d := valueDiff("Result", reflect.ValueOf(a.res), reflect.ValueOf(b.res)); d != "" {
			return d
		}
	}
	if a.json != b.json {
		return "JSON: " + firstDifference(a.json, b.json)
	}
	if a.events != b.events {
		return fmt.Sprintf("events %d, want %d", a.events, b.events)
	}
	return ""
}

// valueDiff names the first field where a and b differ ("Result.Lanes[2].Verdicts:
// 12, want 13"), or "" when they are equal; NaN equals NaN.
func valueDiff(path string, a, b reflect.Value) string {
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return fmt.Sprintf("%s: nil %v, want nil %v", path, a.IsNil(), b.IsNil())
			}
			return ""
		}
		return valueDiff(path, a.Elem(), b.Elem())
	case reflect.Struct:
		for i := range a.NumField() {
			if d := valueDiff(path+"."+a.Type().Field(i).Name, a.Field(i), b.Field(i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: length %d, want %d", path, a.Len(), b.Len())
		}
		for i := range a.Len() {
			if d := valueDiff(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Map:
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: %d entries, want %d", path, a.Len(), b.Len())
		}
		for _, k := range a.MapKeys() {
			if d := valueDiff(fmt.Sprintf("%s[%v]", path, k), a.MapIndex(k), b.MapIndex(k)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Float32, reflect.Float64:
		x, y := a.Float(), b.Float()
		if x == y || (math.IsNaN(x) && math.IsNaN(y)) {
			return ""
		}
		return fmt.Sprintf("%s: %v, want %v", path, x, y)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if a.Int() != b.Int() {
			return fmt.Sprintf("%s: %d, want %d", path, a.Int(), b.Int())
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if a.Uint() != b.Uint() {
			return fmt.Sprintf("%s: %d, want %d", path, a.Uint(), b.Uint())
		}
	case reflect.Bool:
		if a.Bool() != b.Bool() {
			return fmt.Sprintf("%s: %v, want %v", path, a.Bool(), b.Bool())
		}
	case reflect.String:
		if a.String() != b.String() {
			return fmt.Sprintf("%s: %q, want %q", path, a.String(), b.String())
		}
	default:
		return fmt.Sprintf("%s: a %v the harness cannot compare", path, a.Kind())
	}
	return ""
}

// traceHasher is a trace sink that hashes every field of every record, lane by
// lane (so lanes may run at once), and then the lanes' hashes in lane order.
type traceHasher struct {
	lanes []*laneHasher
}

type laneHasher struct {
	h   hash.Hash64
	buf []byte
}

func (t *traceHasher) ForLanes(n int) []TraceSink {
	sinks := make([]TraceSink, n)
	for len(t.lanes) < n {
		t.lanes = append(t.lanes, &laneHasher{h: fnv.New64a()})
	}
	for i := range sinks {
		sinks[i] = t.lanes[i]
	}
	return sinks
}

func (t *traceHasher) Record(r *TraceRecord) error {
	t.ForLanes(r.LaneIndex + 1)
	return t.lanes[r.LaneIndex].Record(r)
}

func (l *laneHasher) Record(r *TraceRecord) error {
	b := l.buf[:0]
	for _, v := range []int64{int64(r.At), int64(r.Lane), int64(r.LaneIndex), int64(r.Event), int64(r.Client), r.Request,
		int64(r.Attempt), r.Cost, int64(r.Delay), int64(r.RetryAfter), int64(r.Latency), int64(r.Replica),
		int64(b2i(r.Answered)), r.Remaining, int64(r.Reset)} {
		b = binary.LittleEndian.AppendUint64(b, uint64(v))
	}
	for _, s := range []string{r.LaneName, r.Class, r.Key, r.Limit, r.Shadow} {
		b = append(binary.AppendUvarint(b, uint64(len(s))), s...)
	}
	l.buf = b
	l.h.Write(b)
	return nil
}

func (t *traceHasher) sum() uint64 {
	h := fnv.New64a()
	for _, l := range t.lanes {
		h.Write(binary.LittleEndian.AppendUint64(nil, l.h.Sum64()))
	}
	return h.Sum64()
}

// diffOutcome is what checkFastPaths found on one world.
type diffOutcome struct {
	valid bool
	paths fastPathUse
	// flipped names the switches flipped alone (a setting's flips): those
	// the world reaches (reachedSwitches).
	flipped []string
}

// checkFastPaths runs cfg with every setting of sets (diffSets) and requires
// each to match the general path, traced and not; it reports the first
// difference.
func checkFastPaths(cfg Config, sets []switchSet) (diffOutcome, error) {
	if err := cfg.Validate(); err != nil {
		return diffOutcome{}, nil
	}
	general := diffGeneral()
	want := runDiff(cfg, general, false)
	reached := reachedSwitches(cfg) // fast_diff_reach_test.go
	var flipped []string
	for _, s := range sets {
		if s.name == general.name || s.flips != "" && !reached[s.flips] {
			continue
		}
		got := runDiff(cfg, s, false)
		if d := got.diff(&want); d != "" {
			return diffOutcome{}, fmt.Errorf("with switches %s, against the general path: %s", s.name, d)
		}
		if s.flips != "" {
			flipped = append(flipped, s.flips)
		}
	}
	// Traced: the general and the fastest settings write the same trace, and
	// the general path's result is the untraced one.
	tracedGeneral := runDiff(cfg, general, true)
	tracedWant := want
	tracedWant.trace = tracedGeneral.trace
	if d := tracedGeneral.diff(&tracedWant); d != "" {
		return diffOutcome{}, fmt.Errorf("traced, against untraced, on the general path: %s", d)
	}
	if tracedGeneral.err == "" && tracedGeneral.trace == (&traceHasher{}).sum() && want.res.Lanes != nil && want.res.Lanes[0].Attempts > 0 {
		return diffOutcome{}, fmt.Errorf("traced: no record written")
	}
	fastest := diffSets()[0]
	if got := runDiff(cfg, fastest, true); got.trace != tracedGeneral.trace {
		return diffOutcome{}, fmt.Errorf("traced with switches %s, against the general path: trace hash %#x, want %#x", fastest.name, got.trace, tracedGeneral.trace)
	} else if d := got.diff(&tracedGeneral); d != "" {
		return diffOutcome{}, fmt.Errorf("traced with switches %s, against the general path: %s", fastest.name, d)
	}
	if err := checkColumns(cfg, &want); err != nil { // lane_columns_test.go
		return diffOutcome{}, err
	}
	return diffOutcome{valid: true, paths: fastPathsOf(cfg), flipped: flipped}, nil
}

// fastPathUse counts the lanes of a world that take each fast path, built as
// New builds them with the fastest setting: to hold the generator to reaching them.
type fastPathUse struct {
	kernel, batched, direct, quickOnly, shared, oneShot, recent int
	// delays counts the lanes whose delays and releases are in the kernel
	// (fast_delays.go).
	delays int
	// conc counts the concurrency-limiter lanes in the kernel (fast_conc.go).
	conc int
	// throttle counts the client-throttling lanes in the kernel
	// (fast_throttle.go), throttleDelays those behind a queue whose delays
	// are in the kernel too.
	throttle, throttleDelays int
	// oneLimiter counts the lanes whose topology runs as one limiter,
	// fleetKernel those whose fleet takes the kernel.
	oneLimiter, fleetKernel int
	// storeQuick and storeQuickRacy count the lanes whose store calls an
	// atomic, or a racy, check decides by the verdict alone.
	storeQuick, storeQuickRacy int
	// twinIsStore counts the lanes whose exact twin is their store's Fleet window.
	twinIsStore int
	// productKernel and productShared count the product lanes in the kernel
	// and following a leader; productDirect the product lanes on the direct
	// path, by kind.
	productKernel, productShared int
	productDirect                map[LaneKind]int
}

func (u *fastPathUse) add(o fastPathUse) {
	u.productKernel += o.productKernel
	u.productShared += o.productShared
	for k, n := range o.productDirect {
		if u.productDirect == nil {
			u.productDirect = map[LaneKind]int{}
		}
		u.productDirect[k] += n
	}
	u.kernel += o.kernel
	u.delays += o.delays
	u.conc += o.conc
	u.throttle += o.throttle
	u.throttleDelays += o.throttleDelays
	u.batched += o.batched
	u.direct += o.direct
	u.quickOnly += o.quickOnly
	u.shared += o.shared
	u.oneShot += o.oneShot
	u.recent += o.recent
	u.oneLimiter += o.oneLimiter
	u.fleetKernel += o.fleetKernel
	u.storeQuick += o.storeQuick
	u.storeQuickRacy += o.storeQuickRacy
	u.twinIsStore += o.twinIsStore
}

func fastPathsOf(cfg Config) fastPathUse {
	var u fastPathUse
	diffSets()[0].with(func() {
		s, err := New(cfg, Options{})
		if err != nil {
			return
		}
		u.productDirect = map[LaneKind]int{}
		for _, l := range s.lanes {
			product := l.kind.Info().Product != ""
			if l.kern.fits && l.quick != nil {
				u.kernel++
				u.batched += b2i(l.kern.batched)
				u.productKernel += b2i(product)
				u.fleetKernel += b2i(l.fleet != nil)
			}
			u.delays += b2i(l.kern.fits && l.delaysInKernel())
			u.conc += b2i(l.kern.fits && l.conc != nil)
			u.throttle += b2i(l.kern.fits && l.kern.gate != nil)
			u.throttleDelays += b2i(l.kern.fits && l.kern.gate != nil && l.delaysInKernel())
			u.direct += b2i(l.direct.known())
			if product && l.direct.known() {
				u.productDirect[l.kind]++
			}
			if l.m.peak.Unit() > 0 {
				u.recent++
			}
			u.oneLimiter += b2i(l.asOne != nil)
			if f := l.fleet; f != nil && f.storeQuick != nil {
				u.storeQuick += b2i(!f.topo.Store.Racy)
				u.storeQuickRacy += b2i(f.topo.Store.Racy)
			}
			u.twinIsStore += b2i(l.fleet != nil && l.fleet.same.exact)
		}
		for _, g := range s.cfg.Clients {
			u.oneShot += b2i(oneShot(&g))
		}
		if lanes := sharingLanes(&s.cfg, Options{}, s.lanes[0].pop); lanes != nil {
			leader := s.lanes[lanes[0]]
			for _, i := range lanes[1:] {
				if f := s.lanes[i]; f.canFollow() && leader.canFollow() {
					u.shared++
					u.productShared += b2i(f.kind.Info().Product != "")
				}
			}
		}
	})
	directOff = true
	defer func() { directOff = false }()
	if s, err := New(cfg, Options{}); err == nil {
		for _, l := range s.lanes {
			u.quickOnly += b2i(l.quick != nil)
		}
	}
	return u
}

// diffCorpus is the (seed, shape) pairs the test runs: seeds under every
// shape the fuzz target forces, and under none.
func diffCorpus() [][2]uint64 {
	shapes := []diffShape{0, 0, 0, shapeOneKey | shapeKernel | shapeUnitCost, shapeOneKey | shapeKernel | shapeUnitCost | shapeShare,
		shapeOneKey | shapeUnitCost | shapeNoHeaders, shapeManyKeys | shapeKernel | shapeShare, shapeManyKeys | shapeNoHeaders | shapeKernel,
		shapeKernel | shapeShare | shapeNoHeaders, shapeRetries | shapeNoHeaders, shapeRetries | shapeOneKey, shapeTopology,
		shapeKernel | shapeUnitCost | shapeNoHeaders, shapeOneKey | shapeShare | shapeUnitCost | shapeNoHeaders}
	var corpus [][2]uint64
	for seed := range uint64(70) { // each of the 14 shapes five times; FuzzFastPaths explores further
		corpus = append(corpus, [2]uint64{seed, uint64(shapes[seed%uint64(len(shapes))])})
	}
	return corpus
}

// TestFastPathsAreTheGeneralPath is the harness's corpus: every world of
// diffCorpus with every setting of diffSets, each against the general path.
func TestFastPathsAreTheGeneralPath(t *testing.T) {
	sets := diffSets()
	var use fastPathUse
	flips := map[string]int{}
	valid := 0
	for _, sc := range diffCorpus() {
		cfg := diffWorld(sc[0], diffShape(sc[1]))
		out, err := checkFastPaths(cfg, sets)
		if err != nil {
			t.Fatalf("world (seed %d, shape %#x): %v\nworld: %+v", sc[0], sc[1], err, cfg)
		}
		if out.valid {
			valid++
			use.add(out.paths)
			countFlips(flips, out)
		}
	}
	productValid := 0
	for seed := range uint64(16) {
		cfg := diffProductWorld(seed)
		out, err := checkFastPaths(cfg, sets)
		if err != nil {
			t.Fatalf("product world (seed %d): %v\nworld: %+v", seed, err, cfg)
		}
		if out.valid {
			productValid++
			use.add(out.paths)
			countFlips(flips, out)
		}
	}
	requireFlips(t, flips, diffCorpusFlips)
	if productValid < 14 {
		t.Errorf("%d of 16 product worlds valid, want at least 14", productValid)
	}
	t.Logf("%d valid worlds and %d product worlds; lanes on the fast paths: %+v; worlds flipping each switch: %v", valid, productValid, use, flips)
	// The generator must keep reaching every fast path, or the harness holds
	// it to nothing.
	for _, c := range []struct {
		what   string
		n, min int
	}{
		{"valid worlds", valid, 62},
		{"lanes in the kernel", use.kernel, 100},
		{"lanes batching their cross-check", use.batched, 30},
		{"lanes whose delays are in the kernel", use.delays, 18},
		{"concurrency-limiter lanes in the kernel", use.conc, 10},
		{"lanes on the direct path", use.direct, 150},
		{"lanes on the quick path through interfaces (direct off)", use.quickOnly, 100},
		{"followers", use.shared, 30},
		{"one-shot groups", use.oneShot, 15},
		{"lanes with recent logs", use.recent, 100},
		{"product lanes in the kernel", use.productKernel, 55},
		{"product lanes following a leader", use.productShared, 40},
		{"lanes deciding an atomic store call by its verdict alone", use.storeQuick, 4},
		{"lanes deciding a racy store call by its verdict alone", use.storeQuickRacy, 3},
	} {
		if c.n < c.min {
			t.Errorf("%s: %d, want at least %d: the generator no longer reaches them", c.what, c.n, c.min)
		}
	}
	// Every product lane takes its direct path (its registry row declares
	// fastDirect) in some worlds.
	for _, info := range Lanes() {
		if info.Product != "" && info.Class == RateLimiter {
			if n := use.productDirect[info.Kind]; n < 8 {
				t.Errorf("lane %s on the direct path: %d, want at least 8: the generator no longer reaches it", info.Name, n)
			}
		}
	}
}

// TestFastPathSwitchesListed checks that the switch list names each switch
// once, and that the settings of the harness flip each one.
func TestFastPathSwitchesListed(t *testing.T) {
	names := map[string]bool{}
	flags := map[*bool]bool{}
	for _, sw := range fastPathSwitches {
		if names[sw.name] || flags[sw.flag] {
			t.Errorf("switch %s listed twice", sw.name)
		}
		names[sw.name], flags[sw.flag] = true, true
	}
	// Every package-level switch of sim's code (a bool named …Off or …Always)
	// is in the list, under its name in snake case.
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range pkgs["sim"].Files {
		for _, decl := range file.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.VAR {
				continue
			}
			for _, spec := range gen.Specs {
				for _, id := range spec.(*ast.ValueSpec).Names {
					if !strings.HasSuffix(id.Name, "Off") && !strings.HasSuffix(id.Name, "Always") {
						continue
					}
					snake := strings.ToLower(regexp.MustCompile(`([a-z])([A-Z])`).ReplaceAllString(id.Name, "${1}_${2}"))
					if !names[snake] {
						t.Errorf("%s: switch %s is not in fastPathSwitches (as %q): the harness does not turn it", fset.Position(id.Pos()), id.Name, snake)
					}
				}
			}
		}
	}
	for name := range switchReach {
		if !names[name] {
			t.Errorf("switchReach names %s, no switch of fastPathSwitches", name)
		}
	}
	for name := range heldElsewhere {
		if !names[name] {
			t.Errorf("heldElsewhere names %s, no switch of fastPathSwitches", name)
		}
	}
	sets := diffSets()
	if got, want := len(sets), len(fastPathSwitches)+4; got != want {
		t.Errorf("%d settings, want %d (fastest, through New, as run, one per switch, general)", got, want)
	}
	if !slices.ContainsFunc(sets, func(s switchSet) bool { return s.name == "general" }) {
		t.Errorf("no general setting")
	}
}

// FuzzFastPaths explores further than the corpus: a world from the
// generator's seed and shape, and the switches of mask flipped from the
// fastest setting, against the general path.
func FuzzFastPaths(f *testing.F) {
	for _, sc := range diffCorpus()[:28] {
		f.Add(sc[0], uint8(sc[1]), uint16(sc[0]*2654435761))
	}
	f.Fuzz(func(t *testing.T, seed uint64, shape uint8, mask uint16) {
		cfg := diffWorld(seed, diffShape(shape))
		fastest := diffSets()[0]
		on := map[string]bool{}
		for i, sw := range fastPathSwitches {
			on[sw.name] = fastest.on[sw.name] != (mask&(1<<i) != 0)
		}
		sets := []switchSet{fastest, {name: fmt.Sprintf("mask_%#x", mask), on: on, viaNew: mask&(1<<15) != 0}}
		if _, err := checkFastPaths(cfg, sets); err != nil {
			t.Fatalf("world (seed %d, shape %#x): %v\nworld: %+v", seed, shape, err, cfg)
		}
	})
}

// The corpus draws lanes with contracts of their own and named stores
// (diffContract), and enough of those worlds are valid that the harness
// holds them to the general path (it skips a world Validate refuses).
func TestFastPathCorpusDrawsContracts(t *testing.T) {
	var own, named int
	for _, sc := range diffCorpus() {
		c := diffWorld(sc[0], diffShape(sc[1]))
		if c.Validate() != nil {
			continue
		}
		if slices.ContainsFunc(c.Variants, func(v Variant) bool { return v.ownSetup() }) {
			own++
		}
		if c.Topology != nil && len(c.Topology.Stores) > 0 {
			named++
		}
	}
	if own < 2 || named < 2 {
		t.Errorf("the corpus has %d valid worlds with a lane's own contract and %d with a named store: want at least 2 of each", own, named)
	}
}
