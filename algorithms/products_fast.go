package algorithms

import "time"

// The product limiters' fast paths: each gives Decide's verdict alone, for
// callers that need no answer (no headers, no trace), by the product's own
// arithmetic, so that a product lane takes the paths its textbook twin takes.
// Admit (Admitter) is Decide's admission at once; Queue (LeakyBucket.Queue's
// shape) is Decide's admission, now or late, with its delay; Answer
// (Answerer) adds the refusal and its Retry-After, and where Decide's refusal
// counts (Kong rate-limiting-advanced's penalty, Cloudflare,
// envoyproxy/ratelimit's INCRBY) counts it as Decide does, without the rest
// of the Decision. Each does what Decide does, step for step, and where
// Decide's refusal counts (those, HAProxy and AWS WAF) Admit leaves the
// refusal to Decide: on false it has changed nothing. The rules and their
// sources are those of each product's Decide (its file's doc comment);
// products_fast_test.go holds each method to Decide on arbitrary traffic,
// time going backwards included.

var (
	_ Admitter[AWSThrottleState]  = (*AWSThrottle)(nil)
	_ Answerer[AWSThrottleState]  = (*AWSThrottle)(nil)
	_ Admitter[EnvoyLocalState]   = (*EnvoyLocal)(nil)
	_ Answerer[EnvoyLocalState]   = (*EnvoyLocal)(nil)
	_ Admitter[EnvoyRLSState]     = (*EnvoyRLS)(nil)
	_ Answerer[EnvoyRLSState]     = (*EnvoyRLS)(nil)
	_ Admitter[KongState]         = (*Kong)(nil)
	_ Answerer[KongState]         = (*Kong)(nil)
	_ Admitter[KongAdvancedState] = (*KongAdvanced)(nil)
	_ Answerer[KongAdvancedState] = (*KongAdvanced)(nil)
	_ Admitter[AWSWAFState]       = (*AWSWAF)(nil)
	_ Admitter[CloudflareState]   = (*Cloudflare)(nil)
	_ Answerer[CloudflareState]   = (*Cloudflare)(nil)
	_ Admitter[HAProxyState]      = (*HAProxy)(nil)
	_ Admitter[TraefikState]      = (*Traefik)(nil)
	_ Answerer[TraefikState]      = (*Traefik)(nil)
)

// Queue is Decide's verdict and delay alone (as LeakyBucket.Queue): when
// Decide would pass the request, at once or after nginx's delay, it returns
// true and Decide's Delay and leaves s as Decide would; otherwise it returns
// false and changes nothing (a refusal stores nothing in nginx either, line
// 462 of ngx_http_limit_req_module.c, 1.22.1). nginx delays, so Nginx is no
// Admitter: a lane that may delay cannot share requests (sim's run_shared.go).
func (n *Nginx) Queue(s *NginxState, now time.Duration, cost int64) (delay time.Duration, ok bool) {
	if cost < 1 {
		badCost("Nginx.Queue", cost)
	}
	if cost > n.zone.Burst+1 {
		return 0, false
	}
	t := nginxMs(now)
	e1, ms := n.first(s, t)
	excess := e1 + (cost-1)*1000
	if excess > n.burst {
		return 0, false
	}
	n.store(s, t, ms, excess)
	if excess > n.delay {
		return time.Duration((excess-n.delay)*1000/int64(n.rate)) * time.Millisecond, true
	}
	return 0, true
}

// Queue is Decide's verdict and delay alone (see Nginx.Queue): true with
// Decide's Delay when the reservation is kept (x/time/rate's wait within
// Traefik's maxDelay; Traefik v3.7.9 pkg/middlewares/ratelimiter/rate_limiter.go,
// as Traefik's doc comment gives it), leaving s as Decide would; false, with s unchanged,
// when Decide refuses, whose reservation it cancels and whose TTL entry it
// touches: Decide does that.
func (t *Traefik) Queue(s *TraefikState, now time.Duration, cost int64) (delay time.Duration, ok bool) {
	if cost < 1 {
		badCost("Traefik.Queue", cost)
	}
	if t.unlimited {
		return 0, true
	}
	if cost > t.burst {
		return 0, false
	}
	c := *s
	if t.fresh(&c, now) {
		c.tokens, c.last = float64(t.burst), now
	}
	c.seen, c.access = true, now
	tokens := t.advance(&c, now) - float64(cost)
	var wait time.Duration
	if tokens < 0 {
		if wait = t.durationFromTokens(-tokens); wait > t.maxDelay {
			return 0, false
		}
	}
	c.tokens, c.last = tokens, now
	*s = c
	return wait, true
}

