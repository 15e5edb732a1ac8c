package algorithms

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"testing/quick"
	"time"
)

// TestAWSThrottleIsTokenBucket holds one throttling level, through
// AWSThrottleParamsOf, to rlsim's TokenBucket with the same policy: the
// documented model is a token bucket, so every answer but Limit (burstLimit)
// must be the same.
func TestAWSThrottleIsTokenBucket(t *testing.T) {
	var checked int
	forRandomCases(t, 300, func(t *testing.T, p Policy, reqs []request) {
		x, err := AWSThrottleParamsOf(p)
		if err != nil {
			return // a rate that is not whole thousandths per second
		}
		checked++
		a := must(NewAWSThrottle(x))
		tb := must(NewTokenBucket(p))
		var as AWSThrottleState
		var ts TokenBucketState
		for i, r := range reqs {
			got, want := a.Decide(&as, r.at, r.cost), tb.Decide(&ts, r.at, r.cost)
			want.Limit = p.EffectiveBurst()
			if got != want {
				t.Fatalf("%+v request %d: Decide(t0+%v, cost %d) = %+v, TokenBucket %+v", x, i, r.at, r.cost, got, want)
			}
		}
	})
	if checked < 50 {
		t.Fatalf("only %d of 300 policies had a milli-exact rate", checked)
	}
}

// TestAWSThrottleSteps: rateLimit 3, burstLimit 9 and a client at 4 requests per
// second (every 250ms from 0): the bucket holds 9 + 3t − 4t = 9 − t before the
// request at t, so the first 429 comes at 8.25s (0.75 tokens), and the missing
// quarter token takes 1/12 s = 83333333.3ns.
func TestAWSThrottleSteps(t *testing.T) {
	a := must(NewAWSThrottle(AWSThrottleParams{RateLimit: 3, BurstLimit: 9}))
	var table []step
	for k := range 33 { // 0 … 8s
		table = append(table, admit(time.Duration(k)*250*ms))
	}
	table = append(table, refuse(8250*ms, 83333334))
	runSteps(t, a, table)

	// A fractional rate: 0.5 per second, burst 1.
	half := must(NewAWSThrottle(AWSThrottleParams{RateLimit: 0.5, BurstLimit: 1}))
	runSteps(t, half, []step{admit(0), refuse(time.Second, time.Second), admit(2 * time.Second)})

	for _, x := range []AWSThrottleParams{{RateLimit: 0, BurstLimit: 1}, {RateLimit: 1.0001, BurstLimit: 1}, {RateLimit: 1, BurstLimit: 0}} {
		if _, err := NewAWSThrottle(x); err == nil {
			t.Errorf("NewAWSThrottle(%+v) = nil error", x)
		}
	}
}

func TestAWSQuotaCalendar(t *testing.T) {
	day := 24 * time.Hour
	// MONTH from 2026-01-30 12:00 UTC, limit 5, offset 2: the initial month
	// allows 3; February starts in 1.5 days and has 28 days.
	month := must(NewAWSQuota(AWSQuotaParams{Limit: 5, Offset: 2, Period: AWSQuotaMonth,
		Epoch: time.Date(2026, 1, 30, 12, 0, 0, 0, time.UTC)}))
	runSteps(t, month, steps(
		repeat(3, admit(0)),
		refuse(0, 36*time.Hour),
		repeat(5, admit(36*time.Hour)),
		refuse(36*time.Hour, 28*day),
		refuse(36*time.Hour, Never).costs(6),
	))
	// DAY from 23:00 UTC: a new day in an hour.
	daily := must(NewAWSQuota(AWSQuotaParams{Limit: 1, Period: AWSQuotaDay,
		Epoch: time.Date(2026, 3, 1, 23, 0, 0, 0, time.UTC)}))
	runSteps(t, daily, []step{admit(0), refuse(30*time.Minute, 30*time.Minute), admit(time.Hour), refuse(time.Hour, day)})
	// WEEK from Wednesday 2026-12-02 02:00 UTC: weeks start on Sunday, in 3 days 22 hours.
	weekly := must(NewAWSQuota(AWSQuotaParams{Limit: 2, Period: AWSQuotaWeek,
		Epoch: time.Date(2026, 12, 2, 2, 0, 0, 0, time.UTC)}))
	runSteps(t, weekly, []step{admit(0).costs(2), refuse(0, 94*time.Hour), admit(94 * time.Hour)})
	// An Epoch in another zone is the same instant: UTC boundaries still.
	local := must(NewAWSQuota(AWSQuotaParams{Limit: 1, Period: AWSQuotaDay,
		Epoch: time.Date(2026, 3, 2, 8, 0, 0, 0, time.FixedZone("JST", 9*3600))}))
	runSteps(t, local, []step{admit(0), refuse(0, time.Hour)})

	if _, err := NewAWSQuota(AWSQuotaParams{Limit: 1, Period: "YEAR"}); err == nil {
		t.Error("NewAWSQuota(YEAR, no epoch) = nil error")
	}
}

