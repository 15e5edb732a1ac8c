package algorithms

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"
)

// request is one arrival of generated traffic.
type request struct {
	at   time.Duration
	cost int64
}

// policyFrom maps arbitrary integers to a small valid policy: limit 1..50, a
// window that is often not a multiple of the limit (7 per 1s, 3 per 1s, primes),
// burst 0 (= limit) .. 2×limit.
func policyFrom(limit, window, burst uint64) Policy {
	windows := []time.Duration{time.Second, time.Millisecond, 7, 1000, 999_999_937, 3 * time.Second}
	p := Policy{Limit: int64(1 + limit%50)}
	if window%3 == 0 {
		p.Window = time.Duration(1 + window%(3*uint64(time.Second)))
	} else {
		p.Window = windows[window%uint64(len(windows))]
	}
	p.Burst = int64(burst % uint64(2*p.Limit+1))
	return p
}

// trafficFrom decodes 4 bytes per request: a gap scale, a 16-bit gap, and a cost
// that is usually 1 and sometimes up to burst+2. Times never decrease.
func trafficFrom(p Policy, data []byte) []request {
	interval := max(p.Window/time.Duration(p.Limit), 1)
	scales := []time.Duration{0, 1, max(interval/64, 1), max(p.Window/256, 1)}
	var now time.Duration
	var reqs []request
	for ; len(data) >= 4; data = data[4:] {
		gap := time.Duration(binary.LittleEndian.Uint16(data[1:3]))
		now += gap * scales[data[0]%4]
		cost := int64(1)
		if data[3] >= 200 {
			cost = 1 + int64(data[3])%(p.EffectiveBurst()+2)
		}
		reqs = append(reqs, request{at: now, cost: cost})
	}
	return reqs
}

// randomCase is one property-test case: a policy and up to 400 requests.
func randomCase(r *rand.Rand) (Policy, []request) {
	p := policyFrom(r.Uint64(), r.Uint64(), r.Uint64())
	data := make([]byte, 4*r.IntN(400))
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	return p, trafficFrom(p, data)
}

// forRandomCases runs check on n seeded random cases.
func forRandomCases(t *testing.T, n int, check func(t *testing.T, p Policy, reqs []request)) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range n {
		p, reqs := randomCase(r)
		t.Run(fmt.Sprintf("case%d", i), func(t *testing.T) { check(t, p, reqs) })
		if t.Failed() {
			return
		}
	}
}

// addFuzzSeeds gives every fuzz target the same small corpus.
func addFuzzSeeds(f *testing.F) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		data := make([]byte, 4*r.IntN(100))
		for i := range data {
			data[i] = byte(r.Uint32())
		}
		f.Add(r.Uint64(), r.Uint64(), r.Uint64(), data)
	}
	f.Add(uint64(2), uint64(1), uint64(0), []byte{0, 0, 0, 0, 0, 0, 0, 0, 1, 255, 255, 0})
}

// admitted runs the traffic and returns the admitted requests, with the
// admission time moved to the release time for delayed ones.
func admitted[S any](alg Algorithm[S], reqs []request) []request {
	var s S
	var out []request
	for _, r := range reqs {
		if d := alg.Decide(&s, r.at, r.cost); d.Admitted() {
			out = append(out, request{at: r.at + d.Delay, cost: r.cost})
		}
	}
	return out
}

// maxInWindow is the most cost admitted in any [t, t+w), by two pointers over
// the admitted times (the worst window starts at an admission).
func maxInWindow(adm []request, w time.Duration) (most int64, at time.Duration) {
	var sum int64
	j := 0
	for i := range adm {
		for j < len(adm) && adm[j].at < adm[i].at+w {
			sum += adm[j].cost
			j++
		}
		if sum > most {
			most, at = sum, adm[i].at
		}
		sum -= adm[i].cost
	}
	return most, at
}

func checkSlidingLogWindow(t *testing.T, p Policy, reqs []request) {
	adm := admitted[SlidingLogState](must(NewSlidingLog(p)), reqs)
	if most, at := maxInWindow(adm, p.Window); most > p.Limit {
		t.Fatalf("%+v: %d admitted in [%v, %v+%v), want at most %d", p, most, at, at, p.Window, p.Limit)
	}
}

func checkFixedWindowTwice(t *testing.T, p Policy, reqs []request) {
	adm := admitted[FixedWindowState](must(NewFixedWindow(p)), reqs)
	if most, at := maxInWindow(adm, p.Window); most > 2*p.Limit {
		t.Fatalf("%+v: %d admitted in [%v, %v+%v), want at most %d", p, most, at, at, p.Window, 2*p.Limit)
	}
}

