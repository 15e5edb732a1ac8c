package sim

import (
	"cmp"
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// Validate reports every problem in c at once as FieldErrors, or nil: a Config
// it accepts is one New runs.
func (c Config) Validate() error { return c.validate(checker{}) }

// ValidateScenario is Validate with the checks a scenario file is held to
// besides, in the same form: every instant an arrival or a backend change
// states is within the duration (one at or after the end, or an arrival
// stopping past it, is a mistake in a file, where a program may mean it), and
// the limits have names of their own (by default their keys). scenarios.Parse
// reports its problems at the file's lines; every rule between a file's fields
// lives here, not there.
func (c Config) ValidateScenario() error { return c.validate(checker{scenario: true}) }

func (c Config) validate(ck checker) error {
	ck.positive("duration", c.Duration)
	if c.Drain < 0 {
		ck.add("drain", "must not be negative, got %v", c.Drain)
	}
	if c.Bucket < 0 {
		ck.add("bucket", "must not be negative, got %v", c.Bucket)
	}
	if c.Bucket > c.Duration && c.Duration > 0 {
		ck.add("bucket", "%v is longer than the duration %v", c.Bucket, c.Duration)
	}
	if len(c.Limits) == 0 {
		ck.add("limits", "at least one limit is needed")
	}
	if c.Lanes != nil && len(c.Lanes) == 0 {
		ck.add("lanes", "at least one lane is needed (leave lanes out for all %s)", countWord(len(DefaultLanes())))
	}
	checkLanes(&ck, &c)
	checkConcurrencyChain(&ck, &c)
	limitNames := map[string]int{}
	for i, l := range c.Limits {
		path := fmt.Sprintf("limits[%d]", i)
		checkLimit(&ck, path, l)
		name := cmp.Or(l.Name, l.Key.String())
		if j, dup := limitNames[name]; dup && ck.scenario {
			ck.add(path+".name", "%q also names limits[%d]; give each limit its own name", name, j)
		}
		limitNames[name] = i
	}
	if !headerStyleEnum.valid(c.HeaderStyle) {
		ck.add("header_style", "unknown header style %v", c.HeaderStyle)
	}
	if !chainEnum.valid(c.Chain) {
		ck.add("chain", "unknown chain mode %v", c.Chain)
	}
	if len(c.Limits) > 0 && len(c.Rules) > 0 {
		defaulted := c.withDefaults()
		for i, ch := range c.Rules {
			checkRule(&ck, fmt.Sprintf("rules[%d]", i), ch, &defaulted)
		}
	}
	for i, o := range c.Overrides {
		checkOverride(&ck, fmt.Sprintf("overrides[%d]", i), o, &c)
	}
	for i, k := range c.Lanes {
		if !k.known() {
			ck.add(fmt.Sprintf("lanes[%d]", i), "unknown lane %v", k)
		}
	}
	for _, l := range laneTable {
		if l.check != nil {
			l.check(&ck, &c)
		}
	}
	if len(c.Clients) == 0 {
		ck.add("clients", "at least one client group is needed (or a contention section)")
	}
	groupNames := map[string]int{}
	for i, g := range c.Clients {
		path := fmt.Sprintf("clients[%d]", i)
		checkGroup(&ck, path, g, &c)
		if j, dup := groupNames[g.Name]; dup && g.Name != "" {
			ck.add(path+".name", "%q is also the name of clients[%d]", g.Name, j)
		}
		groupNames[g.Name] = i
	}
	if c.Backend != nil {
		checkBackend(&ck, "backend", *c.Backend, ck.within(c.Duration))
	}
	checkWallStart(&ck, c.Start)
	checkPartitions(&ck, &c)
	checkTopology(&ck, c)
	checkCaps(&ck, c)
	checkTopologyCaps(&ck, c)
	checkLaneSetups(&ck, c)
	if len(ck.errs) == 0 {
		checkStoresPerClient(&ck, c)
	}
	if len(ck.errs) == 0 {
		checkBuild(&ck, c)
	}
	if len(ck.errs) == 0 {
		return nil
	}
	return ck.errs
}

func checkOverride(ck *checker, path string, o LaneOverride, c *Config) {
	limits := len(c.Limits)
	kind := o.Lane
	if o.Name != "" {
		lanes := c.withDefaults()
		i := lanes.laneIndex(o.Name)
		if i < 0 {
			ck.add(path+".lane", "no lane is named %s (the lanes: %s)", o.Name, strings.Join(lanes.LaneNames(), ", "))
			return
		}
		kind = lanes.Lanes[i]
	}
	if !kind.known() || kind.Info().Class == ConcurrencyLimiter {
		ck.add(path+".lane", "must be a lane with a limit chain, got %v", o.overrideName())
	}
	switch {
	case o.Limit < 0 || limits == 0:
		ck.add(path+".limit_index", "must name a limit of the chain (0 to %d), got %d", limits-1, o.Limit)
	case o.Limit >= limits:
		ck.add(path+".limit_index", "the chain has %d limit(s), so %d names none", limits, o.Limit)
		return // its policy's defaults came from no limit
	case !c.Limits[o.Limit].isRate():
		return // checkConcurrencyChain says it has no policy to override
	}
	checkPolicy(ck, path, o.Policy)
}

func checkLimit(ck *checker, path string, l Limit) {
	if !keyEnum.valid(l.Key) {
		ck.add(path+".key", "unknown key %v", l.Key)
	}
	if !l.isRate() {
		checkConcurrencyLimit(ck, path, l)
		return
	}
	checkPolicy(ck, path, l.Policy)
}

func checkPolicy(ck *checker, path string, p algorithms.Policy) {
	if p.Limit <= 0 {
		ck.add(path+".limit", "must be positive, got %d", p.Limit)
	}
	ck.positive(path+".window", p.Window)
	if p.Burst < 0 {
		ck.add(path+".burst", "must not be negative, got %d", p.Burst)
	}
}

// countWord writes n in words up to twelve, as messages say "all eight".
func countWord(n int) string {
	if words := strings.Fields("zero one two three four five six seven eight nine ten eleven twelve"); n >= 0 && n < len(words) {
		return words[n]
	}
	return fmt.Sprint(n)
}

var placeholder = regexp.MustCompile(`\{[^}]*\}`)

func checkGroup(ck *checker, path string, g ClientGroup, c *Config) {
	if g.Count <= 0 {
		ck.add(path+".count", "must be positive, got %d", g.Count)
	}
	if g.Cost < 0 {
		ck.add(path+".cost", "must not be negative, got %d", g.Cost)
	}
	for i, l := range c.Limits {
		if burst := l.Policy.EffectiveBurst(); g.Cost > burst && l.Policy.Limit > 0 {
			ck.add(path+".cost", "%d is more than the burst %d of limits[%d] (%s): no request could ever be admitted", g.Cost, burst, i, cmp.Or(l.Name, l.Key.String()))
			break
		}
	}
	id := g.Identity
	for _, f := range []struct{ name, tmpl string }{
		{"user", id.User}, {"ip", id.IP}, {"api_key", id.APIKey}, {"tenant", id.Tenant}, {"endpoint", id.Endpoint},
	} {
		for _, p := range placeholder.FindAllString(f.tmpl, -1) {
			if p != "{i}" && p != "{g}" {
				ck.add(path+".identity."+f.name, "unknown placeholder %s (want {i}, the client's index, or {g}, the group name)", p)
			}
		}
	}
	if len(g.Arrivals) == 0 {
		ck.add(path+".arrivals", "at least one arrival process is needed")
	}
	for i, a := range g.Arrivals {
		checkArrival(ck, fmt.Sprintf("%s.arrivals[%d]", path, i), a, ck.within(c.Duration))
	}
	checkRetry(ck, path+".retry", g.Retry, g.RTT)
	checkCriticality(ck, path, g.Criticality)
	if g.RTT < 0 {
		ck.add(path+".rtt", "must not be negative, got %v", g.RTT)
	}
	if !serviceEnum.valid(g.RTTKind) {
		ck.add(path+".rtt.distribution", "unknown distribution %v", g.RTTKind)
	}
	if g.Deadline < 0 {
		ck.add(path+".deadline", "must not be negative, got %v", g.Deadline)
	}
	switch {
	case g.Timeout < 0:
		ck.add(path+".timeout", "must not be negative, got %v", g.Timeout)
	case g.Timeout > 0 && g.RTTKind == ServiceConstant && g.Timeout <= g.RTT:
		ck.add(path+".timeout", "%v is not more than the round trip (rtt %v): no answer could come back in time", g.Timeout, g.RTT)
	case g.Timeout > 0 && g.Pace:
		ck.add(path+".timeout", "not with pace: a pacing client reads the headers of every answer, and one it gave up it never reads")
	}
	checkServiceFactor(ck, path+".service_factor", g.ServiceFactor, c.Backend != nil)
}

// MaxServiceFactor is the largest ClientGroup.ServiceFactor.
const MaxServiceFactor = 1e6

// checkServiceFactor checks a group's service factor f, which scales the
// service time of a backend (hasBackend).
func checkServiceFactor(ck *checker, path string, f float64, hasBackend bool) {
	switch {
	case f == 0:
		return
	case math.IsNaN(f) || f < 0 || f > MaxServiceFactor:
		ck.add(path, "must be a number above 0 and at most %g, got %v", float64(MaxServiceFactor), f)
	case !hasBackend:
		ck.add(path, "scales the backend's service time, and there is no backend")
	}
}

// Bounds of a retry budget: Finagle's (RetryBudget.apply), and a ratio small
// enough to withdraw more than an int64 of tokens kept out.
const (
	minBudgetRatio  = 1e-6
	maxBudgetRatio  = 1000
	maxBudgetPerSec = 1_000_000
	minBudgetTTL    = time.Second
	maxBudgetTTL    = time.Minute
)

// checkBudget reports what is wrong with a retry budget b (nil: none).
func checkBudget(ck *checker, path string, b *RetryBudget) {
	if b == nil {
		return
	}
	if !(b.Ratio == 0 || b.Ratio >= minBudgetRatio && b.Ratio <= maxBudgetRatio) { // NaN fails both
		ck.add(path+".ratio", "must be 0 or from %g to %d retries per request, got %v", minBudgetRatio, maxBudgetRatio, b.Ratio)
	}
	if b.MinPerSecond < 0 || b.MinPerSecond > maxBudgetPerSec {
		ck.add(path+".min_per_second", "must be from 0 to %d, got %d", maxBudgetPerSec, b.MinPerSecond)
	}
	if b.TTL != 0 && (b.TTL < minBudgetTTL || b.TTL > maxBudgetTTL) {
		ck.add(path+".ttl", "must be from 1s to 1m0s (Finagle's bounds), got %v", b.TTL)
	}
	if b.Ratio == 0 && b.MinPerSecond == 0 {
		ck.add(path, "ratio 0 and min_per_second 0 allow no retry at all; say retry kind none instead")
	}
}

// checkArrival reports what is wrong with arrival a of a scenario that lasts
// duration (its instants are checked against it only when it is positive:
// ValidateScenario).
func checkArrival(ck *checker, path string, a Arrival, duration time.Duration) {
	if a.Start < 0 || a.Stop < 0 {
		ck.add(path, "start and stop must not be negative and stop must come after start")
	} else if a.Stop != 0 && a.Stop <= a.Start {
		ck.add(path+".stop", "%v is not after start %v", a.Stop, a.Start)
	}
	if duration > 0 {
		if a.Start >= duration {
			ck.add(path+".start", "%v is not before the scenario's duration %v", a.Start, duration)
		}
		if a.Stop > duration {
			ck.add(path+".stop", "%v is after the scenario's duration %v", a.Stop, duration)
		}
		if a.Kind == ArrivalBurst && a.At >= duration {
			ck.add(path+".at", "%v is not before the scenario's duration %v", a.At, duration)
		}
	}
	needRate := func() {
		if a.Rate.Count <= 0 || a.Rate.Per <= 0 {
			ck.add(path+".rate", "must be a positive count per positive duration")
		}
	}
	switch a.Kind {
	case ArrivalBurst:
		if a.Count <= 0 {
			ck.add(path+".count", "must be positive, got %d", a.Count)
		}
		if a.At < 0 || a.Spread < 0 {
			ck.add(path, "at and spread must not be negative")
		}
	case ArrivalConstant:
		needRate()
	case ArrivalPoisson:
		needRate()
		if a.Rate.Count > 0 && a.Rate.Per/time.Duration(a.Rate.Count) <= 0 {
			ck.add(path+".rate", "is faster than one per nanosecond")
		}
	case ArrivalOnOff:
		needRate()
		ck.positive(path+".on", a.On)
		if a.Off < 0 {
			ck.add(path+".off", "must not be negative, got %v", a.Off)
		}
	case ArrivalIdleThenBurst:
		if a.Count <= 0 {
			ck.add(path+".count", "must be positive, got %d", a.Count)
		}
		ck.positive(path+".idle", a.Idle)
		if a.Spread < 0 {
			ck.add(path+".spread", "must not be negative, got %v", a.Spread)
		}
	default:
		ck.add(path+".kind", "unknown arrival kind %v", a.Kind)
	}
}

func checkRetry(ck *checker, path string, r Retry, rtt time.Duration) {
	checkBudget(ck, path+".budget", r.Budget)
	if r.MaxAttempts < 0 {
		ck.add(path+".max_attempts", "must not be negative, got %d", r.MaxAttempts)
	}
	if !retryAfterEnum.valid(r.RetryAfter) {
		ck.add(path+".retry_after", "unknown value %v", r.RetryAfter)
	}
	if r.RetryAfterJitter < 0 {
		ck.add(path+".retry_after_jitter", "must not be negative, got %v", r.RetryAfterJitter)
	}
	switch r.Kind {
	case RetryNone, RetryImmediate:
	case RetryFixed:
		if r.Delay < 0 {
			ck.add(path+".delay", "must not be negative, got %v", r.Delay)
		}
	case RetryExponential:
		ck.positive(path+".base", r.Base)
		if r.Cap < r.Base {
			ck.add(path+".cap", "%v is below base %v", r.Cap, r.Base)
		}
		if !jitterEnum.valid(r.Jitter) {
			ck.add(path+".jitter", "unknown jitter %v", r.Jitter)
		} else if r.Jitter == JitterNoBackoff {
			ck.add(path+".jitter", "no_backoff is for the contention study; a client that retries at once has retry kind immediate")
		}
	default:
		ck.add(path+".kind", "unknown retry kind %v", r.Kind)
	}
	switch {
	case r.Kind == RetryImmediate && r.MaxAttempts == 0 && rtt <= 0:
		ck.add(path+".max_attempts", "must be positive for immediate retries without a round trip (rtt): a refused client would retry forever at the same instant")
	case r.Kind == RetryFixed && r.Delay == 0 && r.MaxAttempts == 0 && rtt <= 0:
		ck.add(path+".max_attempts", "retries with no wait must have a maximum, or they repeat forever at one instant")
	}
	for i, s := range r.On {
		if s < 400 || s > 599 {
			ck.add(fmt.Sprintf("%s.on[%d]", path, i), "a status a client retries is 400 to 599 (a refusal's or a shed's), got %d", s)
		}
	}
	if r.RetryAfterJitter > 0 && !r.HonorRetryAfter {
		ck.add(path+".retry_after_jitter", "needs honor_retry_after: true")
	}
}

// checkBackend reports what is wrong with backend b: its changes come one after
// another (two at one instant would leave the first in force for no time at
// all), each before duration when it is positive (ValidateScenario).
func checkBackend(ck *checker, path string, b Backend, duration time.Duration) {
	if b.Capacity < 0 {
		ck.add(path+".capacity", "must not be negative, got %d", b.Capacity)
	}
	if b.RetryAfter < 0 {
		ck.add(path+".retry_after", "must not be negative, got %v", b.RetryAfter)
	}
	if b.QueueSize < 0 {
		ck.add(path+".queue", "must not be negative, got %d", b.QueueSize)
	}
	ck.positive(path+".service.mean", b.Service.Mean)
	if b.Shedding != nil {
		checkShedding(ck, path+".shedding", b.Shedding)
	}
	if !disciplineEnum.valid(b.Discipline) {
		ck.add(path+".discipline", "unknown discipline %v", b.Discipline)
	}
	if q := b.CoDel; q != nil && (q.Target < 0 || q.Interval < 0) {
		ck.add(path+".codel", "target and interval must not be negative, got %v and %v", q.Target, q.Interval)
	}
	if !serviceEnum.valid(b.Service.Kind) {
		ck.add(path+".service.distribution", "unknown distribution %v", b.Service.Kind)
	}
	var prev time.Duration
	for i, ch := range b.Changes {
		p := fmt.Sprintf("%s.changes[%d]", path, i)
		if ch.At < 0 {
			ck.add(p+".at", "must not be negative, got %v", ch.At)
		} else if i > 0 && ch.At <= prev {
			ck.add(p+".at", "%v is not after the previous change at %v", ch.At, prev)
		}
		if duration > 0 && ch.At >= duration {
			ck.add(p+".at", "%v is not before the scenario's duration %v", ch.At, duration)
		}
		prev = ch.At
		if ch.Capacity < 0 {
			ck.add(p+".capacity", "must not be negative, got %d", ch.Capacity)
		}
		if ch.Service.Mean < 0 {
			ck.add(p+".service.mean", "must not be negative, got %v", ch.Service.Mean)
		}
	}
}

// Earliest and latest Start: a run's instants, in Unix nanoseconds from Start,
// must hold its longest span (MaxTime) within int64.
var (
	earliestStart = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)
	latestStart   = time.Date(2161, 12, 31, 23, 59, 59, 0, time.UTC)
)

// checkWallStart reports a wall-clock start outside the years a run can span.
func checkWallStart(ck *checker, start time.Time) {
	if !start.IsZero() && (start.Before(earliestStart) || start.After(latestStart)) {
		ck.add("start", "%v is outside 1970 to 2161, the years a run's nanosecond clock can span from", start.UTC().Format(time.RFC3339))
	}
}
