package sim

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// lossWorld: one client at 10 per second from 50ms on (k = 0 … 599 at
// 50ms + k×100ms), no retries, one shared global limit of 100 per 60s.
func lossWorld(lanes ...LaneKind) Config {
	return Config{
		Duration: 60 * time.Second, Seed: 1, Lanes: lanes,
		Limits: []Limit{{Name: "g", Key: KeyGlobal, State: StateShared, OnStoreError: FailClosed,
			Policy: algorithms.Policy{Limit: 100, Window: 60 * time.Second}}},
		Clients: []ClientGroup{{Name: "users", Count: 1,
			Arrivals: []Arrival{{Kind: ArrivalConstant, Start: 50 * time.Millisecond, Rate: Rate{Count: 10, Per: time.Second}}}}},
		Topology: &Topology{Replicas: []ReplicaStep{{Count: 1}}},
	}
}

// By hand: a fixed window of 100 per 60s admits the first 100 arrivals (by
// 9.95s); the store restarting empty at 30s forgets them, and the same
// window admits 100 more (30.05s … 39.95s): 200. A flushing outage from 30s
// to 31s does the same, less the 10 arrivals it refuses (failing closed).
func TestStoreRestartForgets(t *testing.T) {
	for _, c := range []struct {
		name  string
		store Store
		want  int64
	}{
		{"none", Store{}, 100},
		{"restart", Store{Restarts: []time.Duration{30 * time.Second}}, 200},
		{"flush", Store{Outages: []Outage{{From: 30 * time.Second, To: 31 * time.Second, Flush: true}}}, 200},
		{"outage kept", Store{Outages: []Outage{{From: 30 * time.Second, To: 31 * time.Second}}}, 100},
	} {
		cfg := lossWorld(LaneFixedWindow)
		cfg.Topology.Store = c.store
		lr := mustRun(t, cfg, Options{}).Lanes[0]
		if lr.Admitted != c.want {
			t.Errorf("%s: admitted %d, want %d", c.name, lr.Admitted, c.want)
		}
		if want := len(c.store.Restarts) + map[bool]int{true: 1}[len(c.store.Outages) > 0 && c.store.Outages[0].Flush]; lr.Topology.Restarts != want {
			t.Errorf("%s: %d restarts, want %d", c.name, lr.Topology.Restarts, want)
		}
	}
}

// After a restart the limit decides as a fresh one: every admission after
// it is one a limiter that first saw the traffic then makes (the same
// client, starting at 30.05s), lane by lane, attempt by attempt.
func TestStoreRestartEqualsAFreshLimiter(t *testing.T) {
	lanes := []LaneKind{LaneFixedWindow, LaneSlidingLog, LaneSlidingWindowCounter, LaneTokenBucket, LaneGCRA, LaneLeakyBucket}
	restarted := lossWorld(lanes...)
	restarted.Topology.Store.Restarts = []time.Duration{30 * time.Second}
	for i := range restarted.Limits {
		restarted.Limits[i].Policy = algorithms.Policy{Limit: 20, Window: 10 * time.Second, Burst: 5}
	}
	fresh := restarted
	fresh.Topology = &Topology{Replicas: []ReplicaStep{{Count: 1}}}
	fresh.Clients = []ClientGroup{restarted.Clients[0]}
	fresh.Clients[0].Arrivals = []Arrival{{Kind: ArrivalConstant, Start: 30*time.Second + 50*time.Millisecond, Rate: Rate{Count: 10, Per: time.Second}}}
	var a, b traceRecords
	mustRun(t, restarted, Options{Trace: &a})
	mustRun(t, fresh, Options{Trace: &b})
	verdicts := func(recs traceRecords, lane int) (out []string) {
		for _, r := range recs {
			if r.LaneIndex == lane && r.At > 30*time.Second && r.Event != TraceSuccess {
				out = append(out, r.At.String()+" "+r.Event.String())
			}
		}
		return out
	}
	for i, k := range lanes {
		got, want := verdicts(a, i), verdicts(b, i)
		if len(got) != len(want) || len(got) < 300 {
			t.Errorf("%s: %d decisions after the restart, %d by a fresh limiter (want 300 each)", k, len(got), len(want))
			continue
		}
		for j := range got {
			if got[j] != want[j] {
				t.Errorf("%s: after the restart %s, a fresh limiter %s", k, got[j], want[j])
				break
			}
		}
	}
}