// checkTokenBucketRate checks, exactly, that the admitted cost in every [a, b]
// is at most burst + (b−a)×L'/W': with P the running admitted cost,
// P_j×W' − t_j×L' ≤ P_{i−1}×W' − t_i×L' + burst×W' for all i ≤ j.
func checkTokenBucketRate(t *testing.T, p Policy, reqs []request) {
	tb := must(NewTokenBucket(p))
	adm := admitted[TokenBucketState](tb, reqs)
	L, W, burst := tb.units, tb.span, tb.burst
	var before int64 // P_{i−1}
	best := int64(0) // min over i ≤ j of P_{i−1}×W' − t_i×L'
	for j, r := range adm {
		if v := before*W - int64(r.at)*L; j == 0 || v < best {
			best = v
		}
		before += r.cost
		if before*W-int64(r.at)*L > best+burst*W {
			t.Fatalf("%+v: admitted more than burst + rate×t in some interval ending at %v", p, r.at)
		}
	}
}

func checkBucketsAgree(t *testing.T, p Policy, reqs []request) {
	tb, g := must(NewTokenBucket(p)), must(NewGCRA(p))
	var ts TokenBucketState
	var gs GCRAState
	for i, r := range reqs {
		dt, dg := tb.Decide(&ts, r.at, r.cost), g.Decide(&gs, r.at, r.cost)
		if dt != dg {
			t.Fatalf("%+v request %d: Decide(t0+%v, cost %d): token bucket %+v, GCRA %+v", p, i, r.at, r.cost, dt, dg)
		}
		if tb.Idle(&ts, r.at) != g.Idle(&gs, r.at) {
			t.Fatalf("%+v request %d at %v: Idle differs", p, i, r.at)
		}
	}
}

// checkSlidingLogAllow checks that Allow gives Decide's verdict and leaves the
// same state, on the same traffic, including time that goes backwards.
func checkSlidingLogAllow(t *testing.T, p Policy, reqs []request) {
	sl := must(NewSlidingLog(p))
	var byDecide, byAllow SlidingLogState
	for i, r := range reqs {
		want := sl.Decide(&byDecide, r.at, r.cost).Admitted()
		if got := sl.Allow(&byAllow, r.at, r.cost); got != want {
			t.Fatalf("%+v request %d: Allow(t0+%v, cost %d) = %v, Decide admitted %v", p, i, r.at, r.cost, got, want)
		}
		if !reflect.DeepEqual(byDecide, byAllow) {
			t.Fatalf("%+v request %d: Allow left another state than Decide", p, i)
		}
	}
}

// checkLeakyQueue checks that at most burst units wait at any arrival and that
// releases i < j are more than (c_i+…+c_{j−1})×T − 1ns apart:
// with v_k = r_k×L' − P_k×W' (P_k the cost before k), v_j > v_i − L' for all i < j.
func checkLeakyQueue(t *testing.T, p Policy, reqs []request) {
	lb := must(NewLeakyBucket(p))
	var s LeakyBucketState
	var released []request
	var costBefore, maxV int64
	for i, r := range reqs {
		d := lb.Decide(&s, r.at, r.cost)
		if !d.Admitted() {
			continue
		}
		rel := r.at + d.Delay
		v := int64(rel)*lb.units - costBefore*lb.span
		if len(released) > 0 && v <= maxV-lb.units {
			t.Fatalf("%+v request %d released at %v: too close to an earlier release", p, i, rel)
		}
		maxV = max(maxV, v)
		if len(released) == 0 {
			maxV = v
		}
		costBefore += r.cost
		released = append(released, request{at: rel, cost: r.cost})
		var waiting int64
		for _, q := range released {
			if q.at > r.at {
				waiting += q.cost
			}
		}
		if waiting > lb.burst {
			t.Fatalf("%+v request %d at %v: %d units waiting, want at most %d", p, i, r.at, waiting, lb.burst)
		}
	}
}

// limiter is one per-key rule under test, type-erased for table-driven checks.
type limiter struct {
	name string
	new  func(p Policy) (decide func(now time.Duration, cost int64) Decision, snapshot func() any, idle func(now time.Duration) bool, fork func() func(time.Duration, int64) Decision)
}

func erase[S any](alg Algorithm[S], clone func(S) S) (func(time.Duration, int64) Decision, func() any, func(time.Duration) bool, func() func(time.Duration, int64) Decision) {
	s := new(S)
	decide := func(now time.Duration, cost int64) Decision { return alg.Decide(s, now, cost) }
	snapshot := func() any { return clone(*s) }
	idle := func(now time.Duration) bool { return alg.Idle(s, now) }
	fork := func() func(time.Duration, int64) Decision {
		c := clone(*s)
		return func(now time.Duration, cost int64) Decision { return alg.Decide(&c, now, cost) }
	}
	return decide, snapshot, idle, fork
}