// TestAWSWAFFirstPeriodOverAdmits: limit 10 over 60s, evaluated every 10s. A
// client sending 1000 requests in the first 10s is admitted every time: no
// evaluation has seen them yet. The evaluation at 10s blocks it; the one at 70s
// (window [10s, 70s), holding only the request at 10s) unblocks it.
func TestAWSWAFFirstPeriodOverAdmits(t *testing.T) {
	w := must(NewAWSWAF(AWSWAFParams{Limit: 10, EvaluationWindowSec: 60}))
	var table []step
	for k := range 1000 {
		table = append(table, admit(time.Duration(k)*10*ms))
	}
	table = append(table, refuse(10*time.Second, 60*time.Second), admit(70*time.Second))
	runSteps(t, w, table)
}

// TestAWSWAFWindowSteps follows the settings page's example, "for a setting of
// 120, when AWS WAF checks the rate, it counts the requests for the 2 minutes
// immediately preceding the current time".
func TestAWSWAFWindowSteps(t *testing.T) {
	w := must(NewAWSWAF(AWSWAFParams{Limit: 10, EvaluationWindowSec: 120}))
	var s AWSWAFState
	for range 11 {
		w.Decide(&s, 5*time.Second, 1)
	}
	// 11 > 10 from the evaluation at 10s until the one at 130s ([10s, 130s)).
	for _, c := range []struct {
		at    time.Duration
		v     Verdict
		retry time.Duration
	}{
		{9 * time.Second, Admit, 0},
		{10 * time.Second, Refuse, 120 * time.Second},
		{125 * time.Second, Refuse, 5 * time.Second},
		{130 * time.Second, Admit, 0},
	} {
		d := w.Decide(&s, c.at, 1)
		if d.Verdict != c.v || d.RetryAfter != c.retry {
			t.Fatalf("Decide(t0+%v) = %v retry %v, want %v retry %v", c.at, d.Verdict, d.RetryAfter, c.v, c.retry)
		}
	}
}

func TestAWSWAFSettings(t *testing.T) {
	for _, c := range []struct {
		x  AWSWAFParams
		ok bool
	}{
		{AWSWAFParams{Limit: 10}, true}, // the lowest limit, default 300s window
		{AWSWAFParams{Limit: 9}, false}, // below 10
		{AWSWAFParams{Limit: 100, EvaluationWindowSec: 90}, false},
		{AWSWAFParams{Limit: 100, EvaluationWindowSec: 60, EvaluationInterval: 7 * time.Second}, false},
		{AWSWAFParams{Limit: 100, EvaluationWindowSec: 600, EvaluationInterval: time.Second}, false}, // 600 parts
		{AWSWAFParams{Limit: 100, EvaluationWindowSec: 60, EvaluationInterval: time.Second}, true},
		{AWSWAFParams{Limit: 100, EvaluationWindowSec: 600, EvaluationInterval: 30 * time.Second}, true},
	} {
		if _, err := NewAWSWAF(c.x); (err == nil) != c.ok {
			t.Errorf("NewAWSWAF(%+v) error = %v, want ok = %v", c.x, err, c.ok)
		}
	}
	if x, err := AWSWAFParamsOf(Policy{Limit: 100, Window: 5 * time.Minute}); err != nil || x.EvaluationWindowSec != 300 {
		t.Errorf("AWSWAFParamsOf(100 per 5m) = %+v, %v", x, err)
	}
	if _, err := AWSWAFParamsOf(Policy{Limit: 100, Window: time.Second}); err == nil {
		t.Error("AWSWAFParamsOf(per 1s) = nil error, want no such evaluation window")
	}
}

