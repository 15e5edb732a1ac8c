package algorithms

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/quick"
	"time"
)

// TestEnvoyRLSProductTables replays envoyproxy/ratelimit's own tests
// (test/redis/fixed_cache_impl_test.go at f2fb157: TestNearLimit and
// TestOverLimitWithLocalCache). There Redis is a mock that answers INCRBY with a
// fixed value; here the value before the increment is put in the state with
// Charge (another replica's hits) and the request adds hits_addend, so the same
// INCRBY result comes out. Expected codes, LimitRemaining, DurationUntilReset
// and statistics are the test's.
func TestEnvoyRLSProductTables(t *testing.T) {
	type row struct {
		name       string
		unixNow    int64
		unit       EnvoyRLSUnit
		limit      int64
		before     int64 // INCRBY result − hits_addend
		hits       int64
		over       bool
		remaining  int64
		reset      time.Duration
		near, ovr  int64
		within     int64
		localCache bool
	}
	for _, r := range []row{
		// TestNearLimit: 15 per HOUR at unix 1000000 (key ..._997200; reset 3600−2800 s).
		{"under near limit", 1000000, EnvoyRLSHour, 15, 10, 1, false, 4, 800 * time.Second, 0, 0, 1, false},
		{"at near limit", 1000000, EnvoyRLSHour, 15, 12, 1, false, 2, 800 * time.Second, 1, 0, 1, false},
		{"over limit", 1000000, EnvoyRLSHour, 15, 15, 1, true, 0, 800 * time.Second, 0, 1, 0, false},
		// hits_addend > 1, unix 1234, SECOND.
		{"3 of 20, all under near", 1234, EnvoyRLSSecond, 20, 2, 3, false, 15, time.Second, 0, 0, 3, false},
		{"2 of 8, some over near", 1234, EnvoyRLSSecond, 8, 5, 2, false, 1, time.Second, 1, 0, 2, false},
		{"3 of 20, all over near", 1234, EnvoyRLSSecond, 20, 16, 3, false, 1, time.Second, 3, 0, 3, false},
		{"3 of 20, some over limit", 1234, EnvoyRLSSecond, 20, 19, 3, true, 0, time.Second, 1, 2, 0, false},
		{"7 of 20, in all three", 1234, EnvoyRLSSecond, 20, 15, 7, true, 0, time.Second, 4, 2, 0, false},
		{"3 of 10, all over limit", 1234, EnvoyRLSSecond, 10, 27, 3, true, 0, time.Second, 0, 3, 0, false},
	} {
		t.Run(r.name, func(t *testing.T) {
			e := must(NewEnvoyRLS(EnvoyRLSParams{Unit: r.unit, RequestsPerUnit: r.limit, LocalCache: r.localCache, Epoch: time.Unix(r.unixNow, 0)}))
			var s EnvoyRLSState
			if r.before > 0 {
				e.Charge(&s, 0, r.before)
			}
			d, h := e.DecideHits(&s, 0, r.hits)
			if d.Admitted() == r.over || d.Remaining != r.remaining || d.Reset != r.reset || d.Limit != r.limit {
				t.Fatalf("DecideHits = %v remaining %d reset %v limit %d, want over=%v remaining %d reset %v", d.Verdict, d.Remaining, d.Reset, d.Limit, r.over, r.remaining, r.reset)
			}
			want := EnvoyRLSHits{TotalHits: r.hits, WithinLimit: r.within, NearLimit: r.near, OverLimit: r.ovr}
			if h != want {
				t.Fatalf("hits = %+v, want %+v", h, want)
			}
		})
	}

	// TestOverLimitWithLocalCache: 11, 13, 16 from Redis, then a hit answered
	// from the local cache without INCRBY (OverLimit 2, OverLimitWithLocalCache 1).
	e := must(NewEnvoyRLS(EnvoyRLSParams{Unit: EnvoyRLSHour, RequestsPerUnit: 15, LocalCache: true, Epoch: time.Unix(1000000, 0)}))
	var s EnvoyRLSState
	var sum EnvoyRLSHits
	for i, c := range []struct {
		charge, rem int64
		over        bool
	}{{10, 4, false}, {1, 2, false}, {2, 0, true}, {0, 0, true}} {
		if c.charge > 0 {
			e.Charge(&s, 0, c.charge)
		}
		d, h := e.DecideHits(&s, 0, 1)
		sum = EnvoyRLSHits{sum.TotalHits + h.TotalHits, sum.WithinLimit + h.WithinLimit, sum.NearLimit + h.NearLimit, sum.OverLimit + h.OverLimit, sum.OverLimitWithLocalCache + h.OverLimitWithLocalCache, 0}
		if d.Admitted() == c.over || d.Remaining != c.rem {
			t.Fatalf("local cache step %d: %v remaining %d, want over=%v remaining %d", i, d.Verdict, d.Remaining, c.over, c.rem)
		}
	}
	if want := (EnvoyRLSHits{TotalHits: 4, WithinLimit: 2, NearLimit: 1, OverLimit: 2, OverLimitWithLocalCache: 1}); sum != want {
		t.Fatalf("local cache stats = %+v, want %+v", sum, want)
	}
	if s.count != 16 {
		t.Fatalf("Redis count = %d after a local-cache hit, want 16 (no INCRBY)", s.count)
	}
}

