package sim

import (
	"math"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// edgeCase is one side of a bound Validate states: mod applied to a valid
// world either validates (field "") or is refused naming field.
type edgeCase struct {
	name  string
	mod   func(*Config)
	field string
}

// checkEdges runs each case on a fresh world from base, through Validate.
func checkEdges(t *testing.T, base func() Config, cases []edgeCase) {
	t.Helper()
	checkEdgesWith(t, base, cases, Config.Validate)
}

// checkEdgesWith runs each case on a fresh world from base, through validate.
func checkEdgesWith(t *testing.T, base func() Config, cases []edgeCase, validate func(Config) error) {
	t.Helper()
	for _, c := range cases {
		cfg := base()
		c.mod(&cfg)
		err := validate(cfg)
		if c.field == "" {
			if err != nil {
				t.Errorf("%s: want valid, got %v", c.name, err)
			}
			continue
		}
		fe, _ := err.(FieldErrors)
		found := false
		for _, e := range fe {
			found = found || e.Field == c.field
		}
		if !found {
			t.Errorf("%s: want an error at %s, got %v", c.name, c.field, err)
		}
	}
}

func TestEdgesOfGroupsAndArrivals(t *testing.T) {
	arrival := func(a Arrival) func(*Config) {
		return func(c *Config) { c.Clients[0].Arrivals = []Arrival{a} }
	}
	rate := Rate{Count: 5, Per: time.Second}
	const a0 = "clients[0].arrivals[0]"
	checkEdges(t, auditConfig, []edgeCase{
		{"cost 0", func(c *Config) { c.Clients[0].Cost = 0 }, ""},
		{"cost -1", func(c *Config) { c.Clients[0].Cost = -1 }, "clients[0].cost"},
		{"cost equal to the burst", func(c *Config) { c.Clients[0].Cost = 10 }, ""},
		{"cost one over the burst", func(c *Config) { c.Clients[0].Cost = 11 }, "clients[0].cost"},
		{"placeholders {i} and {g}", func(c *Config) { c.Clients[0].Identity = Identity{User: "u{i}-{g}"} }, ""},
		{"placeholder {x} in ip", func(c *Config) { c.Clients[0].Identity = Identity{IP: "10.0.0.{x}"} }, "clients[0].identity.ip"},
		{"placeholder {n} in endpoint", func(c *Config) { c.Clients[0].Identity = Identity{Endpoint: "/{n}"} }, "clients[0].identity.endpoint"},
		{"no arrivals", func(c *Config) { c.Clients[0].Arrivals = nil }, "clients[0].arrivals"},
		{"two groups of one name", func(c *Config) {
			c.Clients[0].Name = "a"
			c.Clients = append(c.Clients, c.Clients[0])
		}, "clients[1].name"},
		{"two unnamed groups", func(c *Config) { c.Clients = append(c.Clients, c.Clients[0]) }, ""},
		{"rtt 0", func(c *Config) { c.Clients[0].RTT = 0 }, ""},
		{"rtt -1ns", func(c *Config) { c.Clients[0].RTT = -1 }, "clients[0].rtt"},
		{"rtt distribution unknown", func(c *Config) { c.Clients[0].RTTKind = 99 }, "clients[0].rtt.distribution"},
		{"deadline 0", func(c *Config) { c.Clients[0].Deadline = 0 }, ""},
		{"deadline -1ns", func(c *Config) { c.Clients[0].Deadline = -1 }, "clients[0].deadline"},
		{"criticality unknown", func(c *Config) { c.Clients[0].Criticality = 99 }, "clients[0].criticality"},

		{"stop a ns after start", arrival(Arrival{Kind: ArrivalConstant, Start: 5, Stop: 6, Rate: rate}), ""},
		{"stop at start", arrival(Arrival{Kind: ArrivalConstant, Start: 5, Stop: 5, Rate: rate}), a0 + ".stop"},
		{"stop -1ns", arrival(Arrival{Kind: ArrivalConstant, Stop: -1, Rate: rate}), a0},
		{"start a ns before the end", arrival(Arrival{Kind: ArrivalConstant, Start: time.Second - 1, Rate: rate}), ""},
		{"stop at the end", arrival(Arrival{Kind: ArrivalConstant, Stop: time.Second, Rate: rate}), ""},
		{"burst a ns before the end", arrival(Arrival{Kind: ArrivalBurst, At: time.Second - 1, Count: 1}), ""},
		{"burst count 1", arrival(Arrival{Kind: ArrivalBurst, Count: 1}), ""},
		{"burst count 0", arrival(Arrival{Kind: ArrivalBurst}), a0 + ".count"},
		{"burst spread -1ns", arrival(Arrival{Kind: ArrivalBurst, Count: 1, Spread: -1}), a0},
		{"burst at -1ns", arrival(Arrival{Kind: ArrivalBurst, Count: 1, At: -1}), a0},
		{"constant rate count 0", arrival(Arrival{Kind: ArrivalConstant, Rate: Rate{Per: time.Second}}), a0 + ".rate"},
		{"constant rate per 0", arrival(Arrival{Kind: ArrivalConstant, Rate: Rate{Count: 1}}), a0 + ".rate"},
		{"poisson one per ns", arrival(Arrival{Kind: ArrivalPoisson, Rate: Rate{Count: 1, Per: 1}}), ""},
		{"poisson two per ns", arrival(Arrival{Kind: ArrivalPoisson, Rate: Rate{Count: 2, Per: 1}}), a0 + ".rate"},
		{"on/off off 0", arrival(Arrival{Kind: ArrivalOnOff, Rate: rate, On: time.Millisecond}), ""},
		{"on/off off -1ns", arrival(Arrival{Kind: ArrivalOnOff, Rate: rate, On: time.Millisecond, Off: -1}), a0 + ".off"},
		{"on/off on 0", arrival(Arrival{Kind: ArrivalOnOff, Rate: rate}), a0 + ".on"},
		{"on/off rate 0", arrival(Arrival{Kind: ArrivalOnOff, On: time.Millisecond}), a0 + ".rate"},
		{"idle-then-burst", arrival(Arrival{Kind: ArrivalIdleThenBurst, Count: 1, Idle: 1}), ""},
		{"idle-then-burst count 0", arrival(Arrival{Kind: ArrivalIdleThenBurst, Idle: 1}), a0 + ".count"},
		{"idle-then-burst idle 0", arrival(Arrival{Kind: ArrivalIdleThenBurst, Count: 1}), a0 + ".idle"},
		{"idle-then-burst spread -1ns", arrival(Arrival{Kind: ArrivalIdleThenBurst, Count: 1, Idle: 1, Spread: -1}), a0 + ".spread"},
		{"arrival kind unknown", arrival(Arrival{Kind: 99}), a0 + ".kind"},
	})
}

func TestEdgesOfRetriesAndBudgets(t *testing.T) {
	budget := func(b RetryBudget) func(*Config) {
		return func(c *Config) {
			c.Clients[0].Retry = Retry{Kind: RetryFixed, Delay: time.Millisecond, Budget: &b}
		}
	}
	const b0 = "clients[0].retry.budget"
	checkEdges(t, auditConfig, []edgeCase{
		{"ratio at the least", budget(RetryBudget{Ratio: minBudgetRatio}), ""},
		{"ratio under the least", budget(RetryBudget{Ratio: minBudgetRatio / 2}), b0 + ".ratio"},
		{"ratio at the most", budget(RetryBudget{Ratio: maxBudgetRatio}), ""},
		{"ratio over the most", budget(RetryBudget{Ratio: maxBudgetRatio * 1.001}), b0 + ".ratio"},
		{"ratio NaN", budget(RetryBudget{Ratio: math.NaN(), MinPerSecond: 1}), b0 + ".ratio"},
		{"min_per_second at the most", budget(RetryBudget{MinPerSecond: maxBudgetPerSec}), ""},
		{"min_per_second over the most", budget(RetryBudget{MinPerSecond: maxBudgetPerSec + 1}), b0 + ".min_per_second"},
		{"min_per_second -1", budget(RetryBudget{Ratio: 0.2, MinPerSecond: -1}), b0 + ".min_per_second"},
		{"ttl 1s", budget(RetryBudget{Ratio: 0.2, TTL: time.Second}), ""},
		{"ttl a ns under 1s", budget(RetryBudget{Ratio: 0.2, TTL: time.Second - 1}), b0 + ".ttl"},
		{"ttl 1m", budget(RetryBudget{Ratio: 0.2, TTL: time.Minute}), ""},
		{"ttl a ns over 1m", budget(RetryBudget{Ratio: 0.2, TTL: time.Minute + 1}), b0 + ".ttl"},
		{"ratio 0 and min 0", budget(RetryBudget{}), b0},
		{"retry kind unknown", func(c *Config) { c.Clients[0].Retry = Retry{Kind: 99} }, "clients[0].retry.kind"},
		{"retry_after unknown", func(c *Config) {
			c.Clients[0].Retry = Retry{Kind: RetryFixed, Delay: time.Millisecond, RetryAfter: 99}
		}, "clients[0].retry.retry_after"},
		{"jitter unknown", func(c *Config) {
			c.Clients[0].Retry = Retry{Kind: RetryExponential, Base: time.Millisecond, Cap: time.Second, Jitter: 99}
		}, "clients[0].retry.jitter"},
		{"jitter no_backoff", func(c *Config) {
			c.Clients[0].Retry = Retry{Kind: RetryExponential, Base: time.Millisecond, Cap: time.Second, Jitter: JitterNoBackoff}
		}, "clients[0].retry.jitter"},
		{"retry_after_jitter without honouring", func(c *Config) {
			c.Clients[0].Retry = Retry{Kind: RetryFixed, Delay: time.Millisecond, RetryAfterJitter: time.Millisecond}
		}, "clients[0].retry.retry_after_jitter"},
	})
}

func TestEdgesOfTheWorld(t *testing.T) {
	checkEdges(t, auditConfig, []edgeCase{
		{"bucket as long as the duration", func(c *Config) { c.Bucket = time.Second }, ""},
		{"bucket a ns longer", func(c *Config) { c.Bucket = time.Second + 1 }, "bucket"},
		{"no limits", func(c *Config) { c.Limits = nil }, "limits"},
		{"no clients", func(c *Config) { c.Clients = nil }, "clients"},
		{"header style unknown", func(c *Config) { c.HeaderStyle = 99 }, "header_style"},
		{"chain unknown", func(c *Config) { c.Chain = 99 }, "chain"},
		{"lane unknown", func(c *Config) { c.Lanes = []LaneKind{LaneKind(200)} }, "lanes[0]"},
		{"key unknown", func(c *Config) { c.Limits[0].Key = 99 }, "limits[0].key"},
		{"burst 0", func(c *Config) { c.Limits[0].Policy.Burst = 0 }, ""},
		{"burst -1", func(c *Config) { c.Limits[0].Policy.Burst = -1 }, "limits[0].burst"},
		{"backend service unknown", func(c *Config) { c.Backend.Service.Kind = 99 }, "backend.service.distribution"},
		{"backend change at -1ns", func(c *Config) { c.Backend.Changes = []BackendChange{{At: -1}} }, "backend.changes[0].at"},
		{"backend change a ns before the end", func(c *Config) { c.Backend.Changes = []BackendChange{{At: time.Second - 1}} }, ""},
		{"backend change capacity -1", func(c *Config) { c.Backend.Changes = []BackendChange{{Capacity: -1}} }, "backend.changes[0].capacity"},
		{"start in 1970", func(c *Config) { c.Start = time.Unix(0, 0) }, ""},
		{"start in 1969", func(c *Config) { c.Start = time.Unix(-1, 0) }, "start"},
		{"start in 2200", func(c *Config) { c.Start = time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC) }, "start"},
	})
}

