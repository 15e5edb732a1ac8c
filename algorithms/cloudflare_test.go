package algorithms

import (
	"math/rand/v2"
	"strings"
	"testing"
	"testing/quick"
	"time"
	"unsafe"
)

// TestCloudflareExampleA is [REQ] Example A: 1 request per 10 s, Block for 10
// minutes, counted per IP and x-api-key (and colo). Request 1 sets its
// counter to 1 and passes; request 2 has another key, its own counter, and
// passes; request 3 has request 1's key: counter 2, above 1, blocked, and
// (Example B's wording) every later request with that key for ten minutes.
func TestCloudflareExampleA(t *testing.T) {
	sec := time.Second
	cf := must(NewCloudflare(CloudflareParams{RequestsPerPeriod: 1, Period: 10, MitigationTimeout: 600}))
	var keyA, keyB CloudflareState
	if d := cf.Decide(&keyA, 0, 1); !d.Admitted() {
		t.Fatal("request 1 refused")
	}
	if d := cf.Decide(&keyB, 1*sec, 1); !d.Admitted() {
		t.Fatal("request 2 (another key) refused")
	}
	d := cf.Decide(&keyA, 2*sec, 1)
	if d.Admitted() || d.RetryAfter != 600*sec || !d.RetryAfterExact {
		t.Fatalf("request 3 = %+v, want blocked with RetryAfter 10m", d)
	}
	// Blocked for exactly ten minutes "regardless of the request rate".
	// Each blocked request counts in its own window, which empties two windows
	// later, before the ban ends.
	for _, at := range []time.Duration{3 * sec, 60 * sec, 300 * sec, 580 * sec} {
		if d := cf.Decide(&keyA, at, 1); d.Admitted() || d.RetryAfter != 602*sec-at {
			t.Fatalf("Decide(keyA, %s) = %+v, want blocked until 602s", t0plus(at), d)
		}
	}
	if d := cf.Decide(&keyA, 602*sec, 1); !d.Admitted() {
		t.Fatalf("Decide(keyA, t0+602s) = %+v, want the ban over", d)
	}

	// A request blocked 1 ns before the ban ends counts (every matching request
	// does), so it is still over the rate when the ban ends: 1 + 1 > 1 in the
	// window [600 s, 610 s), and the next window weighs it fully at its start:
	// admitted only at 620 s. With ExcludeBlocked the wait is the 1 ns left.
	for _, c := range []struct {
		exclude bool
		retry   time.Duration
		atEnd   bool
	}{{false, 18*sec + 1, false}, {true, 1, true}} {
		cf := must(NewCloudflare(CloudflareParams{RequestsPerPeriod: 1, Period: 10, MitigationTimeout: 600, ExcludeBlocked: c.exclude}))
		var s CloudflareState
		cf.Decide(&s, 0, 1)
		cf.Decide(&s, 2*sec, 1) // trips: ban to 602 s
		if d := cf.Decide(&s, 602*sec-1, 1); d.Admitted() || d.RetryAfter != c.retry {
			t.Fatalf("exclude %v: Decide(t0+602s−1ns) = %+v, want RetryAfter %v", c.exclude, d, c.retry)
		}
		if d := cf.Decide(&s, 602*sec, 1); d.Admitted() != c.atEnd {
			t.Fatalf("exclude %v: Decide(t0+602s) = %v, want admitted %v", c.exclude, d.Verdict, c.atEnd)
		}
	}
}

