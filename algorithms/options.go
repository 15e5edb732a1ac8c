package algorithms

import (
	"fmt"
	"math"
	"time"
)

// Lane options: generic wrappers that give any per-key limiter a behaviour
// products add on top of their algorithm. Each takes an inner rule that is an
// Algorithm and Charging and is one itself, so they compose:
//
//	WithClock(WithBan(WithPenalty(tb), time.Minute), time.Millisecond)
//
// counts refusals (penalty), bans a key whose request was refused (ban), and
// sees time on a whole-millisecond clock (clock), in that order from the
// outside in. WithWait and StartAt need a bucket (TokenBucket, GCRA,
// StepwiseBucket) inside; AlignedFixedWindow and CalendarWindow are in
// options_window.go, StepwiseBucket (the refill in steps) in
// options_stepwise.go.
//
// Every wrapper is immutable and safe for concurrent use; a state belongs to
// one goroutine at a time. None allocates per decision (options_bench_test.go);
// Penalty.Peek of a refusal copies a SlidingLog's log.

// Chargeable is a per-key rule that can also count a request whether it fits
// or not: what every lane option wraps and is. The six per-key limiters are.
type Chargeable[S any] interface {
	Algorithm[S]
	Charging[S]
}

var (
	_ Chargeable[TokenBucketState]          = (*Penalty[TokenBucketState])(nil)
	_ Chargeable[BanState[GCRAState]]       = (*Ban[GCRAState])(nil)
	_ Chargeable[FixedWindowState]          = (*Clock[FixedWindowState])(nil)
	_ Chargeable[SlidingLogState]           = (*Penalty[SlidingLogState])(nil)
	_ Chargeable[BanState[SlidingLogState]] = (*Ban[SlidingLogState])(nil)
)

// Penalty counts a refused request against the limit: on every refusal it
// charges the inner rule (Charging) with the request, so a client that keeps
// retrying keeps itself locked out. Admissions and delays are the inner rule's.
// Products that behave so:
//
//   - HAProxy 2.6 with `http-request track-sc0` before `http-request deny if
//     { sc_http_req_rate(0) gt N }`: tracking counts every request, the denied
//     ones too (configuration.txt, "track-sc0", "sc_http_req_rate").
//   - Envoy's global rate limit service (envoyproxy/ratelimit, main as read):
//     DoLimit sends INCRBY hits_addend for every request, then compares the
//     new count with the limit, so an over-limit request is counted
//     (src/redis/fixed_cache_impl.go); not so with its local over-limit cache
//     or when another descriptor of the request is over its limit.
//   - Kong Gateway Enterprise 3.x rate-limiting-advanced with
//     disable_penalty: false (the default): "all requests, including denied
//     ones, are counted"; it "only affects the sliding window_type"
//     (developer.konghq.com/plugins/rate-limiting-advanced, config reference
//     and the "sliding window 500 reqs per hour" example).
//
// A refusal's Decision is the inner rule's answer after the charge (Peek on the
// charged state): RetryAfter is the exact wait after which the same request
// would be admitted if nothing else arrived, the refused request counted
// (longer than the inner rule's own, by cost×T for a bucket), and Remaining and
// Reset are the charged state's. RetryAfterExact is the inner rule's.
//
// A key never admits more with Penalty than without, on the same arrivals:
// it admits only requests the bare rule admits, for each of the six limiters.
// The argument, for non-decreasing times: each state is ordered (a bucket's
// deficit, a TAT or next free slot, a window's count, the log's costs in the
// window), refill and expiry keep the order, a request both admit moves both
// states alike, a refusal moves only the penalised one, by a charge that is
// the admission's move (so the penalised state is never behind), and a state
// further along admits nothing a state behind it refuses. For TokenBucket it
// holds when time goes backwards too: a penalised state whose last instant a
// charge moved on is past full, so it refuses whatever comes earlier.
// options_test.go checks it on arbitrary arrivals, in order and with
// neighbours swapped. It fails for AlignedFixedWindow with AlignFirst, and only
// for a request above Limit: charged, it opens a window the bare rule does not
// open, and the two windows fall out of phase
// (TestPenaltyAlignFirstCounterExample).
//
// A client retrying at twice the rate (cost 1 every T/2, T = Window/Limit,
// from a full TokenBucket or GCRA of Burst B) is admitted exactly its first
// 2B−1 requests and then never again: the i-th request finds i charged and i/2
// refilled; without Penalty it is admitted every other request after those.
type Penalty[S any] struct {
	inner Chargeable[S]
}

