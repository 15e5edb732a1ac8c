package algorithms

import (
	"errors"
	"fmt"
	"time"
)

// Cloudflare is one data centre's counter of a Cloudflare WAF rate limiting
// rule, held to Cloudflare's documentation (the service is not open source).
// Pages read, at the cloudflare/cloudflare-docs commits given:
//
//	[RR]  developers.cloudflare.com/waf/rate-limiting-rules/ (src/content/docs/waf/rate-limiting-rules/index.mdx @75617bb)
//	[PAR] .../waf/rate-limiting-rules/parameters/ (parameters.mdx @5d2cc64)
//	[REQ] .../waf/rate-limiting-rules/request-rate/ (request-rate.mdx @04bf3f5)
//	[AV]  the availability table (src/content/partials/waf/rate-limiting-availability-by-plan.mdx @07acbb6)
//	[BLOG] blog.cloudflare.com/counting-things-a-lot-of-different-things/ (2017)
//
// Rules, each with its source, and what is rlsim's choice:
//
//   - One counter per value of the rule's characteristics, and the data centre
//     (cf.colo.id) is a mandatory characteristic: "counters are not shared
//     across data centers" [REQ]. A Cloudflare is one colo's counter; a
//     topology of several colos gives several independent counters.
//   - Every request matching the counting expression increments the counter,
//     which is then compared: in [REQ] Example A the third request sets the
//     counter to 2, "above the limit defined in Requests" (1), and is blocked.
//     So the request is refused iff the rate including it exceeds
//     requests_per_period, and a blocked request counts too. That blocked
//     requests keep counting (during a ban, or when throttling) is read from
//     Example A and [BLOG] ("Every request that matches the rule is counted");
//     no page says it outright, so ExcludeBlocked offers the other reading.
//   - The rate is an approximate sliding window [BLOG]: two fixed-window
//     counters and rate = previous × (period − elapsed)/period + current.
//     The current pages do not describe the counting model beyond "not designed
//     to allow a precise number of requests", with counters updated up to a few
//     seconds late [RR]. rlsim's choices: windows aligned to the Unix clock
//     (virtual t=0 is CloudflareParams.Epoch), nanosecond time, exact rational
//     comparison, and no update delay (a topology can add one).
//   - Period (seconds): 10, 15, 20, 30, 40, 45, 60, 90, 120, 180, 240, 300, 480,
//     600, 900, 1200, 1800, 2400, 3600, 65535, 86400, as the plan allows [AV]
//     (the API page lists 10, 60, 120, 300, 600, 3600 [PAR]).
//   - mitigation_timeout > 0, "Perform action during the selected duration":
//     once the rate is reached, every further matching request is refused for
//     the timeout "regardless of the request rate during this period" [RR],
//     [PAR]. rlsim: the ban starts at the tripping request (itself blocked, [REQ]
//     Example A) and lasts exactly the timeout, [t, t+timeout); the request at
//     t+timeout is judged by the counter again. Values 0 .. 86400 s (the API
//     values 0, 10, 60, 120, 300, 600, 3600, 86400; Enterprise may set others by
//     API [AV]).
//   - mitigation_timeout 0, "Throttle requests over the maximum configured
//     rate" (Enterprise, Block action [PAR]): each request is judged by the
//     counter alone, no ban. With ExcludeBlocked this is exactly the sliding
//     window counter lane.
//   - Cost is counted as that many requests at once. Complexity-based rules
//     (score per period from an origin response header, counted after the
//     response [REQ]) and counting expressions on response fields are not
//     modelled.
//
// Headers: Cloudflare's pages read here do not define rate-limit headers or the
// Retry-After value of a rate limiting block (a 2026-03-12 changelog says a WAF
// rate limiting rule may set a "dynamic Retry-After"). So Decision carries this
// model's exact figures: RetryAfter is the wait until the same request would be
// admitted if nothing else arrived, the ban's end or later (RetryAfterExact
// true); Limit is requests_per_period, Remaining ⌊limit − rate⌋ (0 during a
// ban), Reset the wait until the ban is over and the counters are empty.
//
// The rule is immutable and safe for concurrent use; each CloudflareState
// belongs to one goroutine.
type Cloudflare struct {
	sw      *SlidingWindowCounter
	off     time.Duration
	ban     time.Duration
	exclude bool
}

// CloudflareTitle names the product lane: product and the pages it follows.
const CloudflareTitle = "Cloudflare rate limiting rules, one data centre (developers.cloudflare.com/waf/rate-limiting-rules/)"

// CloudflareParams is a rate limiting rule's parameters [PAR], in the API's words.
type CloudflareParams struct {
	// RequestsPerPeriod is requests_per_period ("When rate exceeds > Requests").
	RequestsPerPeriod int64
	// Period is period, in seconds ("When rate exceeds > Period").
	Period int64
	// MitigationTimeout is mitigation_timeout, in seconds ("For duration");
	// 0 throttles requests over the rate instead of banning.
	MitigationTimeout int64
	// ExcludeBlocked, rlsim's option for what the docs leave open, stops blocked
	// requests from counting (default false: every matching request counts).
	ExcludeBlocked bool
	// Epoch is the wall-clock instant of virtual t=0; the zero Epoch means the
	// Unix epoch, so windows are aligned to t=0.
	Epoch time.Time
}

// cloudflarePeriods is [AV]'s list of supported period values, in seconds.
var cloudflarePeriods = []int64{10, 15, 20, 30, 40, 45, 60, 90, 120, 180, 240, 300, 480, 600, 900, 1200, 1800, 2400, 3600, 65535, 86400}

