package algorithms

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"time"
)

// AWSThrottleParams is one level of Amazon API Gateway throttling, in AWS's
// words (REST API reference, ThrottleSettings: "rateLimit — The API target
// request rate limit. Type: Double"; "burstLimit — The API target request burst
// rate limit. Type: Integer"; the same pair is a stage's or method's
// MethodSetting throttlingRateLimit/throttlingBurstLimit, a usage plan's
// throttle, and the account-level limit per Region).
type AWSThrottleParams struct {
	// RateLimit is `rateLimit`, requests per second; fractional rates are allowed
	// (a Double). rlsim keeps it exactly to a thousandth of a request per second.
	RateLimit float64
	// BurstLimit is `burstLimit`, the bucket size: "the burst (that is, the
	// maximum bucket size)".
	BurstLimit int64
}

// AWSThrottleParamsOf translates p into one throttling level: rateLimit =
// Limit/Window per second, burstLimit = EffectiveBurst. It fails unless the rate
// is a whole number of thousandths of a request per second.
func AWSThrottleParamsOf(p Policy) (AWSThrottleParams, error) {
	if err := p.Validate(); err != nil {
		return AWSThrottleParams{}, fmt.Errorf("aws api gateway: %w", err)
	}
	// milli-requests per second = Limit×1e12/Window, exactly, in 128 bits.
	hi, lo := bits.Mul64(uint64(p.Limit), 1e12)
	if hi >= uint64(p.Window) {
		return AWSThrottleParams{}, fmt.Errorf("aws api gateway: limit %d per %v is too fast", p.Limit, p.Window)
	}
	q, rem := bits.Div64(hi, lo, uint64(p.Window))
	if rem != 0 {
		return AWSThrottleParams{}, fmt.Errorf("aws api gateway: %d per %v is not a whole number of 1/1000 requests per second", p.Limit, p.Window)
	}
	return AWSThrottleParams{RateLimit: float64(q) / 1000, BurstLimit: p.EffectiveBurst()}, nil
}

// AWSAccountDefaultThrottle is the account-level throttle per Region by default:
// "10,000 requests per second (RPS) with an additional burst capacity provided
// by the token bucket algorithm, using a maximum bucket capacity of 5,000
// requests" (API Gateway quotas, developer guide limits.html; 2,500 and 1,250
// in some newer Regions).
var AWSAccountDefaultThrottle = AWSThrottleParams{RateLimit: 10000, BurstLimit: 5000}

// AWSThrottle is one level of Amazon API Gateway throttling (REST and HTTP APIs,
// developer guide api-gateway-request-throttling.html): "API Gateway throttles
// requests to your API using the token bucket algorithm, where a token counts
// for a request" (developer guide, "Throttle requests to your REST APIs for
// better throughput", api-gateway-request-throttling.html, and the HTTP API
// twin http-api-throttling.html), a bucket of burstLimit tokens refilled at
// rateLimit per second. AWS does not publish the arithmetic; rlsim gives the
// documented model its exact form: rlsim's TokenBucket (lazy, continuous,
// starting full, refused requests spend nothing), with the rate as the exact
// fraction round(rateLimit×1000) per 1000s. AWS calls its limits "targets
// rather than guaranteed request ceilings", applied "on a best-effort basis".
//
// Layers: a request must pass every level that applies to it — per-client
// per-method and per-client (usage plan, API key) throttles, the stage's or
// method's throttle, and the account's per Region (default 10,000 requests per
// second, burst 5,000: AWSAccountDefaultThrottle). In rlsim that is a chain
// of AWSThrottle lanes, one per level, each on its own key (the API key, the
// method, the account); AWS does not say whether a request throttled by a later
// level spent a token at an earlier one: a chain that peeks at every level
// before charging any (Peek) spends nothing on a throttled request.
//
// A throttled request gets 429 Too Many Requests with no Retry-After: RetryAfter
// is the exact wait (TokenBucket's, RetryAfterExact). Limit is burstLimit;
// Remaining and Reset are TokenBucket's (AWS sends no RateLimit headers).
type AWSThrottle struct {
	tb    *TokenBucket
	burst int64
}

// AWSThrottleState is one level's bucket for one key: 16 bytes; the zero value
// is a full bucket never used.
type AWSThrottleState struct{ tb TokenBucketState }