// By hand: two replicas round robin (the attempt k goes to replica k mod
// 2), replica 0 cut off the store in [10s, 20s): of the 100 arrivals then
// (k = 100 … 199) the 50 on replica 0 fail closed, refused at once or, hung,
// after the 200ms timeout; replica 1's are admitted as before. So too on a
// real store (a capacity: the shard store, which a named store also makes).
func TestPartitionCutsSomeReplicas(t *testing.T) {
	for _, c := range []struct{ hung, real bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
		hung := c.hung
		cfg := lossWorld(LaneTokenBucket)
		cfg.Limits[0].Policy = algorithms.Policy{Limit: 1000, Window: time.Second}
		cfg.Topology.Replicas[0].Count = 2
		cfg.Topology.Store = Store{Timeout: 200 * time.Millisecond,
			Partitions: []Partition{{From: 10 * time.Second, To: 20 * time.Second, Replicas: []int{0}, Hung: hung}}}
		if c.real {
			cfg.Topology.Store.Capacity = 1e6
		}
		var recs traceRecords
		lr := mustRun(t, cfg, Options{Trace: &recs}).Lanes[0]
		if lr.Refused != 50 || lr.Topology.StoreErrors != 50 || lr.Topology.Limits[0].Unavailable.Closed != 50 {
			t.Errorf("hung %v: refused %d, store errors %d, closed %d; want 50 each", hung, lr.Refused, lr.Topology.StoreErrors, lr.Topology.Limits[0].Unavailable.Closed)
		}
		wait := map[bool]time.Duration{true: 200 * time.Millisecond}[hung]
		for _, r := range recs {
			if r.Event != TraceRefuse {
				continue
			}
			sent := r.At - wait
			k := (sent - 50*time.Millisecond) / (100 * time.Millisecond)
			if r.Replica != 0 || sent < 10*time.Second || sent >= 20*time.Second || k%2 != 0 || (sent-50*time.Millisecond)%(100*time.Millisecond) != 0 {
				t.Errorf("hung %v: refusal at %v on replica %d, want replica 0's arrivals in [10s, 20s) answered after %v", hung, r.At, r.Replica, wait)
				break
			}
		}
	}
}

// Bad health checks, restarts and partitions are reported at their fields.
func TestHealthAndLossValidation(t *testing.T) {
	for _, c := range []struct {
		field string
		edit  func(*Config)
	}{
		{"topology.health.interval", func(c *Config) { c.Topology.Health = &HealthCheck{Interval: time.Microsecond} }},
		{"topology.health.unhealthy_after", func(c *Config) { c.Topology.Health = &HealthCheck{UnhealthyAfter: -1} }},
		{"topology.health.healthy_after", func(c *Config) { c.Topology.Health = &HealthCheck{HealthyAfter: MaxHealthThreshold + 1} }},
		{"topology.store.restarts[1].at", func(c *Config) { c.Topology.Store.Restarts = []time.Duration{2 * time.Second, time.Second} }},
		{"topology.store.partitions[0].replicas[0]", func(c *Config) {
			c.Topology.Store.Partitions = []Partition{{From: 0, To: time.Second, Replicas: []int{1}}}
		}},
		{"topology.store.partitions[0].replicas", func(c *Config) {
			c.Topology.Store.Partitions = []Partition{{From: 0, To: time.Second}}
		}},
		{"topology.store.partitions[0]", func(c *Config) {
			c.Topology.Store.Partitions = []Partition{{From: time.Second, To: time.Second, Replicas: []int{0}}}
		}},
		{"topology.store.partitions[0].kind", func(c *Config) {
			c.Topology.Store.Partitions = []Partition{{From: 0, To: time.Second, Replicas: []int{0}, Hung: true}}
		}},
		{"limits[0].state", func(c *Config) {
			c.Limits[0].State, c.Limits[0].SyncInterval = StateSynced, time.Second
			c.Topology.Store.Partitions = []Partition{{From: 0, To: time.Second, Replicas: []int{0}}}
		}},
	} {
		cfg := lossWorld(LaneTokenBucket)
		c.edit(&cfg)
		err := cfg.Validate()
		fe, ok := err.(FieldErrors)
		if !ok || len(fe) == 0 || fe[0].Field != c.field {
			t.Errorf("%s: got %v", c.field, err)
		}
	}
	ok := lossWorld(LaneTokenBucket)
	ok.Topology.Health = &HealthCheck{}
	if err := ok.Validate(); err != nil {
		t.Errorf("a health check of defaults: %v", err)
	}
}

// By hand: a synced limit (one replica, sync every 1s) keeps its view of the
// store until its next sync: the store restarting empty at 30.5s is seen at
// the sync at 31s, so the first admission after the first 100 (by 9.95s) is
// the arrival at 31.05s, and the window admits 100 more: 200.
func TestStoreRestartReachesASyncedLimitAtItsSync(t *testing.T) {
	cfg := lossWorld(LaneFixedWindow)
	cfg.Limits[0].State, cfg.Limits[0].SyncInterval, cfg.Limits[0].OnStoreError = StateSynced, time.Second, FailOpen
	cfg.Topology.Store.Restarts = []time.Duration{30*time.Second + 500*time.Millisecond}
	var recs traceRecords
	lr := mustRun(t, cfg, Options{Trace: &recs}).Lanes[0]
	if lr.Admitted != 200 {
		t.Errorf("admitted %d, want 200", lr.Admitted)
	}
	for _, r := range recs {
		if r.Event == TraceAdmit && r.At > 10*time.Second {
			if r.At != 31*time.Second+50*time.Millisecond {
				t.Errorf("first admission after the restart at %v, want 31.05s", r.At)
			}
			break
		}
	}
}