func TestEdgesOfShedding(t *testing.T) {
	shed := func(s Shedding) func(*Config) {
		return func(c *Config) { c.Backend.Shedding = &s }
	}
	const p = "backend.shedding"
	checkEdges(t, auditConfig, []edgeCase{
		{"no shedder", shed(Shedding{}), p},
		{"retry_after -1ns", shed(Shedding{FleetUsage: &FleetUsage{Reserve: 0.2}, RetryAfter: -1}), p + ".retry_after"},
		{"reserve just over 0", shed(Shedding{FleetUsage: &FleetUsage{Reserve: 1e-9}}), ""},
		{"reserve 0", shed(Shedding{FleetUsage: &FleetUsage{}}), p + ".fleet_usage.reserve"},
		{"reserve just under 1", shed(Shedding{FleetUsage: &FleetUsage{Reserve: 1 - 1e-9}}), ""},
		{"reserve 1", shed(Shedding{FleetUsage: &FleetUsage{Reserve: 1}}), p + ".fleet_usage.reserve"},
		{"reserve NaN", shed(Shedding{FleetUsage: &FleetUsage{Reserve: math.NaN()}}), p + ".fleet_usage.reserve"},
		{"keep unknown", shed(Shedding{FleetUsage: &FleetUsage{Reserve: 0.2, Keep: 99}}), p + ".fleet_usage.keep"},
		{"threshold 1", shed(Shedding{Utilisation: &UtilisationShedding{Threshold: 1}}), ""},
		{"threshold just over 1", shed(Shedding{Utilisation: &UtilisationShedding{Threshold: 1 + 1e-9}}), p + ".utilisation.threshold"},
		{"threshold negative", shed(Shedding{Utilisation: &UtilisationShedding{Threshold: -0.5, QueueAge: 1}}), p + ".utilisation.threshold"},
		{"queue age alone", shed(Shedding{Utilisation: &UtilisationShedding{QueueAge: 1}}), ""},
		{"queue age -1ns", shed(Shedding{Utilisation: &UtilisationShedding{Threshold: 0.5, QueueAge: -1}}), p + ".utilisation.queue_age"},
		{"watching nothing", shed(Shedding{Utilisation: &UtilisationShedding{Escalate: 1}}), p + ".utilisation"},
		{"escalate -1ns", shed(Shedding{Utilisation: &UtilisationShedding{Threshold: 0.5, Escalate: -1}}), p + ".utilisation.escalate"},
	})
}