// TestAWSWAFProperties on arbitrary traffic: the verdict changes only at
// evaluation instants (constant within an interval); RetryAfter lands on the
// first evaluation that unblocks the key; a key is blocked exactly
// when its requests in [e − window, e), counted from the request log, exceed the
// limit at the latest evaluation e ≤ now; Idle keys decide as new ones.
func TestAWSWAFProperties(t *testing.T) {
	prop := func(seed1, seed2 uint64) bool {
		r := rand.New(rand.NewPCG(seed1, seed2))
		windows := []int64{60, 120, 300, 600}
		x := AWSWAFParams{Limit: 10 + r.Int64N(40), EvaluationWindowSec: windows[r.IntN(4)]}
		intervals := []time.Duration{0, 10 * time.Second, 20 * time.Second, 30 * time.Second, time.Minute}
		x.EvaluationInterval = intervals[r.IntN(len(intervals))]
		w := must(NewAWSWAF(x))
		var s AWSWAFState
		var now time.Duration
		var log []request
		lastK, lastV := int64(-1), Admit
		for range 400 {
			now += []time.Duration{0, time.Duration(r.Int64N(int64(time.Second))), time.Duration(r.Int64N(int64(30 * time.Second)))}[r.IntN(3)]
			cost := 1 + r.Int64N(3)
			idle := w.Idle(&s, now)
			var fresh AWSWAFState
			want := w.Decide(&fresh, now, cost)
			d := w.Decide(&s, now, cost)
			if d.Verdict == Refuse { // RetryAfter lands on the first unblocking evaluation
				at, before := s, s
				if w.Decide(&at, now+d.RetryAfter, 1).Verdict != Admit {
					t.Logf("%+v at %v: a retry after %v is blocked", x, now, d.RetryAfter)
					return false
				}
				if prev := now + d.RetryAfter - w.interval; prev > now && w.Decide(&before, prev, 1).Verdict != Refuse {
					t.Logf("%+v at %v: RetryAfter %v, but the evaluation at %v already unblocks", x, now, d.RetryAfter, prev)
					return false
				}
			}
			if idle && d != want {
				t.Logf("%+v at %v: idle state decided %+v, new %+v", x, now, d, want)
				return false
			}
			k := int64(now / w.interval)
			e := time.Duration(k) * w.interval
			var count int64
			for _, q := range log {
				if q.at >= e-w.window && q.at < e {
					count += q.cost
				}
			}
			if blocked := count > x.Limit; blocked != (d.Verdict == Refuse) {
				t.Logf("%+v at %v: evaluation at %v counts %d, verdict %v", x, now, e, count, d.Verdict)
				return false
			}
			if k == lastK && d.Verdict != lastV {
				t.Logf("%+v at %v: verdict changed within an interval", x, now)
				return false
			}
			lastK, lastV = k, d.Verdict
			log = append(log, request{at: now, cost: cost})
		}
		return true
	}
	if err := quick.Check(prop, &quick.Config{MaxCount: 300}); err != nil {
		t.Fatal(err)
	}
}

func BenchmarkAWSThrottleDecide(b *testing.B) {
	a := must(NewAWSThrottle(must(AWSThrottleParamsOf(benchPolicy))))
	var s AWSThrottleState
	var now time.Duration
	b.ReportAllocs()
	for range b.N {
		now += benchStep
		a.Decide(&s, now, 1)
	}
}

func BenchmarkAWSQuotaDecide(b *testing.B) {
	q := must(NewAWSQuota(AWSQuotaParams{Limit: 1 << 40, Period: AWSQuotaMonth, Epoch: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}))
	var s AWSQuotaState
	var now time.Duration
	b.ReportAllocs()
	for range b.N {
		now += benchStep
		q.Decide(&s, now, 1)
	}
}

func BenchmarkAWSWAFDecide(b *testing.B) {
	w := must(NewAWSWAF(AWSWAFParams{Limit: 100, EvaluationWindowSec: 60}))
	var s AWSWAFState
	var now time.Duration
	b.ReportAllocs()
	for range b.N {
		now += benchStep
		w.Decide(&s, now, 1)
	}
}

// A rate-based rule evaluated every 10s admits everything before its first
// evaluation: 1000 requests against a limit of 10 per minute.
func ExampleAWSWAF() {
	w, _ := NewAWSWAF(AWSWAFParams{Limit: 10, EvaluationWindowSec: 60})
	var s AWSWAFState
	admitted := 0
	for k := range 1000 {
		if w.Decide(&s, time.Duration(k)*10*time.Millisecond, 1).Admitted() {
			admitted++
		}
	}
	d := w.Decide(&s, 10*time.Second, 1)
	fmt.Println(admitted, "admitted in the first 10s")
	fmt.Println("at 10s:", d.Verdict, "retry after", d.RetryAfter)
	// Output:
	// 1000 admitted in the first 10s
	// at 10s: refuse retry after 1m0s
}
