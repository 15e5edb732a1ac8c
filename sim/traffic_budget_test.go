package sim

import (
	"math/rand/v2"
	"testing"
	"testing/quick"
	"time"
)

// At ratio 0.5 a retry costs 2000 tokens and a request gives 1000: two
// requests pay for exactly one retry (held ≥ cost, so the boundary passes),
// one request for none.
func TestRetryBudgetBoundary(t *testing.T) {
	b := newRetryBudget(RetryBudget{Ratio: 0.5, TTL: 10 * time.Second})
	if b.withdrawal != 2000 || b.deposit != 1000 || b.reserve != 0 {
		t.Fatalf("budget %+v, want deposit 1000, withdrawal 2000, no reserve", b)
	}
	b.depositRequest(0)
	if b.tryWithdraw(0) {
		t.Fatal("one request (1000 tokens) paid for a retry of 2000")
	}
	b.depositRequest(0)
	if !b.tryWithdraw(0) {
		t.Fatal("two requests (2000 tokens) did not pay for a retry of 2000")
	}
	if b.tryWithdraw(0) {
		t.Fatal("a second retry with nothing left")
	}
}

// Deposits live in (at, at+ttl): at 10s a deposit made at 0 is gone.
func TestRetryBudgetExpiresAtTTL(t *testing.T) {
	b := newRetryBudget(RetryBudget{Ratio: 1, TTL: 10 * time.Second})
	b.depositRequest(0)
	if got := b.tokens(10*time.Second - 1); got != 1000 {
		t.Errorf("tokens just before ttl %d, want 1000", got)
	}
	if got := b.tokens(10 * time.Second); got != 0 {
		t.Errorf("tokens at ttl %d, want 0", got)
	}
}

// The reserve: min_per_second 1 over a 10s ttl at ratio 0.1 is ten retries of
// 10000 tokens with no request at all, and no eleventh.
func TestRetryBudgetReserve(t *testing.T) {
	b := newRetryBudget(RetryBudget{Ratio: 0.1, MinPerSecond: 1, TTL: 10 * time.Second})
	for i := range 10 {
		if !b.tryWithdraw(time.Duration(i)) {
			t.Fatalf("retry %d refused within the reserve", i+1)
		}
	}
	if b.tryWithdraw(10) {
		t.Fatal("an eleventh retry from a reserve of ten")
	}
	// Withdrawals expire too: a ttl later the reserve is whole again.
	if !b.tryWithdraw(10*time.Second + 9) {
		t.Fatal("the reserve did not come back a ttl after the withdrawals")
	}
}

// On arbitrary deposits and retries, the budget allows a retry exactly when a
// brute-force sum over the whole history of the last ttl holds its cost, and so
// in every ttl ending at a retry, retries × withdrawal ≤ requests × 1000 + reserve.
func TestRetryBudgetMatchesBruteForce(t *testing.T) {
	f := func(seed uint64, ratioPermille uint16, minPerSec uint8, ttlSec uint8) bool {
		rnd := rand.New(rand.NewPCG(seed, 1))
		cfg := RetryBudget{Ratio: float64(ratioPermille%3000) / 1000, MinPerSecond: int(minPerSec % 4), TTL: time.Duration(1+ttlSec%60) * time.Second}
		if cfg.Ratio == 0 && cfg.MinPerSecond == 0 {
			cfg.MinPerSecond = 1
		}
		b := newRetryBudget(cfg)
		type op struct {
			at      time.Duration
			deposit bool
			ok      bool
		}
		var hist []op
		now := time.Duration(0)
		for range 400 {
			now += time.Duration(rnd.Int64N(int64(cfg.TTL / 4)))
			if rnd.IntN(3) == 0 {
				b.depositRequest(now)
				hist = append(hist, op{now, true, true})
				continue
			}
			var sum int64
			var deps, wds int64
			for _, h := range hist {
				if h.at > now-cfg.TTL && h.ok {
					if h.deposit {
						sum += b.deposit
						deps++
					} else {
						sum -= b.withdrawal
						wds++
					}
				}
			}
			want := sum+b.reserve >= b.withdrawal
			if got := b.tryWithdraw(now); got != want {
				t.Logf("at %v: tryWithdraw %v, brute force %v (sum %d)", now, got, want, sum)
				return false
			}
			if want && (wds+1)*b.withdrawal > deps*b.deposit+b.reserve {
				t.Logf("at %v: %d retries exceed %d requests' budget", now, wds+1, deps)
				return false
			}
			hist = append(hist, op{now, false, want})
		}
		return true
	}
	if err := quick.Check(f, &quick.Config{MaxCount: 200}); err != nil {
		t.Error(err)
	}
}
