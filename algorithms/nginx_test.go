package algorithms

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// The step tables below derive every expected figure by hand from nginx 1.22.1's
// ngx_http_limit_req_module.c (excess′ = excess − rate×ms/1000 + 1000, refused if
// excess′ > burst×1000, delay (excess′ − delay×1000)×1000/rate ms) for the examples
// of nginx's documentation and blog.
func TestNginxSteps(t *testing.T) {
	s := time.Second
	tests := []struct {
		name  string
		zone  NginxZone
		table []step
	}{{
		// https://blog.nginx.org/blog/rate-limiting-nginx, "Handling Bursts": rate=10r/s
		// burst=20; 21 simultaneous requests: the first is forwarded at once, the other
		// 20 queued and forwarded one per 100 ms; the next is refused. Excess′ 0, 1000,
		// …, 20000 pass with delays 0, 100 ms, …, 2000 ms; 21000 > 20000 is refused
		// until rate×ms/1000 ≥ 1000, ms = 100.
		name: "blog burst=20",
		zone: NginxZone{Rate: "10r/s", Burst: 20},
		table: steps(admit(0),
			delayed(0, 100*ms), delayed(0, 200*ms), repeat(16, step{cost: 1, verdict: Delay, delay: -1}),
			delayed(0, 1900*ms), delayed(0, 2000*ms), refuse(0, 100*ms)),
	}, {
		// The same blog, "Queueing with No Delay": 25 requests at once with nodelay:
		// 21 forwarded, 4 rejected; 101 ms later 20 more: one slot has been freed,
		// 1 forwarded, 19 rejected (excess′ 20000 − 1010 + 1000 = 19990 passes,
		// 20990 > 20000 does not until 10×ms ≥ 990: 99 ms later).
		name: "blog nodelay 101ms",
		zone: NginxZone{Rate: "10r/s", Burst: 20, NoDelay: true},
		table: steps(repeat(21, admit(0)), repeat(4, refuse(0, 100*ms)),
			admit(101*ms), repeat(19, refuse(101*ms, 99*ms))),
	}, {
		// ... and "If instead 501 milliseconds have passed": 5 forwarded, 15 rejected.
		name:  "blog nodelay 501ms",
		zone:  NginxZone{Rate: "10r/s", Burst: 20, NoDelay: true},
		table: steps(repeat(21, admit(0)), repeat(5, admit(501*ms)), repeat(15, refuse(501*ms, 99*ms))),
	}, {
		// The blog's "Two-Stage Rate Limiting": rate=5r/s burst=12 delay=8. The blog
		// says the first 8 pass at once, the next 4 are delayed, then refused. The
		// source passes 9 at once: the first stores excess 0 (line 486), so excess′
		// 0 … 8000 are ≤ delay×1000; 9000 … 12000 wait (9000−8000)×1000/5000 = 200 ms
		// … 800 ms; 13000 > 12000 is refused until ms = 200. The real nginx agrees
		// with the source (conform/nginx_real_test.go).
		name:  "blog delay=8",
		zone:  NginxZone{Rate: "5r/s", Burst: 12, Delay: 8},
		table: steps(repeat(9, admit(0)), delayed(0, 200*ms), delayed(0, 400*ms), delayed(0, 600*ms), delayed(0, 800*ms), refuse(0, 200*ms)),
	}, {
		// nginx.org/en/docs/http/ngx_http_limit_req_module.html: rate=1r/s burst=5,
		// "bursts not exceeding 5 requests": 6 simultaneous pass (1 now, 5 delayed
		// 1 s … 5 s); the 7th is refused.
		name:  "docs burst=5",
		zone:  NginxZone{Rate: "1r/s", Burst: 5},
		table: steps(admit(0), delayed(0, s), delayed(0, 2*s), delayed(0, 3*s), delayed(0, 4*s), delayed(0, 5*s), refuse(0, s)),
	}, {
		// burst=0 (the default): one request per 100 ms; 99 ms later excess′ =
		// 0 − 990 + 1000 = 10 > 0 is refused, retry at 100 ms; a refusal stores
		// nothing, so 100 ms after the first passes.
		name:  "burst=0",
		zone:  NginxZone{Rate: "10r/s"},
		table: steps(admit(0), refuse(99*ms, ms), admit(100*ms), refuse(150*ms, 50*ms), admit(200*ms)),
	}, {
		// rate=1r/m is 16 milli-requests per second (line 939): after 60 s only
		// 16×60000/1000 = 960 have drained, excess′ = 40 > 0 is refused; it passes
		// from ms = ⌈1000×1000/16⌉ = 62500, 2.5 s later.
		name:  "1r/m is one per 62.5s",
		zone:  NginxZone{Rate: "1r/m"},
		table: steps(admit(0), refuse(60*s, 2500*ms), refuse(62499*ms, ms), admit(62500*ms)),
	}, {
		// nginx truncates now to whole ms: 99.9 ms is ms 99.
		name:  "ms clock",
		zone:  NginxZone{Rate: "10r/s"},
		table: steps(admit(0), refuse(99*ms+900*time.Microsecond, 100*time.Microsecond), admit(100*ms)),
	}, {
		// rate=700r/m is ⌊700000/60⌋ = 11666 (not 11666.67); 37 ms drain
		// ⌊11666×37/1000⌋ = 431, not 431.6: the truncation is lost because last
		// moves on (line 470). From excess 0 at t0: t0+37ms excess′ 1000 − 431 = 569
		// stored, delay 569×1000/11666 = 48 ms; t0+74ms 569 − 431 + 1000 = 1138,
		// delay 97 ms; t0+74ms again 2138 > 2000 refused: ms ≥ ⌈(1138+1000−2000)×1000/11666⌉ = 12.
		name:  "700r/m truncates",
		zone:  NginxZone{Rate: "700r/m", Burst: 2},
		table: steps(admit(0), delayed(37*ms, 48*ms), delayed(74*ms, 97*ms), refuse(74*ms, 12*ms)),
	}, {
		// Cost c is c requests of one ms, all or nothing, answered as the last:
		// a new key's cost 3 stores 0+1000+1000 = 2000, delay 200 ms; cost 4 then
		// needs 2000+1000+3000 = 6000 > 5000: refused until 100 ms; cost 7 > burst+1
		// never passes.
		name: "cost",
		zone: NginxZone{Rate: "10r/s", Burst: 5},
		table: steps(delayed(0, 200*ms).costs(3), refuse(0, 100*ms).costs(4),
			step{at: 0, cost: 7, verdict: Refuse, retry: Never}, delayed(100*ms, 500*ms).costs(4)),
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := must(NewNginx(tt.zone))
			table := tt.table
			// A delay of -1 in a table means "some delay" (the middle of a long run).
			var st NginxState
			for i, s := range table {
				d := n.Decide(&st, s.at, s.cost)
				call := lazy("step %d: Decide(%s, cost %d)", i, t0offset(s.at), s.cost)
				if d.Verdict != s.verdict {
					t.Fatalf("%s = %v, want %v", call, d.Verdict, s.verdict)
				}
				if s.verdict == Refuse && d.RetryAfter != s.retry {
					t.Fatalf("%s: RetryAfter = %v, want %v", call, d.RetryAfter, s.retry)
				}
				if s.verdict == Delay && s.delay >= 0 && d.Delay != s.delay {
					t.Fatalf("%s: Delay = %v, want %v", call, d.Delay, s.delay)
				}
			}
		})
	}
}

