package algorithms

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"
	"testing/quick"
	"time"
)

// nginxExpiringZone is an unbounded limit_req zone with nginx's idle expiry:
// on every new key, ngx_http_limit_req_expire(ctx, 1) (nginx 1.22.1
// ngx_http_limit_req_module.c, lines 492 and 633–695) looks at the least
// recently used entries, at most two, and deletes each that has been idle at
// least 60 s (|now − last| ≥ 60000 ms) and whose excess has drained (excess −
// rate×ms/1000 ≤ 0), stopping at the first that has not. A lookup moves its
// entry to the head of the queue, refused or not (lines 440–441).
type nginxExpiringZone struct {
	n       *Nginx
	states  map[int]*NginxState
	queue   []int // least recently used last
	expired int
}

func (z *nginxExpiringZone) decide(key int, now time.Duration) Decision {
	if _, ok := z.states[key]; !ok {
		z.expire(nginxMs(now))
		z.states[key] = &NginxState{}
	} else {
		z.queue = slices.DeleteFunc(z.queue, func(k int) bool { return k == key })
	}
	z.queue = slices.Insert(z.queue, 0, key)
	return z.n.Decide(z.states[key], now, 1)
}

func (z *nginxExpiringZone) expire(now int64) {
	for range 2 {
		if len(z.queue) == 0 {
			return
		}
		k := z.queue[len(z.queue)-1]
		s := z.states[k]
		ms := now - s.last
		if ms < 0 {
			ms = -ms
		}
		if ms < 60000 || s.excess-int64(z.n.rate)*ms/1000 > 0 {
			return
		}
		delete(z.states, k)
		z.queue = z.queue[:len(z.queue)-1]
		z.expired++
	}
}

// nginxVisit is one request of a property run: a key and the gap before it.
type nginxVisit struct {
	Key uint8
	Gap uint32
}

// nginxExpiryCase is a zone and traffic for the expiry property.
type nginxExpiryCase struct {
	PerMinute bool
	N         uint8
	Burst     uint16
	Visits    []nginxVisit
}

// zone is the case's zone, its burst cut so that the zone drains burst+1
// requests within 60 s (rate×60 ≥ (burst+1)×1000), or nil if no burst can.
func (c nginxExpiryCase) zone() *Nginx {
	n := int64(c.N%20) + 1
	rate := fmt.Sprintf("%dr/s", n)
	if c.PerMinute {
		n = int64(c.N%40) + 1
		rate = fmt.Sprintf("%dr/m", n)
	}
	r, _ := ParseNginxRate(rate)
	most := int64(r)*60/1000 - 1
	if most < 0 {
		return nil
	}
	nx, err := NewNginx(NginxZone{Rate: rate, Burst: min(int64(c.Burst%8), most)})
	if err != nil {
		panic(err)
	}
	return nx
}

// nginx's 60 s idle expiry never changes a verdict of a zone that drains
// burst+1 requests within 60 s: an entry it may delete has been idle 60 s, so
// rate×ms/1000 ≥ rate×60 ≥ (burst+1)×1000 ≥ excess+1000 and its next request
// computes excess′ = max(0, excess − rate×ms/1000 + 1000) = 0 and last = now,
// exactly what a new entry stores. So rlsim's lane, which keeps every entry,
// decides as nginx with its expiry does, request for request.
func TestNginxIdleExpiryChangesNoVerdict(t *testing.T) {
	expired, refused := 0, 0
	prop := func(c nginxExpiryCase) bool {
		nx := c.zone()
		if nx == nil {
			return true
		}
		z := &nginxExpiringZone{n: nx, states: map[int]*NginxState{}}
		kept := map[int]*NginxState{}
		now := time.Duration(0)
		for i, v := range c.Visits {
			var gap time.Duration
			switch v.Gap % 5 {
			case 0: // 58 to 64 s idle, about the 60 s of the expiry
				gap = time.Duration(58000+v.Gap%6000) * time.Millisecond
			case 1: // a refill
				gap = time.Duration(v.Gap%3000) * time.Millisecond
			default: // a burst
				gap = time.Duration(v.Gap%20) * time.Millisecond
			}
			now += gap
			key := int(v.Key % 8)
			if kept[key] == nil {
				kept[key] = &NginxState{}
			}
			want := nx.Decide(kept[key], now, 1)
			got := z.decide(key, now)
			if got.Verdict != want.Verdict || got.Delay != want.Delay {
				t.Logf("rate %v burst %d, visit %d (key %d at %v): with expiry %v (delay %v), kept %v (delay %v)",
					nx.zone.Rate, nx.zone.Burst, i, key, now, got.Verdict, got.Delay, want.Verdict, want.Delay)
				return false
			}
			if want.Verdict == Refuse {
				refused++
			}
		}
		expired += z.expired
		return true
	}
	if err := quick.Check(prop, &quick.Config{MaxCount: 3000, Rand: rand.New(rand.NewSource(1))}); err != nil {
		t.Fatal(err)
	}
	if expired == 0 || refused == 0 {
		t.Fatalf("the runs expired %d entries and refused %d requests: the property was never put to the test", expired, refused)
	}
}

// Where a zone drains more slowly the expiry does change a verdict: 1r/m is
// 16 milli-requests a second (⌊1000/60⌋), burst 0. Key a at 0 stores excess
// 0; key b at 60 s is new, so expire(ctx, 1) finds a idle 60000 ms and
// drained (0 − 16×60 = −960 ≤ 0) and deletes it; a at 61 s is then new and
// passes. Kept, a's excess′ at 61 s is 0 − 16×61 + 1000 = 24 > 0: refused.
func TestNginxSlowZoneExpiryChangesAVerdict(t *testing.T) {
	nx, err := NewNginx(NginxZone{Rate: "1r/m"})
	if err != nil {
		t.Fatal(err)
	}
	z := &nginxExpiringZone{n: nx, states: map[int]*NginxState{}}
	var kept NginxState
	z.decide(0, 0)
	nx.Decide(&kept, 0, 1)
	z.decide(1, 60*time.Second)
	if z.expired != 1 {
		t.Fatalf("at 60 s, %d entries expired, want a's", z.expired)
	}
	if d := z.decide(0, 61*time.Second); d.Verdict != Admit {
		t.Errorf("nginx with expiry: a at 61 s %v, want admitted (a new entry)", d.Verdict)
	}
	if d := nx.Decide(&kept, 61*time.Second, 1); d.Verdict != Refuse || d.RetryAfter != 1500*time.Millisecond {
		t.Errorf("kept: a at 61 s %v, Retry-After %v; want refused until 62.5 s (excess′ 24)", d.Verdict, d.RetryAfter)
	}
}
