package replay

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// scenarioKeys maps a scenario's key kinds to a log's key parts: api_key and
// tenant are JSON or CSV fields of those names.
var scenarioKeys = map[sim.KeyKind]Part{
	sim.KeyGlobal:   {Kind: "global"},
	sim.KeyIP:       {Kind: "ip"},
	sim.KeyUser:     {Kind: "user"},
	sim.KeyAPIKey:   {Kind: "field", Field: "api_key"},
	sim.KeyTenant:   {Kind: "field", Field: "tenant"},
	sim.KeyEndpoint: {Kind: "endpoint"},
}

// FromScenario takes a scenario's limits (each with its name, key, policy and
// endpoint) and those of its lanes a log can replay, by lane name (the
// rate-limiter lanes, product lanes and variants among them; all six
// textbook lanes if it names none). A limit's headers setting changes no
// verdict, and its enforce: false (a shadow) decides as replay always does,
// so both are taken as they are; so are the topology's placements
// (ScenarioFleet). What replay cannot honour is an error naming it, all at
// once: a limit's rule pushes (changes: a log has no run start to time them
// from), a topology replay cannot reproduce (see ScenarioFleet) and a
// scenario none of whose lanes can be replayed. A bounded key table is kept
// unbounded (ScenarioWarnings says so). A lane's
// own policy for a limit (an override: a variant's limits, a product
// section's rate) is the policy that lane decides the limit by (Options.Config).
func FromScenario(cfg *sim.Config) ([]Limit, []string, error) {
	var limits []Limit
	var errs []error
	for i, l := range cfg.Limits {
		name := l.Name
		if name == "" {
			name = l.Key.String()
		}
		part, ok := scenarioKeys[l.Key]
		if !ok {
			errs = append(errs, fmt.Errorf("limits[%d].key: replay cannot count by %s", i, l.Key))
		}
		if l.Concurrency != 0 {
			errs = append(errs, fmt.Errorf("limits[%d].concurrency: replay cannot count requests in flight (a log line is one instant, not a request's time in the service)", i))
		}
		for _, r := range cfg.Rules {
			if r.Limit == i {
				errs = append(errs, fmt.Errorf("limits[%d].changes: replay cannot push rules (a log has no run start to time them from)", i))
				break
			}
		}
		limits = append(limits, Limit{Name: name, Key: KeySpec{part}, Policy: l.Policy, Endpoint: l.Endpoint})
	}
	if _, err := ScenarioFleet(cfg); err != nil {
		errs = append(errs, err)
	}
	var lanes []string
	for i, k := range cfg.Lanes {
		name := cfg.LaneName(i)
		if k.Info().Class != sim.RateLimiter || slices.Contains(lanes, name) {
			continue
		}
		lanes = append(lanes, name)
	}
	if len(cfg.Lanes) > 0 && len(lanes) == 0 {
		errs = append(errs, fmt.Errorf("none of the scenario's lanes is a per-key lane a log can replay (%v)", ReplayableLanes()))
	}
	if len(errs) > 0 {
		return nil, nil, errors.Join(errs...)
	}
	return limits, lanes, nil
}

// ScenarioFleet is the fleet of a scenario's topology (the zero Fleet
// without one): its replicas, routing and hash key, and each limit's state,
// local_limit and sync_interval. A limit's on_store_error and fallback are
// taken as they are: a store of no latency that never fails decides no
// request by them; so is a limit's named store (one like it: instantaneous). What replay cannot reproduce is an error naming it: an
// autoscaler (more than one replica step), and a store with latency, a
// timeout, outages or a racy check (replay's store is atomic, instantaneous
// and always answers).
func ScenarioFleet(cfg *sim.Config) (Fleet, error) {
	t := cfg.Topology
	if t == nil {
		return Fleet{}, nil
	}
	var errs []error
	f := Fleet{Routing: t.Routing, Seed: cfg.Seed}
	if len(t.Replicas) > 0 {
		f.Replicas = t.Replicas[0].Count
	}
	if len(t.Replicas) > 1 {
		errs = append(errs, errors.New("topology.replicas: replay replays a fixed fleet, not an autoscaler's steps"))
	}
	if part, ok := scenarioKeys[t.HashKey]; ok {
		f.HashKey = KeySpec{part}
	}
	st := t.Store
	if st.Latency != (sim.Service{}) || st.Timeout != 0 || len(st.Outages) > 0 || st.Racy {
		errs = append(errs, errors.New("topology.store: replay's store is atomic, instantaneous and always answers (no latency, timeout, outages or racy check)"))
	}
	for i, ns := range t.Stores {
		if st := ns.Store; st.Latency != (sim.Service{}) || st.Timeout != 0 || len(st.Outages) > 0 || st.Real() {
			errs = append(errs, fmt.Errorf("topology.stores[%d]: replay's stores are atomic, instantaneous and always answer (no latency, timeout, outages, capacity, memory or changes)", i))
		}
	}
	for i, v := range cfg.Variants {
		if v.Topology != nil || v.Placements != nil {
			errs = append(errs, fmt.Errorf("lanes[%d]: replay replays one fleet; a lane's own stores and placements are not replayed", i))
		}
	}
	for _, l := range cfg.Limits {
		f.Places = append(f.Places, Place{State: l.State, Divided: l.LocalLimit == sim.LocalDivided, SyncInterval: l.SyncInterval})
	}
	f.Place = Place{} // a --limit after the scenario's: local, whole
	return f, errors.Join(errs...)
}

// topologyFields names a limit's settings that only a topology reads, where set.
func topologyFields(l sim.Limit) []string {
	var fs []string
	if l.State != sim.StateLocal {
		fs = append(fs, "state")
	}
	if l.LocalLimit != 0 {
		fs = append(fs, "local_limit")
	}
	if l.SyncInterval != 0 {
		fs = append(fs, "sync_interval")
	}
	if l.OnStoreError != 0 {
		fs = append(fs, "on_store_error")
	}
	if l.Fallback != (algorithms.Policy{}) {
		fs = append(fs, "fallback")
	}
	if l.Store != "" {
		fs = append(fs, "store")
	}
	return fs
}

// inScope reports whether a limit with endpoint e counts rec: every request
// when e is empty, else those whose normalised path is e (or "/"+e: a
// scenario's endpoint "login" is a log's /login) or whose method and path are
// ("POST /login"). buf is scratch space, returned for reuse.
func inScope(e string, rec *Record, buf []byte) (bool, []byte) {
	if e == "" {
		return true, buf
	}
	buf = AppendPath(buf[:0], rec.Path)
	p := string(buf) // no allocation: compared, not kept
	if p == e || (len(p) == len(e)+1 && p[0] == '/' && p[1:] == e) {
		return true, buf
	}
	m, rest, ok := strings.Cut(e, " ")
	return ok && m == string(rec.Method) && rest == p, buf
}

// ScenarioWarnings say what of a scenario replay takes otherwise than run
// would, without changing a verdict while the scenario's limits hold: a
// lane's bounded key table (an nginx zone's size, Traefik's maxSources) is
// unbounded in replay, which keeps every live key.
func ScenarioWarnings(cfg *sim.Config) []string {
	var ws []string
	for i := range cfg.Lanes {
		if n := cfg.LaneKeys(i); n > 0 {
			ws = append(ws, fmt.Sprintf("lane %s: replay keeps every live key, not a table of %d (a full table's evictions are not replayed)", cfg.LaneName(i), n))
		}
	}
	return ws
}
