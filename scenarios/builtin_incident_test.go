package scenarios

import (
	"sync"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// incidentLanes runs incident-0341 (runBuiltinResult) once for the tests
// that read it and returns its two lanes, as deployed and under the
// contract, each with a topology.
func incidentLanes(t *testing.T) (deployed, contract sim.LaneResult) {
	t.Helper()
	incidentOnce.Do(func() { _, incidentRun = runBuiltinResult(t, "incident-0341") })
	r := incidentRun
	if len(r.Lanes) != 2 || r.Lanes[0].Name != "as-deployed" || r.Lanes[1].Name != "contract" || r.Lanes[0].Topology == nil || r.Lanes[1].Topology == nil {
		t.Fatalf("incident-0341: want the lanes as-deployed and contract, each with a topology")
	}
	return r.Lanes[0], r.Lanes[1]
}

var (
	incidentOnce sync.Once
	incidentRun  sim.Result
)

// firstPhase is the first phase of kind (of limit, if not ""), or -1.
func firstPhase(t *sim.TopologyResult, kind sim.PhaseKind, limit string) time.Duration {
	for _, p := range t.Phases {
		if p.Kind == kind && (limit == "" || p.Limit == limit) {
			return p.At
		}
	}
	return -1
}

// The claims of incident-0341, from its file: the store holds until the
// attack passes its capacity at 60s (550 calls a second before, 1050 after,
// against 750); then, in this order, its calls time out, login fails open,
// health fails closed, the replicas leave the rotation and none is left; the
// store drains, they come back, and it happens again, about every 20s; the
// guesses that got through while the store failed are every one decided then.
func TestIncident0341CascadesOnItsOwn(t *testing.T) {
	l, _ := incidentLanes(t)
	topo := l.Topology
	if topo.PhasesCut {
		t.Fatalf("phases cut at %d: a stretch of store failures flapped", len(topo.Phases))
	}
	order := []time.Duration{
		firstPhase(topo, sim.PhaseStoreTimeouts, ""),
		firstPhase(topo, sim.PhaseFailOpen, "login"),
		firstPhase(topo, sim.PhaseFailClosed, "health"),
		firstPhase(topo, sim.PhaseReplicaOut, ""),
		firstPhase(topo, sim.PhaseNoHealthyReplica, ""),
		firstPhase(topo, sim.PhaseStoreAnswering, ""),
		firstPhase(topo, sim.PhaseReplicaIn, ""),
	}
	if order[0] < 60*time.Second {
		t.Errorf("the store failed at %v, before the attack passed its capacity at 60s", order[0])
	}
	for i := 1; i < len(order); i++ {
		if order[i] < order[i-1] {
			t.Errorf("phase %d at %v, before phase %d at %v: the cascade is out of order %v", i, order[i], i-1, order[i-1], order)
		}
	}
	var noHealthy []time.Duration
	for _, p := range topo.Phases {
		if p.Kind == sim.PhaseNoHealthyReplica {
			noHealthy = append(noHealthy, p.At)
		}
	}
	if len(noHealthy) < 2 {
		t.Fatalf("the site went down %d times, the file says again and again", len(noHealthy))
	}
	for i := 1; i < len(noHealthy); i++ {
		if gap := noHealthy[i] - noHealthy[i-1]; gap < 15*time.Second || gap > 25*time.Second {
			t.Errorf("the site went down at %v: not a cycle of about 20s", noHealthy)
		}
	}
	var login sim.LimitTopology
	for _, lt := range topo.Limits {
		if lt.Limit == "login" {
			login = lt
		}
	}
	var through int64
	for _, c := range login.Classes {
		if c.Name == "attacker" {
			through = c.Admitted
			if c.Admitted != c.Decided || c.Admitted == 0 {
				t.Errorf("login failing open let %d of %d guesses through, want all and some", c.Admitted, c.Decided)
			}
		}
	}
	if through == 0 || topo.Health == nil || topo.Health.NoHealthy == 0 {
		t.Errorf("no guesses through (%d) or no 503 from the load balancer (%+v)", through, topo.Health)
	}
}

// incident-0341's contract lane, the same traffic under the recommended
// contract: every member served, the site never down, the attacker served
// far less often, the stores called less, and no guess let through
// unmetered; login's calls all go to its own store, api's to the other.
func TestIncident0341ContractHolds(t *testing.T) {
	inc, con := incidentLanes(t)
	mi, mc := success(class(inc, "members")), success(class(con, "members"))
	ai, ac := success(class(inc, "attacker")), success(class(con, "attacker"))
	if mc < 0.999 || mi > 0.9 {
		t.Errorf("members served %.1f%% in the incident, %.1f%% under the contract: want most not, and all", 100*mi, 100*mc)
	}
	if ac*2 > ai {
		t.Errorf("the attacker served %.1f%% in the incident, %.1f%% under the contract: want under half", 100*ai, 100*ac)
	}
	if con.Topology.StoreCalls >= inc.Topology.StoreCalls {
		t.Errorf("store calls %d under the contract, %d in the incident", con.Topology.StoreCalls, inc.Topology.StoreCalls)
	}
	if h := con.Topology.Health; h != nil && h.NoHealthy > 0 {
		t.Errorf("under the contract the load balancer answered 503 to %d attempts", h.NoHealthy)
	}
	if firstPhase(con.Topology, sim.PhaseFailOpen, "") >= 0 || firstPhase(con.Topology, sim.PhaseBreakerOpen, "") < 0 {
		t.Errorf("under the contract a limit failed open, or no breaker opened: %v", con.Topology.Phases)
	}
}

// The contract lane keeps login on the abuse store: its shards (after
// topology.store's one) take every login call, and the saturation of the
// abuse store leaves topology.store answering every api call, while as
// deployed the one store serves both and fails both.
func TestIncident0341ContractSeparatesTheStores(t *testing.T) {
	inc, con := incidentLanes(t)
	if len(inc.Topology.Shards) != 1 || inc.Topology.Shards[0].Store != "" {
		t.Fatalf("as deployed: shards %+v, want topology.store's one", inc.Topology.Shards)
	}
	shards := con.Topology.Shards
	if len(shards) != 2 || shards[0].Store != "" || shards[1].Store != "abuse" {
		t.Fatalf("contract: shards %+v, want topology.store's then abuse's", shards)
	}
	login, api := limitTopology(con.Topology, "login"), limitTopology(con.Topology, "api")
	if shards[1].Calls != login.StoreCalls || shards[0].Calls != api.StoreCalls {
		t.Errorf("contract: abuse store %d calls, login %d; topology.store %d, api %d: each limit's calls on its own store",
			shards[1].Calls, login.StoreCalls, shards[0].Calls, api.StoreCalls)
	}
	if f := shards[0].Refused + shards[0].TimedOut; f != 0 || shards[1].TimedOut+shards[1].Refused == 0 {
		t.Errorf("contract: topology.store failed %d calls, abuse %d: want the attack to saturate its own store alone", f, shards[1].TimedOut+shards[1].Refused)
	}
	for _, p := range con.Topology.Phases {
		if (p.Kind == sim.PhaseStoreTimeouts || p.Kind == sim.PhaseStoreRefusing) && p.Shard != 1 {
			t.Errorf("contract: phase %v on shard %d, want every store failure on the abuse store's shard 1", p.Kind, p.Shard)
		}
	}
	if api.Unavailable != (sim.StoreCounts{}) {
		t.Errorf("contract: api decided %+v by its fail mode; its store never failed", api.Unavailable)
	}
}

// limitTopology is the limit named name's figures in t.
func limitTopology(t *sim.TopologyResult, name string) sim.LimitTopology {
	for _, lt := range t.Limits {
		if lt.Limit == name {
			return lt
		}
	}
	return sim.LimitTopology{}
}
