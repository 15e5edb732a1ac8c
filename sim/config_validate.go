package sim

import (
	"fmt"

	"github.com/rlsim/rlsim/algorithms"
	"strings"
	"time"
)

// Validate reports every problem in c at once as FieldErrors, or nil.
func (c Config) Validate() error {
	var ck checker
	ck.positive("duration", c.Duration)
	if c.Drain < 0 {
		ck.add("drain", "must not be negative, got %v", c.Drain)
	}
	if c.Bucket < 0 {
		ck.add("bucket", "must not be negative, got %v", c.Bucket)
	}
	if len(c.Limits) == 0 {
		ck.add("limits", "at least one limit is needed")
	}
	if c.Lanes != nil && len(c.Lanes) == 0 {
		ck.add("lanes", "at least one lane is needed (leave lanes out for the default %d)", len(DefaultLanes()))
	}
	checkLanes(&ck, &c)
	for i, l := range c.Limits {
		checkLimit(&ck, fmt.Sprintf("limits[%d]", i), l)
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
		ck.add("clients", "at least one client group is needed")
	}
	for i, g := range c.Clients {
		checkGroup(&ck, fmt.Sprintf("clients[%d]", i), g, c.Duration)
	}
	if c.Backend != nil {
		checkBackend(&ck, "backend", *c.Backend)
	}
	checkTopology(&ck, c)
	checkCaps(&ck, c)
	checkTopologyCaps(&ck, c)
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
	if o.Limit < 0 || o.Limit >= max(limits, 1) {
		ck.add(path+".limit_index", "must name a limit of the chain (0 to %d), got %d", limits-1, o.Limit)
	}
	checkPolicy(ck, path, o.Policy)
}

func checkLimit(ck *checker, path string, l Limit) {
	if !keyEnum.valid(l.Key) {
		ck.add(path+".key", "unknown key %v", l.Key)
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

func checkGroup(ck *checker, path string, g ClientGroup, duration time.Duration) {
	if g.Count <= 0 {
		ck.add(path+".count", "must be positive, got %d", g.Count)
	}
	if g.Cost < 0 {
		ck.add(path+".cost", "must not be negative, got %d", g.Cost)
	}
	if len(g.Arrivals) == 0 {
		ck.add(path+".arrivals", "at least one arrival pattern is needed")
	}
	for i, a := range g.Arrivals {
		checkArrival(ck, fmt.Sprintf("%s.arrivals[%d]", path, i), a)
	}
	checkRetry(ck, path+".retry", g.Retry)
}

func checkArrival(ck *checker, path string, a Arrival) {
	if a.Start < 0 || a.Stop < 0 || (a.Stop > 0 && a.Stop <= a.Start) {
		ck.add(path, "start and stop must not be negative and stop must come after start")
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

func checkRetry(ck *checker, path string, r Retry) {
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
			ck.add(path+".cap", "must be at least base (%v), got %v", r.Base, r.Cap)
		}
		if !jitterEnum.valid(r.Jitter) {
			ck.add(path+".jitter", "unknown jitter %v", r.Jitter)
		} else if r.Jitter == JitterNoBackoff {
			ck.add(path+".jitter", "no_backoff is for the contention study; a client that retries at once has retry kind immediate")
		}
	default:
		ck.add(path+".kind", "unknown retry kind %v", r.Kind)
	}
	zeroWait := r.Kind == RetryImmediate || (r.Kind == RetryFixed && r.Delay == 0)
	if zeroWait && r.MaxAttempts == 0 {
		ck.add(path+".max_attempts", "retries with no wait must have a maximum, or they repeat forever at one instant")
	}
}

func checkBackend(ck *checker, path string, b Backend) {
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
	if !serviceEnum.valid(b.Service.Kind) {
		ck.add(path+".service.distribution", "unknown distribution %v", b.Service.Kind)
	}
	var prev time.Duration
	for i, ch := range b.Changes {
		p := fmt.Sprintf("%s.changes[%d]", path, i)
		if ch.At < prev {
			ck.add(p+".at", "changes must be in time order (%v is before %v)", ch.At, prev)
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
