package sim

import (
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

func auditConfig() Config {
	return Config{
		Duration: time.Second, Seed: 1,
		Limits:  []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 10, Window: time.Second}}},
		Clients: []ClientGroup{{Count: 1, Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 5, Per: time.Second}}}}},
		Backend: &Backend{Capacity: 1, Service: Service{Mean: time.Millisecond}},
	}
}

// changesApart is n backend changes a nanosecond apart from 0.
func changesApart(n int) []BackendChange {
	changes := make([]BackendChange, n)
	for i := range changes {
		changes[i].At = time.Duration(i)
	}
	return changes
}

// Each bound Validate states is pinned on both sides: the value at the edge
// validates, one step past it is refused, naming the field.
func TestAuditValidateEdges(t *testing.T) {
	topo := func(c *Config) *Topology {
		c.Topology = &Topology{Replicas: []ReplicaStep{{Count: 2}}}
		return c.Topology
	}
	tests := []struct {
		name  string
		mod   func(*Config)
		field string // "" when the edge validates
	}{
		{"drain 0 (the default)", func(c *Config) { c.Drain = 0 }, ""},
		{"drain -1ns", func(c *Config) { c.Drain = -1 }, "drain"},
		{"bucket 0 (the default)", func(c *Config) { c.Bucket = 0 }, ""},
		{"bucket -1ns", func(c *Config) { c.Bucket = -1 }, "bucket"},
		{"max_attempts 0", func(c *Config) {
			c.Clients[0].Retry = Retry{Kind: RetryExponential, Base: time.Millisecond, Cap: time.Second}
		}, ""},
		{"max_attempts -1", func(c *Config) {
			c.Clients[0].Retry = Retry{Kind: RetryExponential, Base: time.Millisecond, Cap: time.Second, MaxAttempts: -1}
		}, "clients[0].retry.max_attempts"},
		{"exponential base 0", func(c *Config) { c.Clients[0].Retry = Retry{Kind: RetryExponential, Cap: time.Second} }, "clients[0].retry.base"},
		{"exponential cap a ns under base", func(c *Config) {
			c.Clients[0].Retry = Retry{Kind: RetryExponential, Base: time.Second, Cap: time.Second - 1}
		}, "clients[0].retry.cap"},
		{"retry_after_jitter 0", func(c *Config) {
			c.Clients[0].Retry = Retry{Kind: RetryFixed, Delay: time.Millisecond, HonorRetryAfter: true}
		}, ""},
		{"retry_after_jitter -1ns", func(c *Config) {
			c.Clients[0].Retry = Retry{Kind: RetryFixed, Delay: time.Millisecond, RetryAfterJitter: -1}
		}, "clients[0].retry.retry_after_jitter"},
		{"fixed delay 0 with a maximum", func(c *Config) { c.Clients[0].Retry = Retry{Kind: RetryFixed, MaxAttempts: 3} }, ""},
		{"fixed delay 0 without a maximum", func(c *Config) { c.Clients[0].Retry = Retry{Kind: RetryFixed} }, "clients[0].retry.max_attempts"},
		{"fixed delay 1ns without a maximum", func(c *Config) { c.Clients[0].Retry = Retry{Kind: RetryFixed, Delay: 1} }, ""},
		{"fixed delay -1ns", func(c *Config) { c.Clients[0].Retry = Retry{Kind: RetryFixed, Delay: -1, MaxAttempts: 3} }, "clients[0].retry.delay"},
		{"immediate with a maximum of 1", func(c *Config) { c.Clients[0].Retry = Retry{Kind: RetryImmediate, MaxAttempts: 1} }, ""},
		{"immediate without a maximum", func(c *Config) { c.Clients[0].Retry = Retry{Kind: RetryImmediate} }, "clients[0].retry.max_attempts"},
		{"backend capacity 0", func(c *Config) { c.Backend.Capacity = 0 }, ""},
		{"backend capacity -1", func(c *Config) { c.Backend.Capacity = -1 }, "backend.capacity"},
		{"backend queue 0", func(c *Config) { c.Backend.QueueSize = 0 }, ""},
		{"backend queue MaxQueue", func(c *Config) { c.Backend.QueueSize = MaxQueue }, ""},
		{"backend queue MaxQueue+1", func(c *Config) { c.Backend.QueueSize = MaxQueue + 1 }, "backend.queue"},
		{"backend queue -1", func(c *Config) { c.Backend.QueueSize = -1 }, "backend.queue"},
		{"backend retry_after 0", func(c *Config) { c.Backend.RetryAfter = 0 }, ""},
		{"backend retry_after -1ns", func(c *Config) { c.Backend.RetryAfter = -1 }, "backend.retry_after"},
		{"backend service 1ns", func(c *Config) { c.Backend.Service.Mean = 1 }, ""},
		{"backend service 0", func(c *Config) { c.Backend.Service.Mean = 0 }, "backend.service.mean"},
		{"two changes a ns apart", func(c *Config) {
			c.Backend.Changes = []BackendChange{{At: 100 * time.Millisecond, Capacity: 2}, {At: 100*time.Millisecond + 1, Capacity: 3}}
		}, ""},
		{"two changes at one instant", func(c *Config) {
			c.Backend.Changes = []BackendChange{{At: 100 * time.Millisecond, Capacity: 2}, {At: 100 * time.Millisecond, Capacity: 3}}
		}, "backend.changes[1].at"},
		{"a change a ns before the last", func(c *Config) {
			c.Backend.Changes = []BackendChange{{At: 100 * time.Millisecond, Capacity: 2}, {At: 100*time.Millisecond - 1, Capacity: 3}}
		}, "backend.changes[1].at"},
		{"a change's service 0 (unchanged)", func(c *Config) { c.Backend.Changes = []BackendChange{{At: 1, Capacity: 2}} }, ""},
		{"a change's service -1ns", func(c *Config) { c.Backend.Changes = []BackendChange{{At: 1, Service: Service{Mean: -1}}} }, "backend.changes[0].service.mean"},
		{"MaxChanges changes", func(c *Config) { c.Backend.Changes = changesApart(MaxChanges) }, ""},
		{"MaxChanges+1 changes", func(c *Config) { c.Backend.Changes = changesApart(MaxChanges + 1) }, "backend.changes"},
		{"aimd min = max = initial", func(c *Config) { c.AIMD = AIMDSettings{Initial: 5, Min: 5, Max: 5} }, ""},
		{"aimd min past max", func(c *Config) { c.AIMD = AIMDSettings{Initial: 5, Min: 6, Max: 5} }, "aimd.min"},
		{"aimd initial past max", func(c *Config) { c.AIMD = AIMDSettings{Initial: 6, Min: 1, Max: 5} }, "aimd.initial"},
		{"aimd backoff just under 1", func(c *Config) { c.AIMD.Backoff = 0.999 }, ""},
		{"aimd backoff 1", func(c *Config) { c.AIMD.Backoff = 1 }, "aimd.backoff"},
		{"aimd backoff negative", func(c *Config) { c.AIMD.Backoff = -0.1 }, "aimd.backoff"},
		{"aimd retry_after -1ns", func(c *Config) { c.AIMD.RetryAfter = -1 }, "aimd.retry_after"},
		{"throttle k 1", func(c *Config) { c.Throttle.K = 1 }, ""},
		{"throttle k under 1", func(c *Config) { c.Throttle.K = 0.999 }, "throttle.k"},
		{"throttle period 24ns", func(c *Config) { c.Throttle.Period = throttleBuckets }, ""},
		{"throttle period 25ns", func(c *Config) { c.Throttle.Period = throttleBuckets + 1 }, "throttle.period"},
		{"MaxReplicas replicas", func(c *Config) { topo(c).Replicas[0].Count = MaxReplicas }, ""},
		{"MaxReplicas+1 replicas", func(c *Config) { topo(c).Replicas[0].Count = MaxReplicas + 1 }, "topology.replicas[0].count"},
		{"no replica", func(c *Config) { topo(c).Replicas[0].Count = 0 }, "topology.replicas[0].count"},
		{"first step at 1ns", func(c *Config) { topo(c).Replicas[0].At = 1 }, "topology.replicas[0].at"},
		{"second step 1ns after the first", func(c *Config) { tp := topo(c); tp.Replicas = append(tp.Replicas, ReplicaStep{At: 1, Count: 3}) }, ""},
		{"second step at the first's instant", func(c *Config) { tp := topo(c); tp.Replicas = append(tp.Replicas, ReplicaStep{At: 0, Count: 3}) }, "topology.replicas[1].at"},
		{"sync interval MinSyncInterval", func(c *Config) {
			topo(c)
			c.Limits[0].State, c.Limits[0].SyncInterval = StateSynced, MinSyncInterval
		}, ""},
		{"sync interval a ns under MinSyncInterval", func(c *Config) {
			topo(c)
			c.Limits[0].State, c.Limits[0].SyncInterval = StateSynced, MinSyncInterval-1
		}, "limits[0].sync_interval"},
		{"outages that touch", func(c *Config) {
			topo(c).Store.Outages = []Outage{{From: 100 * time.Millisecond, To: 200 * time.Millisecond}, {From: 200 * time.Millisecond, To: 300 * time.Millisecond}}
		}, ""},
		{"outages that overlap by a ns", func(c *Config) {
			topo(c).Store.Outages = []Outage{{From: 100 * time.Millisecond, To: 200 * time.Millisecond}, {From: 200*time.Millisecond - 1, To: 300 * time.Millisecond}}
		}, "topology.store.outages[1]"},
		{"an outage of 1ns", func(c *Config) { topo(c).Store.Outages = []Outage{{From: 5, To: 6}} }, ""},
		{"an empty outage", func(c *Config) { topo(c).Store.Outages = []Outage{{From: 5, To: 5}} }, "topology.store.outages[0]"},
		{"store timeout -1ns", func(c *Config) { topo(c).Store.Timeout = -1 }, "topology.store.timeout"},
		{"store latency -1ns", func(c *Config) { topo(c).Store.Latency.Mean = -1 }, "topology.store.latency.mean"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := auditConfig()
			tc.mod(&c)
			err := c.Validate()
			switch {
			case tc.field == "" && err != nil:
				t.Errorf("Validate() = %v, want nil", err)
			case tc.field != "" && (err == nil || !strings.Contains(err.Error(), tc.field+":")):
				t.Errorf("Validate() = %v, want a problem with %s", err, tc.field)
			}
		})
	}
}