// TestEnvoyRLSSteps is derived by hand from the rules in EnvoyRLS's doc.
func TestEnvoyRLSSteps(t *testing.T) {
	// 3 per SECOND, windows at t=0: refused hits count, so a smaller request
	// after a refusal is refused too (FixedWindow would admit it).
	e := must(NewEnvoyRLS(EnvoyRLSParams{Unit: "second", RequestsPerUnit: 3}))
	runSteps(t, e, []step{
		admit(0).costs(2),
		refuse(300*ms, 700*ms).costs(2), // 4 > 3, counted
		refuse(400*ms, 600*ms),          // 5 > 3
		refuse(999*ms, ms),
		admit(time.Second), // a new key: 1
		admit(time.Second + 500*ms).costs(2),
		refuse(time.Second+600*ms, 400*ms),
		refuse(time.Second+700*ms, Never).costs(4), // more than the limit: no wait helps
	})

	// Reset is duration_until_reset, whole seconds: 60 − ⌊unixNow⌋%60.
	m := must(NewEnvoyRLS(EnvoyRLSParams{Unit: EnvoyRLSMinute, RequestsPerUnit: 1, Epoch: time.Unix(1_800_000_000, 500_000_000)}))
	// 1800000000 % 60 = 0, so virtual 0 is 0.5 s into a minute; the boundary is at 59.5 s.
	var s EnvoyRLSState
	if d := m.Decide(&s, 0, 1); !d.Admitted() || d.Reset != 60*time.Second {
		t.Fatalf("Decide(t0) = %v reset %v, want admit, reset 60s", d.Verdict, d.Reset)
	}
	if d := m.Decide(&s, 59*time.Second+499*ms, 1); d.Admitted() || d.Reset != time.Second || d.RetryAfter != ms {
		t.Fatalf("Decide(t0+59.499s) = %v reset %v retry %v, want refuse, reset 1s, retry 1ms", d.Verdict, d.Reset, d.RetryAfter)
	}
	if d := m.Decide(&s, 59*time.Second+500*ms, 1); !d.Admitted() || d.Reset != 60*time.Second || d.Remaining != 0 {
		t.Fatalf("Decide(t0+59.5s) = %v reset %v remaining %d, want admit at the boundary, reset 60s, remaining 0", d.Verdict, d.Reset, d.Remaining)
	}
}

func TestEnvoyRLSShadowUnlimited(t *testing.T) {
	e := must(NewEnvoyRLS(EnvoyRLSParams{Unit: EnvoyRLSSecond, RequestsPerUnit: 2, ShadowMode: true}))
	var s EnvoyRLSState
	var shadow int64
	for i := range 5 {
		d, h := e.DecideHits(&s, time.Duration(i)*ms, 1)
		shadow += h.ShadowMode
		if !d.Admitted() || d.RetryAfter != 0 {
			t.Fatalf("shadow Decide %d = %v retry %v, want admit", i, d.Verdict, d.RetryAfter)
		}
		if want := max(0, int64(2-i-1)); d.Remaining != want {
			t.Fatalf("shadow Decide %d: remaining %d, want %d", i, d.Remaining, want)
		}
	}
	if shadow != 3 || s.count != 5 {
		t.Fatalf("shadow: %d shadow-mode hits, count %d; want 3 and 5 (counted as usual)", shadow, s.count)
	}

	u := must(NewEnvoyRLS(EnvoyRLSParams{Unlimited: true}))
	var us EnvoyRLSState
	for i := range 3 {
		if d := u.Decide(&us, time.Duration(i), 1000); !d.Admitted() || d.Remaining != math.MaxUint32 {
			t.Fatalf("unlimited Decide = %v remaining %d, want admit, MaxUint32", d.Verdict, d.Remaining)
		}
	}
	if us != (EnvoyRLSState{}) || !u.Idle(&us, 0) {
		t.Fatalf("unlimited counted something: %+v", us)
	}
}

