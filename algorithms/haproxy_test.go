package algorithms

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"testing/quick"
	"time"
)

// hapStep is one request of a step table, with the rate sc_http_req_rate(0)
// must read after it is counted (what the deny rule compares with Limit).
type hapStep struct {
	at      time.Duration
	verdict Verdict
	rate    int64
	retry   time.Duration // RetryAfter, on refusals
}

func hapAdmit(at time.Duration, rate int64) hapStep {
	return hapStep{at: at, verdict: Admit, rate: rate}
}
func hapRefuse(at time.Duration, rate int64, retry time.Duration) hapStep {
	return hapStep{at: at, verdict: Refuse, rate: rate, retry: retry}
}

// hapBurst is n admissions at one instant reading rates from, from+1, ….
func hapBurst(at time.Duration, from int64, n int) []hapStep {
	var ss []hapStep
	for i := range n {
		ss = append(ss, hapAdmit(at, from+int64(i)))
	}
	return ss
}

func runHAProxySteps(t *testing.T, r *HAProxy, table []hapStep) {
	t.Helper()
	var s HAProxyState
	for i, st := range table {
		d := r.Decide(&s, st.at, 1)
		call := lazy("step %d: Decide(%s, 1)", i, t0offset(st.at))
		if d.Verdict != st.verdict {
			t.Fatalf("%s = %v, want %v", call, d.Verdict, st.verdict)
		}
		if got := r.Rate(&s, st.at); got != st.rate {
			t.Fatalf("%s: sc_http_req_rate = %d, want %d", call, got, st.rate)
		}
		if st.verdict == Refuse && d.RetryAfter != st.retry {
			t.Fatalf("%s: RetryAfter = %v, want %v", call, d.RetryAfter, st.retry)
		}
		if st.verdict == Admit && d.RetryAfter != 0 {
			t.Fatalf("%s: RetryAfter = %v on an admission", call, d.RetryAfter)
		}
	}
}

