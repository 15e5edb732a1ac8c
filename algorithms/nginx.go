package algorithms

import (
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"strings"
	"time"
)

// Nginx is nginx's limit_req (nginx 1.22.1, src/http/modules/ngx_http_limit_req_module.c
// at tag release-1.22.1; line numbers below are that file's): one limit_req_zone's
// rate with one limit_req's burst= and delay=/nodelay, deciding as nginx does,
// integer for integer.
//
// Per key nginx keeps excess, in milli-requests (1000 = one request waiting), and
// last, in whole ms of its cached monotonic clock ngx_current_msec (lines 25–27,
// 416). Decide truncates now to whole ms (now is virtual time, so nginx's cached
// clock is exact here). A request at now:
//
//   - never-seen key: excess′ = 0 and last = now (lines 486, 512, 520–523): the
//     first request of a key stores nothing in excess;
//   - known key: ms = now − last, with ms < −60000 taken as 1 and other negative
//     ms as 0 (lines 445–452); excess′ = max(0, excess − rate×ms/1000 + 1000), the
//     division truncating (lines 454–458);
//   - refused iff excess′ > burst×1000 (line 462), storing nothing;
//   - otherwise excess = excess′, and last = now if ms ≠ 0 (lines 466–471): a
//     delayed request is charged at once, at its arrival;
//   - its delay is none if excess′ ≤ delay×1000, else (excess′ − delay×1000)×1000/rate
//     ms, truncated (lines 547–553); delay=N is the limit's delay (line 1061),
//     nodelay sets an unreachable delay (line 1021), neither set is delay 0. A
//     delay of 0 ms is a pass (line 296: $limit_req_status PASSED), so Decide
//     answers Admit, not Delay, for a wait nginx truncates to 0.
//
// So burst+1 requests of one instant pass (0, 1000, …, burst×1000). Against
// LeakyBucket with the same Policy (NginxZoneOf, Nr/s), on instants of whole ms:
// the same requests are refused, with the same Remaining; the Delay is the
// same when 1000/N ms is whole and the cost 1. They differ (nginx_test.go,
// checkNginxIsLeaky): for cost c > 1 by (c−1)×T (nginx answers the last of c
// requests); when 1000/N ms is not whole, nginx's delay is truncated to whole ms
// (a wait under 1 ms is a pass) and its RetryAfter and Reset are the next whole
// ms; for Nr/m, whose rate ⌊N×1000/60⌋ is not N/60 per second and whose drain
// truncates; between whole ms (nginx's clock is whole ms); and for a clock
// going back (nginx's clamps, below LeakyBucket's "never admitted more").
//
// Cost is rlsim's, not nginx's (nginx counts requests): a request of cost c is c
// requests of the same ms, all or nothing. Its excess′ is the last of them,
// excess′₁ + (c−1)×1000 where excess′₁ is the cost-1 figure above, its delay is
// the last one's, and it is refused (storing nothing) if that excess′ exceeds
// burst×1000 — always when c > burst+1.
//
// nginx sends no rate-limit headers and no Retry-After; the Decision carries the
// algorithm's exact figures: Limit is N of rate=Nr/s or Nr/m; Remaining is how many
// requests of cost 1 would pass at the same instant right after the decision;
// Reset is the time until the key is Idle; RetryAfter (exact) is the time until the
// same request would pass if nothing else arrived (on nginx's ms clock: a whole ms
// instant minus now), Never when c > burst+1. For a clock gone back more than 60 s
// before last, nginx's ms = 1 rule may pass it earlier.
//
// Not modelled here: the zone's size (sim's lane option keys; a full zone frees
// its least recently used entry by force, expire(ctx, 0), lines 492–505 and
// 633–695, and refuses with limit_req_status if allocation still fails, lines
// 266–286), the 60 s idle expiry (expire(ctx, 1); it changes no verdict where
// rate×60 ≥ (burst+1)×1000, TestNginxIdleExpiryChangesNoVerdict), several zones in a location (a chain of
// Nginx rules: checked in order, the first refusal charges no zone, else all
// are charged and the longest delay applies, lines 221–260, 535–606; see Peek),
// limit_req_dry_run (lines 278–281, 306–309: refusals pass storing nothing, delays
// pass at once and stay charged) and the refusal status (limit_req_status,
// default 503, lines 823–824).
//
// The rule is immutable and safe for concurrent use; each NginxState belongs to
// one goroutine.
type Nginx struct {
	zone  NginxZone
	rate  NginxRate
	burst int64 // burst×1000 (line 1060)
	delay int64 // delay×1000 (line 1061), at most burst×1000 (more delays nothing either)
	limit int64 // N of rate=N…
}

// NginxState is one key's limit_req node: excess (milli-requests) and last (ms),
// 24 bytes. The zero value is a never-seen key.
type NginxState struct {
	excess int64
	last   int64
	seen   bool
}

// Excess is the key's excess in milli-requests as stored at its last charged
// request (not drained since), as nginx's error log prints it ("excess: 1.990"
// is 1990).
func (s NginxState) Excess() int64 { return s.excess }