// A bucket that makes more than MaxBuckets buckets is refused with a
// suggestion ("use a bucket of at least …") that validates.
func TestAuditBucketSuggestionValidates(t *testing.T) {
	c := auditConfig() // 1s and the default drain of 1s: 2s
	c.Bucket = 2*time.Second/MaxBuckets - 1
	err := c.Validate()
	if err == nil || !strings.Contains(err.Error(), "use a bucket of at least 2µs") {
		t.Fatalf("bucket %v over 2s: Validate() = %v, want a suggestion of 2µs", c.Bucket, err)
	}
	c.Bucket++
	if err := c.Validate(); err != nil {
		t.Errorf("the suggested bucket %v: Validate() = %v", c.Bucket, err)
	}
}

// docs/scenarios.md and the error itself say (duration + drain) / bucket is at
// most MaxBuckets; exactly MaxBuckets should then validate.
func TestAuditBucketsAtMostMaxBuckets(t *testing.T) {
	c := auditConfig()
	c.Bucket = 2 * time.Second / MaxBuckets
	if err := c.Validate(); err != nil {
		t.Errorf("exactly MaxBuckets buckets: %v, want accepted (docs/scenarios.md: at most 1000000)", err)
	}
	c.Bucket = time.Second // and a span one bucket past MaxBuckets, the last in part
	c.Duration, c.Drain = MaxBuckets*time.Second-time.Second+1, time.Second
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "makes 1000001 time-series buckets") {
		t.Errorf("MaxBuckets+1 buckets: %v, want refused naming 1000001", err)
	}
}
