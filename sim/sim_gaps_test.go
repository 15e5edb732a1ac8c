package sim

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

func gapsRun(t *testing.T, cfg Config) Result {
	t.Helper()
	r, err := Run(context.Background(), cfg, Options{})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return r
}

// A backend change that leaves its service out keeps the service time
// (BackendChange: "when Service.Mean > 0"); one that states it replaces it.
func TestGapsBackendChangeKeepsServiceLeftOut(t *testing.T) {
	for _, tc := range []struct {
		name    string
		service Service
		want    time.Duration // mean latency over the whole run
	}{
		{"service left out", Service{}, 10 * time.Millisecond},
		{"service 30ms", Service{Mean: 30 * time.Millisecond}, 20 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Requests 100ms apart, never queued: latency is the service time.
			cfg := Config{
				Duration: 2 * time.Second, Lanes: []LaneKind{LaneFixedWindow},
				Limits: []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 1000, Window: time.Second}}},
				Clients: []ClientGroup{{Count: 1, Arrivals: []Arrival{
					{Kind: ArrivalConstant, Rate: Rate{Count: 10, Per: time.Second}, Stop: 2*time.Second - time.Millisecond}}}},
				Backend: &Backend{Capacity: 1, QueueSize: 10, Service: Service{Mean: 10 * time.Millisecond},
					Changes: []BackendChange{{At: time.Second - 50*time.Millisecond, Capacity: 2, Service: tc.service}}},
			}
			b := gapsRun(t, cfg).Lanes[0].Backend
			if b.Served != 20 {
				t.Fatalf("served %d, want 20", b.Served)
			}
			if d := b.Latency.Mean - tc.want; d < -tc.want/50 || d > tc.want/50 {
				t.Errorf("mean latency %v, want %v", b.Latency.Mean, tc.want)
			}
		})
	}
}

// A String of RFC 8941 holds every printable ASCII character, the space (0x20)
// included; only characters outside 0x20–0x7e become '?'.
func TestGapsSFStringEdges(t *testing.T) {
	for in, want := range map[string]string{
		"per user": `"per user"`,
		" ":        `" "`,
		"~":        `"~"`,
		"!":        `"!"`,
		"\x1f":     `"?"`,
		"\x7f":     `"?"`,
		"\t":       `"?"`,
		"":         `""`,
	} {
		if got := sfString(in); got != want {
			t.Errorf("sfString(%q) = %s, want %s", in, got, want)
		}
	}
	limits := []Limit{{Name: "per user", Policy: algorithms.Policy{Limit: 5, Window: time.Second}}}
	h := ResponseHeaders(HeadersDraft, limits, 0, 2, time.Second, 0)
	if h.RateLimitPolicy != `"per user";q=5;w=1` || h.RateLimit != `"per user";r=2;t=1` {
		t.Errorf("a name with a space: RateLimit-Policy %q, RateLimit %q", h.RateLimitPolicy, h.RateLimit)
	}
}

// The draft headers' numbers: quotas as given, windows and resets in whole
// seconds rounded up (a ns past a second is two), Retry-After the same
// rounding as HeaderRetryAfter.
func TestGapsHeaderRounding(t *testing.T) {
	for _, tc := range []struct {
		window, reset, ra time.Duration
		policy, rateLimit string
		retryAfter        string
	}{
		{time.Second, time.Second, time.Second, `"a";q=7;w=1`, `"a";r=3;t=1`, "1"},
		{time.Second + 1, time.Second + 1, time.Second + 1, `"a";q=7;w=2`, `"a";r=3;t=2`, "2"},
		{time.Second - 1, time.Second - 1, time.Second - 1, `"a";q=7;w=1`, `"a";r=3;t=1`, "1"},
		{time.Hour, 59 * time.Minute, 61 * time.Second, `"a";q=7;w=3600`, `"a";r=3;t=3540`, "61"},
	} {
		limits := []Limit{{Name: "a", Policy: algorithms.Policy{Limit: 7, Window: tc.window}}}
		h := ResponseHeaders(HeadersDraft, limits, 0, 3, tc.reset, tc.ra)
		if h.RateLimitPolicy != tc.policy || h.RateLimit != tc.rateLimit || h.RetryAfter != tc.retryAfter {
			t.Errorf("window %v reset %v retry %v: %q, %q, %q; want %q, %q, %q", tc.window, tc.reset, tc.ra,
				h.RateLimitPolicy, h.RateLimit, h.RetryAfter, tc.policy, tc.rateLimit, tc.retryAfter)
		}
		if n, _ := strconv.Atoi(tc.retryAfter); HeaderRetryAfter(tc.ra) != time.Duration(n)*time.Second {
			t.Errorf("HeaderRetryAfter(%v) = %v, want %ss", tc.ra, HeaderRetryAfter(tc.ra), tc.retryAfter)
		}
		if !strings.Contains(strings.Join(h.Lines, "\n"), "Retry-After: "+tc.retryAfter) {
			t.Errorf("lines %q lack Retry-After: %s", h.Lines, tc.retryAfter)
		}
	}
}

