package conform

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// hapFrontends are the two stick tables the real haproxy runs, each "gt 4":
// fe0 with a 1 s period and a 1.2 s expire (shorter than the counter's two
// periods, so expiry shows), fe1 with an odd 999 ms period (each rotation lands
// 1 ms early, freq_ctr.h:73) and an expire that never comes.
var hapFrontends = []hapConfig{
	{period: time.Second, limit: 4, expire: 1200 * time.Millisecond},
	{period: 999 * time.Millisecond, limit: 4, expire: 10 * time.Second},
}

// hapSchedule is the traffic the real haproxy gets: clients that show each of
// the rule's cases, all within 4 s.
func hapSchedule() []hapShot {
	var shots []hapShot
	add := func(fe int, key string, retries int, at ...time.Duration) {
		for _, a := range at {
			shots = append(shots, hapShot{fe: fe, at: a, key: key, retries: retries})
		}
	}
	every := func(from, step time.Duration, n int) []time.Duration {
		var at []time.Duration
		for i := range n {
			at = append(at, from+time.Duration(i)*step)
		}
		return at
	}
	burst := func(at time.Duration, n int) []time.Duration {
		var ats []time.Duration
		for range n {
			ats = append(ats, at)
		}
		return ats
	}
	ms := time.Millisecond
	for fe := range hapFrontends {
		// 8/s steadily, twice the limit: counted refusals keep it locked out.
		add(fe, "steady", 0, every(0, 125*ms, 32)...)
		// 5/s, retrying at once on a 429, up to 3 times.
		add(fe, "retry", 3, every(0, 200*ms, 15)...)
		// Several keys at once, each in bursts of 6 every 700 ms.
		for k := range 3 {
			for j := range 5 {
				add(fe, fmt.Sprintf("k%d", k), 0, burst(time.Duration(k*70+j*700)*ms, 6)...)
			}
		}
	}
	// fe0: bursts of 10 one period apart (the second reads the first at 9/10),
	// then one after the entry expired, short of the counter's two periods.
	add(0, "burst", 0, burst(0, 10)...)
	add(0, "burst", 0, burst(1100*ms, 10)...)
	add(0, "burst", 0, burst(2600*ms, 10)...)
	// fe0: small bursts, then one the expire lets start afresh, which the
	// counter alone would still refuse (previous 14 read at 350/1000).
	add(0, "idle", 0, burst(50*ms, 3)...)
	add(0, "idle", 0, burst(1100*ms, 4)...)
	add(0, "idle", 0, burst(1300*ms, 10)...)
	add(0, "idle", 0, burst(2700*ms, 5)...)
	// fe1: bursts of 10 idle 1.5 periods apart, then more than two periods.
	add(1, "burst", 0, burst(0, 10)...)
	add(1, "burst", 0, burst(1500*ms, 10)...)
	add(1, "burst", 0, burst(3700*ms, 10)...)
	// fe1: dense traffic, a request every 8 ms on each of 4 keys: a rate of ~125
	// per period read at every ms offset, so that where the period starts and
	// rotates, to the ms, shows in the rates read.
	for k := range 4 {
		add(1, fmt.Sprintf("dense%d", k), 0, every(time.Duration(k)*ms, 8*ms, 150)...)
	}
	return shots
}

// TestHAProxyRealDecidesAsTheModel drives the real haproxy with hapSchedule and
// replays the arrivals it logged, at the ms its own clock gave them, through
// algorithms.HAProxy: every verdict, and the rate the deny rule read, must be
// the model's. It also tells how far the textbook lanes, translated from the
// same policy, are from the real thing on the same arrivals. On a loaded
// machine haproxy's logged ms and the ms its rules ran may drift more than
// the one ms allowed as phase: a failed first run is run once more on a fresh
// server (onceMoreOnTheWallClock), and a second failure is a difference.
func TestHAProxyRealDecidesAsTheModel(t *testing.T) {
	t.Parallel() // its own server; compared on the server's clock
	onceMoreOnTheWallClock(t, haproxyRealDecidesAsTheModel)
}

