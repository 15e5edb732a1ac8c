package sim

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// singleStream is one client sending at a constant rate well under the limit:
// every event is an arrival that is admitted and answered at once.
func singleStream(d time.Duration, lane LaneKind) Config {
	return Config{
		Duration: d, Lanes: []LaneKind{lane},
		Limits:  []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 1000, Window: time.Millisecond}}},
		Clients: []ClientGroup{{Count: 1, Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 1, Per: 2 * time.Microsecond}}}}},
	}
}

// manyClients is 100,000 Poisson clients, so 100,000 events are always pending,
// counted by key (one limit per user, or one global limit).
func manyClients(d time.Duration, key KeyKind) Config {
	return Config{
		Duration: d, Lanes: []LaneKind{LaneTokenBucket},
		Limits: []Limit{{Key: key, Policy: algorithms.Policy{Limit: 50_000, Window: time.Second}}},
		Clients: []ClientGroup{{Count: 100_000,
			Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 1, Per: time.Second}}}}},
	}
}

// perUser is users Poisson clients at 2/s, each limited to 5/s by its own key.
func perUser(users int, d time.Duration) Config {
	return Config{
		Duration: d, Lanes: []LaneKind{LaneTokenBucket},
		Limits: []Limit{{Key: KeyUser, Policy: algorithms.Policy{Limit: 5, Window: time.Second}}},
		Clients: []ClientGroup{{Count: users,
			Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 2, Per: time.Second}}}}},
	}
}

// benchmarkEvents runs cfg to its end once per b.N chunk of virtual time and
// reports events per second of wall time.
func benchmarkEvents(b *testing.B, cfg Config) {
	fresh := func() *Simulation {
		s, err := New(cfg, Options{})
		if err != nil {
			b.Fatal(err)
		}
		s.RunUntil(time.Second) // warm up: grow the heap, rings and pools
		return s
	}
	s := fresh()
	step := cfg.Duration / 1000
	at := time.Second
	var events, attempts int64
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	for range b.N {
		if at += step; at > s.End() {
			b.StopTimer()
			s, at = fresh(), time.Second+step
			b.StartTimer()
		}
		before, tries := s.Events(), s.attempts()
		s.RunUntil(at)
		events += s.Events() - before
		attempts += s.attempts() - tries
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(events), "ns/event")
	if attempts > 0 {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(attempts), "ns/attempt")
	}
	reportCPU(b, cpu, events)
	if used := cpuTime() - cpu; used > 0 && attempts > 0 {
		b.ReportMetric(float64(used.Nanoseconds())/float64(attempts), "cpu-ns/attempt")
	}
}

// attempts is how many attempts every lane together has made so far.
func (s *Simulation) attempts() int64 {
	var n int64
	for _, l := range s.lanes {
		if l != nil {
			n += l.m.counts.Attempts
		}
	}
	return n
}

// reportCPU reports the CPU time per event since cpu (the process's CPU
// time when the timer started), timer stops included: on a machine shared
// with other work it varies less than the wall time per event.
func reportCPU(b *testing.B, cpu time.Duration, events int64) {
	if used := cpuTime() - cpu; used > 0 && events > 0 {
		b.ReportMetric(float64(used.Nanoseconds())/float64(events), "cpu-ns/event")
	}
}

func BenchmarkSingleStream(b *testing.B) {
	for _, lane := range []LaneKind{LaneTokenBucket, LaneGCRA, LaneFixedWindow, LaneSlidingLog} {
		b.Run(lane.String(), func(b *testing.B) { benchmarkEvents(b, singleStream(200*time.Second, lane)) })
	}
}

func BenchmarkManyClientsPending(b *testing.B) {
	for _, key := range []KeyKind{KeyGlobal, KeyUser} {
		b.Run(key.String(), func(b *testing.B) { benchmarkEvents(b, manyClients(1000*time.Second, key)) })
	}
}

// topologyStream is singleStream at a tenth of its rate behind 8 replicas, its
// limit placed by place.
func topologyStream(d time.Duration, store Store, place func(*Limit)) Config {
	cfg := singleStream(d, LaneTokenBucket)
	cfg.Clients[0].Arrivals[0].Rate.Per *= 10
	cfg.Topology = &Topology{Replicas: []ReplicaStep{{Count: 8}}, Store: store}
	place(&cfg.Limits[0])
	return cfg
}

// withHealth is cfg with its fleet health-checked every interval.
func withHealth(cfg Config, interval time.Duration) Config {
	cfg.Topology.Health = &HealthCheck{Interval: interval}
	return cfg
}

// BenchmarkTopology runs the same traffic behind each topology, and without
// one (plain): compare their ns/attempt, the figure the topology targets are
// stated in (docs/performance.md).
func BenchmarkTopology(b *testing.B) {
	for name, cfg := range topologyRows() {
		b.Run(name, func(b *testing.B) { benchmarkEvents(b, cfg) })
	}
}