// Answer is Admit, or Refusal for what it does not admit (see Answerer): the
// reservation kept when it needs no wait (a wait within maxDelay is Decide's
// delay, left to it), or refused as Decide refuses it: with no reservation
// when cost exceeds the burst, else reserved and cancelled at once
// (CancelAt), the TTL entry touched either way.
func (t *Traefik) Answer(s *TraefikState, now time.Duration, cost int64) (retryAfter time.Duration, admitted, refused bool) {
	if cost < 1 {
		badCost("Traefik.Answer", cost)
	}
	if t.unlimited {
		return 0, true, false
	}
	c := *s
	if t.fresh(&c, now) {
		c.tokens, c.last = float64(t.burst), now
	}
	c.seen, c.access = true, now
	if cost > t.burst {
		*s = c
		return Never, false, true
	}
	tokens := t.advance(&c, now) - float64(cost)
	var wait time.Duration
	if tokens < 0 {
		wait = t.durationFromTokens(-tokens)
	}
	switch {
	case wait == 0:
		c.tokens, c.last = tokens, now
		*s = c
		return 0, true, false
	case wait <= t.maxDelay:
		return 0, false, false
	}
	c.last = now
	restored := tokens + float64(cost)
	if burst := float64(t.burst); restored > burst {
		restored = burst
	}
	c.tokens = restored
	*s = c
	return retryAfterHeader(wait), false, true
}

// Admit is Decide's verdict alone (see Admitter): Answer's admission, the
// refusal left to Decide (it touches the TTL entry and may cancel a
// reservation), and a delay too. Admit does not make Traefik a lane that may
// share requests: it delays (sim's registry says so).
func (t *Traefik) Admit(s *TraefikState, now time.Duration, cost int64) bool {
	c := *s
	_, admitted, _ := t.Answer(&c, now, cost)
	if admitted {
		*s = c
	}
	return admitted
}

// Admit is Decide's verdict alone (see Admitter): TokenBucket's Admit, at the
// last admission when time went backwards (as Decide decides it); API
// Gateway's throttle is a token bucket (developer guide,
// api-gateway-request-throttling.html).
func (a *AWSThrottle) Admit(s *AWSThrottleState, now time.Duration, cost int64) bool {
	return a.tb.Admit(&s.tb, max(now, s.tb.last), cost)
}

// Answer is Admit, or Refusal for what it does not admit (see Answerer):
// TokenBucket's, whose refusal AWS sends with no Retry-After (RetryAfter is
// the exact wait, as Decide's).
func (a *AWSThrottle) Answer(s *AWSThrottleState, now time.Duration, cost int64) (retryAfter time.Duration, admitted, refused bool) {
	return a.tb.Answer(&s.tb, now, cost)
}

// Admit is Decide's verdict alone (see Admitter): the bucket's consume(),
// in Envoy's float arithmetic, when it holds cost tokens (Envoy 1.34,
// source/extensions/filters/common/local_ratelimit/local_ratelimit_impl.cc).
func (e *EnvoyLocal) Admit(s *EnvoyLocalState, now time.Duration, cost int64) bool {
	_, admitted, _ := e.Answer(s, now, cost)
	return admitted
}