func TestEdgesOfGradient2(t *testing.T) {
	g2 := func(g Gradient2Settings) func(*Config) {
		return func(c *Config) {
			c.Lanes = []LaneKind{LaneGradient2}
			c.Gradient2 = g
		}
	}
	checkEdges(t, auditConfig, []edgeCase{
		{"defaults", g2(Gradient2Settings{}), ""},
		{"max 1, min 1, initial 1", g2(Gradient2Settings{Max: 1, Min: 1, Initial: 1}), ""},
		{"max under 1", g2(Gradient2Settings{Max: 0.5, Min: 0.5, Initial: 0.5}), "gradient2.max"},
		{"max 2^31-1", g2(Gradient2Settings{Max: math.MaxInt32}), ""},
		{"max 2^31", g2(Gradient2Settings{Max: math.MaxInt32 + 1}), "gradient2.max"},
		{"min past max", g2(Gradient2Settings{Max: 10, Min: 11, Initial: 10}), "gradient2.min"},
		{"min at max", g2(Gradient2Settings{Max: 10, Min: 10, Initial: 10}), ""},
		{"initial past max", g2(Gradient2Settings{Max: 10, Min: 1, Initial: 11}), "gradient2.initial"},
		{"smoothing 1", g2(Gradient2Settings{Smoothing: 1}), ""},
		{"smoothing over 1", g2(Gradient2Settings{Smoothing: 1.5}), "gradient2.smoothing"},
		{"smoothing negative", g2(Gradient2Settings{Smoothing: -0.1}), "gradient2.smoothing"},
		{"queue size 2^31-1", g2(Gradient2Settings{QueueSize: math.MaxInt32}), ""},
		{"queue size 2^31", g2(Gradient2Settings{QueueSize: math.MaxInt32 + 1}), "gradient2.queue_size"},
		{"queue size negative", g2(Gradient2Settings{QueueSize: -1}), "gradient2.queue_size"},
		{"long window 1", g2(Gradient2Settings{LongWindow: 1}), ""},
		{"long window negative", g2(Gradient2Settings{LongWindow: -1}), "gradient2.long_window"},
		{"rtt tolerance 1", g2(Gradient2Settings{RTTTolerance: 1}), ""},
		{"rtt tolerance under 1", g2(Gradient2Settings{RTTTolerance: 0.5}), "gradient2.rtt_tolerance"},
		{"rtt tolerance 2^31", g2(Gradient2Settings{RTTTolerance: math.MaxInt32 + 1}), "gradient2.rtt_tolerance"},
		{"retry_after -1ns", g2(Gradient2Settings{RetryAfter: -1}), "gradient2.retry_after"},
	})
}