// TestNginxBackwards walks nginx's two clamps of a negative ms (lines 447–452).
func TestNginxBackwards(t *testing.T) {
	n := must(NewNginx(NginxZone{Rate: "10r/s", Burst: 2, NoDelay: true}))
	var s NginxState
	n.Decide(&s, 100*time.Second, 1) // excess 0, last 100000
	// 50 s back: ms = −50000 is taken as 0: excess′ = 1000, last stays 100000.
	if d := n.Decide(&s, 50*time.Second, 1); d.Verdict != Admit || s.excess != 1000 || s.last != 100000 {
		t.Fatalf("50s back: %v, state %+v; want admit, excess 1000, last 100000", d.Verdict, s)
	}
	// 70 s back: ms = −70000 is taken as 1: excess′ = 1000 − 10 + 1000 = 1990, last = 30000.
	if d := n.Decide(&s, 30*time.Second, 1); d.Verdict != Admit || s.excess != 1990 || s.last != 30000 {
		t.Fatalf("70s back: %v, state %+v; want admit, excess 1990, last 30000", d.Verdict, s)
	}
	if n.Idle(&s, 29*time.Second) {
		t.Fatal("Idle before last = true, want false")
	}
}

func TestParseNginxRate(t *testing.T) {
	good := []struct {
		in   string
		want NginxRate
	}{{"10r/s", 10000}, {"30r/m", 500}, {"1r/m", 16}, {"700r/m", 11666}, {"10", 10000}, {"007r/s", 7000}, {"1000000000r/s", 1e12}}
	for _, g := range good {
		if got, err := ParseNginxRate(g.in); err != nil || got != g.want {
			t.Errorf("ParseNginxRate(%q) = %d, %v; want %d", g.in, got, err, g.want)
		}
	}
	for _, bad := range []string{"", "0r/s", "0", "r/s", "1.5r/s", "10r/h", "-1r/s", "+1r/s", "10R/S", " 10r/s", "10 r/s", "10r/sr/s", "1000000001r/s", "99999999999999999999r/s"} {
		if got, err := ParseNginxRate(bad); err == nil {
			t.Errorf("ParseNginxRate(%q) = %d, want an error", bad, got)
		}
	}
}

