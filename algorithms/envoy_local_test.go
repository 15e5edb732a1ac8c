package algorithms

import (
	"math/rand/v2"
	"testing"
	"testing/quick"
	"time"
)

func TestEnvoyLocalParamsOf(t *testing.T) {
	for _, c := range []struct {
		p    Policy
		want EnvoyLocalParams
	}{
		// gcd(10, 1000ms) = 10: fills of 1 token every 100ms.
		{Policy{Limit: 10, Window: time.Second, Burst: 2}, EnvoyLocalParams{MaxTokens: 2, TokensPerFill: 1, FillInterval: 100 * ms}},
		// gcd(100, 1000) = 100, but 1000/100 = 10ms < 50ms: the largest divisor
		// keeping ≥ 50ms is 20: 5 tokens every 50ms.
		{Policy{Limit: 100, Window: time.Second}, EnvoyLocalParams{MaxTokens: 100, TokensPerFill: 5, FillInterval: 50 * ms}},
		// 3 and 1000 are coprime: the natural fill.
		{Policy{Limit: 3, Window: time.Second, Burst: 1}, EnvoyLocalParams{MaxTokens: 1, TokensPerFill: 3, FillInterval: time.Second}},
		// 1 per 10ms: scaled ×5 to 5 per 50ms.
		{Policy{Limit: 1, Window: 10 * ms, Burst: 4}, EnvoyLocalParams{MaxTokens: 4, TokensPerFill: 5, FillInterval: 50 * ms}},
		// 60 per minute: 1 every second (60000/60 = 1000ms ≥ 50ms).
		{Policy{Limit: 60, Window: time.Minute}, EnvoyLocalParams{MaxTokens: 60, TokensPerFill: 1, FillInterval: time.Second}},
	} {
		got, err := EnvoyLocalParamsOf(c.p)
		if err != nil || got != c.want {
			t.Errorf("EnvoyLocalParamsOf(%+v) = %+v, %v; want %+v", c.p, got, err, c.want)
		}
	}
	if _, err := EnvoyLocalParamsOf(Policy{Limit: 1, Window: 1500 * time.Microsecond}); err == nil {
		t.Error("EnvoyLocalParamsOf(window 1.5ms) = nil error, want not whole milliseconds")
	}
}

// Envoy refuses a fill_interval under 50ms (LocalRateLimiterImpl: "local rate
// limit token bucket fill timer must be >= 50ms") after reading it in whole ms.
func TestEnvoyLocalFillIntervalMinimum(t *testing.T) {
	for _, c := range []struct {
		fill time.Duration
		ok   bool
	}{
		{49 * ms, false}, {49999 * time.Microsecond, false}, {50 * ms, true}, {50900 * time.Microsecond, true}, {time.Second, true},
	} {
		e, err := NewEnvoyLocal(EnvoyLocalParams{MaxTokens: 1, FillInterval: c.fill})
		if (err == nil) != c.ok {
			t.Errorf("NewEnvoyLocal(fill_interval %v) error = %v, want ok = %v", c.fill, err, c.ok)
		}
		if err == nil && e.fill%time.Millisecond != 0 {
			t.Errorf("fill_interval %v kept as %v, want whole ms", c.fill, e.fill)
		}
	}
	if _, err := NewEnvoyLocal(EnvoyLocalParams{}); err == nil {
		t.Error("NewEnvoyLocal(zero) = nil error, want max_tokens and fill_interval reported")
	}
}

// TestEnvoyLocalStepwiseSteps is worked out by hand from onFillTimerHelper and
// requestAllowedHelper: max_tokens 2, 1 token every 100ms, fills at 100ms,
// 200ms, … after the start, a fill at t applied before a request at t.
func TestEnvoyLocalStepwiseSteps(t *testing.T) {
	e := must(NewEnvoyLocal(EnvoyLocalParams{MaxTokens: 2, TokensPerFill: 1, FillInterval: 100 * ms, Refill: EnvoyStepwise}))
	runSteps(t, e, []step{
		admit(0), admit(0), // starts full
		refuse(0, 100*ms),
		refuse(99*ms, 1*ms),
		admit(100 * ms), // the first fill
		refuse(150*ms, 50*ms),
		refuse(150*ms, 150*ms).costs(2), // two fills: 200ms and 300ms
		admit(350 * ms).costs(2),
		refuse(350*ms, Never).costs(3),                                                   // more than max_tokens
		admit(10 * time.Second), admit(10 * time.Second), refuse(10*time.Second, 100*ms), // capped at 2
	})
}

