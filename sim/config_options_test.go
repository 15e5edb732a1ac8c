package sim

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// optionsWorld is one client at 20/s against 10/s, with lanes ks, lane i
// given options os[i].
func optionsWorld(ks []LaneKind, os ...LaneOptions) Config {
	c := Config{Duration: 2 * time.Second, Seed: 1,
		Limits:  []Limit{{Name: "ip", Key: KeyIP, Policy: algorithms.Policy{Limit: 10, Window: time.Second}}},
		Lanes:   ks,
		Clients: []ClientGroup{{Name: "c", Count: 1, Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 20, Per: time.Second}}}}},
	}
	c.Variants = make([]Variant, len(ks))
	for i, o := range os {
		c.Variants[i] = Variant{Name: "v" + itoa(i), Options: o}
	}
	return c
}

// fieldsOf is the problems Validate reports for c, by field.
func fieldsOf(t *testing.T, c Config) map[string]string {
	t.Helper()
	got := map[string]string{}
	var fe FieldErrors
	if err := c.Validate(); errors.As(err, &fe) {
		for _, e := range fe {
			got[e.Field] = e.Problem
		}
	} else if err != nil {
		t.Fatalf("Validate: %v, want field errors", err)
	}
	return got
}

// Every option a lane's limiter cannot apply, or out of range, is reported at
// its own path; the same options on a lane that can apply them are accepted.
func TestLaneOptionsChecked(t *testing.T) {
	zero := int64(0)
	neg := int64(-1)
	tests := []struct {
		name  string
		kind  LaneKind
		opt   LaneOptions
		field string // "" when accepted
		says  string
	}{
		{"wait on a token bucket", LaneTokenBucket, LaneOptions{Wait: time.Second}, "", ""},
		{"wait on gcra", LaneGCRA, LaneOptions{Wait: time.Second}, "", ""},
		{"wait on a window", LaneFixedWindow, LaneOptions{Wait: time.Second}, "variants[0].wait", "wrong window"},
		{"wait on a log", LaneSlidingLog, LaneOptions{Wait: time.Second}, "variants[0].wait", "only token_bucket and gcra"},
		{"start empty", LaneTokenBucket, LaneOptions{Start: &zero}, "", ""},
		{"start on a window", LaneSlidingWindowCounter, LaneOptions{Start: &zero}, "variants[0].start", "no level"},
		{"start negative", LaneGCRA, LaneOptions{Start: &neg}, "variants[0].start", "must not be negative"},
		{"align on a fixed window", LaneFixedWindow, LaneOptions{AlignFirst: true}, "", ""},
		{"align on a bucket", LaneTokenBucket, LaneOptions{AlignFirst: true}, "variants[0].align", "only fixed_window"},
		{"negative ban", LaneFixedWindow, LaneOptions{Ban: -time.Second}, "variants[0].ban", "must not be negative"},
		{"negative clock", LaneFixedWindow, LaneOptions{Clock: -1}, "variants[0].clock", "must not be negative"},
		{"status 503", LaneFixedWindow, LaneOptions{Status: 503}, "", ""},
		{"status 399", LaneFixedWindow, LaneOptions{Status: 399}, "variants[0].status", "400 to 599"},
		{"status 600", LaneFixedWindow, LaneOptions{Status: 600}, "variants[0].status", "400 to 599"},
		{"status 400", LaneFixedWindow, LaneOptions{Status: 400}, "", ""},
		{"status 599", LaneFixedWindow, LaneOptions{Status: 599}, "", ""},
		{"options on a concurrency lane", LaneAIMD, LaneOptions{Penalty: true}, "variants[0]", "no per-key limiter"},
	}
	for _, tt := range tests {
		got := fieldsOf(t, optionsWorld([]LaneKind{tt.kind}, tt.opt))
		if tt.field == "" {
			if len(got) > 0 {
				t.Errorf("%s: refused: %v", tt.name, got)
			}
			continue
		}
		if p, ok := got[tt.field]; !ok || !strings.Contains(p, tt.says) {
			t.Errorf("%s: problems %v, want %s saying %q", tt.name, got, tt.field, tt.says)
		}
	}
}

