package algorithms

import (
	"errors"
	"fmt"
	"time"
)

// Kong is Kong Gateway's open-source rate-limiting plugin (Kong 3.9.3, tag
// a643428; the same files at master 22246ef: kong/plugins/rate-limiting/handler.lua,
// policies/init.lua, expiration.lua, schema.lua, kong/tools/timestamp.lua). One
// Kong is one plugin instance; its state is one identifier's counters, one per
// configured period.
//
// Rules, each with its source:
//
//   - The clock is whole seconds: current_timestamp = ngx.time()×1000
//     (handler.lua:127).
//   - Periods are calendar units in UTC: the period of a timestamp starts at its
//     second, minute, hour, day, the 1st of its month, the 1st of January
//     (timestamp.lua get_timestamps zeroes the fields in turn), so a month is a
//     calendar month (28 to 31 days) and a year 365 or 366 days. Virtual t=0 is
//     KongParams.Epoch.
//   - Several periods at once: every configured period is checked; a period with
//     remaining = limit − usage ≤ 0 stops the request (handler.lua:108 get_usage),
//     so a request is refused iff some period's usage has reached its limit. The
//     request's own size is not in the check.
//   - A refused request is not counted: access returns the error (handler.lua:200)
//     before the increment (handler.lua:209-212), and the local policy's
//     increment adds 1 to every configured period (policies/init.lua:308
//     shm:incr). rlsim's cost c adds c (the policies' value argument; the plugin
//     always passes 1) and shows remaining − c.
//   - A counter is a shared-dict key per period start, created by shm:incr with
//     the TTL expiration.lua gives the period: 1, 60, 3600, 86400, 2592000 (30
//     days), 31536000 (365 days) seconds from its creation. The TTL outlives a
//     second, minute, hour or day period, but not a 31-day month or a leap year
//     whose first request came early: such a counter expires, and restarts at 0,
//     30 days (365 days) after its first increment, before the period ends.
//   - Headers (handler.lua:150-198): X-RateLimit-Limit-<Period> is the limit,
//     X-RateLimit-Remaining-<Period> is max(0, remaining − 1) when admitted,
//     max(0, remaining) when refused. RateLimit-Limit/-Remaining/-Reset are the
//     period with the smallest such remaining, ties to the longer period;
//     RateLimit-Reset = max(1, expiration − (seconds since its period start))
//     with expiration.lua's length, so for a 31-day month it can say 1 s while a
//     day is left, and for February it says 2 days too many. Retry-After is that
//     Reset (handler.lua:196). Decision carries those figures: Limit, Remaining,
//     Reset, and RetryAfter = Retry-After with RetryAfterExact false. With
//     HideClientHeaders Kong sends none of them, and RetryAfter is the exact
//     wait until every stopping period has restarted (RetryAfterExact true).
//   - Policies (schema.lua default local): local counts in this node's shared
//     dict, which is what Kong models. cluster counts in the database (each
//     request reads, and after admission increments, a row per period: the same
//     verdicts for one node, shared by all nodes). redis with sync_rate −1 (the
//     default) counts every request, refused ones too: usage() runs INCR and
//     returns the value before it (policies/init.lua:409-414), so Policy
//     KongRedis counts refused requests (the penalty). redis with sync_rate > 0
//     (at least 0.02 s, schema.lua) reads Redis once per counter and then adds
//     local deltas, pushing them in a batch at most every sync_rate seconds
//     (rate_limited_sync): nodes see each other's counts late; not modelled here.
//   - fault_tolerant (default true): when the data store fails the request is
//     proxied with no headers and no limit, else Kong answers 500. The local
//     counter does not fail, so it is not modelled.
//   - The increment runs in a zero-delay timer after the access phase
//     (handler.lua:212), so requests in flight before it runs see the old count;
//     a sequential decision does not model that race.
//
// The rule is immutable and safe for concurrent use; each KongState belongs to
// one goroutine.
type Kong struct {
	limits [kongPeriods]int64 // 0: period not configured
	epoch  time.Time          // wall clock at virtual 0
	esec   int64              // epoch.Unix()
	ensec  time.Duration      // epoch's ns within its second
	hide   bool
	redis  bool
}

// KongTitle names the product lane: product, version and source.
const KongTitle = "Kong rate-limiting (Kong 3.9.3; kong/plugins/rate-limiting/handler.lua, policies/init.lua)"

// KongPolicy is the plugin's policy field.
type KongPolicy string

// The policies of schema.lua.
const (
	KongLocal   KongPolicy = "local"
	KongCluster KongPolicy = "cluster"
	KongRedis   KongPolicy = "redis"
)