// A pacing client held until exactly the run's end (Duration + Drain) still
// makes its attempt then: the run's last instant is part of the run.
func TestGapsPausedAttemptAtTheEnd(t *testing.T) {
	for _, lane := range []LaneKind{LaneFixedWindow, LaneTokenBucket, LaneSlidingLog} {
		t.Run(lane.String(), func(t *testing.T) {
			cfg := Config{
				Duration: 500 * time.Millisecond, Drain: 500 * time.Millisecond, Lanes: []LaneKind{lane},
				Limits: []Limit{{Name: "one", Key: KeyUser, Policy: algorithms.Policy{Limit: 1, Window: time.Second}}},
				Clients: []ClientGroup{{Name: "pacer", Count: 1, Pace: true,
					Arrivals: []Arrival{{Kind: ArrivalBurst, At: 0, Count: 2}}}},
			}
			l := gapsRun(t, cfg).Lanes[0]
			if l.Unique != 2 || l.Attempts != 2 {
				t.Errorf("unique %d, attempts %d; want 2 and 2 (the second held to 1s, the end, and made then)", l.Unique, l.Attempts)
			}
			if l.Refused != 0 {
				t.Errorf("refused %d, want 0: a pacing client waits for the reset", l.Refused)
			}
			// Held a nanosecond past the end, it is not made.
			cfg.Drain = 500*time.Millisecond - 1
			if l := gapsRun(t, cfg).Lanes[0]; l.Attempts != 1 {
				t.Errorf("end 1ns before the reset: attempts %d, want 1", l.Attempts)
			}
		})
	}
}

// An override names a limit of the chain: 0 to len(Limits)-1.
func TestGapsOverrideLimitIndexEdges(t *testing.T) {
	for _, tc := range []struct {
		limits, index int
		ok            bool
	}{
		{1, 0, true}, {1, 1, false}, {2, 1, true}, {2, 2, false}, {1, -1, false},
	} {
		cfg := Config{
			Duration: time.Second, Lanes: []LaneKind{LaneGCRA},
			Clients: []ClientGroup{{Count: 1, Arrivals: []Arrival{{Kind: ArrivalBurst, Count: 1}}}},
			Overrides: []LaneOverride{{Lane: LaneGCRA, Limit: tc.index,
				Policy: algorithms.Policy{Limit: 5, Window: time.Second}}},
		}
		for range tc.limits {
			cfg.Limits = append(cfg.Limits, Limit{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 10, Window: time.Second}})
		}
		err := cfg.Validate()
		switch {
		case tc.ok && err != nil:
			t.Errorf("%d limit(s), override of limit %d: Validate() = %v, want nil", tc.limits, tc.index, err)
		case !tc.ok && (err == nil || !strings.Contains(err.Error(), "overrides[0].limit_index:")):
			t.Errorf("%d limit(s), override of limit %d: Validate() = %v, want a problem at overrides[0].limit_index", tc.limits, tc.index, err)
		}
	}
}