func same[S any](s S) S { return s }

func cloneLog(s SlidingLogState) SlidingLogState {
	s.ring = slices.Clone(s.ring)
	return s
}

var limiters = []limiter{
	{"fixed window", func(p Policy) (func(time.Duration, int64) Decision, func() any, func(time.Duration) bool, func() func(time.Duration, int64) Decision) {
		return erase[FixedWindowState](must(NewFixedWindow(p)), same)
	}},
	{"sliding log", func(p Policy) (func(time.Duration, int64) Decision, func() any, func(time.Duration) bool, func() func(time.Duration, int64) Decision) {
		return erase[SlidingLogState](must(NewSlidingLog(p)), cloneLog)
	}},
	{"sliding window counter", func(p Policy) (func(time.Duration, int64) Decision, func() any, func(time.Duration) bool, func() func(time.Duration, int64) Decision) {
		return erase[SlidingWindowCounterState](must(NewSlidingWindowCounter(p)), same)
	}},
	{"token bucket", func(p Policy) (func(time.Duration, int64) Decision, func() any, func(time.Duration) bool, func() func(time.Duration, int64) Decision) {
		return erase[TokenBucketState](must(NewTokenBucket(p)), same)
	}},
	{"gcra", func(p Policy) (func(time.Duration, int64) Decision, func() any, func(time.Duration) bool, func() func(time.Duration, int64) Decision) {
		return erase[GCRAState](must(NewGCRA(p)), same)
	}},
	{"leaky bucket", func(p Policy) (func(time.Duration, int64) Decision, func() any, func(time.Duration) bool, func() func(time.Duration, int64) Decision) {
		return erase[LeakyBucketState](must(NewLeakyBucket(p)), same)
	}},
}

// checkRefusals checks, for every limiter, that a refusal changes no state and
// that its RetryAfter is honoured: the same request is admitted at
// now+RetryAfter and, where RetryAfter is exact, refused 1ns earlier.
func checkRefusals(t *testing.T, p Policy, reqs []request) {
	for _, l := range limiters {
		decide, snapshot, _, fork := l.new(p)
		for i, r := range reqs {
			before, retry, retryEarly := snapshot(), fork(), fork()
			d := decide(r.at, r.cost)
			if d.Admitted() {
				continue
			}
			call := lazy("%s %+v request %d: Decide(t0+%v, cost %d)", l.name, p, i, r.at, r.cost)
			if after := snapshot(); !reflect.DeepEqual(before, after) {
				t.Fatalf("%s refused but changed the state from %+v to %+v", call, before, after)
			}
			if d.RetryAfter == Never {
				continue
			}
			if d.RetryAfter <= 0 {
				t.Fatalf("%s: RetryAfter = %v on a refusal, want > 0", call, d.RetryAfter)
			}
			if got := retry(r.at+d.RetryAfter, r.cost); !got.Admitted() {
				t.Fatalf("%s: RetryAfter %v, but the retry at t0+%v = %v", call, d.RetryAfter, r.at+d.RetryAfter, got.Verdict)
			}
			if got := retryEarly(r.at+d.RetryAfter-1, r.cost); got.Admitted() {
				t.Fatalf("%s: RetryAfter %v, but a retry 1ns earlier is admitted too", call, d.RetryAfter)
			}
		}
	}
}

// checkPeek checks, for every limiter, that Peek answers what Decide then decides
// and leaves the state exactly as it was.
func checkPeek(t *testing.T, p Policy, reqs []request) {
	checkPeekOf[FixedWindowState](t, "fixed window", must(NewFixedWindow(p)), same, p, reqs)
	checkPeekOf[SlidingLogState](t, "sliding log", must(NewSlidingLog(p)), cloneLog, p, reqs)
	checkPeekOf[SlidingWindowCounterState](t, "sliding window counter", must(NewSlidingWindowCounter(p)), same, p, reqs)
	checkPeekOf[TokenBucketState](t, "token bucket", must(NewTokenBucket(p)), same, p, reqs)
	checkPeekOf[GCRAState](t, "gcra", must(NewGCRA(p)), same, p, reqs)
	checkPeekOf[LeakyBucketState](t, "leaky bucket", must(NewLeakyBucket(p)), same, p, reqs)
}

