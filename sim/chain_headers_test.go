package sim

import (
	"reflect"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// The example of draft-ietf-httpapi-ratelimit-headers-11, §3: two named policies,
// and the service limit of the one nearest exhaustion.
func TestResponseHeaders(t *testing.T) {
	limits := []Limit{
		{Name: "burst", Policy: algorithms.Policy{Limit: 100, Window: time.Minute}},
		{Name: "daily", Policy: algorithms.Policy{Limit: 1000, Window: 24 * time.Hour}},
	}
	hidden := append([]Limit(nil), limits...)
	hidden[0].NoHeaders = true
	tests := []struct {
		name       string
		style      HeaderStyle
		limits     []Limit
		quota      int
		retryAfter time.Duration
		want       Headers
	}{
		{"draft", HeadersDraft, limits, 0, 0, Headers{
			RateLimit: `"burst";r=12;t=31`, RateLimitPolicy: `"burst";q=100;w=60, "daily";q=1000;w=86400`,
			Lines: []string{`RateLimit-Policy: "burst";q=100;w=60, "daily";q=1000;w=86400`, `RateLimit: "burst";r=12;t=31`}}},
		{"draft, refused", HeadersDraft, limits, 0, 1500 * time.Millisecond, Headers{
			RateLimit: `"burst";r=12;t=31`, RateLimitPolicy: `"burst";q=100;w=60, "daily";q=1000;w=86400`, RetryAfter: "2",
			Lines: []string{`RateLimit-Policy: "burst";q=100;w=60, "daily";q=1000;w=86400`, `RateLimit: "burst";r=12;t=31`, "Retry-After: 2"}}},
		{"legacy", HeadersLegacy, limits, 0, 0, Headers{
			Lines: []string{"X-RateLimit-Limit: 100", "X-RateLimit-Remaining: 12", "X-RateLimit-Reset: 31"}}},
		{"a limit that sends no headers", HeadersDraft, hidden, 0, time.Second, Headers{
			RateLimitPolicy: `"daily";q=1000;w=86400`, RetryAfter: "1",
			Lines: []string{`RateLimit-Policy: "daily";q=1000;w=86400`, "Retry-After: 1"}}},
		{"legacy, no headers", HeadersLegacy, hidden, 0, 0, Headers{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ResponseHeaders(tt.style, tt.limits, tt.quota, 12, 30*time.Second+200*time.Millisecond, tt.retryAfter)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ResponseHeaders = %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

func TestSFString(t *testing.T) {
	for in, want := range map[string]string{`global`: `"global"`, `a"b\c`: `"a\"b\\c"`, "naïve": `"na?ve"`} {
		if got := sfString(in); got != want {
			t.Errorf("sfString(%q) = %s, want %s", in, got, want)
		}
	}
}

// The RateLimit header of an admission reports the limit of the chain nearest
// exhaustion, and names it in the trace; a limit that sends no headers is never
// the one reported.
func TestAnswerReportsTheLimitNearestExhaustion(t *testing.T) {
	cfg := Config{Duration: time.Second, Lanes: []LaneKind{LaneTokenBucket},
		Limits: []Limit{
			{Name: "per-user", Key: KeyUser, Policy: algorithms.Policy{Limit: 100, Window: time.Second}},
			{Name: "global", Key: KeyGlobal, Policy: algorithms.Policy{Limit: 3, Window: time.Second}},
		},
		Clients: []ClientGroup{{Count: 1, Arrivals: []Arrival{{Kind: ArrivalBurst, Count: 2}}}}}
	for _, tt := range []struct {
		hideGlobal bool
		want       string
		remaining  int64
	}{{false, "global", 1}, {true, "per-user", 98}} {
		cfg.Limits[1].NoHeaders = tt.hideGlobal
		var log traceLog
		mustRun(t, cfg, Options{Trace: &log})
		var last TraceRecord
		for _, r := range log.recs {
			if r.Event == TraceAdmit {
				last = r
			}
		}
		if last.Request != 2 || last.Limit != tt.want || last.Remaining != tt.remaining {
			t.Errorf("global hidden %v: second admission reports %q with %d left, want %q with %d",
				tt.hideGlobal, last.Limit, last.Remaining, tt.want, tt.remaining)
		}
	}
}

// paceWorld is two clients, each with its own per-user budget of 5/s, sending
// 20/s and retrying refusals after 50ms: one paces itself from the quota headers,
// the other discovers the limit by hitting it.
func paceWorld(noHeaders bool) Config {
	retry := Retry{Kind: RetryFixed, Delay: 50 * time.Millisecond, MaxAttempts: 3}
	arrivals := []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 20, Per: time.Second}}}
	return Config{Duration: 10 * time.Second, Lanes: []LaneKind{LaneTokenBucket, LaneSlidingLog},
		Limits: []Limit{{Name: "per-user", Key: KeyUser, Policy: algorithms.Policy{Limit: 5, Window: time.Second}, NoHeaders: noHeaders}},
		Clients: []ClientGroup{
			{Name: "pacer", Count: 1, Arrivals: arrivals, Retry: retry, Pace: true},
			{Name: "hitter", Count: 1, Arrivals: arrivals, Retry: retry},
		}}
}

func TestPacingClientsSendLess(t *testing.T) {
	for _, l := range mustRun(t, paceWorld(false), Options{}).Lanes {
		pacer, hitter := l.Classes[0], l.Classes[1]
		if pacer.Refused*10 > pacer.Attempts || pacer.Attempts*2 > hitter.Attempts {
			t.Errorf("%v: pacer made %d attempts (%d refused), hitter %d (%d refused); want the pacer to send under half as much and be refused rarely",
				l.Lane, pacer.Attempts, pacer.Refused, hitter.Attempts, hitter.Refused)
		}
		if pacer.Admitted < hitter.Admitted*9/10 {
			t.Errorf("%v: pacer admitted %d, hitter %d; pacing should not cost admissions", l.Lane, pacer.Admitted, hitter.Admitted)
		}
	}
	// Without quota headers there is nothing to pace by.
	for _, l := range mustRun(t, paceWorld(true), Options{}).Lanes {
		if pacer, hitter := l.Classes[0], l.Classes[1]; pacer.Attempts != hitter.Attempts {
			t.Errorf("%v, no headers: pacer made %d attempts, hitter %d; want the same", l.Lane, pacer.Attempts, hitter.Attempts)
		}
	}
}

// When no limit of the chain sends headers, an admission reports no quota.
func TestAnswerWithNoHeadersReportsNoQuota(t *testing.T) {
	cfg := Config{Duration: time.Second, Lanes: []LaneKind{LaneGCRA},
		Limits:  []Limit{{Name: "guard", Key: KeyIP, Policy: algorithms.Policy{Limit: 5, Window: time.Second}, NoHeaders: true}},
		Clients: []ClientGroup{{Count: 1, Arrivals: []Arrival{{Kind: ArrivalBurst, Count: 1}}}}}
	var log traceLog
	mustRun(t, cfg, Options{Trace: &log})
	if r := log.recs[0]; r.Event != TraceAdmit || r.Limit != "" || r.Answered {
		t.Errorf("admission under a limit that sends no headers: %+v; want no limit named and no quota reported", r)
	}
}