func TestEdgesOfTheTopology(t *testing.T) {
	world := func() Config { return lossWorld(LaneFixedWindow) }
	store := func(s Store) func(*Config) { return func(c *Config) { c.Topology.Store = s } }
	const st = "topology.store"
	checkEdges(t, world, []edgeCase{
		{"health interval at the least", func(c *Config) { c.Topology.Health = &HealthCheck{Interval: MinHealthInterval} }, ""},
		{"health interval a ns under", func(c *Config) { c.Topology.Health = &HealthCheck{Interval: MinHealthInterval - 1} }, "topology.health.interval"},
		{"unhealthy_after at the most", func(c *Config) { c.Topology.Health = &HealthCheck{UnhealthyAfter: MaxHealthThreshold} }, ""},
		{"unhealthy_after one over", func(c *Config) { c.Topology.Health = &HealthCheck{UnhealthyAfter: MaxHealthThreshold + 1} }, "topology.health.unhealthy_after"},
		{"healthy_after 1", func(c *Config) { c.Topology.Health = &HealthCheck{HealthyAfter: 1} }, ""},
		{"healthy_after -1", func(c *Config) { c.Topology.Health = &HealthCheck{HealthyAfter: -1} }, "topology.health.healthy_after"},
		{"restarts at one instant", store(Store{Restarts: []time.Duration{time.Second, time.Second}}), ""},
		{"restart at -1ns", store(Store{Restarts: []time.Duration{-1}}), st + ".restarts[0].at"},
		{"a partition of the last replica", func(c *Config) {
			c.Topology.Replicas = []ReplicaStep{{Count: 3}}
			c.Topology.Store.Partitions = []Partition{{To: time.Second, Replicas: []int{2}}}
		}, ""},
		{"a partition of replica -1", store(Store{Partitions: []Partition{{To: time.Second, Replicas: []int{-1}}}}), st + ".partitions[0].replicas[0]"},
		{"a partition naming a replica twice", func(c *Config) {
			c.Topology.Replicas = []ReplicaStep{{Count: 3}}
			c.Topology.Store.Partitions = []Partition{{To: time.Second, Replicas: []int{1, 2, 1}}}
		}, st + ".partitions[0].replicas[2]"},
		{"a partition from -1ns", store(Store{Partitions: []Partition{{From: -1, To: time.Second, Replicas: []int{0}}}}), st + ".partitions[0]"},
		{"a partition of a ns", store(Store{Partitions: []Partition{{From: 5, To: 6, Replicas: []int{0}}}}), ""},
		{"a hung partition with a timeout", store(Store{Timeout: time.Millisecond,
			Partitions: []Partition{{To: time.Second, Replicas: []int{0}, Hung: true}}}), ""},
		{"MaxShards shards", store(Store{Shards: MaxShards}), ""},
		{"shards -1", store(Store{Shards: -1}), st + ".shards"},
		{"queue limit -1", store(Store{QueueLimit: -1}), st + ".queue_limit"},
		{"queue limit one over", store(Store{QueueLimit: MaxStoreQueue + 1}), st + ".queue_limit"},
		{"maxmemory -1", store(Store{MaxMemory: -1}), st + ".maxmemory"},
		{"eviction unknown", store(Store{Eviction: 99}), st + ".eviction"},
		{"service unknown", store(Store{Service: 99}), st + ".service"},
		{"store changes a ns apart", store(Store{Changes: []StoreChange{{At: 0}, {At: 1}}}), ""},
		{"store changes at one instant", store(Store{Changes: []StoreChange{{At: 1}, {At: 1}}}), st + ".changes[1].at"},
		{"store change at -1ns", store(Store{Changes: []StoreChange{{At: -1}}}), st + ".changes[0].at"},
		{"store change capacity NaN", store(Store{Changes: []StoreChange{{Capacity: math.NaN()}}}), st + ".changes[0].capacity"},
		{"store change latency -1ns", store(Store{Changes: []StoreChange{{Latency: Service{Mean: -1}}}}), st + ".changes[0].latency.mean"},
		{"store change latency unknown", store(Store{Changes: []StoreChange{{Latency: Service{Kind: 99}}}}), st + ".changes[0].latency.distribution"},
		{"store capacity at the most", store(Store{Capacity: MaxStoreCapacity}), ""},
		{"store latency unknown", store(Store{Latency: Service{Kind: 99}}), st + ".latency.distribution"},
		{"store timeout -1ns", store(Store{Timeout: -1}), st + ".timeout"},
		{"first replica step at 1ns", func(c *Config) { c.Topology.Replicas = []ReplicaStep{{At: 1, Count: 1}} }, "topology.replicas[0].at"},
		{"replica count 0", func(c *Config) { c.Topology.Replicas = []ReplicaStep{{Count: 0}} }, "topology.replicas[0].count"},
		{"routing unknown", func(c *Config) { c.Topology.Routing = 99 }, "topology.routing"},
		{"hash key unknown", func(c *Config) { c.Topology.HashKey = 99 }, "topology.hash_key"},
		{"outages touching", store(Store{Outages: []Outage{{From: 0, To: 5}, {From: 5, To: 6}}}), ""},
		{"outages overlapping", store(Store{Outages: []Outage{{From: 0, To: 5}, {From: 4, To: 6}}}), st + ".outages[1]"},
		{"breaker settings without failures", store(Store{Breaker: Breaker{Probes: 1}}), st + ".breaker.failures"},
		{"breaker at its bounds", store(Store{Breaker: Breaker{Failures: MaxBreakerCalls, Probes: MaxBreakerCalls, Window: 1, Cooldown: 1}}), ""},
		{"breaker failures one over", store(Store{Breaker: Breaker{Failures: MaxBreakerCalls + 1, Probes: 1, Window: 1, Cooldown: 1}}), st + ".breaker.failures"},
		{"breaker probes 0", store(Store{Breaker: Breaker{Failures: 1, Window: 1, Cooldown: 1}}), st + ".breaker.probes"},
		{"breaker probes one over", store(Store{Breaker: Breaker{Failures: 1, Probes: MaxBreakerCalls + 1, Window: 1, Cooldown: 1}}), st + ".breaker.probes"},
		{"breaker window 0", store(Store{Breaker: Breaker{Failures: 1, Probes: 1, Cooldown: 1}}), st + ".breaker.window"},
		{"breaker cooldown 0", store(Store{Breaker: Breaker{Failures: 1, Probes: 1, Window: 1}}), st + ".breaker.cooldown"},
		{"lease at the most", store(Store{Lease: MaxLease}), ""},
		{"lease one over", store(Store{Lease: MaxLease + 1}), st + ".lease"},
		{"lease -1", store(Store{Lease: -1}), st + ".lease"},
		{"lease on a racy store", store(Store{Lease: 1, Racy: true}), st + ".lease"},
		{"remedies without a shared limit", func(c *Config) {
			c.Limits[0].State, c.Limits[0].OnStoreError = StateLocal, FailOpen
			c.Topology.Store = Store{Lease: 1, RefusalCache: true, Breaker: Breaker{Failures: 1, Probes: 1, Window: 1, Cooldown: 1}}
		}, "topology.store.lease"},
		{"a refusal cache without a shared limit", func(c *Config) {
			c.Limits[0].State, c.Limits[0].OnStoreError = StateLocal, FailOpen
			c.Topology.Store = Store{RefusalCache: true}
		}, "topology.store.refusal_cache"},
		{"a breaker without a shared limit", func(c *Config) {
			c.Limits[0].State, c.Limits[0].OnStoreError = StateLocal, FailOpen
			c.Topology.Store = Store{Breaker: Breaker{Failures: 1, Probes: 1, Window: 1, Cooldown: 1}}
		}, "topology.store.breaker"},
		{"state unknown", func(c *Config) { c.Limits[0].State = 99 }, "limits[0].state"},
		{"local_limit unknown", func(c *Config) { c.Limits[0].LocalLimit = 99 }, "limits[0].local_limit"},
		{"on_store_error unknown", func(c *Config) { c.Limits[0].OnStoreError = 99 }, "limits[0].on_store_error"},
		{"divided on a shared limit failing closed", func(c *Config) { c.Limits[0].LocalLimit = LocalDivided }, "limits[0].local_limit"},
		{"divided on a shared limit failing local", func(c *Config) {
			c.Limits[0].LocalLimit, c.Limits[0].OnStoreError = LocalDivided, FailLocal
			c.Limits[0].Fallback = algorithms.Policy{Limit: 10, Window: time.Second}
		}, ""},
		{"failing local without a fallback", func(c *Config) { c.Limits[0].OnStoreError = FailLocal }, "limits[0].fallback"},
		{"failing local with a fallback of window 0", func(c *Config) {
			c.Limits[0].OnStoreError = FailLocal
			c.Limits[0].Fallback = algorithms.Policy{Limit: 10}
		}, "limits[0].fallback.window"},
		{"synced at the least interval", func(c *Config) {
			c.Limits[0].State, c.Limits[0].SyncInterval = StateSynced, MinSyncInterval
		}, ""},
		{"synced a ns under it", func(c *Config) {
			c.Limits[0].State, c.Limits[0].SyncInterval = StateSynced, MinSyncInterval-1
		}, "limits[0].sync_interval"},
	})
}