func haproxyRealDecidesAsTheModel(t testing.TB) {
	srv := startHAProxy(t, hapFrontends...)
	sent := hapSend(t, srv, hapSchedule())
	arrivals := hapArrivals(t, srv, len(sent))

	got := make(map[string]int, len(sent))
	for _, s := range sent {
		got[s.id] = s.status
	}
	for _, a := range arrivals {
		if st, ok := got[a.id]; !ok || st != a.status {
			t.Fatalf("haproxy logged %s with %d, the client got %d (sent: %v)", a.id, a.status, st, ok)
		}
	}

	// Virtual time 0 is the first arrival's ms rounded down to even, so that
	// virtual ms have the parity of haproxy's now_ms (the Unix ms mod 2^32).
	base := arrivals[0].at / 1000 &^ 1
	at := func(a hapArrival) time.Duration { return time.Duration(a.at/1000-base) * time.Millisecond }
	fe := func(a hapArrival) hapConfig {
		var i int
		fmt.Sscanf(a.fe, "fe%d", &i)
		return hapFrontends[i]
	}

	models := map[string]*algorithms.HAProxy{}
	states := map[string]*algorithms.HAProxyState{}
	agreed, phase, differed := 0, 0, 0
	for _, a := range arrivals {
		m := models[a.fe]
		if m == nil {
			c := fe(a)
			var err error
			m, err = algorithms.NewHAProxy(algorithms.HAProxyTable{Period: c.period, Limit: c.limit, Expire: c.expire, Size: 10000})
			if err != nil {
				t.Fatal(err)
			}
			models[a.fe] = m
		}
		s := states[a.fe+" "+a.key]
		if s == nil {
			s = new(algorithms.HAProxyState)
			states[a.fe+" "+a.key] = s
		}
		// haproxy logs the date of the poll loop that accepted a request and
		// rates it on now_ms when its rules run; on a loaded machine these may
		// be a ms apart (as nginx's logged and deciding ms, TestNginxRealLimitReq):
		// a request the model gives haproxy's verdict and rate 1 ms later or
		// earlier is "phase", not a difference.
		matched := false
		for _, dt := range []time.Duration{0, time.Millisecond, -time.Millisecond} {
			c := *s
			d := m.Decide(&c, at(a)+dt, 1)
			if (a.status == http.StatusOK) == (d.Verdict == algorithms.Admit) && m.Rate(&c, at(a)+dt) == a.rate {
				*s, matched = c, true
				if dt == 0 {
					agreed++
				} else {
					phase++
				}
				break
			}
		}
		if !matched {
			d := m.Decide(s, at(a), 1)
			differed++
			t.Errorf("%s at t0+%v: haproxy %d with rate %d, model %v with rate %d", a.id, at(a), a.status, a.rate, d.Verdict, m.Rate(s, at(a)))
		}
	}
	t.Logf("algorithms.HAProxy against haproxy 2.6: %d requests, %d agreed, %d a ms of clock phase apart, %d differed", len(arrivals), agreed, phase, differed)

	// The textbook lanes with the policy each table translates from, compared
	// on every key but the dense ones, which only probe the clock.
	type lane struct {
		name   string
		decide func(key string, now time.Duration) algorithms.Decision
	}
	lanesOf := func(c hapConfig) []lane {
		p := algorithms.Policy{Limit: c.limit, Window: c.period}
		return []lane{
			{"fixed_window", keyedLane[algorithms.FixedWindowState](algorithms.NewFixedWindow(p))},
			{"sliding_log", keyedLane[algorithms.SlidingLogState](algorithms.NewSlidingLog(p))},
			{"sliding_window_counter", keyedLane[algorithms.SlidingWindowCounterState](algorithms.NewSlidingWindowCounter(p))},
			{"token_bucket", keyedLane[algorithms.TokenBucketState](algorithms.NewTokenBucket(p))},
			{"gcra", keyedLane[algorithms.GCRAState](algorithms.NewGCRA(p))},
		}
	}
	lanes := map[string][]lane{}
	diff := map[string]int{}
	n := 0
	for _, a := range arrivals {
		if strings.HasPrefix(a.key, "dense") {
			continue
		}
		n++
		if lanes[a.fe] == nil {
			lanes[a.fe] = lanesOf(fe(a))
		}
		for _, l := range lanes[a.fe] {
			if l.decide(a.key, at(a)).Admitted() != (a.status == http.StatusOK) {
				diff[l.name]++
			}
		}
	}
	for _, l := range lanesOf(hapFrontends[0]) {
		t.Logf("%s against haproxy 2.6: %d requests, %d agreed, %d differed", l.name, n, n-diff[l.name], diff[l.name])
		if diff[l.name] == 0 {
			t.Errorf("%s decided every request as haproxy: the schedule no longer shows counted refusals", l.name)
		}
	}
}