// KongParams is the rate-limiting plugin's config, in its own words. A zero
// limit leaves its period out; at least one must be set.
type KongParams struct {
	// Second .. Year are config.second .. config.year: requests per period.
	Second, Minute, Hour, Day, Month, Year int64
	// Policy is config.policy; empty means local (the default).
	Policy KongPolicy
	// HideClientHeaders is config.hide_client_headers (default false).
	HideClientHeaders bool
	// Epoch is the wall-clock instant of virtual t=0; the zero Epoch means the
	// Unix epoch, 1970-01-01T00:00:00Z (t=0 starts a year, a month, a day...).
	Epoch time.Time
}

const kongPeriods = 6

var (
	kongNames = [kongPeriods]string{"second", "minute", "hour", "day", "month", "year"}
	// kongExpiration is expiration.lua, in seconds: each counter's TTL and the
	// window length RateLimit-Reset uses.
	kongExpiration = [kongPeriods]int64{1, 60, 3600, 86400, 2592000, 31536000}
)

// KongParamsOf translates p into the one period whose length Window is: 1s, 1m,
// 1h or 24h. Month and year are calendar units, not fixed durations, so no
// Window maps to them. Burst must be 0 or Limit: a fixed window's burst is its
// limit. Epoch is zero, aligning the periods to t=0.
func KongParamsOf(p Policy) (KongParams, error) {
	var errs []error
	if err := p.Validate(); err != nil {
		errs = append(errs, err)
	}
	var x KongParams
	switch p.Window {
	case time.Second:
		x.Second = p.Limit
	case time.Minute:
		x.Minute = p.Limit
	case time.Hour:
		x.Hour = p.Limit
	case 24 * time.Hour:
		x.Day = p.Limit
	default:
		errs = append(errs, fmt.Errorf("window %v is not a Kong period (1s, 1m0s, 1h0m0s, 24h0m0s; month and year are calendar units)", p.Window))
	}
	if p.Burst != 0 && p.Burst != p.Limit {
		errs = append(errs, fmt.Errorf("burst %d: a fixed window's burst is its limit %d", p.Burst, p.Limit))
	}
	if err := errors.Join(errs...); err != nil {
		return KongParams{}, fmt.Errorf("kong rate-limiting: %w", err)
	}
	return x, nil
}

// NewKong returns the rule for x, or every problem with x (schema.lua's checks).
func NewKong(x KongParams) (*Kong, error) {
	k := &Kong{limits: [kongPeriods]int64{x.Second, x.Minute, x.Hour, x.Day, x.Month, x.Year}, hide: x.HideClientHeaders}
	var errs []error
	set := false
	for i, l := range k.limits {
		if l < 0 {
			errs = append(errs, fmt.Errorf("%s must be greater than 0, got %d", kongNames[i], l))
		}
		set = set || l > 0
	}
	if !set {
		errs = append(errs, errors.New("at least one of these fields must be non-empty: 'config.second', 'config.minute', 'config.hour', 'config.day', 'config.month', 'config.year'"))
	}
	// validate_periods_order: a longer period's limit may not be below a shorter one's.
	for i := range k.limits {
		for j := i + 1; j < kongPeriods; j++ {
			if k.limits[i] > 0 && k.limits[j] > 0 && k.limits[j] < k.limits[i] {
				errs = append(errs, fmt.Errorf("the limit for %s(%d) cannot be lower than the limit for %s(%d)", kongNames[j], k.limits[j], kongNames[i], k.limits[i]))
			}
		}
	}
	switch x.Policy {
	case "", KongLocal, KongCluster:
	case KongRedis:
		k.redis = true
	default:
		errs = append(errs, fmt.Errorf("policy %q: expected one of: local, cluster, redis", x.Policy))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("kong rate-limiting: %w", err)
	}
	k.epoch = x.Epoch
	if x.Epoch.IsZero() {
		k.epoch = time.Unix(0, 0)
	}
	k.esec, k.ensec = k.epoch.Unix(), time.Duration(k.epoch.Nanosecond())
	return k, nil
}

// KongState is one identifier's counters, one per period: 192 bytes. The zero
// value is a never-seen identifier.
type KongState struct {
	c [kongPeriods]kongCounter
}

// kongCounter is one shared-dict key: the period it counts (wall-clock Unix
// seconds [start, end)), its value, and when its TTL expires (virtual time).
type kongCounter struct {
	start, end int64
	count      int64
	expire     time.Duration
}

// KongHeaders is the per-period header pair, X-RateLimit-Limit-<Period> and
// X-RateLimit-Remaining-<Period>, in the order second .. year; Limit 0 marks a
// period not configured.
type KongHeaders struct {
	Limit, Remaining [kongPeriods]int64
}

// wallSec is ngx.time() at virtual now.
func (k *Kong) wallSec(now time.Duration) int64 {
	return k.esec + int64((k.ensec+now)/time.Second)
}

// virtual is the virtual time of wall-clock Unix second sec.
func (k *Kong) virtual(sec int64) time.Duration {
	return time.Duration(sec-k.esec)*time.Second - k.ensec
}