// Answer is Admit, or Refusal for what it does not admit (see Answerer): a
// refused consume() takes nothing (local_ratelimit_impl.cc, Envoy 1.34; the
// stepwise timer's requestAllowedHelper alike), so the refusal and its exact
// wait change nothing.
func (e *EnvoyLocal) Answer(s *EnvoyLocalState, now time.Duration, cost int64) (retryAfter time.Duration, admitted, refused bool) {
	if cost < 1 {
		badCost("EnvoyLocal.Answer", cost)
	}
	if e.refill == EnvoyStepwise {
		k := e.fillsAt(now)
		if s.used && k < s.k {
			k = s.k
		}
		level := e.levelAt(s, k)
		switch {
		case cost > e.max:
			return Never, false, true
		case level < cost:
			return time.Duration(k+(cost-level+e.tpf-1)/e.tpf)*e.fill - now, false, true
		}
		s.level, s.k, s.used = level-cost, k, true
		return 0, true, false
	}
	t := e.timeOf(s)
	total := e.total(t, now)
	c := float64(cost)
	if total < c {
		return e.waitFor(t, now, c), false, true
	}
	s.t, s.used = e.seconds(now)-(total-c)/e.rate, true
	return 0, true, false
}

// Admit is Decide's verdict alone (see Admitter): the INCRBY within the
// limit, or any INCRBY in shadow mode, or unlimited (envoyproxy/ratelimit
// f2fb157, src/redis/fixed_cache_impl.go, src/limiter/base_limiter.go). An
// over-limit hit is counted too (Redis has incremented it), and a hit the
// local cache answers is refused, so Admit leaves those to Decide.
func (r *EnvoyRLS) Admit(s *EnvoyRLSState, now time.Duration, cost int64) bool {
	if cost < 1 {
		badCost("EnvoyRLS.Admit", cost)
	}
	if r.unlim {
		return true
	}
	start, count, cached := r.current(s, now)
	if !(r.useCache && cached) {
		if count = satAdd(count, cost); count > r.limit {
			if !r.shadow {
				return false
			}
			cached = r.useCache
		}
	} else if !r.shadow {
		return false
	}
	s.start, s.count, s.cached = start, count, cached
	return true
}

// Answer is Admit, or Refusal for what it does not admit (see Answerer),
// with the over-limit hit counted as Decide counts it: Redis has incremented
// it (fixed_cache_impl.go), and the local cache holds the key from then on.
// Retry-After is the window's end, as Decide's.
func (r *EnvoyRLS) Answer(s *EnvoyRLSState, now time.Duration, cost int64) (retryAfter time.Duration, admitted, refused bool) {
	if cost < 1 {
		badCost("EnvoyRLS.Answer", cost)
	}
	if r.unlim {
		return 0, true, false
	}
	start, count, cached := r.current(s, now)
	if !(r.useCache && cached) {
		if count = satAdd(count, cost); count > r.limit {
			cached = r.useCache
		} else {
			s.start, s.count, s.cached = start, count, cached
			return 0, true, false
		}
	}
	s.start, s.count, s.cached = start, count, cached
	switch {
	case r.shadow:
		return 0, true, false
	case cost > r.limit:
		return Never, false, true
	}
	return start + r.window - now, false, true
}

// Admit is Decide's verdict alone (see Admitter): every configured period's
// counter below its limit (Kong 3.9.3, handler.lua:108 get_usage), each then
// incremented by cost (policies/init.lua:308). Admit reads the
// counters on a copy, since reading rolls a counter to now's period, which
// Decide does on a refusal too.
func (k *Kong) Admit(s *KongState, now time.Duration, cost int64) bool {
	if cost < 1 {
		badCost("Kong.Admit", cost)
	}
	sec := k.wallSec(now)
	c := s.c
	for i, l := range k.limits {
		if l != 0 && l-k.usage(&c[i], i, sec, now) <= 0 {
			return false
		}
	}
	for i, l := range k.limits {
		if l != 0 {
			k.incr(&c[i], i, now, cost)
		}
	}
	s.c = c
	return true
}