func TestNewNginxErrors(t *testing.T) {
	_, err := NewNginx(NginxZone{Rate: "10r/h", Burst: -1, Delay: 3, NoDelay: true})
	if err == nil {
		t.Fatal("NewNginx accepted a bad zone")
	}
	msg := err.Error()
	for _, want := range []string{"nginx: ", `invalid rate "10r/h"`, "burst must be in 0..", "nodelay both set"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
	if _, err := NewNginx(NginxZone{Rate: "10r/s", Delay: -1}); err == nil || !strings.Contains(err.Error(), "delay must be") {
		t.Errorf("Delay -1: error %v, want delay must be", err)
	}
}

func TestNginxZoneOf(t *testing.T) {
	for _, tt := range []struct {
		p    Policy
		want NginxZone
	}{
		{Policy{Limit: 10, Window: time.Second}, NginxZone{Rate: "10r/s", Burst: 10}},
		{Policy{Limit: 30, Window: time.Minute, Burst: 5}, NginxZone{Rate: "30r/m", Burst: 5}},
	} {
		if got, err := NginxZoneOf(tt.p); err != nil || got != tt.want {
			t.Errorf("NginxZoneOf(%+v) = %+v, %v; want %+v", tt.p, got, err, tt.want)
		}
	}
	_, err := NginxZoneOf(Policy{Limit: 10, Window: 2 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "Nr/s") || !strings.Contains(err.Error(), "Nr/m") {
		t.Errorf("window 2s: error %v, want one naming Nr/s and Nr/m", err)
	}
	if _, err := NginxZoneOf(Policy{Limit: 0, Window: time.Second}); err == nil {
		t.Error("limit 0: no error")
	}
}

// nginxTraffic decodes 3 bytes per request into whole-ms instants (gaps 0..255
// ms, scaled ×0, ×1 or ×8 by the top bits of the cost byte) and costs (usually 1,
// sometimes up to burst+2).
func nginxTraffic(burst int64, data []byte) []request {
	var now time.Duration
	var reqs []request
	for ; len(data) >= 3; data = data[3:] {
		scale := []time.Duration{0, 1, 1, 8}[data[2]>>6]
		now += time.Duration(binary.LittleEndian.Uint16(data[:2])%256) * scale * time.Millisecond
		cost := int64(1)
		if data[2]&0x3f >= 0x38 {
			cost = 1 + int64(data[2]&7)%(burst+2)
		}
		reqs = append(reqs, request{at: now, cost: cost})
	}
	return reqs
}

// divisors of 1000: the rates whose interval T = 1000/N ms is whole.
var divisors1000 = []int64{1, 2, 4, 5, 8, 10, 20, 25, 40, 50, 100, 125, 200, 250, 500, 1000}

// checkNginxIsLeaky holds Nginx (default delayed mode) to LeakyBucket with the
// same Policy on whole-ms traffic. Where they differ, by design:
//
//   - cost c > 1: nginx's request is answered as the last of c requests, so its
//     Delay is LeakyBucket's (first unit's) plus (c−1)×T, and a delay LeakyBucket
//     has as 0 (Admit) is nginx's (c−1)×T (Delay);
//   - T not whole ms (N not dividing 1000): nginx truncates its delay to whole ms
//     (line 552), LeakyBucket rounds its exact delay up to the ns: nginx's delay
//     is less by under 1 ms, and a wait under 1 ms is nginx's Admit (PASSED);
//     which requests are refused and Remaining stay equal (nginx's excess for
//     Nr/s is exact: N milli per ms), RetryAfter and Reset are nginx's next
//     whole ms, under 1 ms later than LeakyBucket's exact instant;
//   - (not here) r/m rates, whose rate ⌊N×1000/60⌋ and truncated drain are not
//     LeakyBucket's exact N/60 per s; instants between whole ms (nginx's clock
//     is whole ms); a clock going back (nginx clamps ms to 0 or 1).
func checkNginxIsLeaky(t *testing.T, p Policy, reqs []request) {
	t.Helper()
	z, err := NginxZoneOf(p)
	if err != nil {
		t.Fatal(err)
	}
	n, lb := must(NewNginx(z)), must(NewLeakyBucket(p))
	exact := time.Second%time.Duration(p.Limit) == 0 && (time.Second/time.Duration(p.Limit))%time.Millisecond == 0
	interval := time.Second / time.Duration(p.Limit) // exact only when T is whole ns
	var ns NginxState
	var ls LeakyBucketState
	for i, r := range reqs {
		dn, dl := n.Decide(&ns, r.at, r.cost), lb.Decide(&ls, r.at, r.cost)
		call := lazy("%+v request %d: Decide(%s, cost %d)", p, i, t0offset(r.at), r.cost)
		if dn.Admitted() != dl.Admitted() {
			t.Fatalf("%s: nginx %v, leaky bucket %v", call, dn.Verdict, dl.Verdict)
		}
		// On a T of whole ms the figures are equal; otherwise nginx's are on its
		// ms grid: the first whole ms at or after LeakyBucket's exact instant.
		onGrid := func(n, l time.Duration) bool {
			if exact || l == Never {
				return n == l
			}
			return n >= l && n-l < time.Millisecond
		}
		if !onGrid(dn.RetryAfter, dl.RetryAfter) || dn.Remaining != dl.Remaining || !onGrid(dn.Reset, dl.Reset) {
			t.Fatalf("%s: nginx retry %v remaining %d reset %v, leaky bucket %v %d %v", call,
				dn.RetryAfter, dn.Remaining, dn.Reset, dl.RetryAfter, dl.Remaining, dl.Reset)
		}
		if !dn.Admitted() {
			continue
		}
		want := dl.Delay + time.Duration(r.cost-1)*interval
		if exact {
			if dn.Delay != want || (dn.Verdict == Delay) != (want > 0) {
				t.Fatalf("%s: nginx %v %v, want leaky bucket's %v + (cost−1)×T = %v", call, dn.Verdict, dn.Delay, dl.Delay, want)
			}
		} else if dn.Delay > want+time.Duration(r.cost) || want-dn.Delay >= time.Millisecond+time.Duration(r.cost) || (dn.Verdict == Delay) != (dn.Delay > 0) {
			t.Fatalf("%s: nginx %v %v, want leaky bucket's %v + (cost−1)×T = %v less under 1ms", call, dn.Verdict, dn.Delay, dl.Delay, want)
		}
	}
}

// checkNginxModes: nodelay and delay=N never change which requests pass, only
// their delay (never more than the default's); a refusal changes no state;
// Charge of what Decide admits leaves Decide's state; Idle is exactly "excess′
// would be 0", after which the key decides as a never-seen one.
func checkNginxModes(t *testing.T, z NginxZone, reqs []request) {
	t.Helper()
	def := must(NewNginx(z))
	nd := must(NewNginx(NginxZone{Rate: z.Rate, Burst: z.Burst, NoDelay: true}))
	dl := must(NewNginx(NginxZone{Rate: z.Rate, Burst: z.Burst, Delay: z.Delay}))
	var sd, sn, sl NginxState
	for i, r := range reqs {
		call := lazy("%+v request %d: Decide(%s, cost %d)", z, i, t0offset(r.at), r.cost)
		idle := def.Idle(&sd, r.at)
		e1, _ := def.first(&sd, nginxMs(r.at))
		if idle != (e1 == 0) {
			t.Fatalf("%s: Idle = %v with excess′ %d", call, idle, e1)
		}
		before, charged := sd, sd
		d := def.Decide(&sd, r.at, r.cost)
		if idle {
			var fresh NginxState
			if f := def.Decide(&fresh, r.at, r.cost); f != d || (d.Admitted() && fresh != sd) {
				t.Fatalf("%s: idle key decided %+v (state %+v), a never-seen key %+v (state %+v)", call, d, sd, f, fresh)
			}
		}
		// Reset is the time until Idle, computed apart from Idle: Idle holds from
		// now+Reset on and not a ns before.
		if end := r.at + d.Reset; d.Reset != Never && (!def.Idle(&sd, end) || d.Reset > 0 && def.Idle(&sd, end-1)) {
			t.Fatalf("%s: Reset %v, but Idle(now+Reset) = %v, Idle(now+Reset−1ns) = %v", call, d.Reset, def.Idle(&sd, end), def.Idle(&sd, end-1))
		}
		if !d.Admitted() && sd != before {
			t.Fatalf("%s: refusal changed state %+v to %+v", call, before, sd)
		}
		if d.Admitted() {
			def.Charge(&charged, r.at, r.cost)
			if charged != sd {
				t.Fatalf("%s: Charge left %+v, Decide %+v", call, charged, sd)
			}
		}
		dn, dd := nd.Decide(&sn, r.at, r.cost), dl.Decide(&sl, r.at, r.cost)
		if dn.Admitted() != d.Admitted() || dd.Admitted() != d.Admitted() {
			t.Fatalf("%s: default %v, nodelay %v, delay=%d %v", call, d.Verdict, dn.Verdict, z.Delay, dd.Verdict)
		}
		if dn.Verdict == Delay || dd.Delay > d.Delay {
			t.Fatalf("%s: nodelay %v, delay=%d %v, default %v", call, dn.Delay, z.Delay, dd.Delay, d.Delay)
		}
		if sn != sd || sl != sd {
			t.Fatalf("%s: states differ: default %+v, nodelay %+v, delay %+v", call, sd, sn, sl)
		}
	}
}

func nginxCase(limit, burst, delay uint64, exact bool) NginxZone {
	z := NginxZone{Burst: int64(burst % 30), Delay: int64(delay % 32)}
	switch {
	case exact:
		z.Rate = fmt.Sprintf("%dr/s", divisors1000[limit%uint64(len(divisors1000))])
	case limit%2 == 0:
		z.Rate = fmt.Sprintf("%dr/m", 1+limit%3000)
	default:
		z.Rate = fmt.Sprintf("%dr/s", 1+limit%1000)
	}
	return z
}

func randomBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func TestNginxProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 300 {
		limit, burst, delay := r.Uint64(), r.Uint64(), r.Uint64()
		data := randomBytes(r, 3*r.IntN(300))
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			z := nginxCase(limit, burst, delay, i%2 == 0)
			checkNginxModes(t, z, nginxTraffic(z.Burst, data))
			l := divisors1000[limit%uint64(len(divisors1000))]
			if i%3 == 0 {
				l = int64(1 + limit%997) // T not whole ms
			}
			p := Policy{Limit: l, Window: time.Second, Burst: int64(burst % uint64(2*l+1))}
			checkNginxIsLeaky(t, p, nginxTraffic(p.EffectiveBurst(), data))
		})
		if t.Failed() {
			return
		}
	}
}