// The step tables take configuration.txt's example (2.6, section 4.2,
// "tcp-request content"): "stick-table type ip size 1m expire 5m store
// http_req_rate(10s)", "acl click_too_fast sc1_http_req_rate gt 10". Every rate
// is worked by hand from freq_ctr.h:38-75 and freq_ctr.c:78-96 (P = 10000 ms):
// rate = ⌊prev×remain/P⌋ + curr, remain = tick + P − now.
func TestHAProxySteps(t *testing.T) {
	doc := must(NewHAProxy(HAProxyTable{Period: 10 * time.Second, Limit: 10, Expire: 5 * time.Minute, Size: 1 << 20}))
	tests := []struct {
		name  string
		r     *HAProxy
		table []hapStep
	}{
		{"gt 10 passes 10; a refused retry is counted and delays the next pass", doc, steps2(
			hapBurst(0, 1, 10),
			// curr 11 now. Next period: prev′ = 11, remain′ = 20000 − t:
			// ⌊11×remain′/10000⌋ + 1 ≤ 10 ⇔ remain′ ≤ 9090 ⇔ t ≥ 10910 ms.
			hapRefuse(0, 11, 10910*ms),
			// At 10909: rotation, ⌊11×9091/10000⌋ + 1 = 11: refused, and counted, so
			// the next has curr 2: ⌊11×(20000−t)/10000⌋ + 2 ≤ 10 ⇔ t ≥ 11819, 910 ms on.
			hapRefuse(10909*ms, 11, 910*ms),
			hapAdmit(11819*ms, 10), // ⌊11×8181/10000⌋ + 2 = 8 + 2
		)},
		{"an idle period: the previous count is read over the remaining part", doc, steps2(
			hapBurst(0, 1, 5),
			// At 15000: rotation, prev 5, remain 5000: ⌊5×5000/10000⌋ = 2, + curr.
			hapBurst(15000*ms, 3, 8),
			// curr 9 → the 9th reads 2 + 9 = 11. Next: curr 10, ⌊5×remain/10000⌋ = 0
			// ⇔ remain ≤ 1999 ⇔ t ≥ 18001 ms.
			hapRefuse(15000*ms, 11, 3001*ms),
			hapAdmit(18001*ms, 10),
			// Two whole periods after the period began (tick 10000): a fresh start.
			hapBurst(30000*ms, 1, 10),
			hapRefuse(30000*ms, 11, 10910*ms),
		)},
		{"the period of a first request at an odd ms starts 1 ms before it", doc, steps2(
			hapBurst(1*ms, 1, 10),
			// tick = 1 &^ 1 = 0, so the pass comes at 10910 ms, 10909 ms on.
			hapRefuse(1*ms, 11, 10909*ms),
		)},
		{"2×Limit within one period, across a rotation", doc, steps2(
			hapAdmit(0, 1),
			// The next period (tick 10000) begins at 19999: prev 1 over remain 1 weighs 0.
			hapBurst(19999*ms, 1, 10),
			// And the one after (tick 20000) at 29998: prev 10 over remain 2 weighs
			// ⌊20/10000⌋ = 0. 20 pass in [19999 ms, 29999 ms).
			hapBurst(29998*ms, 1, 10),
		)},
		{"expire shorter than the counter: the key starts afresh", must(NewHAProxy(HAProxyTable{Period: 10 * time.Second, Limit: 10, Expire: 5 * time.Second})), steps2(
			hapBurst(0, 1, 10),
			// The counter alone would pass at 10910 ms; the entry expires first.
			hapRefuse(0, 11, 5*time.Second),
			hapBurst(5*time.Second, 1, 10),
		)},
		{"an odd period rotates 1 ms early", must(NewHAProxy(HAProxyTable{Period: 999 * time.Millisecond, Limit: 2})), steps2(
			hapBurst(0, 1, 2),
			// Next period starts at (0+999)&^1 = 998: prev′ 3, remain′ = 1997 − t,
			// ⌊3×remain′/999⌋ + 1 ≤ 2 ⇔ remain′ ≤ 665 ⇔ t ≥ 1332 ms.
			hapRefuse(0, 3, 1332*ms),
			hapAdmit(1332*ms, 2), // ⌊3×665/999⌋ + 1
			// 1997 − 998 = 999: a rotation to tick 1996 (not 1998), remain 998:
			// ⌊1×998/999⌋ + 1 = 1 (with tick 999 it would read ⌊3×1/999⌋ + 2 = 2).
			hapAdmit(1997*ms, 1),
		)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { runHAProxySteps(t, tt.r, tt.table) })
	}
}

// steps2 concatenates hapSteps and []hapSteps.
func steps2(parts ...any) []hapStep {
	var all []hapStep
	for _, p := range parts {
		switch p := p.(type) {
		case hapStep:
			all = append(all, p)
		case []hapStep:
			all = append(all, p...)
		}
	}
	return all
}

// TestHAProxyRateReads holds Rate to read_freq_ctr_period's edges
// (freq_ctr.c:78-92), worked by hand with P = 10000 ms.
func TestHAProxyRateReads(t *testing.T) {
	r := must(NewHAProxy(HAProxyTable{Period: 10 * time.Second, Limit: 100}))
	one, two, odd := HAProxyState{}, HAProxyState{}, HAProxyState{}
	r.Decide(&one, 0, 1)
	r.Decide(&two, 0, 2)
	r.Decide(&odd, 1*ms, 11)
	tests := []struct {
		s    *HAProxyState
		at   time.Duration
		want int64
	}{
		{&two, 9999 * ms, 2},
		{&two, 10000 * ms, 2},   // remain 0, not below: the whole current count
		{&two, 15000 * ms, 1},   // past 2 over remain 5000: ⌊2×5000/10000⌋
		{&two, 19999 * ms, 0},   // ⌊2×1/10000⌋
		{&two, 20000 * ms, 0},   // remain −10000+10000 = 0: past 2 × 0
		{&two, 20001 * ms, 0},   // beyond two periods
		{&one, 15000 * ms, 1},   // past 1, no current: the flapping correction reads 1, not 0
		{&one, 19999 * ms, 1},   // still
		{&one, 20001 * ms, 0},   // past dropped
		{&HAProxyState{}, 0, 0}, // no entry
		// A first request at 1 ms starts the period at 0 (freq_ctr.h:73), so at
		// 10001 ms the 11 are the previous period's, over remain 9999: 10 (a period
		// from 1 ms would still read them whole: 11).
		{&odd, 10000 * ms, 11},
		{&odd, 10001 * ms, 10},
	}
	for _, tt := range tests {
		if got := r.Rate(tt.s, tt.at); got != tt.want {
			t.Errorf("Rate(%s) after %d requests = %d, want %d", t0plus(tt.at), tt.s.curr, got, tt.want)
		}
	}
}