// keyedLane is a textbook lane over keys, its rule built from a valid policy.
func keyedLane[S any, A algorithms.Algorithm[S]](alg A, err error) func(string, time.Duration) algorithms.Decision {
	if err != nil {
		panic(err)
	}
	k := algorithms.NewKeyed[S](alg)
	return func(key string, now time.Duration) algorithms.Decision { return k.Decide(key, now, 1) }
}

// TestHAProxyRealRotatesTwiceInOneMs holds the model's strangest case to the
// real haproxy: with an odd period P a rotation stores tick+P−1 (freq_ctr.h:73),
// so a request at the last ms before two periods have passed (tick+2P−1)
// rotates once, and the next one in the same ms, now P past the stored tick,
// rotates again. A key with one request at t (tick t&^1 = t0) then three at
// t0+2P−1 reads rates 1, 1, 2 (prev 1 over remain 0, then prev 1 over remain
// P−1), not 1, 2, 3. The test aims bursts at that ms from haproxy's own logged
// clock; those that land on it must read 1, 1, 2, and every request must be the
// model's.
func TestHAProxyRealRotatesTwiceInOneMs(t *testing.T) {
	t.Parallel() // its own server; compared on the server's clock
	onceMoreOnTheWallClock(t, haproxyRealRotatesTwiceInOneMs)
}

func haproxyRealRotatesTwiceInOneMs(t testing.TB) {
	cfg := hapConfig{period: 999 * time.Millisecond, limit: 100, expire: 10 * time.Second}
	srv := startHAProxy(t, cfg)
	const keys = 12
	var first []hapShot
	for k := range keys {
		first = append(first, hapShot{at: time.Duration(k) * 7 * time.Millisecond, key: fmt.Sprintf("dbl%d", k)})
	}
	firsts := hapArrivals(t, srv, len(hapSend(t, srv, first)))
	p := int64(cfg.period / time.Millisecond)
	target := map[string]int64{} // the ms of the double rotation, per key
	var burst []hapShot
	for _, a := range firsts {
		target[a.key] = a.at/1000&^1 + 2*p - 1
		// The middle of the target ms, less the loopback's latency to haproxy's loop.
		when := time.UnixMilli(target[a.key]).Add(400 * time.Microsecond)
		for range 3 {
			burst = append(burst, hapShot{when: when, key: a.key})
		}
	}
	rest := hapArrivals(t, srv, len(hapSend(t, srv, burst)))
	all := append(firsts, rest...)

	model, err := algorithms.NewHAProxy(algorithms.HAProxyTable{Period: cfg.period, Limit: cfg.limit, Expire: cfg.expire})
	if err != nil {
		t.Fatal(err)
	}
	base := all[0].at / 1000 &^ 1
	states := map[string]*algorithms.HAProxyState{}
	landed := map[string][]int64{}
	for _, a := range all {
		s := states[a.key]
		if s == nil {
			s = new(algorithms.HAProxyState)
			states[a.key] = s
		}
		now := time.Duration(a.at/1000-base) * time.Millisecond
		d := model.Decide(s, now, 1)
		if rate := model.Rate(s, now); rate != a.rate || (a.status == http.StatusOK) != d.Admitted() {
			t.Errorf("%s at t0+%v: haproxy %d with rate %d, model %v with rate %d", a.id, now, a.status, a.rate, d.Verdict, rate)
		}
		if a.at/1000 == target[a.key] {
			landed[a.key] = append(landed[a.key], a.rate)
		}
	}
	hits := 0
	for key, rates := range landed {
		if len(rates) == 3 {
			hits++
			if fmt.Sprint(rates) != "[1 1 2]" {
				t.Errorf("%s: the burst at its double-rotation ms read rates %v, want [1 1 2]", key, rates)
			}
		}
	}
	t.Logf("%d of %d keys' bursts landed whole on their double-rotation ms", hits, keys)
	if hits == 0 {
		t.Skip("no burst landed whole on its ms: the case was not reached this run")
	}
}