// Answer is Admit, or Refusal for what it does not admit (see Answerer). A
// refusal of the local and cluster policies increments nothing (Kong 3.9.3:
// handler.lua:200 returns before the increment of handler.lua:209-212), so it
// is answered here, with Decide's Retry-After (RateLimit-Reset's period,
// handler.lua:196, or the exact wait when headers are hidden), unless reading
// rolls a counter to a new period or past its TTL, which Decide does and so
// is left to it; rlsim's redis policy counts the refused request too (Kong's
// doc comment), so its refusals are Decide's.
func (k *Kong) Answer(s *KongState, now time.Duration, cost int64) (retryAfter time.Duration, admitted, refused bool) {
	if cost < 1 {
		badCost("Kong.Answer", cost)
	}
	sec := k.wallSec(now)
	c := s.c
	var rem [kongPeriods]int64
	stop, still := false, true
	for i, l := range k.limits {
		if l == 0 {
			continue
		}
		rem[i] = l - k.usage(&c[i], i, sec, now)
		stop, still = stop || rem[i] <= 0, still && c[i] == s.c[i]
	}
	if !stop {
		for i, l := range k.limits {
			if l != 0 {
				k.incr(&c[i], i, now, cost)
			}
		}
		s.c = c
		return 0, true, false
	}
	if k.redis || !still {
		return 0, false, false
	}
	if k.hide {
		return k.exactWait(s, rem, now), false, true
	}
	// Decide's Reset: the period with the fewest remaining, the longer of two.
	best, least := -1, int64(0)
	for i, l := range k.limits {
		if l == 0 {
			continue
		}
		if r := max(0, rem[i]); best < 0 || r < least || (r == least && kongExpiration[i] > kongExpiration[best]) {
			best, least = i, r
		}
	}
	return time.Duration(max(1, kongExpiration[best]-(sec-s.c[best].start))) * time.Second, false, true
}

// Admit is Decide's verdict alone (see Admitter): the sliding or fixed
// counter's Admit on the counters' clock of whole seconds. A refusal counts
// with the penalty (disable_penalty false, developer.konghq.com/plugins/
// rate-limiting-advanced), so Admit leaves it to Decide.
func (k *KongAdvanced) Admit(s *KongAdvancedState, now time.Duration, cost int64) bool {
	if cost < 1 {
		badCost("KongAdvanced.Admit", cost)
	}
	if k.sliding {
		return k.sw.Admit(&s.sw, k.tau(now), cost)
	}
	return k.fw.Admit(&s.fw, k.tau(now), cost)
}

// Answer is Admit, or Refusal for what it does not admit (see Answerer),
// with the penalty counted as Decide counts it: the refused request too,
// unless disable_penalty. Retry-After is Decide's, on the wall clock's
// whole seconds.
func (k *KongAdvanced) Answer(s *KongAdvancedState, now time.Duration, cost int64) (retryAfter time.Duration, admitted, refused bool) {
	if cost < 1 {
		badCost("KongAdvanced.Answer", cost)
	}
	t := k.tau(now)
	if k.sliding {
		retryAfter, admitted = answerCounted(k.sw, &s.sw, t, cost, k.penalty, false)
	} else if retryAfter, admitted, _ = k.fw.Answer(&s.fw, t, cost); !admitted && k.penalty {
		k.fw.Charge(&s.fw, t, cost)
	}
	switch {
	case admitted:
		return 0, true, false
	case retryAfter != Never:
		retryAfter = k.untau(t+retryAfter, now)
	}
	return retryAfter, false, true
}

// Admit is Decide's verdict alone (see Admitter): the latest evaluation at or
// before now at most the limit, the request then counted (AWS WAF developer
// guide, waf-rule-statement-type-rate-based-high-level-settings.html and
// -caveats.html). The evaluation reads the ring as it is: the intervals
// advancing would clear are outside it. WAF counts a blocked request too, so
// Admit leaves the block to Decide.
func (w *AWSWAF) Admit(s *AWSWAFState, now time.Duration, cost int64) bool {
	if cost < 1 {
		badCost("AWSWAF.Admit", cost)
	}
	k := int64(now / w.interval)
	if now < 0 {
		k = 0
	}
	if w.countAt(s, k) > w.limit {
		return false
	}
	w.advance(s, k)
	w.count(s, k, cost)
	return true
}

