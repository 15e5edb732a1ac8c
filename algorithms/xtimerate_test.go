package algorithms

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
	"time"

	"golang.org/x/time/rate"
)

// t0 is a fixed instant for x/time/rate, which works in time.Time: no wall clock.
var t0 = time.Unix(0, 0)

// tick is 1/512 s, the coarsest nanosecond count that is an exact binary fraction
// of a second (1e9 = 2^9 × 1953125).
const tick = 1953125 * time.Nanosecond

// dyadicCase maps arbitrary integers to parameters on which x/time/rate's float64
// arithmetic is exact, so the two must agree on every request:
//
//   - every instant is a multiple of tick, so Duration.Seconds() = sec + nsec/1e9
//     is exactly j/512;
//   - the window is tick×2^a (a ≤ 12), so the rate Limit/Window.Seconds() is
//     exactly Limit×2^(9−a);
//   - hence every token count is a multiple of 2^−12 below 2^17 (29 significant
//     bits, well within float64's 53), a negative count is at most −2^−12 tokens,
//     and its wait can never truncate to 0ns.
func dyadicCase(limit, window, burst uint64, data []byte) (Policy, []request) {
	p := Policy{
		Limit:  int64(1 + limit%1000),
		Window: tick << (window % 13),
		Burst:  int64(1 + burst%64),
	}
	var now time.Duration
	var reqs []request
	for ; len(data) >= 4; data = data[4:] {
		k := time.Duration(binary.LittleEndian.Uint16(data[1:3]))
		now += []time.Duration{0, k % 8, k % 512, k}[data[0]%4] * tick
		cost := int64(1)
		if data[3] >= 128 {
			cost = 1 + int64(data[3])%(p.Burst+1) // up to burst+1: both must refuse that
		}
		reqs = append(reqs, request{at: now, cost: cost})
	}
	return p, reqs
}

func checkAgainstXTimeRate(t *testing.T, p Policy, reqs []request) {
	tb := must(NewTokenBucket(p))
	lim := rate.NewLimiter(rate.Limit(float64(p.Limit)/p.Window.Seconds()), int(p.Burst))
	var s TokenBucketState
	for i, r := range reqs {
		want := lim.AllowN(t0.Add(r.at), int(r.cost))
		if got := tb.Decide(&s, r.at, r.cost).Admitted(); got != want {
			t.Fatalf("%+v request %d: Decide(t0+%v, cost %d) admitted = %v, x/time/rate AllowN = %v", p, i, r.at, r.cost, got, want)
		}
	}
}

func FuzzTokenBucketMatchesXTimeRate(f *testing.F) {
	addFuzzSeeds(f)
	f.Fuzz(func(t *testing.T, limit, window, burst uint64, data []byte) {
		p, reqs := dyadicCase(limit, window, burst, data)
		checkAgainstXTimeRate(t, p, reqs)
	})
}

func TestTokenBucketMatchesXTimeRate(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		data := make([]byte, 4*r.IntN(300))
		for i := range data {
			data[i] = byte(r.Uint32())
		}
		p, reqs := dyadicCase(r.Uint64(), r.Uint64(), r.Uint64(), data)
		checkAgainstXTimeRate(t, p, reqs)
		if t.Failed() {
			return
		}
	}
}

// On arbitrary nanosecond instants and rates x/time/rate's float64 arithmetic is
// not exact, and the two disagree in one named case only, which this test allows:
//
//	x/time/rate admits a request whose missing tokens are due within about 1ns:
//	it converts the wait to a Duration by truncation, so a float wait just
//	under 1ns (an exact wait of at most 1ns, after rounding) becomes 0 and the
//	request goes through. TokenBucket refuses it with RetryAfter = 1ns: a token
//	that refills at t is there at t, not before.
//
// Every other answer must match. After the allowed disagreement the two states
// differ, so the case ends there.
func TestTokenBucketNearXTimeRate(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var allowed int
	for range 3000 {
		p := policyFrom(r.Uint64(), r.Uint64(), r.Uint64())
		tb := must(NewTokenBucket(p))
		lim := rate.NewLimiter(rate.Limit(float64(p.Limit)/p.Window.Seconds()), int(p.EffectiveBurst()))
		var s TokenBucketState
		var now time.Duration
		gap := int64(2*p.Window/time.Duration(p.Limit)) + 2
		for i := range 300 {
			now += time.Duration(r.Int64N(gap))
			want := lim.AllowN(t0.Add(now), 1)
			d := tb.Decide(&s, now, 1)
			if d.Admitted() == want {
				continue
			}
			if want && d.RetryAfter == 1 {
				allowed++
				break
			}
			t.Fatalf("%+v request %d: Decide(t0+%v, cost 1) = %v (RetryAfter %v), x/time/rate AllowN = %v",
				p, i, now, d.Verdict, d.RetryAfter, want)
		}
	}
	t.Logf("%d cases ended on the allowed sub-nanosecond disagreement", allowed)
}
