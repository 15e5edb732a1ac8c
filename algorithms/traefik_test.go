package algorithms

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"testing/quick"
	"time"

	"golang.org/x/time/rate"
)

// traefikRef is Traefik v3.7.9's in-memory limiter rebuilt on the real
// x/time/rate v0.15.0: rate and maxDelay as rate_limiter.go New computes them,
// a Limiter per source kept in a map with ttlmap's Unix-second expiry, and
// Allow's Reserve / Delay / Cancel sequence (ReserveN with the request's cost).
type traefikRef struct {
	rate     rate.Limit
	burst    int
	maxDelay time.Duration
	ttl      int
	lim      *rate.Limiter
	expiry   int64
}

func newTraefikRef(x TraefikParams) *traefikRef {
	period := x.Period
	if period == 0 {
		period = time.Second
	}
	r := &traefikRef{rate: rate.Inf, burst: int(max(x.Burst, 1))}
	rtl := float64(rate.Inf)
	if x.Average > 0 {
		rtl = float64(x.Average*int64(time.Second)) / float64(period)
		if rtl < 1 {
			r.maxDelay = 500 * time.Millisecond
		} else {
			r.maxDelay = time.Second / (time.Duration(rtl) * 2)
		}
	}
	r.rate = rate.Limit(rtl)
	r.ttl = 1
	if rtl >= 1 {
		r.ttl++
	} else if rtl > 0 {
		r.ttl += int(1 / rtl)
	}
	return r
}

// allow is Traefik's Allow then ServeHTTP's branch: the verdict, the delay waited
// (Delay verdict) and the Retry-After header (Refuse).
func (r *traefikRef) allow(at time.Time, cost int) (Verdict, time.Duration, time.Duration) {
	if r.lim == nil || r.expiry <= at.Unix() {
		r.lim = rate.NewLimiter(r.rate, r.burst)
	}
	r.expiry = at.Add(time.Duration(r.ttl) * time.Second).Unix()
	res := r.lim.ReserveN(at, cost)
	if !res.OK() {
		return Refuse, 0, Never
	}
	delay := res.DelayFrom(at)
	if delay > r.maxDelay {
		res.CancelAt(at)
		return Refuse, 0, time.Duration(math.Ceil(delay.Seconds())) * time.Second
	}
	if delay > 0 {
		return Delay, delay, 0
	}
	return Admit, 0, 0
}

// randomTraefik draws options on which x/time/rate's float64 arithmetic is not
// exact: averages up to 5000, periods of arbitrary nanoseconds (from 1ms to 20s,
// so rates below 1/s and fractional maxDelays occur), bursts 0..40.
func randomTraefik(r *rand.Rand) TraefikParams {
	x := TraefikParams{Average: 1 + r.Int64N(5000), Burst: r.Int64N(41)}
	switch r.IntN(4) {
	case 0:
		x.Period = 0
	case 1:
		x.Average = 1 + r.Int64N(20)
		x.Period = time.Duration(1 + r.Int64N(int64(20*time.Second)))
	default:
		x.Period = time.Duration(int64(time.Millisecond) + r.Int64N(int64(5*time.Second)))
	}
	return x
}

// TestTraefikMatchesXTimeRate drives the real x/time/rate Limiter (ReserveN,
// DelayFrom, CancelAt) and Traefik with the same instants and costs and requires
// the same verdict, delay and Retry-After on every request, on arbitrary
// nanosecond instants and rates, time going backwards included. There is no
// allowed difference: Traefik
// reproduces x/time/rate's float64 arithmetic, Cancel's restoration included.
func TestTraefikMatchesXTimeRate(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	var delays, cancels, expiries int
	for c := range 3000 {
		x := randomTraefik(r)
		tr := must(NewTraefik(x))
		ref := newTraefikRef(x)
		var s TraefikState
		var now time.Duration
		interval := time.Duration(float64(time.Second) / tr.rate)
		for i := range 200 {
			switch r.IntN(6) {
			case 5: // time going backwards, as x/time/rate allows
				now = max(0, now-time.Duration(r.Int64N(int64(interval)+1)))
			case 0:
				now += time.Duration(r.Int64N(int64(interval)/4 + 1))
			case 1:
				now += time.Duration(r.Int64N(int64(3*interval) + 1))
			case 2:
				// same instant
			case 3:
				now += time.Duration(r.Int64N(int64(3 * time.Second)))
			default:
				now += time.Duration(r.Int64N(int64(interval) + 1))
			}
			cost := int64(1)
			if r.IntN(8) == 0 {
				cost = 1 + r.Int64N(tr.burst+1)
			}
			if !s.seen || tr.fresh(&s, now) {
				expiries++
			}
			wantV, wantDelay, wantRetry := ref.allow(t0.Add(now), int(cost))
			d := tr.Decide(&s, now, cost)
			if d.Verdict != wantV || d.Delay != wantDelay || (wantV == Refuse && d.RetryAfter != wantRetry) {
				t.Fatalf("case %d %+v request %d: Decide(t0+%v, cost %d) = %v delay %v retry %v, x/time/rate: %v delay %v retry %v",
					c, x, i, now, cost, d.Verdict, d.Delay, d.RetryAfter, wantV, wantDelay, wantRetry)
			}
			if wantV == Delay {
				delays++
			}
			if wantV == Refuse && wantRetry != Never {
				cancels++
			}
			if got := ref.lim.TokensAt(t0.Add(now)); got != tr.advance(&s, now) {
				t.Fatalf("case %d %+v request %d at t0+%v: tokens %v, x/time/rate %v", c, x, i, now, tr.advance(&s, now), got)
			}
		}
	}
	if delays == 0 || cancels == 0 || expiries == 0 {
		t.Fatalf("the cases never delayed (%d), cancelled (%d) or renewed a Limiter (%d)", delays, cancels, expiries)
	}
}