func TestEnvoyRLSParams(t *testing.T) {
	_, err := NewEnvoyRLS(EnvoyRLSParams{Unit: "fortnight", RequestsPerUnit: -1})
	if err == nil || !strings.Contains(err.Error(), `invalid rate limit unit "fortnight"`) || !strings.Contains(err.Error(), "requests_per_unit -1") {
		t.Fatalf("NewEnvoyRLS(bad) = %v, want both problems", err)
	}
	if _, err := NewEnvoyRLS(EnvoyRLSParams{Unit: "HOUR", Unlimited: true}); err == nil || !strings.Contains(err.Error(), "should not specify rate limit unit when unlimited") {
		t.Fatalf("NewEnvoyRLS(unlimited with unit) = %v", err)
	}
	for _, c := range []struct {
		p    Policy
		unit EnvoyRLSUnit
		bad  string
	}{
		{Policy{Limit: 10, Window: time.Minute}, EnvoyRLSMinute, ""},
		{Policy{Limit: 10, Window: 30 * 24 * time.Hour, Burst: 10}, EnvoyRLSMonth, ""},
		{Policy{Limit: 10, Window: 2 * time.Second}, "", "not a unit"},
		{Policy{Limit: 10, Window: time.Second, Burst: 20}, "", "burst 20"},
		{Policy{Limit: 1 << 33, Window: time.Second}, "", "uint32"},
	} {
		x, err := EnvoyRLSParamsOf(c.p)
		if c.bad == "" && (err != nil || x.Unit != c.unit || x.RequestsPerUnit != c.p.Limit) {
			t.Errorf("EnvoyRLSParamsOf(%+v) = %+v, %v; want unit %s", c.p, x, err, c.unit)
		}
		if c.bad != "" && (err == nil || !strings.Contains(err.Error(), c.bad)) {
			t.Errorf("EnvoyRLSParamsOf(%+v) error = %v, want %q", c.p, err, c.bad)
		}
	}
	// float32 threshold, as the source computes it: ⌊8×0.8f⌋ = 6, ⌊15×0.8f⌋ = 12.
	for limit, want := range map[int64]int64{8: 6, 15: 12, 20: 16, 10: 8} {
		if got := must(NewEnvoyRLS(EnvoyRLSParams{Unit: "SECOND", RequestsPerUnit: limit})).NearLimitThreshold(); got != want {
			t.Errorf("NearLimitThreshold(%d) = %d, want %d", limit, got, want)
		}
	}
}

// envoyCase is a quick-generated case: a policy on one of the short units, an
// epoch, traffic and the local cache switch.
type envoyCase struct {
	p     Policy
	epoch time.Time
	reqs  []request
	cache bool
}

func envoyCaseFrom(r *rand.Rand) envoyCase {
	units := []time.Duration{time.Second, time.Minute, time.Hour}
	p := Policy{Limit: 1 + r.Int64N(20), Window: units[r.IntN(len(units))]}
	var c envoyCase
	c.p, c.cache = p, r.IntN(2) == 0
	if r.IntN(2) == 0 {
		c.epoch = time.Unix(1_700_000_000+r.Int64N(1<<30), r.Int64N(1e9))
	}
	var now time.Duration
	for range r.IntN(300) {
		now += time.Duration(r.Int64N(int64(p.Window) / 4))
		cost := int64(1)
		if r.IntN(5) == 0 {
			cost = 1 + r.Int64N(p.Limit+2)
		}
		c.reqs = append(c.reqs, request{now, cost})
	}
	return c
}