// CloudflareParamsOf translates p: Window must be a supported period, Limit is
// requests_per_period, Burst must be 0 or Limit (a window counter has no burst
// of its own), and the behaviour is throttling (mitigation_timeout 0) with
// every request counted, Cloudflare's counting; a ban has no Policy twin.
func CloudflareParamsOf(p Policy) (CloudflareParams, error) {
	var errs []error
	if err := p.Validate(); err != nil {
		errs = append(errs, err)
	}
	if p.Window > 0 && (p.Window%time.Second != 0 || !cloudflarePeriod(int64(p.Window/time.Second))) {
		errs = append(errs, fmt.Errorf("window %v is not a supported period (%v s)", p.Window, cloudflarePeriods))
	}
	if p.Burst != 0 && p.Burst != p.Limit {
		errs = append(errs, fmt.Errorf("burst %d: the window counter's burst is its limit %d", p.Burst, p.Limit))
	}
	if err := errors.Join(errs...); err != nil {
		return CloudflareParams{}, fmt.Errorf("cloudflare rate limiting: %w", err)
	}
	return CloudflareParams{RequestsPerPeriod: p.Limit, Period: int64(p.Window / time.Second)}, nil
}

func cloudflarePeriod(sec int64) bool {
	for _, v := range cloudflarePeriods {
		if v == sec {
			return true
		}
	}
	return false
}

// NewCloudflare returns the rule for x, or every problem with x.
func NewCloudflare(x CloudflareParams) (*Cloudflare, error) {
	var errs []error
	if x.RequestsPerPeriod < 1 {
		errs = append(errs, fmt.Errorf("requests_per_period must be at least 1, got %d", x.RequestsPerPeriod))
	}
	if !cloudflarePeriod(x.Period) {
		errs = append(errs, fmt.Errorf("period %d is not a supported value (%v)", x.Period, cloudflarePeriods))
	}
	if x.MitigationTimeout < 0 || x.MitigationTimeout > 86400 {
		errs = append(errs, fmt.Errorf("mitigation_timeout %d is outside 0..86400 seconds", x.MitigationTimeout))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("cloudflare rate limiting: %w", err)
	}
	return &Cloudflare{
		sw:      &SlidingWindowCounter{limit: x.RequestsPerPeriod, window: time.Duration(x.Period) * time.Second},
		off:     epochOffset(x.Epoch, x.Period),
		ban:     time.Duration(x.MitigationTimeout) * time.Second,
		exclude: x.ExcludeBlocked,
	}, nil
}

// CloudflareState is one colo's counter for one characteristics value, and the
// end of its ban: 32 bytes. The zero value is a never-seen value.
type CloudflareState struct {
	sw       SlidingWindowCounterState
	banUntil time.Duration // virtual time the ban ends; ≤ now: no ban
}

// Decide answers a request of cost units (cost ≥ 1) at now.
func (c *Cloudflare) Decide(s *CloudflareState, now time.Duration, cost int64) Decision {
	if cost < 1 {
		badCost("Cloudflare.Decide", cost)
	}
	inBan := now < s.banUntil
	d := decideCounted(c.sw, &s.sw, now+c.off, cost, !c.exclude, inBan)
	d.RetryAfterExact = true
	if d.Verdict == Admit {
		return d
	}
	if !inBan && c.ban > 0 {
		s.banUntil = now + c.ban
	}
	if now < s.banUntil {
		// Not before the ban ends, and not before the counter's estimate, which
		// only falls, admits the request.
		d.Remaining = 0
		d.Reset = max(d.Reset, s.banUntil-now)
		if d.RetryAfter != Never {
			d.RetryAfter = max(d.RetryAfter, s.banUntil-now)
		}
	}
	return d
}

// decideCounted is SlidingWindowCounter.Decide at t, except that a refused
// request is counted too when count is set, and refused whatever the estimate
// when refuse is set; a refusal's RetryAfter (the instant the estimate admits
// the same request, possibly already past when refuse is set), Remaining and
// Reset are those of the counters as the refusal leaves them.
func decideCounted(sw *SlidingWindowCounter, s *SlidingWindowCounterState, t time.Duration, cost int64, count, refuse bool) Decision {
	c := sw.at(s, t)
	d := Decision{Limit: sw.limit}
	if !refuse && sw.fits(c, cost) {
		c.cur += cost
		s.start, s.prev, s.cur = c.start, c.prev, c.cur
	} else {
		if count {
			c.cur = satAdd(c.cur, cost)
			s.start, s.prev, s.cur = c.start, c.prev, c.cur
		}
		d.Verdict, d.RetryAfter = Refuse, Never
		if cost <= sw.limit {
			d.RetryAfter = sw.retryAt(c, cost) - t
		}
	}
	d.Remaining = max(sw.limit-c.cur-c.weighted(), 0)
	d.Reset = sw.resetAt(c, t) - t
	return d
}

// Idle reports whether s decides exactly as a never-seen value from now on:
// no ban left and both counters empty.
func (c *Cloudflare) Idle(s *CloudflareState, now time.Duration) bool {
	return now >= s.banUntil && c.sw.Idle(&s.sw, now+c.off)
}

// Charge counts cost at now whether it fits or not (a request this colo
// counted that this decision did not see); it starts no ban.
func (c *Cloudflare) Charge(s *CloudflareState, now time.Duration, cost int64) {
	if cost < 1 {
		badCost("Cloudflare.Charge", cost)
	}
	c.sw.Charge(&s.sw, now+c.off, cost)
}

var (
	_ Algorithm[CloudflareState] = (*Cloudflare)(nil)
	_ Charging[CloudflareState]  = (*Cloudflare)(nil)
)