func TestTraefikParamsDefaults(t *testing.T) {
	for _, c := range []struct {
		x        TraefikParams
		maxDelay time.Duration
		burst    int64
	}{
		// Traefik's own TestNewRateLimiter (rate_limiter_test.go, v3.7.9):
		// "maxDelay computation" and "maxDelay computation, low rate regime".
		{TraefikParams{Average: 200, Burst: 10}, 2500 * time.Microsecond, 10},
		{TraefikParams{Average: 2, Period: 10 * time.Second, Burst: 10}, 500 * time.Millisecond, 10},
		// rate 100/s: 1s/(100×2) = 5ms; burst 0 is 1.
		{TraefikParams{Average: 100}, 5 * time.Millisecond, 1},
		// rate 1.9/s truncates to 1: 1s/2 = 500ms.
		{TraefikParams{Average: 19, Period: 10 * time.Second, Burst: 3}, 500 * time.Millisecond, 3},
		// rate 3/s: 1s/6 = 166.666666ms truncated.
		{TraefikParams{Average: 3, Burst: 5}, 166666666, 5},
		// rate 1/60 s < 1: 500ms.
		{TraefikParams{Average: 1, Period: time.Minute}, 500 * time.Millisecond, 1},
	} {
		tr := must(NewTraefik(c.x))
		if tr.MaxDelay() != c.maxDelay || tr.burst != c.burst {
			t.Errorf("NewTraefik(%+v): maxDelay %v burst %d, want %v, %d", c.x, tr.MaxDelay(), tr.burst, c.maxDelay, c.burst)
		}
	}
	if _, err := NewTraefik(TraefikParams{Average: 1, Period: -time.Second}); err == nil {
		t.Error("NewTraefik(period -1s) = nil error, want negative period refused")
	}
	// Average 0: no limit, every request admitted at once.
	tr := must(NewTraefik(TraefikParams{}))
	var s TraefikState
	for i := range 1000 {
		if d := tr.Decide(&s, 0, 1); d.Verdict != Admit {
			t.Fatalf("average 0: request %d = %v, want admit (no limit)", i, d.Verdict)
		}
	}
}

// TestTraefikSteps walks a step table derived by hand from rate_limiter.go and
// x/time/rate: average 8 per 1s (a token every 125ms), burst 2, so maxDelay =
// 1s/(8×2) = 62.5ms. Every figure is a binary fraction, so the float64
// arithmetic is exact and the table can be worked out on paper.
func TestTraefikSteps(t *testing.T) {
	tr := must(NewTraefik(TraefikParams{Average: 8, Burst: 2}))
	const us = time.Microsecond
	runSteps(t, tr, []step{
		admit(0), admit(0), // the full bucket: 2 tokens
		refuse(0, time.Second),          // −1 token: 125ms > 62.5ms, cancelled; Retry-After ⌈0.125⌉ = 1s
		delayed(62500*us, 62500*us),     // 0.5 tokens − 1: waits 62.5ms = maxDelay, leaving −0.5
		refuse(62500*us, time.Second),   // −1.5: 187.5ms; cancelled back to −0.5
		admit(250 * ms),                 // −0.5 + 0.1875×8 = 1
		refuse(281250*us, time.Second),  // 0.25 − 1: 93.75ms; cancelled back to 0.25
		delayed(312500*us, 62500*us),    // 0.25 + 0.25 − 1 = −0.5: 62.5ms
		admit(2300 * ms).costs(2),       // the entry (expiry ⌊0.3125⌋+2 = 2) expired: a full Limiter
		refuse(2300*ms, Never).costs(3), // cost 3 > burst 2: not OK, no Retry-After
		refuse(2300*ms, time.Second),    // empty: 125ms
	})
}

