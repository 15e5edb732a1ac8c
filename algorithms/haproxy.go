package algorithms

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// HAProxy is the stick-table request-rate limit (HAProxy 2.6, include/haproxy/freq_ctr.h,
// src/freq_ctr.c, src/http_act.c), read at tag v2.6.0 (commit a1efc048) and held
// request for request to the Debian haproxy 2.6.12 binary by
// conform/haproxy_real_test.go: the configuration
//
//	stick-table type string size <Size> expire <Expire> store http_req_rate(<Period>)
//	http-request track-sc0 req.hdr(x-key)
//	http-request deny deny_status 429 if { sc_http_req_rate(0) gt <Limit> }
//
// Per key HAProxy keeps a freq_ctr (include/haproxy/freq_ctr-t.h:32-36): the
// start tick of the current period, the count in it and the count of the period
// before, on its millisecond clock now_ms. Every rule below is HAProxy's:
//
//   - Every tracked request is counted, refused ones too: http-request track-sc0
//     calls update_freq_ctr_period(…, 1) when the rule runs (src/http_act.c:2001-2072,
//     http_action_track_sc), before the deny rule reads the rate. So the current
//     request is in the rate it is judged by, and a client that keeps retrying
//     keeps its own rate up: refusals change the state (unlike the textbook lanes).
//     (http_ana.c:146 stream_inc_http_req_ctr counts only counters tracked before
//     the HTTP rules, by tcp-request rules, so the request is counted once.)
//   - The clock is now_ms, the Unix time in whole ms modulo 2^32 (src/clock.c:216,
//     249; one value per poll loop iteration); rlsim truncates now to whole ms.
//   - update_freq_ctr_period (include/haproxy/freq_ctr.h:38-75): if now − tick <
//     Period the count goes up; else the period rotates: previous = current,
//     current = the new request, tick += Period — unless now − (the old tick) ≥
//     2×Period ("we missed at least two periods", :67), when previous = 0 and
//     tick = now. The tick is stored with its low bit cleared (:73, the bit is the
//     rotation lock), so a period that starts afresh starts at an even ms, and
//     with an odd Period each rotation lands 1 ms early.
//   - A new entry is zeroed (src/stick_table.c:165), so the first request takes the
//     "two periods missed" branch: its period starts at its own ms, rounded down to
//     even.
//   - sc_http_req_rate(0) is read_freq_ctr_period (src/stick_table.c:3846-3875;
//     freq_ctr.h:99-104) = ⌊freq_ctr_total/Period⌋, where freq_ctr_total
//     (src/freq_ctr.c:27-97) is previous×remain + current×Period with remain =
//     tick + Period − now: the previous period's count interpolated over the part
//     of the period still to run, rounded down after the division. A reader past
//     the period shifts by one period or reads 0 past two (:78-86); with no current
//     count and a previous of at most 1 it reads the previous as is (:89-92, the
//     "flapping correction").
//   - "gt Limit" denies when rate > Limit (src/acl.c:602-604: gt = ge Limit+1). In a
//     period whose previous is empty Limit requests pass and the next is refused;
//     "ge N" is Limit = N−1. Every period of the key's grid passes at most Limit
//     (the rate is at least the period's own count); a window of one Period can
//     pass 2×Limit across a rotation, when the previous count weighs nothing.
//   - An entry not tracked for Expire is removed (its expire is now_ms + Expire at
//     each tracking, src/stick_table.c:453-461, removed once due, :562-636), and
//     the key starts afresh. Expire 0 (no "expire") keeps entries until the table
//     is full. An Expire shorter than the Period lets a key that pauses for Expire
//     start afresh: up to Limit per pause, whatever the Period says.
//
// A cost of n counts n requests at one instant, as one update_freq_ctr_period(…,
// n) judged by the rate that includes all n (HAProxy itself always adds 1).
//
// HAProxy sends no Retry-After and no RateLimit headers. RetryAfter is the exact
// wait, to the ns of rlsim's clock, until the first ms at which the same request
// would be admitted if nothing else arrived (counting the refused one, as
// HAProxy does), so RetryAfterExact is true; Never when cost > Limit. Remaining
// is how many more requests this ms would pass (Limit − rate, at least 0). Reset
// is the wait until a burst of Limit requests would all pass. With an odd Period
// a rotation at tick+2×Period−1 stores a tick a whole Period back, so the next
// request in that ms rotates again and reads the first as the previous period's
// (held to haproxy by conform's TestHAProxyRealRotatesTwiceInOneMs): Remaining
// counts on that, and Reset can be 0. (A refusal is never left there: that
// ms's first request reads only its own cost.)
//
// Not modelled: now_ms wraps every 2^32 ms (49.7 days) in HAProxy and a fresh
// entry read within 2 periods of a wrap starts on a different grid; counters are
// 32-bit in HAProxy and wrap, here they saturate at 2^31−1 (Limit stays below);
// several threads; a full table (Size) is the keyed store's business: HAProxy
// then evicts the entries nearest expiry or, finding none, tracks nothing and so
// denies nothing. A now before the last request's ms is taken as that ms
// (now_ms never goes back, clock.c:198-226).
//
// The rule is immutable and safe for concurrent use; each HAProxyState belongs to
// one goroutine.
type HAProxy struct {
	period int64 // ms
	limit  int64
	expire int64 // ms; 0 = never
	size   int
	clock0 int64 // now_ms at virtual time 0
}

