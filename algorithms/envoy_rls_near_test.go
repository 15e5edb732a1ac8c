package algorithms

import (
	"math/rand"
	"testing"
	"testing/quick"
	"time"
)

// envoyNearCase is a descriptor and traffic for the near_limit property.
type envoyNearCase struct {
	Limit      uint8
	Ratio      uint8 // NEAR_LIMIT_RATIO in hundredths, 1..100
	LocalCache bool
	Shadow     bool
	Hits       []struct{ Gap, Cost uint8 }
}

// The near_limit statistic of a key's window (NearLimitHits, added up at
// each change of Window, as sim keeps it over a run) is the sum of what
// base_limiter.go adds hit by hit (DecideHits' NearLimit), whether the
// requests were decided by Decide or by Admit (falling back to Decide on a
// refusal, as sim does).
func TestEnvoyRLSNearLimitHitsSum(t *testing.T) {
	near := int64(0)
	prop := func(c envoyNearCase) bool {
		r, err := NewEnvoyRLS(EnvoyRLSParams{Unit: EnvoyRLSSecond, RequestsPerUnit: int64(c.Limit%30) + 1,
			NearLimitRatio: float32(c.Ratio%100+1) / 100, LocalCache: c.LocalCache, ShadowMode: c.Shadow})
		if err != nil {
			t.Fatal(err)
		}
		var byHits, byAdmit EnvoyRLSState
		var sum, keptHits, keptAdmit int64
		// keep adds up the statistic of the window a decision left.
		keep := func(kept *int64, before, after EnvoyRLSState) {
			if after.Window() != before.Window() {
				*kept += r.NearLimitHits(&before)
			}
		}
		now := time.Duration(0)
		for _, h := range c.Hits {
			now += time.Duration(h.Gap) * 10 * time.Millisecond
			cost := int64(h.Cost%4) + 1
			before := byHits
			d, hits := r.DecideHits(&byHits, now, cost)
			keep(&keptHits, before, byHits)
			sum += hits.NearLimit
			before = byAdmit
			if !r.Admit(&byAdmit, now, cost) {
				if r.Decide(&byAdmit, now, cost).Verdict != d.Verdict {
					return false
				}
			}
			keep(&keptAdmit, before, byAdmit)
		}
		near += sum
		return keptHits+r.NearLimitHits(&byHits) == sum && keptAdmit+r.NearLimitHits(&byAdmit) == sum
	}
	if err := quick.Check(prop, &quick.Config{MaxCount: 2000, Rand: rand.New(rand.NewSource(1))}); err != nil {
		t.Fatal(err)
	}
	if near == 0 {
		t.Fatal("no run counted a near_limit hit: the property was never put to the test")
	}
}

// By hand: 10 a second, NEAR_LIMIT_RATIO 0.8, so the threshold is
// ⌊float32(10)×0.8⌋ = 8. Twelve hits in one second are counted 1..12: the
// 9th and 10th are near the limit (2), the 11th and 12th over it. In the
// next second's window, a hit of cost 5 (count 5) and one of cost 5 (count
// 10) add 10 − 8 = 2.
func TestEnvoyRLSNearLimitByHand(t *testing.T) {
	r, err := NewEnvoyRLS(EnvoyRLSParams{Unit: EnvoyRLSSecond, RequestsPerUnit: 10})
	if err != nil {
		t.Fatal(err)
	}
	var s EnvoyRLSState
	for range 12 {
		r.Decide(&s, 0, 1)
	}
	if got := r.NearLimitHits(&s); got != 2 {
		t.Errorf("after 12 hits in a second: near_limit %d, want 2 (the 9th and 10th)", got)
	}
	r.Decide(&s, time.Second, 5)
	r.Decide(&s, time.Second+time.Millisecond, 5)
	if got := r.NearLimitHits(&s); got != 2 || s.Window() != time.Second {
		t.Errorf("after 5 and 5 in the next second: near_limit %d in the window from %v, want 2 in the window from 1s", got, s.Window())
	}
}