// A scenario file is held to its duration and to limits named apart; a
// program's Config is not (it may mean an instant past the end).
func TestEdgesOfAScenarioFile(t *testing.T) {
	arrival := func(a Arrival) func(*Config) {
		return func(c *Config) { c.Clients[0].Arrivals = []Arrival{a} }
	}
	rate := Rate{Count: 5, Per: time.Second}
	const a0 = "clients[0].arrivals[0]"
	named := func(c *Config) { c.Limits[0].Name = "a" }
	cases := []edgeCase{
		{"start at the end", arrival(Arrival{Kind: ArrivalConstant, Start: time.Second, Rate: rate}), a0 + ".start"},
		{"stop a ns past the end", arrival(Arrival{Kind: ArrivalConstant, Stop: time.Second + 1, Rate: rate}), a0 + ".stop"},
		{"burst at the end", arrival(Arrival{Kind: ArrivalBurst, At: time.Second, Count: 1}), a0 + ".at"},
		{"backend change at the end", func(c *Config) { c.Backend.Changes = []BackendChange{{At: time.Second}} }, "backend.changes[0].at"},
		{"two limits of one name", func(c *Config) {
			named(c)
			c.Limits = append(c.Limits, c.Limits[0])
		}, "limits[1].name"},
	}
	checkEdgesWith(t, auditConfig, cases, Config.ValidateScenario)
	for i := range cases {
		cases[i].field = ""
	}
	checkEdges(t, auditConfig, cases)
	checkEdgesWith(t, auditConfig, []edgeCase{
		{"start a ns before the end", arrival(Arrival{Kind: ArrivalConstant, Start: time.Second - 1, Rate: rate}), ""},
		{"stop at the end", arrival(Arrival{Kind: ArrivalConstant, Stop: time.Second, Rate: rate}), ""},
		{"burst a ns before the end", arrival(Arrival{Kind: ArrivalBurst, At: time.Second - 1, Count: 1}), ""},
		{"backend change a ns before the end", func(c *Config) { c.Backend.Changes = []BackendChange{{At: time.Second - 1}} }, ""},
		{"two limits of other names", func(c *Config) {
			named(c)
			c.Limits = append(c.Limits, c.Limits[0])
			c.Limits[1].Name = "b"
		}, ""},
	}, Config.ValidateScenario)
}