// TestHAProxyDecisionFields works Remaining and Reset by hand: 10 per 10 s.
func TestHAProxyDecisionFields(t *testing.T) {
	r := must(NewHAProxy(HAProxyTable{Period: 10 * time.Second, Limit: 10}))
	var s HAProxyState
	d := r.Decide(&s, 0, 1)
	// Rate 1: 9 more pass at t0. A burst of 10 passes once the previous 1 weighs
	// nothing and the rotation has come: ⌊1×remain/10000⌋ = 0 ⇔ remain ≤ 9999,
	// remain = 20000 − t ⇔ t ≥ 10001 ms.
	if d.Remaining != 9 || d.Reset != 10001*ms || d.Limit != 10 || !d.RetryAfterExact {
		t.Fatalf("first decision = %+v, want Remaining 9, Reset 10.001s, Limit 10, exact", d)
	}
	for range 9 {
		d = r.Decide(&s, 0, 1)
	}
	if d.Verdict != Admit || d.Remaining != 0 {
		t.Fatalf("10th decision = %+v, want an admission with Remaining 0", d)
	}
	// Reset with prev 10: 10×remain < 10000 ⇔ remain ≤ 999 ⇔ t ≥ 19001 ms.
	if d.Reset != 19001*ms {
		t.Fatalf("10th decision Reset = %v, want 19.001s", d.Reset)
	}
	// A cost above the limit can never pass.
	if d := r.Decide(&s, 0, 11); d.Verdict != Refuse || d.RetryAfter != Never {
		t.Fatalf("cost 11 = %+v, want a refusal with RetryAfter Never", d)
	}
	// An odd period's double rotation: 1 at t0 (tick 0), 1 at 1997 ms = 2×999−1
	// rotates to tick 998 and reads 1 (prev 1 over remain 0); the next at 1997
	// rotates again (1997 − 998 = 999) to tick 1996: prev 1 over remain 998
	// weighs 0, so 10 more pass there, not 9, and a burst of 10 passes at once.
	odd := must(NewHAProxy(HAProxyTable{Period: 999 * time.Millisecond, Limit: 10}))
	var o HAProxyState
	odd.Decide(&o, 0, 1)
	if d := odd.Decide(&o, 1997*ms, 1); d.Remaining != 10 || d.Reset != 0 {
		t.Fatalf("at the double-rotation ms: %+v, want Remaining 10, Reset 0", d)
	}
	for i := range 11 {
		if d := odd.Decide(&o, 1997*ms, 1); d.Admitted() != (i < 10) {
			t.Fatalf("request %d more at 1997 ms: %v", i+1, d.Verdict)
		}
	}
	// Limit 0 refuses everything, for ever.
	zero := must(NewHAProxy(HAProxyTable{Period: time.Second}))
	var z HAProxyState
	if d := zero.Decide(&z, 0, 1); d.Verdict != Refuse || d.RetryAfter != Never || d.Reset != 0 {
		t.Fatalf("gt 0 = %+v, want a refusal with RetryAfter Never", d)
	}
}