// WithPenalty returns inner with refusals charged.
func WithPenalty[S any](inner Chargeable[S]) *Penalty[S] {
	return &Penalty[S]{inner: inner}
}

// Decide is the inner rule's decision; a refusal also charges the request.
func (p *Penalty[S]) Decide(s *S, now time.Duration, cost int64) Decision {
	d := p.inner.Decide(s, now, cost)
	if d.Verdict != Refuse {
		return d
	}
	p.inner.Charge(s, now, cost)
	return p.charged(s, now, cost, d)
}

// charged is the refusal as the charged state s answers it.
func (p *Penalty[S]) charged(s *S, now time.Duration, cost int64, refused Decision) Decision {
	after := peekOf(p.inner, s, now, cost)
	if after.Verdict != Refuse { // a charge never frees room in the six limiters
		return refused
	}
	return after
}

// Peek is the Decision Decide would return, with s left as it is. A refusal is
// charged on a copy of s (which allocates for a SlidingLog, its log, and for
// an inner rule that is itself an option).
func (p *Penalty[S]) Peek(s *S, now time.Duration, cost int64) Decision {
	d := peekOf(p.inner, s, now, cost)
	if d.Verdict != Refuse {
		return d
	}
	if cp, ok := p.inner.(chargedPeeker[S]); ok {
		if after := cp.peekCharged(s, now, cost); after.Verdict == Refuse {
			return after
		}
		return d
	}
	var c S
	cloneState(&c, s)
	p.inner.Charge(&c, now, cost)
	return p.charged(&c, now, cost, d)
}

// quietPeek is the inner rule's answer to a request asked but not made:
// nothing is charged, not even on a copy.
func (p *Penalty[S]) quietPeek(s *S, now time.Duration, cost int64) Decision {
	return quietPeek(p.inner, s, now, cost)
}

// Charge is the inner rule's.
func (p *Penalty[S]) Charge(s *S, now time.Duration, cost int64) { p.inner.Charge(s, now, cost) }

func (p *Penalty[S]) outsideWait() {}

// Idle is the inner rule's.
func (p *Penalty[S]) Idle(s *S, now time.Duration) bool { return p.inner.Idle(s, now) }

// quietPeeker is a rule whose Peek answers for a request that is made (a
// Penalty's refusal counts the request): quietPeek answers for one that is
// not, the wait after which it would be admitted if nothing arrived at all.
// A Ban asks it of its inner rule during the ban, when requests count for
// nothing.
type quietPeeker[S any] interface {
	quietPeek(s *S, now time.Duration, cost int64) Decision
}

// quietPeek is alg's quietPeek, or its Peek.
func quietPeek[S any](alg Algorithm[S], s *S, now time.Duration, cost int64) Decision {
	if q, ok := alg.(quietPeeker[S]); ok {
		return q.quietPeek(s, now, cost)
	}
	return peekOf(alg, s, now, cost)
}

// cloneState makes dst an independent copy of src, with CopyFrom where S has one.
func cloneState[S any](dst, src *S) {
	if c, ok := any(dst).(interface{ CopyFrom(*S) }); ok {
		c.CopyFrom(src)
		return
	}
	*dst = *src
}