// An envoy_ratelimit lane's near-limit ratio is in (0, 1], and its
// failure_mode_deny agrees with the shared limits' on_store_error; an
// aws_quota lane's window is a quota period and its offset under the limit.
func TestEdgesOfProductLanes(t *testing.T) {
	erls := func(s EnvoyRateLimitSettings, topo bool, fail FailMode) func(*Config) {
		return func(c *Config) {
			c.Lanes = []LaneKind{LaneEnvoyRateLimit}
			c.Variants = []Variant{{Product: ProductSettings{EnvoyRateLimit: &s}}}
			if topo {
				c.Limits[0].State, c.Limits[0].OnStoreError = StateShared, fail
				c.Topology = &Topology{Replicas: []ReplicaStep{{Count: 1}}}
			}
		}
	}
	yes, no := true, false
	quota := func(window time.Duration, burst, offset int64) func(*Config) {
		return func(c *Config) {
			c.Duration = time.Hour
			c.Limits[0].Policy = algorithms.Policy{Limit: 10, Window: window, Burst: burst}
			c.Lanes = []LaneKind{LaneAWSQuota}
			c.Variants = []Variant{{Product: ProductSettings{AWSQuota: &AWSQuotaSettings{Offset: offset}}}}
		}
	}
	const nl, fm = "variants[0].envoy_ratelimit.near_limit_ratio", "variants[0].envoy_ratelimit.failure_mode_deny"
	checkEdges(t, auditConfig, []edgeCase{
		{"near limit ratio 1", erls(EnvoyRateLimitSettings{NearLimitRatio: 1}, false, 0), ""},
		{"near limit ratio just over 1", erls(EnvoyRateLimitSettings{NearLimitRatio: 1.0001}, false, 0), nl},
		{"near limit ratio negative", erls(EnvoyRateLimitSettings{NearLimitRatio: -0.5}, false, 0), nl},
		{"failure_mode_deny true, failing closed", erls(EnvoyRateLimitSettings{FailureModeDeny: &yes}, true, FailClosed), ""},
		{"failure_mode_deny false, failing open", erls(EnvoyRateLimitSettings{FailureModeDeny: &no}, true, FailOpen), ""},
		{"failure_mode_deny true, failing open", erls(EnvoyRateLimitSettings{FailureModeDeny: &yes}, true, FailOpen), fm},
		{"failure_mode_deny false, failing closed", erls(EnvoyRateLimitSettings{FailureModeDeny: &no}, true, FailClosed), fm},
		{"failure_mode_deny without a store", erls(EnvoyRateLimitSettings{FailureModeDeny: &no}, false, 0), fm},
		{"failure_mode_deny true beside a local limit", func(c *Config) {
			erls(EnvoyRateLimitSettings{FailureModeDeny: &yes}, true, FailClosed)(c)
			c.Limits = append(c.Limits, Limit{Name: "local", Key: KeyIP, Policy: c.Limits[0].Policy, OnStoreError: FailOpen})
		}, ""},
		{"a day's quota", quota(24*time.Hour, 0, 0), ""},
		{"a week's quota, burst the limit, offset 9", quota(7*24*time.Hour, 10, 9), ""},
		{"a month's quota", quota(30*24*time.Hour, 0, 0), ""},
		{"a quota of 25h", quota(25*time.Hour, 0, 0), "variants[0]"},
		{"a quota with a burst", quota(24*time.Hour, 5, 0), "variants[0]"},
		{"an offset of the limit", quota(24*time.Hour, 0, 10), "variants[0]"},
		{"an offset of -1", quota(24*time.Hour, 0, -1), "variants[0]"},
	})
}