// HAProxyTable is HAProxy's own parameters for the stick-table rate limit, in
// HAProxy's words and units (configuration.txt of 2.6, sections 4.2 stick-table
// and 7.3.3 sc_http_req_rate).
type HAProxyTable struct {
	// Period is http_req_rate(<period>), in whole milliseconds: the length of the
	// frequency counter's period ("it reports the average HTTP request rate over
	// that period, in requests per period"). At least 2 ms (freq_ctr-t.h:27-30),
	// at most 2^31−1 ms. No default.
	Period time.Duration
	// Limit is the threshold of "deny … if { sc_http_req_rate(0) gt <Limit> }": a
	// request is refused when the rate, counting it, exceeds Limit. 0 refuses every
	// tracked request. Below 2^31−1.
	Limit int64
	// Expire is the stick-table's "expire", whole ms up to 2^31−1: an entry not
	// tracked for that long is removed. 0, HAProxy's default, never expires.
	Expire time.Duration
	// Size is the stick-table's "size", in entries. It does not change one key's
	// decisions (see HAProxy); 0 means no bound in rlsim (HAProxy requires a size).
	Size int
	// ClockAtZero is HAProxy's now_ms at virtual time 0, whole ms below 2^32 (the
	// Unix time in ms modulo 2^32, clock.c:249). Only its parity matters: a period
	// that starts afresh starts at an even now_ms. Default 0.
	ClockAtZero time.Duration
}

// haproxyMaxMs is HAProxy's largest timer, 2^31−1 ms (parse_time_err's
// PARSE_TIME_OVER), and the model's counter ceiling.
const haproxyMaxMs = math.MaxInt32

// HAProxyTableOf translates p: Period = Window, Limit = p.Limit ("gt Limit":
// Limit requests pass in a period whose previous one was empty), Expire =
// 2×Window, the shortest expire that never forgets a count the rate still reads
// (two idle periods reset the counter anyway), Size 0. HAProxy has no burst: its
// first period passes Limit at once, so Burst must equal Limit (or be 0); any
// other Burst is an error, as is a Window that is not whole milliseconds, below
// 2 ms, or above (2^31−1)/2 ms (HAProxy's timers stop at 2^31−1 ms).
func HAProxyTableOf(p Policy) (HAProxyTable, error) {
	if err := p.Validate(); err != nil {
		return HAProxyTable{}, fmt.Errorf("haproxy: %w", err)
	}
	var errs []error
	if b := p.EffectiveBurst(); b != p.Limit {
		errs = append(errs, fmt.Errorf("haproxy: sc_http_req_rate has no burst: burst must equal the limit %d, got %d", p.Limit, b))
	}
	if p.Window%time.Millisecond != 0 || p.Window < 2*time.Millisecond || p.Window > haproxyMaxMs/2*time.Millisecond {
		errs = append(errs, fmt.Errorf("haproxy: http_req_rate's period is whole milliseconds from 2ms, with an expire of twice it up to 2^31-1 ms, got window %v", p.Window))
	}
	if err := errors.Join(errs...); err != nil {
		return HAProxyTable{}, err
	}
	return HAProxyTable{Period: p.Window, Limit: p.Limit, Expire: 2 * p.Window}, nil
}