// TestEnvoyRLSPenaltyTwin: with the Epoch zero, the service decides as
// FixedWindow with every refusal charged (INCRBY before the comparison), with
// or without the local cache (which changes counts, never verdicts).
func TestEnvoyRLSPenaltyTwin(t *testing.T) {
	check := func(seed uint64) bool {
		c := envoyCaseFrom(rand.New(rand.NewPCG(seed, 7)))
		x := must(EnvoyRLSParamsOf(c.p))
		x.LocalCache = c.cache
		e, fw := must(NewEnvoyRLS(x)), must(NewFixedWindow(c.p))
		var es EnvoyRLSState
		var fs FixedWindowState
		for i, q := range c.reqs {
			got, want := e.Decide(&es, q.at, q.cost), fw.Decide(&fs, q.at, q.cost)
			if !want.Admitted() {
				fw.Charge(&fs, q.at, q.cost)
				want.Remaining = 0 // the charged count is over the limit
			}
			if got.Verdict != want.Verdict || got.Remaining != want.Remaining || got.RetryAfter != want.RetryAfter {
				t.Logf("seed %d %+v cache %v, request %d %+v: envoy %+v, fixed window+charge %+v", seed, c.p, c.cache, i, q, got, want)
				return false
			}
		}
		return true
	}
	if err := quick.Check(check, &quick.Config{MaxCount: 300}); err != nil {
		t.Fatal(err)
	}
}

// TestEnvoyRLSProperties: windows are aligned to the wall clock and reset
// exactly at their boundaries; every hit is counted (the count is the sum of
// the window's costs) unless the local cache holds the key, when it stops at
// the first over-limit value; shadow mode never refuses.
func TestEnvoyRLSProperties(t *testing.T) {
	check := func(seed uint64) bool {
		c := envoyCaseFrom(rand.New(rand.NewPCG(seed, 11)))
		x := must(EnvoyRLSParamsOf(c.p))
		x.Epoch, x.LocalCache = c.epoch, c.cache
		e := must(NewEnvoyRLS(x))
		x.ShadowMode = true
		sh := must(NewEnvoyRLS(x))
		w := c.p.Window
		var off time.Duration
		if !c.epoch.IsZero() {
			off = time.Duration(c.epoch.UnixNano() % int64(w))
		}
		var s, ss EnvoyRLSState
		var sum int64
		var winStart time.Duration = -1
		firstOver := int64(-1)
		for i, q := range c.reqs {
			start := q.at - (q.at+off)%w // wall-clock multiple of the unit
			if start != winStart {
				winStart, sum, firstOver = start, 0, -1
			}
			sum += q.cost
			d := e.Decide(&s, q.at, q.cost)
			if sd := sh.Decide(&ss, q.at, q.cost); !sd.Admitted() {
				t.Logf("seed %d: shadow refused request %d", seed, i)
				return false
			}
			wantCount := sum
			if c.cache && firstOver >= 0 {
				wantCount = firstOver
			}
			if s.count != wantCount || s.start != start {
				t.Logf("seed %d %+v epoch %v cache %v, request %d %+v: count %d in window %v, want %d in %v", seed, c.p, c.epoch, c.cache, i, q, s.count, s.start, wantCount, start)
				return false
			}
			if firstOver < 0 && s.count > c.p.Limit {
				firstOver = s.count
			}
			if d.Admitted() != (sum <= c.p.Limit) {
				t.Logf("seed %d: request %d admitted %v with %d counted of %d", seed, i, d.Admitted(), sum, c.p.Limit)
				return false
			}
			if !d.Admitted() && q.cost <= c.p.Limit && d.RetryAfter != start+w-q.at {
				t.Logf("seed %d: request %d RetryAfter %v, want the boundary at %v", seed, i, d.RetryAfter, start+w-q.at)
				return false
			}
			// One ns before the boundary still counts in this window; at the boundary the key is new.
			p := s
			if b := e.Decide(&p, start+w-1, 1); b.Admitted() != (s.count+1 <= c.p.Limit) && !(c.cache && s.cached) {
				t.Logf("seed %d: request at boundary−1ns admitted %v with count %d", seed, b.Admitted(), s.count)
				return false
			}
			p = s
			if b := e.Decide(&p, start+w, c.p.Limit); !b.Admitted() || b.Reset != w || !e.Idle(&s, start+w) {
				t.Logf("seed %d: a full request at the boundary %v = %+v, want admitted with reset %v", seed, start+w, b, w)
				return false
			}
		}
		return true
	}
	if err := quick.Check(check, &quick.Config{MaxCount: 300}); err != nil {
		t.Fatal(err)
	}
}

func BenchmarkEnvoyRLSDecide(b *testing.B) {
	e := must(NewEnvoyRLS(EnvoyRLSParams{Unit: EnvoyRLSSecond, RequestsPerUnit: benchPolicy.Limit}))
	var s EnvoyRLSState
	var now time.Duration
	b.ReportAllocs()
	for range b.N {
		now += benchStep
		e.Decide(&s, now, 1)
	}
}