// A lane refuses with 429 unless its product (nginx: 503, as
// limit_req_status) or its own status option says another, and the result
// says which.
func TestRefusalStatusOfEachLane(t *testing.T) {
	c := optionsWorld([]LaneKind{LaneFixedWindow, LaneNginx, LaneNginx, LaneTokenBucket},
		LaneOptions{}, LaneOptions{}, LaneOptions{Status: 429}, LaneOptions{Status: 418})
	r, err := Run(context.Background(), c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []int{429, 503, 429, 418}
	for i, l := range r.Lanes {
		if l.RefusalStatus != want[i] || c.RefusalStatus(i) != want[i] {
			t.Errorf("lane %s refuses with %d (config says %d), want %d", l.Name, l.RefusalStatus, c.RefusalStatus(i), want[i])
		}
		if l.Refused == 0 {
			t.Errorf("lane %s refused nothing of 20/s against 10/s", l.Name)
		}
	}
}

// LaneRule decides as the lane does in the simulation: a penalised token
// bucket's rule locks a client out as the lane does, the plain one does not.
func TestLaneRuleIsTheLanes(t *testing.T) {
	c := optionsWorld([]LaneKind{LaneTokenBucket, LaneTokenBucket, LaneAIMD}, LaneOptions{}, LaneOptions{Penalty: true})
	admitted := func(i int) int {
		rule, err := c.LaneRule(i, 0)
		if err != nil {
			t.Fatal(err)
		}
		s, n := rule.NewState(), 0
		for k := range 100 {
			if s.Decide(time.Duration(k)*50*time.Millisecond, 1).Admitted() {
				n++
			}
		}
		return n
	}
	if plain, penalised := admitted(0), admitted(1); penalised != 19 || plain < 59 {
		t.Errorf("LaneRule admitted %d (plain) and %d (penalty) of 100 at 20/s; want at least 59 and 19", plain, penalised)
	}
	if _, err := c.LaneRule(2, 0); err == nil {
		t.Error("LaneRule of an AIMD lane: no error, want one (no per-key limiter)")
	}
	if _, err := c.LaneRule(0, 1); err == nil {
		t.Error("LaneRule of limit 1 of a one-limit chain: no error")
	}
}

// A client retries only the statuses its retry rule names: against an nginx
// lane (503) a client retrying only 429 gives up at its first refusal, against
// a token bucket (429) it retries as before; one retrying 503 does the reverse.
func TestRetryOnStatusFollowsTheLanes(t *testing.T) {
	for _, tc := range []struct {
		on          []int
		nginxRetry  bool // retries after an nginx lane's refusal
		bucketRetry bool
	}{{nil, true, true}, {[]int{429}, false, true}, {[]int{503}, true, false}, {[]int{429, 503}, true, true}} {
		c := optionsWorld([]LaneKind{LaneNginx, LaneTokenBucket})
		c.Clients[0].Retry = Retry{Kind: RetryFixed, Delay: 10 * time.Millisecond, MaxAttempts: 3, On: tc.on}
		r, err := Run(context.Background(), c, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range []bool{tc.nginxRetry, tc.bucketRetry} {
			l := r.Lanes[i]
			if retried := l.Attempts > l.Unique; retried != want || l.Refused == 0 {
				t.Errorf("on %v, lane %s (refuses with %d): %d attempts of %d requests, %d refused; want retries %v",
					tc.on, l.Name, l.RefusalStatus, l.Attempts, l.Unique, l.Refused, want)
			}
		}
	}
	c := optionsWorld([]LaneKind{LaneTokenBucket})
	c.Clients[0].Retry = Retry{Kind: RetryFixed, Delay: time.Millisecond, MaxAttempts: 2, On: []int{200}}
	if got := fieldsOf(t, c); !strings.Contains(got["clients[0].retry.on[0]"], "400 to 599") {
		t.Errorf("retry on 200: problems %v, want clients[0].retry.on[0] out of range", got)
	}
}