// TestEnvoyLocalStepwiseEnvoyTests replays Envoy's own timer-era unit tests
// (test/extensions/filters/common/local_ratelimit/local_ratelimit_test.cc,
// commit 01f8613d: TokenBucket, TokenBucketMultipleTokensPerFill,
// TokenBucketMaxTokensGreaterThanTokensPerFill), each invokeCallback() of the
// 200ms fill timer being the fill at the next multiple of 200ms.
func TestEnvoyLocalStepwiseEnvoyTests(t *testing.T) {
	const fill = 200 * ms
	bucket := func(maxTokens, tpf int64) *EnvoyLocal {
		return must(NewEnvoyLocal(EnvoyLocalParams{MaxTokens: maxTokens, TokensPerFill: tpf, FillInterval: fill, Refill: EnvoyStepwise}))
	}
	t.Run("TokenBucket", func(t *testing.T) {
		runSteps(t, bucket(1, 1), []step{
			admit(0), refuse(0, fill), refuse(0, fill), // 1 -> 0 tokens
			admit(fill), refuse(fill, fill), // 0 -> 1 -> 0
			admit(3 * fill), refuse(3*fill, fill), // 0 -> 1 -> 1 (capped) -> 0
		})
	})
	t.Run("TokenBucketMultipleTokensPerFill", func(t *testing.T) {
		runSteps(t, bucket(2, 2), []step{
			admit(0), admit(0), refuse(0, fill), // 2 -> 0
			admit(fill),                                            // 0 -> 2 -> 1
			admit(2 * fill), admit(2 * fill), refuse(2*fill, fill), // 1 -> 2 -> 0
		})
	})
	t.Run("TokenBucketMaxTokensGreaterThanTokensPerFill", func(t *testing.T) {
		runSteps(t, bucket(2, 1), []step{
			admit(0), admit(0), refuse(0, fill), // 2 -> 0
			admit(fill), refuse(fill, fill), // 0 -> 1 -> 0
		})
	})
	// TooFastFillRate: 49ms throws "local rate limit token bucket fill timer must be >= 50ms".
	if _, err := NewEnvoyLocal(EnvoyLocalParams{MaxTokens: 100, TokensPerFill: 1, FillInterval: 49 * ms}); err == nil {
		t.Error("TooFastFillRate: NewEnvoyLocal(49ms) = nil error")
	}
}

// TestEnvoyLocalContinuousSteps is worked out by hand from AtomicTokenBucketImpl:
// max_tokens 2, 1 token every 125ms, so fill_rate = 1/0.125 = 8/s and every
// figure is a binary fraction (the float64 arithmetic is exact).
func TestEnvoyLocalContinuousSteps(t *testing.T) {
	e := must(NewEnvoyLocal(EnvoyLocalParams{MaxTokens: 2, TokensPerFill: 1, FillInterval: 125 * ms}))
	const us = time.Microsecond
	runSteps(t, e, []step{
		admit(0),                   // time_in_seconds −0.25 → −0.125
		admit(0),                   // → 0
		refuse(0, 125*ms),          // total 0
		refuse(62500*us, 62500*us), // total 0.5
		admit(125 * ms),            // total 1 → time 0.125
		refuse(125*ms, 250*ms).costs(2),
		refuse(125*ms, Never).costs(3),
		admit(375 * ms).costs(2),
	})
	// Remaining is Envoy's remainingTokens(), truncated.
	var s EnvoyLocalState
	if d := e.Decide(&s, 0, 1); d.Remaining != 1 || d.Limit != 2 {
		t.Errorf("first request: Remaining %d Limit %d, want 1, 2", d.Remaining, d.Limit)
	}
}

// TestEnvoyLocalStart: max_tokens 4, 2 tokens every 250ms (fill_rate 8/s),
// starting empty or at 3 tokens instead of full.
func TestEnvoyLocalStart(t *testing.T) {
	for _, c := range []struct {
		refill      EnvoyRefill
		first, next time.Duration // RetryAfter of an empty bucket at 0 and at 250ms
	}{
		{EnvoyStepwise, 250 * ms, 250 * ms},   // the next fill brings 2
		{EnvoyContinuous, 125 * ms, 125 * ms}, // one token takes 1/8 s
	} {
		x := EnvoyLocalParams{MaxTokens: 4, TokensPerFill: 2, FillInterval: 250 * ms, Refill: c.refill, Start: EnvoyStartTokens}
		empty := must(NewEnvoyLocal(x))
		runSteps(t, empty, []step{refuse(0, c.first), admit(250 * ms), admit(250 * ms), refuse(250*ms, c.next)})
		x.StartTokens = 3
		three := must(NewEnvoyLocal(x))
		runSteps(t, three, steps(repeat(3, admit(0)), refuse(0, c.first)))
	}
}