func FuzzNginx(f *testing.F) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 10 {
		f.Add(r.Uint64(), r.Uint64(), r.Uint64(), randomBytes(r, 3*r.IntN(100)))
	}
	f.Fuzz(func(t *testing.T, limit, burst, delay uint64, data []byte) {
		for _, exact := range []bool{true, false} {
			z := nginxCase(limit, burst, delay, exact)
			checkNginxModes(t, z, nginxTraffic(z.Burst, data))
		}
		l := divisors1000[limit%uint64(len(divisors1000))]
		p := Policy{Limit: l, Window: time.Second, Burst: int64(burst % uint64(2*l+1))}
		checkNginxIsLeaky(t, p, nginxTraffic(p.EffectiveBurst(), data))
	})
}

// TestNginxChargeSaturates: a key charged beyond any run's reach refuses, and
// its figures stay durations (no overflow).
func TestNginxChargeSaturates(t *testing.T) {
	n := must(NewNginx(NginxZone{Rate: "1r/m", Burst: 3}))
	var s NginxState
	n.Charge(&s, time.Second, 1<<62)
	n.Charge(&s, time.Second, 1<<62)
	if s.Excess() != maxNginxExc {
		t.Fatalf("excess %d, want the cap %d", s.Excess(), int64(maxNginxExc))
	}
	d := n.Decide(&s, 2*time.Second, 1)
	if d.Verdict != Refuse || d.RetryAfter <= 0 || d.Reset <= 0 || n.Idle(&s, 1000*time.Hour) {
		t.Fatalf("saturated key: %+v, idle in 1000h %v; want a refusal, positive RetryAfter and Reset, not idle", d, n.Idle(&s, 1000*time.Hour))
	}
}

func ExampleNginx() {
	// The nginx blog's two-stage limit: rate=5r/s burst=12 delay=8, 15 requests at once.
	n, _ := NewNginx(NginxZone{Rate: "5r/s", Burst: 12, Delay: 8})
	var s NginxState
	for i := range 15 {
		d := n.Decide(&s, 0, 1)
		fmt.Println(i+1, d.Verdict, d.Delay)
	}
	// Output:
	// 1 admit 0s
	// 2 admit 0s
	// 3 admit 0s
	// 4 admit 0s
	// 5 admit 0s
	// 6 admit 0s
	// 7 admit 0s
	// 8 admit 0s
	// 9 admit 0s
	// 10 delay 200ms
	// 11 delay 400ms
	// 12 delay 600ms
	// 13 delay 800ms
	// 14 refuse 0s
	// 15 refuse 0s
}

func BenchmarkNginxDecide(b *testing.B) {
	n := must(NewNginx(must(NginxZoneOf(benchPolicy))))
	var s NginxState
	var now time.Duration
	b.ReportAllocs()
	for range b.N {
		now += benchStep
		n.Decide(&s, now, 1)
	}
}