// Ban refuses a key for a fixed time D after the inner rule refused it,
// whatever its rate then. Products that behave so:
//
//   - Cloudflare rate limiting rules: "Duration (or mitigation timeout): Once
//     the rate is reached, the rate limiting rule blocks further requests for
//     the period of time defined in this field ... regardless of the request
//     rate during this period" (developers.cloudflare.com/waf/rate-limiting-rules/).
//   - HAProxy 2.6: a flag set on deny (`http-request sc-set-gpt0(0) 1`) in a
//     stick table with `expire D`, checked before the rate (`http-request deny
//     if { sc_get_gpt0(0) gt 0 }`), refuses the key until the entry expires
//     (configuration.txt, "sc-set-gpt0", "stick-table ... expire"; the entry's
//     expiry is D after its last update, so a client that keeps knocking
//     extends an HAProxy ban where this one ends D after it began).
//   - Fastly ratelimit.check_rate's penalty box (ttl: 1m to 1h), the same.
//
// A request at now ≥ the ban's end goes to the inner rule; if the inner rule
// refuses it, the ban starts: it covers [now, now+D). During the ban every
// request is refused by the ban alone, and the inner state is not touched:
// nothing is decided, charged or refilled by it (a Penalty inside would not
// charge either: the ban answers first). A ban starts on every refusal of the
// inner rule, one that no wait can admit (RetryAfter Never) included.
//
// RetryAfter is exact: the first instant at which the same request would be
// admitted if nothing else arrived, max(end − now, the inner rule's RetryAfter
// at now for a request it is asked about but not sent, so a Penalty inside
// counts nothing); that is end − now whenever the inner rule would admit the request
// by the ban's end (always when D is at least the inner rule's longest wait,
// e.g. D ≥ Window for FixedWindow). A retry earlier than the inner rule's own
// wait, after the ban, would be refused and would start a new ban.
// RetryAfterExact is true, or the inner rule's when its wait is the longer.
// During the ban Remaining is 0 and Reset is max(end − now, the inner Reset).
//
// A key the inner rule forgets by the ban's end and then refuses (a Start
// below the request's cost, with a ban at least its refill time plus its
// keep) is refused at the end and at every instant after it, as a new key:
// RetryAfter is Never (exact), and an honouring client gives up. A product
// would tell the ban's end; a client retrying then is refused and banned
// again, for ever (locked out), so it is never admitted either.
//
// Charge goes to the inner rule alone and starts no ban.
type Ban[S any] struct {
	inner   Chargeable[S]
	d       time.Duration
	forgets bool // the inner rule may forget a key back below a request's cost (mayForget)
}

// BanState is a key's inner state and the end of its ban: the inner state's
// size plus 8 bytes. The zero value is a never-seen key, not banned.
type BanState[S any] struct {
	inner S
	end   time.Duration // the ban covers [start, end); no ban when now ≥ end
}

// CopyFrom makes s an independent copy of src (see SlidingLogState.CopyFrom).
func (s *BanState[S]) CopyFrom(src *BanState[S]) {
	cloneState(&s.inner, &src.inner)
	s.end = src.end
}

// WithBan returns inner with a ban of d after each refusal; d must be positive.
func WithBan[S any](inner Chargeable[S], d time.Duration) (*Ban[S], error) {
	if d <= 0 {
		return nil, fmt.Errorf("ban: duration must be positive, got %v", d)
	}
	return &Ban[S]{inner: inner, d: d, forgets: mayForget(inner)}, nil
}

// Decide refuses a banned key; otherwise it is the inner rule's decision, and
// a refusal starts the ban.
func (b *Ban[S]) Decide(s *BanState[S], now time.Duration, cost int64) Decision {
	if now < s.end {
		return b.banned(s, now, cost)
	}
	d := b.inner.Decide(&s.inner, now, cost)
	if d.Verdict == Refuse {
		s.end = time.Duration(satAdd(int64(now), int64(b.d)))
		d = b.starts(d, d.RetryAfter < b.d && b.lockedOut(&s.inner, s.end, cost))
	}
	return d
}