// NginxZone is one nginx limit_req zone and limit_req directive, in nginx's words:
//
//	limit_req_zone $key zone=name:10m rate=<Rate>;
//	limit_req zone=name [burst=<Burst>] [delay=<Delay> | nodelay];
type NginxZone struct {
	// Rate is limit_req_zone's rate=, "Nr/s" or "Nr/m" (N a positive integer;
	// nginx also reads a bare "N" as N r/s). No default: nginx's rate= is needed
	// for any limit (without it the rate is 1 r/s, line 863).
	Rate string
	// Burst is limit_req's burst= (default 0: no request may wait; nginx rejects
	// an explicit burst=0, line 999).
	Burst int64
	// Delay is limit_req's delay= (nginx 1.15.7+): the first Delay excess requests
	// pass at once. Default 0: every excess request waits (nginx rejects an
	// explicit delay=0, line 1011).
	Delay int64
	// NoDelay is limit_req's nodelay: no request waits (line 1021).
	NoDelay bool
}

// NginxRate is a limit_req_zone rate as nginx keeps it (ctx->rate, lines 43–44,
// 939): milli-requests per second, N×1000 for Nr/s and ⌊N×1000/60⌋ for Nr/m
// (1r/m = 16, that is one request per 62.5 s).
type NginxRate int64

// maxNginxN bounds N in rate=N…, and maxNginxBurst burst= and delay=, so that
// nginx's arithmetic (×1000 twice) stays far inside int64. nginx itself takes
// any int (ngx_atoi) and would overflow its own products long before.
const (
	maxNginxN     = 1_000_000_000
	maxNginxBurst = 1 << 40
	maxNginxExc   = 1 << 51 // Charge saturates excess here
)