// period is [start, end) of period i around wall second sec (timestamp.lua).
func kongPeriod(i int, sec int64) (start, end int64) {
	switch i {
	case 4, 5:
		t := time.Unix(sec, 0).UTC()
		y, m, _ := t.Date()
		if i == 5 {
			return time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC).Unix(), time.Date(y+1, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
		}
		return time.Date(y, m, 1, 0, 0, 0, 0, time.UTC).Unix(), time.Date(y, m+1, 1, 0, 0, 0, 0, time.UTC).Unix()
	}
	n := kongExpiration[i]
	start = sec - ((sec%n)+n)%n
	return start, start + n
}

// usage is counter i's value at now (wall second sec): 0 for a key of another
// period or past its TTL. It rolls the counter to now's period in c; a second
// before c's period (time going backwards) counts in c's period.
func (k *Kong) usage(c *kongCounter, i int, sec int64, now time.Duration) int64 {
	if c.start == c.end || sec >= c.end {
		c.start, c.end = kongPeriod(i, sec)
		c.count = 0
	}
	if c.count != 0 && now >= c.expire {
		c.count = 0
	}
	return c.count
}

// incr is shm:incr(key, cost, 0, ttl): a missing key is created with the TTL.
func (k *Kong) incr(c *kongCounter, i int, now time.Duration, cost int64) {
	if c.count == 0 {
		c.expire = now + time.Duration(kongExpiration[i])*time.Second
	}
	c.count = satAdd(c.count, cost)
}

// Decide answers a request of cost units (cost ≥ 1) at now.
func (k *Kong) Decide(s *KongState, now time.Duration, cost int64) Decision {
	d, _ := k.DecideHeaders(s, now, cost)
	return d
}

// DecideHeaders is Decide with the per-period headers.
func (k *Kong) DecideHeaders(s *KongState, now time.Duration, cost int64) (Decision, KongHeaders) {
	if cost < 1 {
		badCost("Kong.Decide", cost)
	}
	sec := k.wallSec(now)
	var rem [kongPeriods]int64
	stop := false
	for i, l := range k.limits {
		if l == 0 {
			continue
		}
		rem[i] = l - k.usage(&s.c[i], i, sec, now)
		stop = stop || rem[i] <= 0
	}
	var h KongHeaders
	d := Decision{}
	best := -1
	for i, l := range k.limits {
		if l == 0 {
			continue
		}
		r := rem[i]
		if !stop {
			r -= cost
		}
		r = max(0, r)
		h.Limit[i], h.Remaining[i] = l, r
		if best < 0 || r < d.Remaining || (r == d.Remaining && kongExpiration[i] > kongExpiration[best]) {
			best, d.Limit, d.Remaining = i, l, r
		}
	}
	reset := max(1, kongExpiration[best]-(sec-s.c[best].start))
	d.Reset = time.Duration(reset) * time.Second
	if stop {
		d.Verdict = Refuse
		d.RetryAfter = d.Reset
		if k.hide {
			d.RetryAfter, d.RetryAfterExact = k.exactWait(s, rem, now), true
		}
	}
	if !stop || k.redis {
		for i, l := range k.limits {
			if l != 0 {
				k.incr(&s.c[i], i, now, cost)
			}
		}
	}
	return d, h
}

// exactWait is the time until every stopping period's counter restarts: at
// its period's end or its TTL, whichever is first.
func (k *Kong) exactWait(s *KongState, rem [kongPeriods]int64, now time.Duration) time.Duration {
	var wait time.Duration
	for i, l := range k.limits {
		if l == 0 || rem[i] > 0 {
			continue
		}
		c := &s.c[i]
		wait = max(wait, min(k.virtual(c.end), c.expire)-now)
	}
	return wait
}

// Idle reports whether s decides exactly as a never-seen identifier from now
// on: every counter is zero, past its period or past its TTL.
func (k *Kong) Idle(s *KongState, now time.Duration) bool {
	sec := k.wallSec(now)
	for i := range s.c {
		c := &s.c[i]
		if c.count != 0 && sec < c.end && now < c.expire {
			return false
		}
	}
	return true
}

// Charge counts cost in every configured period at now, whether it fits or not
// (another node's increment of a shared counter).
func (k *Kong) Charge(s *KongState, now time.Duration, cost int64) {
	if cost < 1 {
		badCost("Kong.Charge", cost)
	}
	sec := k.wallSec(now)
	for i, l := range k.limits {
		if l != 0 {
			k.usage(&s.c[i], i, sec, now)
			k.incr(&s.c[i], i, now, cost)
		}
	}
}

var (
	_ Algorithm[KongState] = (*Kong)(nil)
	_ Charging[KongState]  = (*Kong)(nil)
)