// Admit is Decide's verdict alone (see Admitter): no ban, and the sliding
// counter's estimate has room (developers.cloudflare.com/waf/rate-limiting-rules/,
// blog.cloudflare.com/counting-things-a-lot-of-different-things/). A refusal
// is counted (unless counting excludes blocked requests) and may start a ban,
// so Admit leaves it to Decide.
func (c *Cloudflare) Admit(s *CloudflareState, now time.Duration, cost int64) bool {
	if cost < 1 {
		badCost("Cloudflare.Admit", cost)
	}
	if now < s.banUntil {
		return false
	}
	return c.sw.Admit(&s.sw, now+c.off, cost)
}

// Answer is Admit, or Refusal for what it does not admit (see Answerer),
// counted as Decide counts it (unless counting excludes blocked requests),
// starting a ban when there is none and a mitigation timeout is set; the
// Retry-After is Decide's, not before the ban ends.
func (c *Cloudflare) Answer(s *CloudflareState, now time.Duration, cost int64) (retryAfter time.Duration, admitted, refused bool) {
	if cost < 1 {
		badCost("Cloudflare.Answer", cost)
	}
	inBan := now < s.banUntil
	if retryAfter, admitted = answerCounted(c.sw, &s.sw, now+c.off, cost, !c.exclude, inBan); admitted {
		return 0, true, false
	}
	if !inBan && c.ban > 0 {
		s.banUntil = now + c.ban
	}
	if now < s.banUntil && retryAfter != Never {
		retryAfter = max(retryAfter, s.banUntil-now)
	}
	return retryAfter, false, true
}

// answerCounted is decideCounted's verdict and RetryAfter alone, leaving s as
// decideCounted leaves it.
func answerCounted(sw *SlidingWindowCounter, s *SlidingWindowCounterState, t time.Duration, cost int64, count, refuse bool) (retryAfter time.Duration, admitted bool) {
	c := sw.at(s, t)
	if !refuse && sw.fits(c, cost) {
		s.start, s.prev, s.cur = c.start, c.prev, c.cur+cost
		return 0, true
	}
	if count {
		c.cur = satAdd(c.cur, cost)
		s.start, s.prev, s.cur = c.start, c.prev, c.cur
	}
	if cost > sw.limit {
		return Never, false
	}
	return sw.retryAt(c, cost) - t, false
}

// Admit is Decide's verdict alone (see Admitter): the request counted on a
// copy of the entry (update_freq_ctr_period, HAProxy 2.6 freq_ctr.h:38-75)
// passes when the rate read counting it (freq_ctr.c:78-96) is at most the
// limit. HAProxy tracks a denied request too, so Admit leaves that to Decide.
func (r *HAProxy) Admit(s *HAProxyState, now time.Duration, cost int64) bool {
	if cost < 1 {
		badCost("HAProxy.Admit", cost)
	}
	c := *s
	m := r.ms(&c, now)
	r.update(&c, m, cost)
	if r.read(&c, m) > r.limit {
		return false
	}
	*s = c
	return true
}

// Answer is Admit, or Refusal for what it does not admit (see Answerer): the
// quota's Decide (API Gateway usage plans, QuotaSettings) without its
// Decision. A refusal counts nothing, so it leaves the state as it is.
func (q *AWSQuota) Answer(s *AWSQuotaState, now time.Duration, cost int64) (retryAfter time.Duration, admitted, refused bool) {
	if cost < 1 {
		badCost("AWSQuota.Answer", cost)
	}
	index, left := q.periodAt(now)
	used := q.usedIn(s, index)
	switch {
	case cost > q.limit:
		return Never, false, true
	case used+cost > q.allowance(index):
		return left, false, true
	}
	s.period, s.used = index-q.base+1, used+cost
	return 0, true, false
}

// Admit is Decide's verdict alone (see Admitter).
func (q *AWSQuota) Admit(s *AWSQuotaState, now time.Duration, cost int64) bool {
	_, admitted, _ := q.Answer(s, now, cost)
	return admitted
}