// Peek is the Decision Decide would return, with s left as it is.
func (b *Ban[S]) Peek(s *BanState[S], now time.Duration, cost int64) Decision {
	if now < s.end {
		return b.banned(s, now, cost)
	}
	d := peekOf(b.inner, &s.inner, now, cost)
	if d.Verdict == Refuse {
		d = b.starts(d, d.RetryAfter < b.d && b.lockedOutAfter(&s.inner, now, cost))
	}
	return d
}

// starts is the inner refusal d as the refusal that starts a ban of D;
// lockedOut: the key is refused for ever after it (see Ban).
func (b *Ban[S]) starts(d Decision, lockedOut bool) Decision {
	if d.RetryAfter < b.d {
		d.RetryAfter, d.RetryAfterExact = b.d, true
	}
	if lockedOut {
		d.RetryAfter = Never
	}
	d.Remaining = 0
	d.Reset = max(d.Reset, b.d)
	return d
}

// banned is the refusal of a request at now inside the ban.
func (b *Ban[S]) banned(s *BanState[S], now time.Duration, cost int64) Decision {
	in := quietPeek(b.inner, &s.inner, now, cost)
	left := s.end - now
	d := Decision{Verdict: Refuse, Limit: in.Limit, Reset: max(left, in.Reset), RetryAfter: left, RetryAfterExact: true}
	switch {
	case in.Verdict == Refuse && in.RetryAfter > left:
		d.RetryAfter, d.RetryAfterExact = in.RetryAfter, in.RetryAfterExact
	case b.lockedOut(&s.inner, s.end, cost):
		d.RetryAfter = Never
	}
	return d
}

// lockedOut reports whether the inner state after, at the ban's end, is a
// key the inner rule has forgotten and refuses the request of cost: then it
// refuses it at every later instant too (a forgotten key is a new key, which
// time does not change), and the request alone is never admitted.
func (b *Ban[S]) lockedOut(after *S, end time.Duration, cost int64) bool {
	return b.forgets && b.inner.Idle(after, end) && quietPeek(b.inner, after, end, cost).Verdict == Refuse
}

// lockedOutAfter is lockedOut for the state a refusal at now would leave
// (a penalty charged, a forgotten key set to its start), s left as it is.
func (b *Ban[S]) lockedOutAfter(s *S, now time.Duration, cost int64) bool {
	if !b.forgets {
		return false
	}
	var after S
	cloneState(&after, s)
	b.inner.Decide(&after, now, cost)
	return b.lockedOut(&after, time.Duration(satAdd(int64(now), int64(b.d))), cost)
}

// quietPeek is Peek with the inner rule asked quietly.
func (b *Ban[S]) quietPeek(s *BanState[S], now time.Duration, cost int64) Decision {
	if now < s.end {
		return b.banned(s, now, cost)
	}
	d := quietPeek(b.inner, &s.inner, now, cost)
	if d.Verdict == Refuse {
		end := time.Duration(satAdd(int64(now), int64(b.d)))
		d = b.starts(d, d.RetryAfter < b.d && b.lockedOut(&s.inner, end, cost))
	}
	return d
}

// Charge charges the inner rule; it starts no ban.
func (b *Ban[S]) Charge(s *BanState[S], now time.Duration, cost int64) {
	b.inner.Charge(&s.inner, now, cost)
}

func (b *Ban[S]) outsideWait() {}

// Idle reports whether the ban is over and the inner state idle at now.
func (b *Ban[S]) Idle(s *BanState[S], now time.Duration) bool {
	return now >= s.end && b.inner.Idle(&s.inner, now)
}

