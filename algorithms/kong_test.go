package algorithms

import (
	"math/rand/v2"
	"strings"
	"testing"
	"testing/quick"
	"time"
)

// TestKongSpecHeaders replays Kong's own integration test
// (spec/03-plugins/23-rate-limiting/04-access_spec.lua at 3.9.3,
// validate_headers): minute = 6, seven requests within the minute: statuses
// 200 ×6 then 429; X-RateLimit-Remaining-Minute and RateLimit-Remaining
// 5,4,3,2,1,0,0; limits 6. "handles multiple limits" adds hour = 99999 and
// still sees RateLimit-Limit 6 (the period with the least remaining).
func TestKongSpecHeaders(t *testing.T) {
	for _, x := range []KongParams{{Minute: 6}, {Minute: 6, Hour: 99999}} {
		k := must(NewKong(x))
		var s KongState
		wantRem := []int64{5, 4, 3, 2, 1, 0, 0}
		for i := range 7 {
			at := 10*time.Second + time.Duration(i)*100*ms
			d, h := k.DecideHeaders(&s, at, 1)
			if d.Admitted() != (i < 6) || d.Limit != 6 || d.Remaining != wantRem[i] || h.Limit[1] != 6 || h.Remaining[1] != wantRem[i] {
				t.Fatalf("%+v request %d: %v limit %d remaining %d, minute headers %d/%d; want %v, 6, %d", x, i+1, d.Verdict, d.Limit, d.Remaining, h.Limit[1], h.Remaining[1], i < 6, wantRem[i])
			}
			if x.Hour != 0 && (h.Limit[2] != 99999 || h.Remaining[2] != 99999-int64(min(i+1, 6))) && i < 6 {
				t.Fatalf("request %d: hour headers %d/%d", i+1, h.Limit[2], h.Remaining[2])
			}
			// RateLimit-Reset ≤ 60 (the spec's check); here exactly 60 − 10 s.
			if d.Reset != 50*time.Second {
				t.Fatalf("request %d: RateLimit-Reset %v, want 50s", i+1, d.Reset)
			}
		}
	}
}

// TestKongPeriodStarts replays spec/01-unit/06-timestamp_spec.lua ("should
// provide correct timestamp values"): 2016-10-10 10:10:10 UTC starts its
// minute 10 s earlier, its hour 10 min, its day 10 h, its month 9 days and its
// year 31+29+31+30+31+30+31+31+30 days before that.
func TestKongPeriodStarts(t *testing.T) {
	base := time.Date(2016, 10, 10, 10, 10, 10, 0, time.UTC).Unix()
	want := []int64{base, base - 10, base - 10 - 600, base - 10 - 600 - 36000}
	want = append(want, want[3]-9*86400)
	want = append(want, want[4]-(31+29+31+30+31+30+31+31+30)*86400)
	for i, w := range want {
		if got, _ := kongPeriod(i, base); got != w {
			t.Errorf("%s start = %d, want %d", kongNames[i], got, w)
		}
	}
	// The ends: October has 31 days, 2016 has 366.
	if _, end := kongPeriod(4, base); end != want[4]+31*86400 {
		t.Errorf("month end = %d, want %d", end, want[4]+31*86400)
	}
	if _, end := kongPeriod(5, base); end != want[5]+366*86400 {
		t.Errorf("year end = %d, want %d", end, want[5]+366*86400)
	}
}

// TestKongSteps is derived by hand from the rules in Kong's doc.
func TestKongSteps(t *testing.T) {
	sec := time.Second
	// Refused requests are not counted (local): second = 1, minute = 3.
	local := must(NewKong(KongParams{Second: 1, Minute: 3}))
	runSteps(t, local, []step{
		admit(0),                   // second 1/1, minute 1/3
		refuse(500*ms, sec),        // second stops: Retry-After = max(1, 1 − 0) s
		admit(sec),                 // minute 2/3
		admit(2 * sec),             // minute 3/3
		refuse(3*sec, 57*sec),      // minute stops: Retry-After 60 − 3
		refuse(59*sec+999*ms, sec), // ngx.time() is whole seconds: 60 − 59
		admit(60 * sec),
	})
	// redis with sync_rate −1 counts the refused request at usage() (INCR).
	redis := must(NewKong(KongParams{Second: 1, Minute: 3, Policy: KongRedis}))
	runSteps(t, redis, []step{
		admit(0),
		refuse(500*ms, sec), // counted: minute 2
		admit(sec),          // minute 3
		refuse(2*sec, 58*sec),
		admit(60 * sec),
	})
	// A cost over the limit passes while usage < limit: the check ignores the request's size.
	runSteps(t, must(NewKong(KongParams{Minute: 3})), []step{
		admit(0).costs(5),
		refuse(sec, 59*sec),
	})
}