// ParseNginxRate reads a limit_req_zone rate= value as nginx 1.22.1 does (lines
// 903–925, 939): a final "r/s" (scale 1) or "r/m" (scale 60), case-sensitive, is
// cut off; what is left must be a positive decimal integer (ngx_atoi: digits
// only, src/core/ngx_string.c), so "10" is 10r/s and "1.5r/s", "10r/h", "0r/s"
// are invalid.
func ParseNginxRate(s string) (NginxRate, error) {
	num, scale := s, int64(1)
	if n, ok := strings.CutSuffix(s, "r/s"); ok {
		num = n
	} else if n, ok := strings.CutSuffix(s, "r/m"); ok {
		num, scale = n, 60
	}
	if num == "" || strings.TrimLeft(num, "0123456789") != "" {
		return 0, fmt.Errorf("invalid rate %q (want Nr/s or Nr/m, N a positive integer)", s)
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n > maxNginxN {
		return 0, fmt.Errorf("rate %q: N must be at most %d", s, maxNginxN)
	}
	if n <= 0 {
		return 0, fmt.Errorf("invalid rate %q (want Nr/s or Nr/m, N a positive integer)", s)
	}
	return NginxRate(n * 1000 / scale), nil
}

// NginxZoneOf says p in nginx's words: Limit per 1s is rate=<Limit>r/s, Limit per
// 1m is rate=<Limit>r/m (nginx can say no other window), and burst=
// p.EffectiveBurst(), which means what LeakyBucket's burst means: burst+1
// simultaneous requests pass. Delay and NoDelay are left 0 (nginx's default:
// every excess request waits, as in LeakyBucket).
func NginxZoneOf(p Policy) (NginxZone, error) {
	if err := p.Validate(); err != nil {
		return NginxZone{}, fmt.Errorf("nginx: %w", err)
	}
	var unit string
	switch p.Window {
	case time.Second:
		unit = "r/s"
	case time.Minute:
		unit = "r/m"
	default:
		return NginxZone{}, fmt.Errorf("nginx: window %v: limit_req's rate= says only Nr/s (window 1s) or Nr/m (window 1m)", p.Window)
	}
	return NginxZone{Rate: strconv.FormatInt(p.Limit, 10) + unit, Burst: p.EffectiveBurst()}, nil
}

// NewNginx returns the limit_req rule of z, or every problem with z.
func NewNginx(z NginxZone) (*Nginx, error) {
	var errs []error
	rate, err := ParseNginxRate(z.Rate)
	if err != nil {
		errs = append(errs, err)
	}
	if z.Burst < 0 || z.Burst > maxNginxBurst {
		errs = append(errs, fmt.Errorf("burst must be in 0..%d, got %d", int64(maxNginxBurst), z.Burst))
	}
	if z.Delay < 0 || z.Delay > maxNginxBurst {
		errs = append(errs, fmt.Errorf("delay must be in 0..%d, got %d", int64(maxNginxBurst), z.Delay))
	}
	if z.NoDelay && z.Delay != 0 {
		errs = append(errs, fmt.Errorf("delay=%d and nodelay both set (nginx keeps whichever comes last)", z.Delay))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("nginx: %w", err)
	}
	n := &Nginx{zone: z, rate: rate, burst: z.Burst * 1000, delay: min(z.Delay, z.Burst) * 1000}
	if z.NoDelay {
		n.delay = n.burst
	}
	n.limit, _ = strconv.ParseInt(strings.TrimSuffix(strings.TrimSuffix(z.Rate, "r/s"), "r/m"), 10, 64)
	return n, nil
}

// Zone is the zone the rule was built from.
func (n *Nginx) Zone() NginxZone { return n.zone }

// Rate is the zone's rate as nginx keeps it.
func (n *Nginx) Rate() NginxRate { return n.rate }

// nginxMs is now on nginx's ms clock: whole ms, rounded down.
func nginxMs(now time.Duration) int64 {
	m := int64(now / time.Millisecond)
	if now%time.Millisecond < 0 {
		m--
	}
	return m
}

// msInstant is the instant of nginx ms m, saturating (a Charge-saturated key).
func msInstant(m int64) time.Duration {
	if m > int64(Never/time.Millisecond) {
		return Never
	}
	return time.Duration(m) * time.Millisecond
}

// elapsed is nginx's ms = now − last with its two clamps (lines 445–452).
func elapsed(s *NginxState, now int64) int64 {
	ms := now - s.last
	if ms < -60000 {
		return 1
	}
	return max(ms, 0)
}

// drained reports whether rate×ms/1000 (line 454) is at least e.
func (n *Nginx) drained(ms, e int64) bool {
	hi, lo := bits.Mul64(uint64(n.rate), uint64(ms))
	return hi != 0 || lo/1000 >= uint64(e)
}

// first is excess′ of one request (cost 1) at now (lines 445–458, 486), and ms.
func (n *Nginx) first(s *NginxState, now int64) (excess, ms int64) {
	if !s.seen {
		return 0, 0
	}
	ms = elapsed(s, now)
	if n.drained(ms, s.excess+1000) {
		return 0, ms
	}
	return s.excess + 1000 - int64(uint64(n.rate)*uint64(ms)/1000), ms
}

// store is lines 466–471 (and 512, 520–523 for a new key).
func (n *Nginx) store(s *NginxState, now, ms, excess int64) {
	if !s.seen || ms != 0 {
		s.last = now
	}
	s.excess, s.seen = excess, true
}

// Decide passes (now or late) or refuses a request of cost (≥ 1) at now.
func (n *Nginx) Decide(s *NginxState, now time.Duration, cost int64) Decision {
	if cost < 1 {
		badCost("Nginx.Decide", cost)
	}
	t := nginxMs(now)
	d := Decision{Limit: n.limit, RetryAfterExact: true}
	if cost > n.zone.Burst+1 {
		d.Verdict, d.RetryAfter = Refuse, Never
		return n.answer(d, s, now)
	}
	e1, ms := n.first(s, t)
	excess := e1 + (cost-1)*1000
	if excess > n.burst {
		d.Verdict = Refuse
		// Wait until rate×ms/1000 ≥ need (so that excess′ ≤ burst×1000): ms ≥ ⌈need×1000/rate⌉.
		need := s.excess + 1000 - (n.burst - (cost-1)*1000)
		m := (need*1000 + int64(n.rate) - 1) / int64(n.rate)
		d.RetryAfter = msInstant(s.last+m) - now
		return n.answer(d, s, now)
	}
	n.store(s, t, ms, excess)
	if excess > n.delay {
		if w := (excess - n.delay) * 1000 / int64(n.rate); w > 0 {
			d.Verdict, d.Delay = Delay, time.Duration(w)*time.Millisecond
		}
	}
	return n.answer(d, s, now)
}

// answer fills Remaining and Reset from s as it is after the decision.
func (n *Nginx) answer(d Decision, s *NginxState, now time.Duration) Decision {
	if !s.seen {
		d.Remaining = n.zone.Burst + 1
		return d
	}
	if e1, _ := n.first(s, nginxMs(now)); e1 <= n.burst {
		d.Remaining = (n.burst-e1)/1000 + 1
	}
	// Idle from the ms where rate×ms/1000 ≥ excess+1000.
	m := ((s.excess+1000)*1000 + int64(n.rate) - 1) / int64(n.rate)
	d.Reset = max(msInstant(s.last+m)-now, 0)
	return d
}

// Idle reports whether s decides as a never-seen key from now on: nginx's excess′
// would be 0 (the key has drained a whole request beyond its excess). A clock
// before last is never idle.
func (n *Nginx) Idle(s *NginxState, now time.Duration) bool {
	if !s.seen {
		return true
	}
	ms := nginxMs(now) - s.last
	return ms >= 0 && n.drained(ms, s.excess+1000)
}

// Charge counts a request of cost at now whether it fits or not: excess′ as
// Decide computes it, beyond burst×1000 if need be (saturating far beyond any
// run's reach).
func (n *Nginx) Charge(s *NginxState, now time.Duration, cost int64) {
	if cost < 1 {
		badCost("Nginx.Charge", cost)
	}
	t := nginxMs(now)
	e1, ms := n.first(s, t)
	excess := int64(maxNginxExc)
	if cost-1 < (maxNginxExc-e1)/1000 {
		excess = min(e1+(cost-1)*1000, maxNginxExc)
	}
	n.store(s, t, ms, excess)
}

var (
	_ Algorithm[NginxState] = (*Nginx)(nil)
	_ Charging[NginxState]  = (*Nginx)(nil)
)
