package sim

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

func TestLaterAndTimesSaturate(t *testing.T) {
	const top = time.Duration(math.MaxInt64)
	tests := []struct {
		name      string
		got, want time.Duration
	}{
		{"later small", later(time.Second, time.Second), 2 * time.Second},
		{"later at the top", later(top-1, 1), top},
		{"later past the top", later(top-1, 2), top},
		{"later of the top", later(top, top), top},
		{"later back", later(time.Second, -time.Second), 0},
		{"times small", times(time.Second, 3), 3 * time.Second},
		{"times zero", times(top, 0), 0},
		{"times past the top", times(MaxTime, 1000), top},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, tc.got, tc.want)
		}
	}
}

// TestValidateCapsAndBuilds lists numbers that once validated and then failed,
// hung or overflowed in a run: Validate now names each.
func TestValidateCapsAndBuilds(t *testing.T) {
	big := 2_500_000 * time.Hour
	tests := []struct {
		name   string
		change func(c *Config)
		want   string
	}{
		{"duration", func(c *Config) { c.Duration = big }, "duration: must be at most 100 years (876000h), got 2500000h0m0s"},
		{"duration and drain", func(c *Config) { c.Duration, c.Drain = MaxTime, MaxTime }, "drain: duration + drain (by default the duration again) must be at most 100 years"},
		{"duration and the default drain", func(c *Config) { c.Duration = MaxTime/2 + 1 }, "duration: duration + drain (by default the duration again) must be at most 100 years"},
		{"window", func(c *Config) { c.Limits[0].Policy.Window = big }, "limits[0].window: must be at most 100 years"},
		{"service", func(c *Config) { c.Backend.Service.Mean = big }, "backend.service.mean: must be at most 100 years"},
		{"queue", func(c *Config) { c.Backend.QueueSize = math.MaxInt }, "backend.queue: must be at most 10000000"},
		{"clients", func(c *Config) { c.Clients[0].Count = 1_000_000_000 }, "clients[0].count: must be at most 10000000, got 1000000000"},
		{"clients in all", func(c *Config) {
			c.Clients = append(c.Clients, c.Clients[0], c.Clients[0])
			c.Clients[0].Count = MaxClients
		}, "clients: 10000002 clients in all; at most 10000000"},
		{"buckets", func(c *Config) { c.Bucket = time.Nanosecond }, "bucket: 1ns makes 2000000000 time-series buckets over 2s; at most 1000000"},
		{"retry cap", func(c *Config) { c.Clients[0].Retry = Retry{Kind: RetryExponential, Base: 1, Cap: big} }, "clients[0].retry.cap: must be at most 100 years"},
		{"poisson stop", func(c *Config) { c.Clients[0].Arrivals[0].Stop = big }, "clients[0].arrivals[0].stop: must be at most 100 years"},
		{"sliding log limit", func(c *Config) { c.Limits[0].Policy.Limit = 2e9 }, "limits[0]: sliding log: limit 2000000000 is above 1073741824"},
		{"largest burst", func(c *Config) { c.Limits[0].Policy.Burst = math.MaxInt64 }, "limits[0]: token bucket: burst 9223372036854775807 at 1 per 100ms overflows"},
		{"override burst", func(c *Config) {
			c.Overrides = []LaneOverride{{Lane: LaneGCRA, Policy: algorithms.Policy{Limit: 10, Window: time.Second, Burst: 1}}}
			c.Clients[0].Cost = 2
		}, "overrides[0].burst: 1 is below the cost 2 of clients[0]: no request of theirs could ever be admitted in lane gcra"},
		{"override burst overflow", func(c *Config) {
			c.Overrides = []LaneOverride{{Lane: LaneTokenBucket, Policy: algorithms.Policy{Limit: 1, Window: 100 * time.Millisecond, Burst: math.MaxInt64}}}
		}, "overrides[0]: token bucket: burst 9223372036854775807 at 1 per 100ms overflows"},
		{"no lanes", func(c *Config) { c.Lanes = []LaneKind{} }, "lanes: at least one lane is needed"},
		{"a lane twice", func(c *Config) { c.Lanes = []LaneKind{LaneGCRA, LaneTokenBucket, LaneGCRA} }, "lanes[2]: gcra is also lanes[0]: give each lane its own name"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := Config{
				Duration: time.Second, Seed: 1,
				Limits:  []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 10, Window: time.Second}}},
				Clients: []ClientGroup{{Count: 1, Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 5, Per: time.Second}}}}},
				Backend: &Backend{Capacity: 1, Service: Service{Mean: time.Millisecond}},
			}
			if err := c.Validate(); err != nil {
				t.Fatalf("the base config: %v", err)
			}
			tc.change(&c)
			err := c.Validate()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Validate() = %v, want %q", err, tc.want)
			}
			if _, err := New(c, Options{}); err == nil {
				t.Errorf("New accepted what Validate refused")
			}
		})
	}
}

// TestHugeTimesRunWithoutPanic runs the largest times Validate allows: every
// instant saturates instead of wrapping into "event in the past".
func TestHugeTimesRunWithoutPanic(t *testing.T) {
	c := Config{
		Duration: MaxTime / 2, Drain: MaxTime / 2, Seed: 1, Bucket: MaxTime / 1000,
		Limits:  []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 1, Window: MaxTime / 4}}},
		Clients: []ClientGroup{{Count: 2, Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 1, Per: MaxTime}}, {Kind: ArrivalOnOff, Rate: Rate{Count: 1, Per: MaxTime}, On: MaxTime, Off: MaxTime}}, Retry: Retry{Kind: RetryExponential, Base: MaxTime, Cap: MaxTime, Jitter: JitterDecorrelated, HonorRetryAfter: true, RetryAfterJitter: MaxTime}}},
		Backend: &Backend{Capacity: 1, Service: Service{Kind: ServiceExponential, Mean: MaxTime}},
	}
	if _, err := Run(context.Background(), c, Options{MaxEvents: 1e6}); err != nil {
		t.Fatal(err)
	}
}