// TestKongCalendar: months are calendar months, and a counter's TTL
// (expiration.lua: 30 days, 365 days from its first increment) can end it
// before its month or year does.
func TestKongCalendar(t *testing.T) {
	day := 24 * time.Hour
	// January 2027: the counter created at 00:00:00 on the 1st expires on the 31st.
	jan := must(NewKong(KongParams{Month: 2, Epoch: time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)}))
	runSteps(t, jan, []step{
		admit(0),
		admit(time.Hour),
		refuse(29*day, day), // Retry-After = 2592000 − 29 days = 1 day
		refuse(30*day-time.Second, time.Second),
		admit(30 * day),                         // Jan 31 00:00:00: the key's TTL is over
		admit(30*day + time.Hour),               // the new key counts 2
		refuse(30*day+2*time.Hour, time.Second), // Reset = max(1, 30 d − 30 d 2 h) = 1 s
		admit(31 * day),                         // February
	})
	// February 2027: Retry-After says 30 − 1 = 29 days; the month ends after 27.
	feb := must(NewKong(KongParams{Month: 1, Epoch: time.Date(2027, 2, 1, 0, 0, 0, 0, time.UTC)}))
	var s KongState
	feb.Decide(&s, 0, 1)
	if d := feb.Decide(&s, day, 1); d.Admitted() || d.RetryAfter != 29*day || d.RetryAfterExact {
		t.Fatalf("February Decide(t0+1d) = %+v, want refuse with Retry-After 29 days, inexact", d)
	}
	if d := feb.Decide(&s, 28*day-1, 1); d.Admitted() {
		t.Fatalf("February 28 23:59:59.999999999 admitted")
	}
	if d := feb.Decide(&s, 28*day, 1); !d.Admitted() {
		t.Fatalf("March 1 refused")
	}
	// hide_client_headers: no Retry-After is sent; RetryAfter is the exact wait.
	hid := must(NewKong(KongParams{Month: 1, HideClientHeaders: true, Epoch: time.Date(2027, 2, 1, 0, 0, 0, 0, time.UTC)}))
	var hs KongState
	hid.Decide(&hs, 0, 1)
	if d := hid.Decide(&hs, day+300*ms, 1); d.RetryAfter != 27*day-300*ms || !d.RetryAfterExact {
		t.Fatalf("hidden headers RetryAfter = %v (exact %v), want 26d23h59m59.7s exact", d.RetryAfter, d.RetryAfterExact)
	}
	// 2028 is a leap year: the year counter created on January 1 expires on December 31.
	leap := must(NewKong(KongParams{Year: 1, Epoch: time.Date(2028, 1, 1, 0, 0, 0, 0, time.UTC)}))
	runSteps(t, leap, []step{admit(0), refuse(365*day-time.Second, time.Second), admit(365 * day)})
}

func TestKongParams(t *testing.T) {
	_, err := NewKong(KongParams{Minute: 5, Hour: 3, Policy: "memcached"})
	if err == nil || !strings.Contains(err.Error(), "the limit for hour(3) cannot be lower than the limit for minute(5)") || !strings.Contains(err.Error(), `policy "memcached"`) {
		t.Fatalf("NewKong(bad) = %v, want both problems", err)
	}
	if _, err := NewKong(KongParams{}); err == nil || !strings.Contains(err.Error(), "at least one of") {
		t.Fatalf("NewKong(none) = %v", err)
	}
	for _, c := range []struct {
		p   Policy
		bad string
	}{
		{Policy{Limit: 6, Window: time.Minute}, ""},
		{Policy{Limit: 6, Window: 24 * time.Hour, Burst: 6}, ""},
		{Policy{Limit: 6, Window: 2 * time.Minute}, "not a Kong period"},
		{Policy{Limit: 6, Window: time.Second, Burst: 9}, "burst 9"},
	} {
		x, err := KongParamsOf(c.p)
		if c.bad == "" && (err != nil || x.Second+x.Minute+x.Hour+x.Day != c.p.Limit) {
			t.Errorf("KongParamsOf(%+v) = %+v, %v", c.p, x, err)
		}
		if c.bad != "" && (err == nil || !strings.Contains(err.Error(), c.bad)) {
			t.Errorf("KongParamsOf(%+v) error = %v, want %q", c.p, err, c.bad)
		}
	}
}