var (
	_ Algorithm[AWSThrottleState] = (*AWSThrottle)(nil)
	_ Charging[AWSThrottleState]  = (*AWSThrottle)(nil)
)

// NewAWSThrottle returns one throttling level for x, or every problem with x.
func NewAWSThrottle(x AWSThrottleParams) (*AWSThrottle, error) {
	var errs []error
	milli := math.Round(x.RateLimit * 1000)
	switch {
	case !(x.RateLimit > 0) || math.IsInf(x.RateLimit, 0):
		errs = append(errs, fmt.Errorf("rateLimit must be positive, got %v", x.RateLimit))
	case math.Abs(x.RateLimit*1000-milli) > 1e-6*max(1, milli):
		errs = append(errs, fmt.Errorf("rateLimit %v is not a whole number of 1/1000 requests per second", x.RateLimit))
	case milli > 1e15:
		errs = append(errs, fmt.Errorf("rateLimit %v is too large", x.RateLimit))
	}
	if x.BurstLimit < 1 {
		// AWS accepts 0 (no request can start a burst); rlsim does not model it.
		errs = append(errs, fmt.Errorf("burstLimit must be at least 1, got %d", x.BurstLimit))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("aws api gateway: %w", err)
	}
	tb, err := NewTokenBucket(Policy{Limit: int64(milli), Window: 1000 * time.Second, Burst: x.BurstLimit})
	if err != nil {
		return nil, fmt.Errorf("aws api gateway: %w", err)
	}
	return &AWSThrottle{tb: tb, burst: x.BurstLimit}, nil
}

// Decide admits or throttles a request of cost at now.
func (a *AWSThrottle) Decide(s *AWSThrottleState, now time.Duration, cost int64) Decision {
	if cost < 1 {
		badCost("AWSThrottle.Decide", cost)
	}
	d := a.tb.Decide(&s.tb, now, cost)
	d.Limit = a.burst
	return d
}

// Idle reports whether the bucket is full at now.
func (a *AWSThrottle) Idle(s *AWSThrottleState, now time.Duration) bool { return a.tb.Idle(&s.tb, now) }

// Charge takes cost tokens, below an empty bucket if need be.
func (a *AWSThrottle) Charge(s *AWSThrottleState, now time.Duration, cost int64) {
	a.tb.Charge(&s.tb, now, cost)
}

// AWSQuotaPeriod is a usage plan quota's `period`.
type AWSQuotaPeriod string

// The three periods QuotaSettings allows: "Valid values are "DAY", "WEEK" or "MONTH"".
const (
	AWSQuotaDay   AWSQuotaPeriod = "DAY"
	AWSQuotaWeek  AWSQuotaPeriod = "WEEK"
	AWSQuotaMonth AWSQuotaPeriod = "MONTH"
)

// AWSQuotaParams is a usage plan's quota (REST API reference, QuotaSettings), in
// AWS's words, plus the run's wall-clock start.
type AWSQuotaParams struct {
	// Limit is `limit`: "The target maximum number of requests that can be made
	// in a given time period."
	Limit int64
	// Offset is `offset`: "The number of requests subtracted from the given
	// limit in the initial time period." 0 by default.
	Offset int64
	// Period is `period`: DAY, WEEK or MONTH.
	Period AWSQuotaPeriod
	// Epoch is the wall-clock instant of the run's t=0: periods are calendar
	// periods in UTC, so the virtual clock needs an anchor. The initial period
	// (the one Offset applies to) is the one holding Epoch.
	Epoch time.Time
}

// AWSQuota is an API Gateway usage plan quota (REST API reference,
// API_QuotaSettings.html): a per-API-key counter of requests reset at
// each calendar period's start in UTC — a day at 00:00, a week on Sunday 00:00
// (the SDK's older reading of offset: "with a time period of WEEK, an offset of 0
// starts on Sunday"), a month on the 1st at 00:00. rlsim counts admitted
// requests (AWS does not say whether throttled ones count) and refuses a request
// that would take the count past Limit (Limit − Offset in the initial period).
// AWS answers 429 "Limit Exceeded" with no Retry-After: RetryAfter is the exact
// time to the next period in which the request fits (RetryAfterExact), Never
// when cost > Limit. Remaining is what is left of the period's quota; Reset the
// time until the next period starts. AWS's docs call quotas targets that
// clients "can exceed" in some cases; rlsim holds them exactly.
type AWSQuota struct {
	limit, offset int64
	period        AWSQuotaPeriod
	epoch         time.Time
	base          int64 // the index of the period holding Epoch
}