// TestCloudflareSteps is derived by hand from the rules in Cloudflare's doc:
// the counter estimate previous×(P−e)/P + current, with this request counted.
func TestCloudflareSteps(t *testing.T) {
	sec := time.Second
	// Throttle (timeout 0), 2 per 10 s, windows at t=0, every request counted.
	th := must(NewCloudflare(CloudflareParams{RequestsPerPeriod: 2, Period: 10}))
	runSteps(t, th, []step{
		admit(0),
		admit(1 * sec),
		// counted: current 3 > 2. Next window: 3×(10−e)/10 + 1 ≤ 2 ⇔ e ≥ 20/3 s.
		refuse(2*sec, 10*sec+6666666667-2*sec),
		// counted again: current 4; next window 4×(10−e)/10 + 1 ≤ 2 ⇔ e ≥ 7.5 s.
		refuse(3*sec, 17*sec+500*ms-3*sec),
		admit(17*sec + 500*ms), // 4×0.25 + 1 = 2
	})
	// The same with ExcludeBlocked is the sliding window counter lane: the
	// refused request at 2 s does not count, so at 10 s: 2×(10−e)/10 + 1 ≤ 2 ⇔ e ≥ 5 s.
	ex := must(NewCloudflare(CloudflareParams{RequestsPerPeriod: 2, Period: 10, ExcludeBlocked: true}))
	runSteps(t, ex, []step{
		admit(0), admit(1 * sec),
		refuse(2*sec, 13*sec),
		refuse(3*sec, 12*sec),
		admit(15 * sec),
	})
	// A ban shorter than the window: the counted requests still weigh after it.
	// 1 per 10 s, ban 10 s: trip at 1 s (current 2), blocked requests at 5 s and
	// 9 s counted (current 4); at 11 s the ban is over but 4×(10−1)/10 + 1 > 1:
	// trips again, a new ban to 21 s; the counter only admits when the previous
	// window is empty, 10 s into the window after next.
	short := must(NewCloudflare(CloudflareParams{RequestsPerPeriod: 1, Period: 10, MitigationTimeout: 10}))
	var s CloudflareState
	for _, c := range []struct {
		at    time.Duration
		admit bool
		retry time.Duration
	}{
		{0, true, 0},
		{1 * sec, false, 19 * sec},  // ban to 11 s; counter 2: 2×(10−e)/10+1 ≤ 1 only at e = 10 s (20 s)
		{5 * sec, false, 15 * sec},  // counter 3: at 20 s
		{9 * sec, false, 11 * sec},  // counter 4: at 20 s
		{11 * sec, false, 19 * sec}, // ban over, 4×0.9+1 > 1: trips, ban to 21 s; current 1: admits at 30 s
		{21 * sec, false, 19 * sec}, // previous 1 (t=11): 0.9 + 1 > 1, trips, ban to 31 s; admits at 40 s
	} {
		d := short.Decide(&s, c.at, 1)
		if d.Admitted() != c.admit || (!c.admit && d.RetryAfter != c.retry) {
			t.Fatalf("short ban Decide(%s) = %v retry %v, want admit=%v retry %v", t0plus(c.at), d.Verdict, d.RetryAfter, c.admit, c.retry)
		}
	}
}

func TestCloudflareParams(t *testing.T) {
	_, err := NewCloudflare(CloudflareParams{RequestsPerPeriod: 0, Period: 11, MitigationTimeout: 90000})
	if err == nil || !strings.Contains(err.Error(), "requests_per_period") || !strings.Contains(err.Error(), "period 11") || !strings.Contains(err.Error(), "mitigation_timeout 90000") {
		t.Fatalf("NewCloudflare(bad) = %v, want all three problems", err)
	}
	if x, err := CloudflareParamsOf(Policy{Limit: 5, Window: time.Minute}); err != nil || x.RequestsPerPeriod != 5 || x.Period != 60 || x.MitigationTimeout != 0 {
		t.Fatalf("CloudflareParamsOf(5/1m) = %+v, %v", x, err)
	}
	if _, err := CloudflareParamsOf(Policy{Limit: 5, Window: 7 * time.Second, Burst: 9}); err == nil || !strings.Contains(err.Error(), "not a supported period") || !strings.Contains(err.Error(), "burst 9") {
		t.Fatalf("CloudflareParamsOf(5/7s, burst 9) = %v", err)
	}
}

func cloudflareCase(r *rand.Rand) (CloudflareParams, []request) {
	x := CloudflareParams{RequestsPerPeriod: 1 + r.Int64N(15), Period: cloudflarePeriods[r.IntN(8)]}
	if r.IntN(2) == 0 {
		x.MitigationTimeout = []int64{10, 60, 120, 300, 600, 3600}[r.IntN(6)]
	}
	x.ExcludeBlocked = r.IntN(3) == 0
	if r.IntN(2) == 0 {
		x.Epoch = time.Unix(1_700_000_000+r.Int64N(1<<30), r.Int64N(1e9))
	}
	p := time.Duration(x.Period) * time.Second
	var reqs []request
	var now time.Duration
	for range r.IntN(300) {
		now += time.Duration(r.Int64N(int64(p) / 5))
		cost := int64(1)
		if r.IntN(6) == 0 {
			cost = 1 + r.Int64N(x.RequestsPerPeriod+1)
		}
		reqs = append(reqs, request{now, cost})
	}
	return x, reqs
}