// TestKongFixedWindowTwin: one period, Epoch zero, unit costs: Kong's local
// counter decides as FixedWindow, whose windows are aligned to t=0 (Kong's
// check usage ≥ limit is FixedWindow's count+1 > limit), with the same
// Remaining; Kong's clock is whole seconds, so requests are on whole seconds.
func TestKongFixedWindowTwin(t *testing.T) {
	check := func(seed uint64) bool {
		r := rand.New(rand.NewPCG(seed, 3))
		windows := []time.Duration{time.Second, time.Minute, time.Hour}
		p := Policy{Limit: 1 + r.Int64N(10), Window: windows[r.IntN(3)]}
		k, fw := must(NewKong(must(KongParamsOf(p)))), must(NewFixedWindow(p))
		var ks KongState
		var fs FixedWindowState
		var now time.Duration
		for i := range r.IntN(300) {
			now += time.Duration(r.Int64N(int64(p.Window/time.Second)/3+2)) * time.Second
			got, want := k.Decide(&ks, now, 1), fw.Decide(&fs, now, 1)
			if got.Verdict != want.Verdict || got.Remaining != want.Remaining {
				t.Logf("seed %d %+v request %d at %v: kong %+v, fixed window %+v", seed, p, i, now, got, want)
				return false
			}
		}
		return true
	}
	if err := quick.Check(check, &quick.Config{MaxCount: 200}); err != nil {
		t.Fatal(err)
	}
}

// TestKongProperties, on arbitrary traffic and several periods at once with an
// arbitrary epoch: (1) local counts only admitted requests, so no calendar
// period admits more than its limit with unit costs; (2) periods restart
// exactly at their boundaries: a request at the first second of the next
// period passes that period's check; (3) redis counts every request.
func TestKongProperties(t *testing.T) {
	check := func(seed uint64) bool {
		r := rand.New(rand.NewPCG(seed, 5))
		x := KongParams{Second: 1 + r.Int64N(3)}
		x.Minute = x.Second + r.Int64N(20)
		x.Hour = x.Minute + r.Int64N(100)
		x.Epoch = time.Unix(1_700_000_000+r.Int64N(1<<28), r.Int64N(1e9))
		k := must(NewKong(x))
		x.Policy = KongRedis
		rk := must(NewKong(x))
		var s, rs KongState
		admittedIn, seenIn := map[[2]int64]int64{}, map[[2]int64]int64{}
		var now time.Duration
		for i := range r.IntN(400) {
			now += time.Duration(r.Int64N(int64(3 * time.Second)))
			d := k.Decide(&s, now, 1)
			rk.Decide(&rs, now, 1)
			sec := k.wallSec(now)
			for p, l := range k.limits[:3] {
				start, _ := kongPeriod(p, sec)
				if d.Admitted() {
					admittedIn[[2]int64{int64(p), start}]++
				}
				if n := admittedIn[[2]int64{int64(p), start}]; n > l {
					t.Logf("seed %d: %d admitted in the %s from %d, limit %d (request %d)", seed, n, kongNames[p], start, l, i)
					return false
				}
				seenIn[[2]int64{int64(p), start}]++
				if n := seenIn[[2]int64{int64(p), start}]; rs.c[p].start != start || rs.c[p].count != n {
					t.Logf("seed %d: redis counts %d in the %s from %d, want every request: %d", seed, rs.c[p].count, kongNames[p], start, n)
					return false
				}
			}
			// At the next second boundary the second's counter is new.
			c := s
			if _, end := kongPeriod(0, sec); k.usage(&c.c[0], 0, end, k.virtual(end)) != 0 {
				t.Logf("seed %d: the second counter survives its boundary", seed)
				return false
			}
		}
		return true
	}
	if err := quick.Check(check, &quick.Config{MaxCount: 200}); err != nil {
		t.Fatal(err)
	}
}

func BenchmarkKongDecide(b *testing.B) {
	k := must(NewKong(KongParams{Second: benchPolicy.Limit}))
	var s KongState
	var now time.Duration
	b.ReportAllocs()
	for range b.N {
		now += benchStep
		k.Decide(&s, now, 1)
	}
}

func BenchmarkKongMonthDecide(b *testing.B) {
	k := must(NewKong(KongParams{Second: benchPolicy.Limit, Minute: 6000, Hour: 360000, Day: 8640000, Month: 1 << 40, Year: 1 << 41}))
	var s KongState
	var now time.Duration
	b.ReportAllocs()
	for range b.N {
		now += benchStep
		k.Decide(&s, now, 1)
	}
}