func TestHAProxyTableOf(t *testing.T) {
	x, err := HAProxyTableOf(Policy{Limit: 20, Window: 10 * time.Second})
	want := HAProxyTable{Period: 10 * time.Second, Limit: 20, Expire: 20 * time.Second}
	if err != nil || x != want {
		t.Fatalf("HAProxyTableOf(20 per 10s) = %+v, %v, want %+v", x, err, want)
	}
	if x, err := HAProxyTableOf(Policy{Limit: 20, Window: 10 * time.Second, Burst: 20}); err != nil || x != want {
		t.Fatalf("HAProxyTableOf(burst = limit) = %+v, %v, want %+v", x, err, want)
	}
	for _, tt := range []struct {
		p    Policy
		errs []string
	}{
		{Policy{Limit: 20, Window: 10 * time.Second, Burst: 40}, []string{"no burst", "got 40"}},
		{Policy{Limit: 20, Window: 1500 * time.Microsecond, Burst: 5}, []string{"no burst", "whole milliseconds"}},
		{Policy{Limit: 0, Window: time.Second}, []string{"haproxy: limit must be positive"}},
		{Policy{Limit: 1, Window: time.Millisecond}, []string{"from 2ms"}},
		{Policy{Limit: 1, Window: 1 << 30 * time.Millisecond}, []string{"from 2ms"}},
	} {
		_, err := HAProxyTableOf(tt.p)
		for _, e := range tt.errs {
			if err == nil || !strings.Contains(err.Error(), e) {
				t.Errorf("HAProxyTableOf(%+v) = %v, want an error with %q", tt.p, err, e)
			}
		}
	}
}

func TestNewHAProxyTellsEveryProblem(t *testing.T) {
	_, err := NewHAProxy(HAProxyTable{Period: time.Millisecond, Limit: -1, Expire: 1500 * time.Microsecond, Size: -1, ClockAtZero: -time.Millisecond})
	for _, e := range []string{"haproxy: period", "haproxy: expire", "haproxy: clock at zero", "haproxy: limit", "haproxy: size"} {
		if err == nil || !strings.Contains(err.Error(), e) {
			t.Errorf("NewHAProxy(bad) = %v, want an error with %q", err, e)
		}
	}
	if _, err := NewHAProxy(HAProxyTable{Period: 2 * time.Millisecond, Limit: haproxyMaxMs - 1, Expire: haproxyMaxMs * time.Millisecond}); err != nil {
		t.Errorf("NewHAProxy(largest) = %v, want no error", err)
	}
}

func TestHAProxyPanicsOnBadCost(t *testing.T) {
	r := must(NewHAProxy(HAProxyTable{Period: time.Second, Limit: 1}))
	for _, f := range []func(){
		func() { r.Decide(&HAProxyState{}, 0, 0) },
		func() { r.Charge(&HAProxyState{}, 0, -1) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("no panic on a cost below 1")
				}
			}()
			f()
		}()
	}
}

// hapCase is arbitrary traffic for one key against an arbitrary table: periods
// of 2 ms to 10 s (odd ones too), limits 1..40, expires none or 1 ms..3 periods,
// gaps from 0 to ~3 periods, costs usually 1.
type hapCase struct {
	table HAProxyTable
	reqs  []request
}

func (hapCase) Generate(r *rand.Rand, size int) reflect.Value {
	periods := []time.Duration{2 * ms, 3 * ms, 10 * ms, 999 * ms, time.Second, 10 * time.Second}
	c := hapCase{table: HAProxyTable{Period: periods[r.Intn(len(periods))], Limit: 1 + r.Int63n(40)}}
	if r.Intn(3) == 0 {
		c.table.Period = time.Duration(2+r.Int63n(3000)) * ms
	}
	if r.Intn(2) == 0 {
		c.table.Expire = time.Duration(1+r.Int63n(3*int64(c.table.Period/ms))) * ms
	}
	c.table.ClockAtZero = time.Duration(r.Intn(2)) * ms
	p := c.table.Period
	scales := []time.Duration{0, 1, time.Microsecond, ms, p / time.Duration(c.table.Limit+1), p / 3, p}
	var now time.Duration
	for range r.Intn(400) {
		now += time.Duration(r.Int63n(4)) * scales[r.Intn(len(scales))]
		cost := int64(1)
		if r.Intn(10) == 0 {
			cost = 1 + r.Int63n(c.table.Limit+2)
		}
		c.reqs = append(c.reqs, request{at: now, cost: cost})
	}
	return reflect.ValueOf(c)
}