// topologyRows are BenchmarkTopology's worlds by name: the same traffic
// without a topology (plain) and behind each placement.
func topologyRows() map[string]Config {
	lat := Service{Mean: 10 * time.Microsecond}
	expLat := Service{Kind: ServiceExponential, Mean: 10 * time.Microsecond}
	plain := topologyStream(200*time.Second, Store{}, func(l *Limit) {})
	plain.Topology = nil
	one := topologyStream(200*time.Second, Store{}, func(l *Limit) {})
	one.Topology.Replicas[0].Count = 1
	return map[string]Config{
		"plain":             plain,
		"one_replica_local": one,
		"local":             topologyStream(200*time.Second, Store{}, func(l *Limit) {}),
		"shared_atomic":     topologyStream(200*time.Second, Store{Latency: lat}, func(l *Limit) { l.State = StateShared }),
		"shared_racy":       topologyStream(200*time.Second, Store{Latency: lat, Racy: true}, func(l *Limit) { l.State = StateShared }),
		"shared_atomic_exp": topologyStream(200*time.Second, Store{Latency: expLat}, func(l *Limit) { l.State = StateShared }),
		"synced_every_10ms": topologyStream(200*time.Second, Store{}, func(l *Limit) { l.State, l.SyncInterval = StateSynced, 10*time.Millisecond }),
		"shared_health_1s":  withHealth(topologyStream(200*time.Second, Store{Latency: lat}, func(l *Limit) { l.State = StateShared }), time.Second),
		"shared_real":       topologyStream(200*time.Second, realStore(lat), func(l *Limit) { l.State = StateShared }),
	}
}

// TestNoAllocationPerEventInSteadyState steps each world in 100ms steps after
// a warm-up and wants fewer allocations than steps (AllocsPerRun divides
// whole numbers): under one allocation per step of some thousands of events,
// a bound set by the step's length, not by the number of steps.
func TestNoAllocationPerEventInSteadyState(t *testing.T) {
	const warm, step, steps = 2 * time.Second, 100 * time.Millisecond, 10
	for name, cfg := range map[string]Config{
		"single stream": singleStream(100*time.Second, LaneTokenBucket),
		"backend":       queueWorld(200, 300, 2, 1000*time.Second),
		"shared store":  topologyStream(100*time.Second, Store{Latency: Service{Mean: 10 * time.Microsecond}}, func(l *Limit) { l.State = StateShared }),
		"racy store":    topologyStream(100*time.Second, Store{Latency: Service{Mean: 10 * time.Microsecond}, Racy: true}, func(l *Limit) { l.State = StateShared }),
		"synced":        topologyStream(100*time.Second, Store{}, func(l *Limit) { l.State, l.SyncInterval = StateSynced, 10*time.Millisecond }),
		"local fleet":   topologyStream(100*time.Second, Store{}, func(l *Limit) {}),
		"health checks": withHealth(topologyStream(100*time.Second, Store{Latency: Service{Mean: 10 * time.Microsecond}}, func(l *Limit) { l.State = StateShared }), 10*time.Millisecond),
		"real store":    topologyStream(100*time.Second, realStore(Service{Mean: 10 * time.Microsecond}), func(l *Limit) { l.State = StateShared }),
		"per-user keys": perUser(10_000, 100*time.Second),
		"kernel":        poisson100(100 * time.Second),
	} {
		s, err := New(cfg, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if (name == "kernel" || name == "local fleet" || name == "synced") && (!s.lanes[0].kern.fits || s.lanes[0].quick == nil) {
			t.Fatalf("%s: the lane does not fit the kernel", name)
		}
		if f := s.lanes[0].fleet; name == "shared store" && (!f.same.exact || f.storeQuick == nil || !s.lanes[0].kern.fits || !s.lanes[0].kern.store) {
			t.Fatalf("%s: the store's twin, verdict-alone path or kernel is not taken", name)
		}
		s.RunUntil(warm)
		at := warm
		before := s.Events()
		// Rounds of steps until a thousand events have run (a slow world
		// takes more), as many as 100 steps in all.
		var allocs float64
		for round := 0; round < 100/steps && s.Events()-before < 1000 && allocs == 0; round++ {
			from := s.Events()
			if allocs = testing.AllocsPerRun(steps, func() {
				at += step
				s.RunUntil(at)
			}); allocs > 0 {
				t.Errorf("%s: %.1f allocations per %d events, want 0", name, allocs, (s.Events()-from)/(steps+1))
			}
		}
		if s.Events()-before < 1000 {
			t.Fatalf("%s: only %d events ran", name, s.Events()-before)
		}
	}
}

// realStore is a store with latency lat and every feature of a real one on:
// shards, a capacity with an exponential service, a queue limit, a change and
// a memory that evicts.
func realStore(lat Service) Store {
	return Store{Latency: lat, Shards: 4, Capacity: 1e6, Service: ServiceExponential, QueueLimit: 1000,
		Changes: []StoreChange{{At: time.Second, Capacity: 2e6}}, MaxMemory: 1 << 20, Eviction: EvictLRU}
}