// TestEnvoyStepwiseNaturalUnderserves: Limit 10/s with bursts of 2 and a steady
// client at exactly 10/s (every 100ms from 50ms, 10 s). With the natural
// token_bucket (tokens_per_fill 10, fill_interval 1s, max_tokens 2) each fill is
// capped at 2: 2 served per second, 20 of 100. With EnvoyLocalParamsOf's finest
// fill (1 every 100ms) all 100 are served, as with the continuous refill.
func TestEnvoyStepwiseNaturalUnderserves(t *testing.T) {
	p := Policy{Limit: 10, Window: time.Second, Burst: 2}
	natural := EnvoyLocalParams{MaxTokens: 2, TokensPerFill: 10, FillInterval: time.Second, Refill: EnvoyStepwise}
	finest := must(EnvoyLocalParamsOf(p))
	finest.Refill = EnvoyStepwise
	continuous := natural
	continuous.Refill = EnvoyContinuous
	for _, c := range []struct {
		name string
		x    EnvoyLocalParams
		want int
	}{{"natural stepwise", natural, 20}, {"finest stepwise", finest, 100}, {"natural continuous", continuous, 100}} {
		e := must(NewEnvoyLocal(c.x))
		var s EnvoyLocalState
		served := 0
		for k := range 100 {
			if e.Decide(&s, 50*ms+time.Duration(k)*100*ms, 1).Admitted() {
				served++
			}
		}
		if served != c.want {
			t.Errorf("%s %+v: served %d of 100 at exactly the limit, want %d", c.name, c.x, served, c.want)
		}
	}
}

// envoyDyadicCase maps arbitrary integers to policies on which Envoy's float64
// arithmetic is exact: Limit 2^i and Window 125ms×2^k make fill_rate a power of
// two, instants are multiples of tick (1/512 s), so every time_in_seconds and
// token count is a binary fraction of few bits.
func envoyDyadicCase(r *rand.Rand) (Policy, []request) {
	p := Policy{Limit: 1 << r.IntN(9), Window: 125 * ms << r.IntN(7), Burst: 1 + r.Int64N(64)}
	var now time.Duration
	reqs := make([]request, r.IntN(300))
	for i := range reqs {
		now += []time.Duration{0, time.Duration(r.IntN(8)), time.Duration(r.IntN(512)), time.Duration(r.IntN(4096))}[r.IntN(4)] * tick
		cost := int64(1)
		if r.IntN(8) == 0 {
			cost = 1 + r.Int64N(p.Burst+1)
		}
		reqs[i] = request{at: now, cost: cost}
	}
	return p, reqs
}

// TestEnvoyLocalContinuousIsTokenBucket holds the continuous lane, through
// EnvoyLocalParamsOf, to rlsim's exact TokenBucket on traffic where Envoy's
// float64 arithmetic is exact: same verdicts and the same exact RetryAfter.
func TestEnvoyLocalContinuousIsTokenBucket(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for c := range 2000 {
		p, reqs := envoyDyadicCase(r)
		e := must(NewEnvoyLocal(must(EnvoyLocalParamsOf(p))))
		tb := must(NewTokenBucket(p))
		var es EnvoyLocalState
		var ts TokenBucketState
		for i, q := range reqs {
			got, want := e.Decide(&es, q.at, q.cost), tb.Decide(&ts, q.at, q.cost)
			if got.Verdict != want.Verdict || got.RetryAfter != want.RetryAfter || got.Remaining != want.Remaining {
				t.Fatalf("case %d %+v request %d: Decide(t0+%v, cost %d) = %v retry %v remaining %d, TokenBucket %v retry %v remaining %d",
					c, p, i, q.at, q.cost, got.Verdict, got.RetryAfter, got.Remaining, want.Verdict, want.RetryAfter, want.Remaining)
			}
		}
	}
}