// Clock is the product's clock: the inner rule sees now truncated to a whole
// multiple of Tick, t = ⌊now/Tick⌋×Tick, and decides, charges and reports Idle
// at t. Products that behave so:
//
//   - nginx 1.22 (Tick 1ms): limit_req reads ngx_current_msec, a millisecond
//     clock cached per event-loop iteration (ngx_http_limit_req_module.c,
//     ngx_times.c).
//   - HAProxy 2.6 (1ms): stick-table rates and expiries run on now_ms
//     (include/haproxy/time.h, freq_ctr.c).
//   - Kong 3.x rate-limiting (1s): windows from ngx.time(), whole seconds
//     (kong/plugins/rate-limiting/handler.lua, kong/tools/timestamp.lua).
//   - Redis INCR + EXPIRE scripts (1s): the key is named after the second or
//     the window (redis.io/docs/latest/commands/incr/, "Pattern: Rate limiter").
//
// Durations are measured from the true now. The inner rule says something
// happens x after t (RetryAfter, Reset, Delay); on the product's clock it
// happens when the clock first reads t+x, the first multiple of Tick at or
// after t+x, so Clock reports x′ = ⌈(t+x)/Tick⌉×Tick − now. For x > 0 that is
// at least 1ns (never negative) and lies in [x − (now−t), x − (now−t) + Tick):
// a RetryAfter computed at the truncated instant is shortened by now mod Tick
// and then rounded up to the product's next tick. x = 0 stays 0 and Never
// stays Never (as does a wait so long that t+x+Tick would overflow).
//
// So the answer at now is the inner answer at t, verdict, Limit and Remaining
// alike, with its durations moved as above; a RetryAfter marked exact stays
// exact: the retry at now+x′ is the first one whose truncated instant reaches
// t+x (options_test.go, ClockIsTruncatedInner and its retries).
type Clock[S any] struct {
	inner Chargeable[S]
	tick  time.Duration
}

// WithClock returns inner on a clock of whole ticks; tick must be positive.
func WithClock[S any](inner Chargeable[S], tick time.Duration) (*Clock[S], error) {
	if tick <= 0 {
		return nil, fmt.Errorf("clock: tick must be positive, got %v", tick)
	}
	return &Clock[S]{inner: inner, tick: tick}, nil
}

// truncate is ⌊now/Tick⌋×Tick, rounding toward −∞ for a negative now.
func (c *Clock[S]) truncate(now time.Duration) time.Duration {
	r := now % c.tick
	if r < 0 {
		r += c.tick
	}
	return now - r
}

// later is x after t on the product's clock, as a duration from now.
func (c *Clock[S]) later(t, now, x time.Duration) time.Duration {
	if x <= 0 || x == Never || x > math.MaxInt64-t-c.tick {
		return x
	}
	u := t + x
	if r := u % c.tick; r != 0 {
		u += c.tick - r
	}
	return u - now
}

// shift moves d's durations, decided at t, to durations from now.
func (c *Clock[S]) shift(d Decision, t, now time.Duration) Decision {
	d.RetryAfter = c.later(t, now, d.RetryAfter)
	d.Reset = c.later(t, now, d.Reset)
	d.Delay = c.later(t, now, d.Delay)
	return d
}

// Decide is the inner decision at the truncated now.
func (c *Clock[S]) Decide(s *S, now time.Duration, cost int64) Decision {
	t := c.truncate(now)
	return c.shift(c.inner.Decide(s, t, cost), t, now)
}

// Peek is the Decision Decide would return, with s left as it is.
func (c *Clock[S]) Peek(s *S, now time.Duration, cost int64) Decision {
	t := c.truncate(now)
	return c.shift(peekOf(c.inner, s, t, cost), t, now)
}

// quietPeek is Peek with the inner rule asked quietly.
func (c *Clock[S]) quietPeek(s *S, now time.Duration, cost int64) Decision {
	t := c.truncate(now)
	return c.shift(quietPeek(c.inner, s, t, cost), t, now)
}

// Charge charges the inner rule at the truncated now.
func (c *Clock[S]) Charge(s *S, now time.Duration, cost int64) {
	c.inner.Charge(s, c.truncate(now), cost)
}

func (c *Clock[S]) outsideWait() {}

// Idle is the inner rule's at the truncated now.
func (c *Clock[S]) Idle(s *S, now time.Duration) bool { return c.inner.Idle(s, c.truncate(now)) }
