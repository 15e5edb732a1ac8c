package sim

import (
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// decisionsOf is what the per-key limiter of kind under lane options o and
// product settings ps decides for one key's requests at ats, in order.
func decisionsOf(t *testing.T, kind LaneKind, p algorithms.Policy, o LaneOptions, ps ProductSettings, ats ...time.Duration) []algorithms.Decision {
	t.Helper()
	c := &Config{options: o, product: ps}
	d, err := newDecider(c.ruleOf(kind, 0), p, 1)
	if err != nil {
		t.Fatal(err)
	}
	var out []algorithms.Decision
	for _, at := range ats {
		out = append(out, d.decide(0, at, 1))
	}
	return out
}

// A ban keeps the lane's clock: a bucket of 1 a second on a 1s clock sees a
// request at 1.2s at 1s, a whole token refilled since the one at 0.5s (seen at
// 0), and admits it; on the exact clock it would refuse it (0.7 refilled).
func TestBanKeepsTheClock(t *testing.T) {
	p := algorithms.Policy{Limit: 1, Window: time.Second, Burst: 1}
	for _, o := range []LaneOptions{{Clock: time.Second}, {Clock: time.Second, Ban: time.Second}} {
		d := decisionsOf(t, LaneTokenBucket, p, o, ProductSettings{}, 500*time.Millisecond, 1200*time.Millisecond)
		if !d[0].Admitted() || !d[1].Admitted() {
			t.Errorf("options %+v: %v then %v, want both admitted on the 1s clock", o, d[0].Verdict, d[1].Verdict)
		}
	}
	exact := decisionsOf(t, LaneTokenBucket, p, LaneOptions{Ban: time.Second}, ProductSettings{}, 500*time.Millisecond, 1200*time.Millisecond)
	if exact[1].Admitted() {
		t.Errorf("exact clock: the request at 1.2s admitted, want refused (0.7 of a token refilled)")
	}
}

// Cloudflare's mitigation timeout is seconds as given: a key that trips at 0
// with a 2s timeout is refused for 2s (Retry-After at least the ban's end)
// and judged by its counter again after, when two idle periods later it passes.
func TestCloudflareTimeoutInSeconds(t *testing.T) {
	p := algorithms.Policy{Limit: 2, Window: 10 * time.Second}
	ps := ProductSettings{Cloudflare: &CloudflareSettings{MitigationTimeout: 2 * time.Second}}
	d := decisionsOf(t, LaneCloudflare, p, LaneOptions{}, ps, 0, 0, 0, time.Second, 30*time.Second)
	if !d[0].Admitted() || !d[1].Admitted() || d[2].Admitted() || d[3].Admitted() {
		t.Fatalf("2 per 10s: %v %v %v at 0, %v at 1s; want two admitted, then refused", d[0].Verdict, d[1].Verdict, d[2].Verdict, d[3].Verdict)
	}
	if d[3].RetryAfter < time.Second {
		t.Errorf("at 1s of a 2s ban: Retry-After %v, want at least the ban's last second", d[3].RetryAfter)
	}
	if !d[4].Admitted() {
		t.Errorf("at 30s, 28s after a 2s ban and two idle periods later: %v, want admitted", d[4].Verdict)
	}
}

// As many nginx zones as the chain has limits is allowed (zone i is limit
// i's); one more is not.
func TestNginxZonesUpToTheChain(t *testing.T) {
	for _, n := range []int{1, 2} {
		c := optionsWorld([]LaneKind{LaneNginx})
		c.Variants[0] = Variant{Name: "edge", Product: ProductSettings{Nginx: &NginxSettings{Zones: make([]NginxDelay, n)}}}
		problem, refused := fieldsOf(t, c)["variants[0].nginx.zones"]
		if refused != (n > len(c.Limits)) {
			t.Errorf("%d zones for %d limits: refused %v (%s), want %v", n, len(c.Limits), refused, problem, n > len(c.Limits))
		}
	}
}

// A bucket may start exactly full (start = burst), not above.
func TestStartUpToTheBurst(t *testing.T) {
	for _, start := range []int64{10, 11} {
		s := start
		got := fieldsOf(t, optionsWorld([]LaneKind{LaneTokenBucket}, LaneOptions{Start: &s}))
		problem, refused := got["variants[0].start"]
		if refused != (start > 10) || refused && !strings.Contains(problem, "burst 10") {
			t.Errorf("start %d with burst 10: problems %v, want refused %v", start, got, start > 10)
		}
	}
}

// A ban, clock or wait beyond the longest time a run may state is refused at
// its own field, not left to overflow the ban's end or a reservation.
func TestOptionDurationsBounded(t *testing.T) {
	huge := time.Duration(1 << 62)
	for _, tc := range []struct {
		o     LaneOptions
		field string
	}{{LaneOptions{Ban: huge}, "variants[0].ban"}, {LaneOptions{Clock: huge}, "variants[0].clock"}, {LaneOptions{Wait: huge}, "variants[0].wait"}} {
		if _, ok := fieldsOf(t, optionsWorld([]LaneKind{LaneTokenBucket}, tc.o))[tc.field]; !ok {
			t.Errorf("%+v accepted, want %s refused", tc.o, tc.field)
		}
	}
}