// AWSQuotaState is one API key's count: 16 bytes; the zero value is a key that
// has used nothing.
type AWSQuotaState struct {
	period int64 // index − base + 1 of the counted period; 0 = none yet
	used   int64
}

var (
	_ Algorithm[AWSQuotaState] = (*AWSQuota)(nil)
	_ Charging[AWSQuotaState]  = (*AWSQuota)(nil)
)

// NewAWSQuota returns the quota for x, or every problem with x.
func NewAWSQuota(x AWSQuotaParams) (*AWSQuota, error) {
	var errs []error
	if x.Limit < 0 {
		errs = append(errs, fmt.Errorf("limit must not be negative, got %d", x.Limit))
	}
	if x.Offset < 0 || x.Offset >= x.Limit {
		errs = append(errs, fmt.Errorf("offset must be 0 or more and below the limit %d (as the scenario checks), got %d", x.Limit, x.Offset))
	}
	switch x.Period {
	case AWSQuotaDay, AWSQuotaWeek, AWSQuotaMonth:
	default:
		errs = append(errs, fmt.Errorf("unknown period %q (want DAY, WEEK or MONTH)", x.Period))
	}
	if x.Epoch.IsZero() {
		errs = append(errs, errors.New("epoch (the run's wall-clock start) is required"))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("aws usage plan quota: %w", err)
	}
	q := &AWSQuota{limit: x.Limit, offset: x.Offset, period: x.Period, epoch: x.Epoch.UTC()}
	q.base, _ = q.periodAt(0)
	return q, nil
}

const awsDay = 24 * 60 * 60

// periodAt is the calendar period holding now (an index that grows by one per
// period) and the time from now to its end.
func (q *AWSQuota) periodAt(now time.Duration) (index int64, left time.Duration) {
	t := q.epoch.Add(now)
	switch q.period {
	case AWSQuotaMonth:
		y, m, _ := t.Date()
		next := time.Date(y, m+1, 1, 0, 0, 0, 0, time.UTC)
		return int64(y)*12 + int64(m) - 1, next.Sub(t)
	case AWSQuotaWeek:
		// 1970-01-01 was a Thursday; weeks start on Sunday 1969-12-28.
		sec := t.Unix() + 4*awsDay
		i := floorDiv(sec, 7*awsDay)
		return i, time.Unix((i+1)*7*awsDay-4*awsDay, 0).Sub(t)
	default:
		i := floorDiv(t.Unix(), awsDay)
		return i, time.Unix((i+1)*awsDay, 0).Sub(t)
	}
}

// allowance is the quota of period index.
func (q *AWSQuota) allowance(index int64) int64 {
	if index == q.base {
		return q.limit - q.offset
	}
	return q.limit
}

// Decide admits a request of cost if the period's count has room for it.
func (q *AWSQuota) Decide(s *AWSQuotaState, now time.Duration, cost int64) Decision {
	if cost < 1 {
		badCost("AWSQuota.Decide", cost)
	}
	index, left := q.periodAt(now)
	used := q.usedIn(s, index)
	allow := q.allowance(index)
	d := Decision{Limit: allow, Reset: left, RetryAfterExact: true}
	switch {
	case cost > q.limit:
		d.Verdict, d.RetryAfter = Refuse, Never
	case used+cost > allow:
		d.Verdict, d.RetryAfter = Refuse, left // the next period is never the initial one
	default:
		used += cost
		s.period, s.used = index-q.base+1, used
	}
	d.Remaining = max(allow-used, 0)
	return d
}

func (q *AWSQuota) usedIn(s *AWSQuotaState, index int64) int64 {
	if s.period == index-q.base+1 {
		return s.used
	}
	return 0
}

// Idle reports whether the key has used nothing in now's period.
func (q *AWSQuota) Idle(s *AWSQuotaState, now time.Duration) bool {
	index, _ := q.periodAt(now)
	return q.usedIn(s, index) == 0 && s.period <= index-q.base+1
}

// Charge counts cost in now's period, past the quota if need be.
func (q *AWSQuota) Charge(s *AWSQuotaState, now time.Duration, cost int64) {
	index, _ := q.periodAt(now)
	s.used, s.period = satAdd(q.usedIn(s, index), cost), index-q.base+1
}