// hapQuick checks prop on 300 arbitrary cases; prop returns what went wrong.
func hapQuick(t *testing.T, name string, prop func(c hapCase) string) {
	t.Run(name, func(t *testing.T) {
		cfg := &quick.Config{MaxCount: 300, Rand: rand.New(rand.NewSource(7))}
		if err := quick.Check(func(c hapCase) bool {
			if msg := prop(c); msg != "" {
				t.Errorf("table %+v, %d requests: %s", c.table, len(c.reqs), msg)
				return false
			}
			return true
		}, cfg); err != nil {
			t.FailNow() // the case is told above; quick's dump of it is too long to read
		}
	})
}

// TestHAProxyProperties holds the invariants the freq_ctr arithmetic implies on
// arbitrary traffic.
func TestHAProxyProperties(t *testing.T) {
	// Each period of the key's grid (from a rotation or a fresh start, when curr
	// is set to the request's cost) admits at most Limit: curr counts every
	// request of the period, refused ones too, and the rate is at least curr.
	hapQuick(t, "at most Limit per period of the key's grid", func(c hapCase) string {
		r := must(NewHAProxy(c.table))
		var s HAProxyState
		var tick, sum int64
		for i, q := range c.reqs {
			d := r.Decide(&s, q.at, q.cost)
			if int64(s.curr) == q.cost {
				tick, sum = s.tick, 0
			}
			if d.Admitted() {
				sum += q.cost
			}
			if sum > c.table.Limit {
				return fmt.Sprintf("request %d: %d admitted in the period from %d ms", i, sum, tick)
			}
		}
		return ""
	})
	// Any Period-long window spans two grid periods: at most 2×Limit, unless
	// an Expire shorter than the Period starts the key afresh within it (a key
	// pausing for Expire then passes Limit per Expire).
	hapQuick(t, "at most 2×Limit in any window of one period", func(c hapCase) string {
		if c.table.Expire > 0 && c.table.Expire < c.table.Period {
			return ""
		}
		adm := admitted[HAProxyState](must(NewHAProxy(c.table)), c.reqs)
		if most, at := maxInWindow(adm, c.table.Period); most > 2*c.table.Limit {
			return fmt.Sprintf("%d admitted in the period from %v", most, at)
		}
		return ""
	})
	// The rate counts only what was sent in the last two periods (the previous
	// period starts at most 2×Period before now).
	hapQuick(t, "the rate never exceeds what was sent", func(c hapCase) string {
		r := must(NewHAProxy(c.table))
		var s HAProxyState
		for i, q := range c.reqs {
			r.Decide(&s, q.at, q.cost)
			m := int64(q.at / ms)
			var sent int64
			for _, e := range c.reqs[:i+1] {
				if int64(e.at/ms) >= m-2*int64(c.table.Period/ms) {
					sent += e.cost
				}
			}
			if rate := r.Rate(&s, q.at); rate > sent {
				return fmt.Sprintf("request %d at %v: rate %d, %d sent in two periods", i, q.at, rate, sent)
			}
		}
		return ""
	})
	// A refusal is counted: the state after it differs (the penalty), and it is
	// the state Charge leaves.
	hapQuick(t, "refusals change state as Charge does", func(c hapCase) string {
		r := must(NewHAProxy(c.table))
		var s HAProxyState
		for i, q := range c.reqs {
			before, charged := s, s
			r.Charge(&charged, q.at, q.cost)
			d := r.Decide(&s, q.at, q.cost)
			if s != charged {
				return fmt.Sprintf("request %d: Decide left %+v, Charge %+v", i, s, charged)
			}
			if !d.Admitted() && s == before {
				return fmt.Sprintf("request %d: a refusal left the state as it was", i)
			}
		}
		return ""
	})
	// RetryAfter is exact: the same request passes at now+RetryAfter and not a
	// ms earlier; a burst of Limit passes at now+Reset and not a ms earlier;
	// Remaining more pass now and one more does not.
	hapQuick(t, "RetryAfter, Reset and Remaining are exact", func(c hapCase) string {
		r := must(NewHAProxy(c.table))
		var s HAProxyState
		passes := func(at time.Duration, cost int64) bool {
			cp := s
			return r.Decide(&cp, at, cost).Admitted()
		}
		burst := func(at time.Duration, n int64) bool {
			cp := s
			for range n {
				if !r.Decide(&cp, at, 1).Admitted() {
					return false
				}
			}
			return true
		}
		// first reports whether at is now or a whole ms, and the first instant from
		// now on at which ok holds, checking the ms before it.
		first := func(now, at time.Duration, ok func(time.Duration) bool) bool {
			if at != now && at%ms != 0 {
				return false
			}
			return ok(at) && (at == now || at-ms < now/ms*ms || !ok(max(at-ms, now)))
		}
		for i, q := range c.reqs {
			d := r.Decide(&s, q.at, q.cost)
			if !d.Admitted() && d.RetryAfter != Never {
				if !first(q.at, q.at+d.RetryAfter, func(at time.Duration) bool { return passes(at, q.cost) }) {
					return fmt.Sprintf("request %d at %v: RetryAfter %v is not the first passing ms", i, q.at, d.RetryAfter)
				}
			}
			if !first(q.at, q.at+d.Reset, func(at time.Duration) bool { return burst(at, c.table.Limit) }) {
				return fmt.Sprintf("request %d at %v: Reset %v is not the first ms a burst of %d passes", i, q.at, d.Reset, c.table.Limit)
			}
			if !burst(q.at, d.Remaining) || burst(q.at, d.Remaining+1) {
				return fmt.Sprintf("request %d at %v: Remaining %d is wrong", i, q.at, d.Remaining)
			}
		}
		return ""
	})
	// Idle states decide as a new key from then on; Keyed may evict them.
	hapQuick(t, "idle is a new key", func(c hapCase) string {
		r := must(NewHAProxy(c.table))
		var s HAProxyState
		for i, q := range c.reqs {
			if r.Idle(&s, q.at) {
				old, fresh := s, HAProxyState{}
				for j, q2 := range c.reqs[i:] {
					if a, b := r.Decide(&old, q2.at, q2.cost), r.Decide(&fresh, q2.at, q2.cost); a != b {
						return fmt.Sprintf("idle at request %d, request %d: %+v, a new key %+v", i, i+j, a, b)
					}
				}
				return ""
			}
			r.Decide(&s, q.at, q.cost)
		}
		return ""
	})
	hapQuick(t, "eviction changes no decision", func(c hapCase) string {
		checkKeyedTwin[HAProxyState](t, must(NewHAProxy(c.table)), c.reqs)
		return ""
	})
}