// TestTraefikExpiryRefills shows the TTL map: with rate ≥ 1 the ttl is 2s, so a
// source idle for two Unix-second boundaries gets a new, full Limiter, even when
// the refill alone would not have filled it (average 1/s, burst 10).
func TestTraefikExpiryRefills(t *testing.T) {
	tr := must(NewTraefik(TraefikParams{Average: 1, Burst: 10}))
	runSteps(t, tr, steps(
		repeat(10, admit(500*ms)),
		refuse(500*ms, time.Second), // empty; 1s > maxDelay 500ms
		// at 2.0s the entry (expiry ⌊0.5⌋+2 = 2) has expired: 10 tokens, not 1.5
		repeat(10, admit(2*time.Second)),
		refuse(2*time.Second, time.Second),
	))
	// Refreshed at 2s (expiry 4): at 3.9s only 1.9 tokens, one request.
	var s TraefikState
	for range 10 {
		tr.Decide(&s, 2*time.Second, 1)
	}
	if d := tr.Decide(&s, 3900*ms, 1); d.Verdict != Admit {
		t.Fatalf("Decide(t0+3.9s) = %v, want admit (1.9 tokens)", d.Verdict)
	}
	if d := tr.Decide(&s, 3900*ms, 1); d.Verdict != Delay || d.Delay != 100*ms {
		t.Fatalf("Decide(t0+3.9s) = %v delay %v, want delay 100ms (0.9 tokens, maxDelay 500ms)", d.Verdict, d.Delay)
	}
}

// Properties on arbitrary options and traffic: no delay exceeds maxDelay; a
// refusal for delay sends a Retry-After of at least 1s; a refusal changes no
// token count beyond float rounding; Idle states decide as new ones.
func TestTraefikProperties(t *testing.T) {
	prop := func(seed1, seed2 uint64) bool {
		r := rand.New(rand.NewPCG(seed1, seed2))
		x := randomTraefik(r)
		tr := must(NewTraefik(x))
		var s TraefikState
		var now time.Duration
		for range 300 {
			now += time.Duration(r.Int64N(int64(200 * time.Millisecond)))
			idle := tr.Idle(&s, now)
			var fresh TraefikState
			want := tr.Decide(&fresh, now, 1)
			before := s
			d := tr.Decide(&s, now, 1)
			if idle && d != want {
				t.Logf("%+v at %v: idle state decided %+v, new state %+v", x, now, d, want)
				return false
			}
			if d.Delay > tr.maxDelay {
				t.Logf("%+v at %v: delay %v > maxDelay %v", x, now, d.Delay, tr.maxDelay)
				return false
			}
			if d.Verdict == Refuse && d.RetryAfter < time.Second {
				t.Logf("%+v at %v: Retry-After %v < 1s", x, now, d.RetryAfter)
				return false
			}
			if d.Verdict == Refuse && !tr.fresh(&before, now) {
				if diff := math.Abs(tr.advance(&s, now) - tr.advance(&before, now)); diff > 1e-9 {
					t.Logf("%+v at %v: a refusal moved the tokens by %g", x, now, diff)
					return false
				}
			}
		}
		return true
	}
	if err := quick.Check(prop, &quick.Config{MaxCount: 300}); err != nil {
		t.Fatal(err)
	}
}

func BenchmarkTraefikDecide(b *testing.B) {
	tr := must(NewTraefik(must(TraefikParamsOf(benchPolicy))))
	var s TraefikState
	var now time.Duration
	b.ReportAllocs()
	for range b.N {
		now += benchStep
		tr.Decide(&s, now, 1)
	}
}

// Traefik delays a request whose token is due within maxDelay and refuses the
// rest with a Retry-After in whole seconds.
func ExampleTraefik() {
	tr, _ := NewTraefik(TraefikParams{Average: 8, Burst: 2}) // maxDelay 62.5ms
	var s TraefikState
	for _, at := range []time.Duration{0, 0, 0, 62500 * time.Microsecond} {
		d := tr.Decide(&s, at, 1)
		fmt.Println(at, d.Verdict, d.Delay, d.RetryAfter)
	}
	// Output:
	// 0s admit 0s 0s
	// 0s admit 0s 0s
	// 0s refuse 0s 1s
	// 62.5ms delay 62.5ms 0s
}