// TestCloudflareThrottleTwin: throttling (timeout 0) with the Epoch zero is the
// sliding window counter lane with every refusal charged; with ExcludeBlocked
// it is that lane exactly.
func TestCloudflareThrottleTwin(t *testing.T) {
	check := func(seed uint64) bool {
		x, reqs := cloudflareCase(rand.New(rand.NewPCG(seed, 17)))
		x.MitigationTimeout, x.Epoch = 0, time.Time{}
		cf := must(NewCloudflare(x))
		sw := must(NewSlidingWindowCounter(Policy{Limit: x.RequestsPerPeriod, Window: time.Duration(x.Period) * time.Second}))
		var cs CloudflareState
		var ss SlidingWindowCounterState
		for i, q := range reqs {
			got, want := cf.Decide(&cs, q.at, q.cost), sw.Decide(&ss, q.at, q.cost)
			if !want.Admitted() && !x.ExcludeBlocked {
				sw.Charge(&ss, q.at, q.cost)
				probe := ss
				want.RetryAfter = sw.Decide(&probe, q.at, q.cost).RetryAfter
				want.Remaining = sw.Decide(&probe, q.at, q.cost).Remaining
			}
			if got.Verdict != want.Verdict || got.RetryAfter != want.RetryAfter || (got.Admitted() && got.Remaining != want.Remaining) {
				t.Logf("seed %d %+v request %d %+v: cloudflare %+v, sliding counter %+v", seed, x, i, q, got, want)
				return false
			}
		}
		return true
	}
	if err := quick.Check(check, &quick.Config{MaxCount: 300}); err != nil {
		t.Fatal(err)
	}
}

// TestCloudflareBan: a ban holds for exactly its timeout: after a request is
// refused outside a ban at t, every request in [t, t+timeout) is refused
// whatever the counter says, and from t+timeout on the counter alone decides
// (the state's counter, judged at that instant). Windows are aligned to the
// Epoch's Unix clock.
func TestCloudflareBan(t *testing.T) {
	check := func(seed uint64) bool {
		x, reqs := cloudflareCase(rand.New(rand.NewPCG(seed, 19)))
		cf := must(NewCloudflare(x))
		ban := time.Duration(x.MitigationTimeout) * time.Second
		var s CloudflareState
		banEnd := time.Duration(-1)
		for i, q := range reqs {
			probe := s.sw
			counterSays := cf.sw.Decide(&probe, q.at+cf.off, q.cost).Admitted()
			d := cf.Decide(&s, q.at, q.cost)
			inBan := banEnd >= 0 && q.at < banEnd
			switch {
			case inBan && d.Admitted():
				t.Logf("seed %d %+v request %d at %v admitted inside the ban ending %v", seed, x, i, q.at, banEnd)
				return false
			case inBan && d.RetryAfter < banEnd-q.at:
				t.Logf("seed %d: request %d RetryAfter %v before the ban ends at %v", seed, i, d.RetryAfter, banEnd)
				return false
			case !inBan && d.Admitted() != counterSays:
				t.Logf("seed %d %+v request %d at %v: admitted %v, counter says %v", seed, x, i, q.at, d.Admitted(), counterSays)
				return false
			case !inBan && !d.Admitted() && ban > 0:
				banEnd = q.at + ban
			}
		}
		// Windows are aligned to the wall clock: the counter's window starts on a
		// multiple of the period in Unix time.
		if len(reqs) > 0 && !x.Epoch.IsZero() && s.sw.start > 0 {
			wall := x.Epoch.Add(s.sw.start - cf.off)
			if wall.UnixNano()%int64(time.Duration(x.Period)*time.Second) != 0 {
				t.Logf("seed %d: window starts at %v, not on the period", seed, wall)
				return false
			}
		}
		return true
	}
	if err := quick.Check(check, &quick.Config{MaxCount: 300}); err != nil {
		t.Fatal(err)
	}
}

func BenchmarkCloudflareDecide(b *testing.B) {
	cf := must(NewCloudflare(CloudflareParams{RequestsPerPeriod: 1000, Period: 10}))
	var s CloudflareState
	var now time.Duration
	b.ReportAllocs()
	for range b.N {
		now += benchStep
		cf.Decide(&s, now, 1)
	}
}

func BenchmarkCloudflareBanDecide(b *testing.B) {
	cf := must(NewCloudflare(CloudflareParams{RequestsPerPeriod: 1000, Period: 10, MitigationTimeout: 10}))
	var s CloudflareState
	var now time.Duration
	b.ReportAllocs()
	for range b.N {
		now += benchStep
		cf.Decide(&s, now, 1)
	}
}

// TestProductStateSizes holds the per-key state sizes the doc comments state.
func TestProductStateSizes(t *testing.T) {
	for name, c := range map[string]struct{ got, want uintptr }{
		"EnvoyRLSState":     {unsafe.Sizeof(EnvoyRLSState{}), 24},
		"KongState":         {unsafe.Sizeof(KongState{}), 192},
		"KongAdvancedState": {unsafe.Sizeof(KongAdvancedState{}), 40},
		"CloudflareState":   {unsafe.Sizeof(CloudflareState{}), 32},
	} {
		if c.got != c.want {
			t.Errorf("unsafe.Sizeof(%s) = %d, want %d", name, c.got, c.want)
		}
	}
}