// NewHAProxy returns the rule for x, or every problem with x.
func NewHAProxy(x HAProxyTable) (*HAProxy, error) {
	var errs []error
	wholeMs := func(name string, d, lo, hi time.Duration) {
		if d%time.Millisecond != 0 || d < lo || d > hi {
			errs = append(errs, fmt.Errorf("haproxy: %s must be whole milliseconds in [%v, %v], got %v", name, lo, hi, d))
		}
	}
	wholeMs("period", x.Period, 2*time.Millisecond, haproxyMaxMs*time.Millisecond)
	wholeMs("expire", x.Expire, 0, haproxyMaxMs*time.Millisecond)
	wholeMs("clock at zero", x.ClockAtZero, 0, math.MaxUint32*time.Millisecond)
	if x.Limit < 0 || x.Limit >= haproxyMaxMs {
		errs = append(errs, fmt.Errorf("haproxy: limit must be in [0, %d], got %d", haproxyMaxMs-1, x.Limit))
	}
	if x.Size < 0 {
		errs = append(errs, fmt.Errorf("haproxy: size must not be negative, got %d", x.Size))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return &HAProxy{
		period: int64(x.Period / time.Millisecond),
		limit:  x.Limit,
		expire: int64(x.Expire / time.Millisecond),
		size:   x.Size,
		clock0: int64(x.ClockAtZero / time.Millisecond),
	}, nil
}

// HAProxyState is one key's stick-table entry: its freq_ctr and the ms of its
// last tracking, 24 bytes. The zero value is a never-seen key (a counted key
// always has curr ≥ 1).
type HAProxyState struct {
	tick       int64  // curr_tick: start of the current period, now_ms, even
	curr, prev uint32 // curr_ctr, prev_ctr
	last       uint32 // ms of the last tracking − tick (the entry expires at tick+last+Expire)
}

var (
	_ Algorithm[HAProxyState] = (*HAProxy)(nil)
	_ Charging[HAProxyState]  = (*HAProxy)(nil)
)

// Table is the rule's parameters.
func (r *HAProxy) Table() HAProxyTable {
	return HAProxyTable{
		Period:      time.Duration(r.period) * time.Millisecond,
		Limit:       r.limit,
		Expire:      time.Duration(r.expire) * time.Millisecond,
		Size:        r.size,
		ClockAtZero: time.Duration(r.clock0) * time.Millisecond,
	}
}

// ms is now on HAProxy's clock, never before the entry's last tracking.
func (r *HAProxy) ms(s *HAProxyState, now time.Duration) int64 {
	m := int64(now/time.Millisecond) + r.clock0
	if s.curr != 0 {
		m = max(m, s.tick+int64(s.last))
	}
	return m
}

// gone reports whether the entry is absent at m: never created, or expired.
func (r *HAProxy) gone(s *HAProxyState, m int64) bool {
	return s.curr == 0 || (r.expire > 0 && m >= s.tick+int64(s.last)+r.expire)
}

// Decide counts a request of cost units (cost ≥ 1) at now and refuses it when the
// rate, counting it, exceeds Limit.
func (r *HAProxy) Decide(s *HAProxyState, now time.Duration, cost int64) Decision {
	if cost < 1 {
		badCost("HAProxy.Decide", cost)
	}
	m := r.ms(s, now)
	r.update(s, m, cost)
	rate := r.read(s, m)
	d := Decision{Limit: r.limit, Remaining: r.remaining(s, m, rate), RetryAfterExact: true}
	if r.limit > 0 {
		d.Reset = max(r.toNs(r.admitsAt(s, m, r.limit))-now, 0)
	}
	if rate > r.limit {
		d.Verdict = Refuse
		d.RetryAfter = Never
		if cost <= r.limit {
			d.RetryAfter = max(r.toNs(r.admitsAt(s, m, cost))-now, 0)
		}
	}
	return d
}

// Charge counts cost at now, as Decide does whether it admits or not.
func (r *HAProxy) Charge(s *HAProxyState, now time.Duration, cost int64) {
	if cost < 1 {
		badCost("HAProxy.Charge", cost)
	}
	r.update(s, r.ms(s, now), cost)
}

// Rate is what sc_http_req_rate(0) reads at now (0 for an absent entry),
// without counting anything.
func (r *HAProxy) Rate(s *HAProxyState, now time.Duration) int64 {
	m := r.ms(s, now)
	if r.gone(s, m) {
		return 0
	}
	return r.read(s, m)
}

// Idle reports whether s decides as a never-seen key from now on: the entry has
// expired, or two whole periods have passed since its period began.
func (r *HAProxy) Idle(s *HAProxyState, now time.Duration) bool {
	m := r.ms(s, now)
	return r.gone(s, m) || m-s.tick >= 2*r.period
}

func (r *HAProxy) toNs(m int64) time.Duration { return time.Duration(m-r.clock0) * time.Millisecond }

// update is update_freq_ctr_period(ctr, Period, inc) at now_ms m (freq_ctr.h:38-75),
// on a zeroed entry if s is absent.
func (r *HAProxy) update(s *HAProxyState, m, inc int64) {
	switch d := m - s.tick; {
	case r.gone(s, m) || d >= 2*r.period: // a zeroed ctr's tick 0 is ≥ 2 periods back
		s.tick, s.prev, s.curr = m&^1, 0, satCount(0, inc)
	case d >= r.period:
		s.tick, s.prev, s.curr = (s.tick+r.period)&^1, s.curr, satCount(0, inc)
	default:
		s.curr = satCount(s.curr, inc)
	}
	s.last = uint32(m - s.tick)
}

// satCount is c+inc, saturated at 2^31−1 (HAProxy's 32-bit counters would wrap).
func satCount(c uint32, inc int64) uint32 {
	return uint32(min(int64(c)+min(inc, haproxyMaxMs), haproxyMaxMs))
}

// read is read_freq_ctr_period at m: ⌊freq_ctr_total(ctr, Period, -1)/Period⌋
// (freq_ctr.c:78-96). Products stay below 2^63: counts and remain are ≤ 2^31.
func (r *HAProxy) read(s *HAProxyState, m int64) int64 {
	remain := s.tick + r.period - m
	curr, past := int64(s.curr), int64(s.prev)
	if remain < 0 {
		remain += r.period
		past = 0
		if remain >= 0 {
			past = curr
		}
		curr = 0
	}
	if curr == 0 && past <= 1 {
		return past
	}
	return (past*remain + curr*r.period) / r.period
}

// remaining is how many more requests would pass at m: Limit − rate, unless
// the next request at m rotates the period again, which an odd Period allows
// (its rotation stores tick+Period−1, so m can be a whole Period past it).
func (r *HAProxy) remaining(s *HAProxyState, m, rate int64) int64 {
	if m-s.tick >= r.period {
		next := (s.tick + r.period) &^ 1
		rate = int64(s.curr) * (next + r.period - m) / r.period
	}
	return max(r.limit-rate, 0)
}

// admitsAt is the first now_ms from m on at which a request of cost units (≤ Limit)
// would pass if nothing else arrived, s being the state after m's request. At
// m′ the rate it reads is ⌊prev′×remain′/Period⌋ + curr′, falling as m′
// grows within each case, so each case's first passing ms is solved directly:
//
//	m′ < tick+P:   prev′ = prev, curr′ = curr+cost, remain′ = tick+P−m′
//	m′ < tick+2P:  prev′ = curr, curr′ = cost, remain′ = ((tick+P)&^1)+P−m′
//	m′ ≥ tick+2P or m′ ≥ expiry: a fresh entry, rate = cost.
//
// m′ = m itself can pass only in the second case (an odd Period's second
// rotation in one ms, see HAProxy), never in the first: m's own request read less.
func (r *HAProxy) admitsAt(s *HAProxyState, m, cost int64) int64 {
	p, tick := r.period, s.tick
	at := tick + 2*p
	if r.expire > 0 {
		at = min(at, tick+int64(s.last)+r.expire)
	}
	// room is the largest remain′ with prev′×remain′ < (Limit−curr′+1)×P, or -1.
	room := func(prev, curr int64) int64 {
		if curr > r.limit {
			return -1
		}
		if prev == 0 {
			return math.MaxInt64
		}
		return ((r.limit-curr+1)*p - 1) / prev
	}
	if x := room(int64(s.prev), int64(s.curr)+cost); x >= 0 {
		if first := max(m, tick+p-x); first < tick+p {
			return min(first, at)
		}
	}
	if x := room(int64(s.curr), cost); x >= 0 {
		next := (tick + p) &^ 1
		first := max(m, tick+p)
		if x < next+p-first {
			first = next + p - x
		}
		if first < tick+2*p {
			return min(first, at)
		}
	}
	return max(at, m)
}