func randomEnvoy(r *rand.Rand) EnvoyLocalParams {
	x := EnvoyLocalParams{
		MaxTokens:     1 + r.Int64N(50),
		TokensPerFill: 1 + r.Int64N(20),
		FillInterval:  time.Duration(50+r.Int64N(2000)) * ms,
		Refill:        EnvoyRefill(r.IntN(2)),
	}
	if r.IntN(3) == 0 {
		x.Start, x.StartTokens = EnvoyStartTokens, r.Int64N(x.MaxTokens+1)
	}
	if r.IntN(2) == 0 {
		x.MonotonicStart = time.Duration(r.Int64N(int64(30 * 24 * time.Hour))) // up to a month of uptime
	}
	return x
}

// Properties on arbitrary parameters and traffic: the stepwise bucket never
// holds more than max_tokens and admits at most level₀ + tokens_per_fill per fill
// in any span; the continuous one at most max_tokens + rate×span (+1e-6 for float
// rounding); RetryAfter is the exact first instant (a retry then is admitted,
// one ns earlier refused); Idle states decide as never-used ones.
func TestEnvoyLocalProperties(t *testing.T) {
	prop := func(seed1, seed2 uint64) bool {
		r := rand.New(rand.NewPCG(seed1, seed2))
		x := randomEnvoy(r)
		e := must(NewEnvoyLocal(x))
		var s EnvoyLocalState
		var now time.Duration
		var adm []request
		for range 200 {
			now += time.Duration(r.Int64N(int64(x.FillInterval) / 2))
			cost := 1 + r.Int64N(3)
			idle := e.Idle(&s, now)
			var fresh EnvoyLocalState
			want := e.Decide(&fresh, now, cost)
			before := s
			d := e.Decide(&s, now, cost)
			if idle && d != want {
				t.Logf("%+v at %v: idle state %+v decided %+v, never-used %+v", x, now, before, d, want)
				return false
			}
			if d.Remaining > x.MaxTokens || (e.refill == EnvoyStepwise && s.used && e.levelAt(&s, e.fillsAt(now)) > x.MaxTokens) {
				t.Logf("%+v at %v: holds more than max_tokens", x, now)
				return false
			}
			if d.Verdict == Refuse {
				if s != before {
					t.Logf("%+v at %v: a refusal changed the state", x, now)
					return false
				}
				if d.RetryAfter != Never {
					early, late := before, before
					if e.Decide(&late, now+d.RetryAfter, cost).Verdict != Admit ||
						(d.RetryAfter > 1 && e.Decide(&early, now+d.RetryAfter-1, cost).Verdict != Refuse) {
						t.Logf("%+v at %v: RetryAfter %v is not the first admitting instant", x, now, d.RetryAfter)
						return false
					}
				}
				continue
			}
			adm = append(adm, request{at: now, cost: cost})
		}
		rate := float64(x.TokensPerFill) / (float64(e.fill) / 1e9)
		for i := range adm {
			var sum int64
			for j := i; j < len(adm); j++ {
				sum += adm[j].cost
				a, b := adm[i].at, adm[j].at
				var bound float64
				if e.refill == EnvoyStepwise {
					bound = float64(x.MaxTokens + (e.fillsAt(b)-e.fillsAt(a))*e.tpf)
				} else {
					bound = float64(x.MaxTokens) + rate*float64(b-a)/1e9 + 1e-6
				}
				if float64(sum) > bound {
					t.Logf("%+v: admitted %d in [%v, %v], bound %v", x, sum, a, b, bound)
					return false
				}
			}
		}
		return true
	}
	if err := quick.Check(prop, &quick.Config{MaxCount: 400}); err != nil {
		t.Fatal(err)
	}
}

func BenchmarkEnvoyLocalContinuousDecide(b *testing.B) {
	e := must(NewEnvoyLocal(must(EnvoyLocalParamsOf(benchPolicy))))
	var s EnvoyLocalState
	var now time.Duration
	b.ReportAllocs()
	for range b.N {
		now += benchStep
		e.Decide(&s, now, 1)
	}
}

func BenchmarkEnvoyLocalStepwiseDecide(b *testing.B) {
	x := must(EnvoyLocalParamsOf(benchPolicy))
	x.Refill = EnvoyStepwise
	e := must(NewEnvoyLocal(x))
	var s EnvoyLocalState
	var now time.Duration
	b.ReportAllocs()
	for range b.N {
		now += benchStep
		e.Decide(&s, now, 1)
	}
}