func checkPeekOf[S any](t *testing.T, name string, alg Algorithm[S], clone func(S) S, p Policy, reqs []request) {
	var s S
	for i, r := range reqs {
		before := clone(s)
		peeked := Peek(alg, &s, r.at, r.cost)
		if after := clone(s); !reflect.DeepEqual(before, after) {
			t.Fatalf("%s %+v request %d: Peek(t0+%v, cost %d) changed the state from %+v to %+v", name, p, i, r.at, r.cost, before, after)
		}
		if d := alg.Decide(&s, r.at, r.cost); d != peeked {
			t.Fatalf("%s %+v request %d: Peek(t0+%v, cost %d) = %+v, then Decide = %+v", name, p, i, r.at, r.cost, peeked, d)
		}
	}
}

// checkEviction checks that evicting idle keys at random points never changes a
// decision: a Keyed that evicts must answer exactly as a twin that never does.
func checkEviction(t *testing.T, p Policy, reqs []request) {
	checkKeyedTwin[FixedWindowState](t, must(NewFixedWindow(p)), reqs)
	checkKeyedTwin[SlidingLogState](t, must(NewSlidingLog(p)), reqs)
	checkKeyedTwin[SlidingWindowCounterState](t, must(NewSlidingWindowCounter(p)), reqs)
	checkKeyedTwin[TokenBucketState](t, must(NewTokenBucket(p)), reqs)
	checkKeyedTwin[GCRAState](t, must(NewGCRA(p)), reqs)
	checkKeyedTwin[LeakyBucketState](t, must(NewLeakyBucket(p)), reqs)
}

func checkKeyedTwin[S any](t *testing.T, alg Algorithm[S], reqs []request) {
	evicting, twin := NewKeyed(alg), NewKeyed(alg)
	keys := []string{"alice", "bob", "carol"}
	for i, r := range reqs {
		key := keys[(int(r.at)+i)%len(keys)]
		if i%7 == 3 {
			evicting.Evict(r.at)
		}
		if got, want := evicting.Decide(key, r.at, r.cost), twin.Decide(key, r.at, r.cost); got != want {
			t.Fatalf("%T request %d: Decide(%q, t0+%v, cost %d) = %+v after eviction, want %+v", alg, i, key, r.at, r.cost, got, want)
		}
	}
	if len(reqs) > 0 {
		evicting.Evict(reqs[len(reqs)-1].at + 4*time.Hour)
		if evicting.Len() != 0 {
			t.Fatalf("%T: %d keys left 4h after the last request, want 0", alg, evicting.Len())
		}
	}
}

var properties = []struct {
	name  string
	check func(t *testing.T, p Policy, reqs []request)
}{
	{"SlidingLogNeverAboveLimit", checkSlidingLogWindow},
	{"FixedWindowNeverAboveTwiceLimit", checkFixedWindowTwice},
	{"TokenBucketRate", checkTokenBucketRate},
	{"TokenBucketEqualsGCRA", checkBucketsAgree},
	{"SlidingLogAllowIsDecide", checkSlidingLogAllow},
	{"LeakyQueue", checkLeakyQueue},
	{"Refusals", checkRefusals},
	{"Eviction", checkEviction},
	{"PeekIsDecideWithoutEffect", checkPeek},
	{"AdmitIsDecidesVerdict", checkAdmit},
	{"QueueIsDecidesDelay", checkQueue},
}

func TestProperties(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 200
	}
	for _, prop := range properties {
		t.Run(prop.name, func(t *testing.T) {
			t.Parallel() // each property its own random cases: both cores
			forRandomCases(t, n, prop.check)
		})
	}
}

func fuzzProperty(f *testing.F, check func(t *testing.T, p Policy, reqs []request)) {
	addFuzzSeeds(f)
	f.Fuzz(func(t *testing.T, limit, window, burst uint64, data []byte) {
		p := policyFrom(limit, window, burst)
		check(t, p, trafficFrom(p, data))
	})
}

func FuzzSlidingLogNeverAboveLimit(f *testing.F)  { fuzzProperty(f, checkSlidingLogWindow) }
func FuzzFixedWindowNeverAboveTwice(f *testing.F) { fuzzProperty(f, checkFixedWindowTwice) }
func FuzzTokenBucketRate(f *testing.F)            { fuzzProperty(f, checkTokenBucketRate) }
func FuzzTokenBucketEqualsGCRA(f *testing.F)      { fuzzProperty(f, checkBucketsAgree) }
func FuzzSlidingLogAllow(f *testing.F)            { fuzzProperty(f, checkSlidingLogAllow) }
func FuzzLeakyQueue(f *testing.F)                 { fuzzProperty(f, checkLeakyQueue) }
func FuzzRefusals(f *testing.F)                   { fuzzProperty(f, checkRefusals) }
func FuzzEviction(f *testing.F)                   { fuzzProperty(f, checkEviction) }
func FuzzPeek(f *testing.F)                       { fuzzProperty(f, checkPeek) }