// TestHAProxyLocksOutASteadyClient: a key sending every I ms, n = ⌊(P−2)/I⌋ ≥
// Limit+1 requests a period, passes its first Limit requests and never again.
// With counted refusals the rate read after the first period is at least
// ⌊prev×remain/P⌋ + curr ≥ n > Limit (prev ≥ n over the whole previous period,
// curr ≥ (P−remain)/I of this one).
func TestHAProxyLocksOutASteadyClient(t *testing.T) {
	f := func(limit, period, excess uint16, odd bool) bool {
		x := HAProxyTable{Limit: 1 + int64(limit%30), Period: time.Duration(200+period%5000) * ms}
		if odd {
			x.ClockAtZero = ms
		}
		p := int64(x.Period / ms)
		interval := (p - 2) / (x.Limit + 1 + int64(excess%4))
		if interval < 1 {
			return true
		}
		r := must(NewHAProxy(x))
		var s HAProxyState
		var passed int64
		for i := range 10 * p / interval {
			at := time.Duration(int64(i)*interval) * ms
			if d := r.Decide(&s, at, 1); d.Admitted() {
				passed++
				if passed > x.Limit {
					t.Logf("%+v every %d ms: request %d at %v passed, the %dth", x, interval, i, at, passed)
					return false
				}
			}
		}
		return passed == x.Limit
	}
	if err := quick.Check(f, &quick.Config{MaxCount: 500, Rand: rand.New(rand.NewSource(8))}); err != nil {
		t.Fatal(err)
	}
	// The textbook sliding window counter admits such a client every period.
	r := must(NewHAProxy(HAProxyTable{Period: time.Second, Limit: 4}))
	sw := must(NewSlidingWindowCounter(Policy{Limit: 4, Window: time.Second}))
	var s HAProxyState
	var w SlidingWindowCounterState
	var hap, swc int
	for i := range 80 { // 8/s for 10 s
		at := time.Duration(i) * 125 * ms
		if r.Decide(&s, at, 1).Admitted() {
			hap++
		}
		if sw.Decide(&w, at, 1).Admitted() {
			swc++
		}
	}
	// The counter passes at least one a window: with none in it, its last
	// request (875 ms in) estimates ≤ 4×125/1000 + 0 + 1 < 4.
	if hap != 4 || swc < 10 {
		t.Fatalf("8/s for 10 s against 4 per 1 s: haproxy passed %d (want 4), the sliding window counter %d (want ≥ 10)", hap, swc)
	}
}

// TestHAProxyBetweenSlidingWindowCounters is the differential test against the
// textbook lane the freq_ctr is: a sliding window counter on the key's own grid
// whose estimate is rounded down. With the first request at t0 (an even ms) and
// an even Period the grids coincide, so until the first refusal (the lanes
// count refusals differently) or two idle periods (HAProxy then restarts its
// grid at the request), with cost 1: SlidingWindowCounter(Limit) admits ⇒
// HAProxy admits ⇒ SlidingWindowCounter(Limit+1) admits, and HAProxy admits
// exactly when prev×remain + curr×P < (Limit+1)×P. The rule is built through
// HAProxyTableOf, as the lane translates the policy.
func TestHAProxyBetweenSlidingWindowCounters(t *testing.T) {
	f := func(limit, period uint16, gaps []uint16) bool {
		p := Policy{Limit: 1 + int64(limit%30), Window: time.Duration(2*(1+period%2000)) * ms}
		x := must(HAProxyTableOf(p))
		r := must(NewHAProxy(x))
		lo, hi := must(NewSlidingWindowCounter(p)), must(NewSlidingWindowCounter(Policy{Limit: p.Limit + 1, Window: p.Window}))
		var s HAProxyState
		var a, b SlidingWindowCounterState
		var at time.Duration
		for i, g := range append([]uint16{0}, gaps...) {
			at += time.Duration(int64(g)%int64(x.Period/ms)) * ms
			dl, dh, d := lo.Decide(&a, at, 1), hi.Decide(&b, at, 1), r.Decide(&s, at, 1)
			if (dl.Admitted() && !d.Admitted()) || (d.Admitted() && !dh.Admitted()) {
				t.Logf("%+v request %d at %v: swc(L) %v, haproxy %v, swc(L+1) %v", x, i, at, dl.Verdict, d.Verdict, dh.Verdict)
				return false
			}
			if !dl.Admitted() || !d.Admitted() || !dh.Admitted() {
				return true
			}
		}
		return true
	}
	if err := quick.Check(f, &quick.Config{MaxCount: 2000, Rand: rand.New(rand.NewSource(9))}); err != nil {
		t.Fatal(err)
	}
}

func BenchmarkHAProxyDecide(b *testing.B) {
	r := must(NewHAProxy(must(HAProxyTableOf(benchPolicy))))
	var s HAProxyState
	var now time.Duration
	b.ReportAllocs()
	for range b.N {
		now += benchStep
		r.Decide(&s, now, 1)
	}
}
