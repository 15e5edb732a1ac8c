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
// endpoint) and those of its lanes a log can replay (the per-key ones; all six
// if it names none). A limit's headers setting changes no verdict, and its
// enforce: false (a shadow) decides as replay always does, so both are taken
// as they are. What replay cannot honour is an error naming it, all at once: a
// limit's rule pushes (changes: a log has no run start to time them from), a
// topology (replicas and a store, and with it a limit's state, local_limit,
// sync_interval, on_store_error and fallback), overrides (a lane's own policy
// for a limit), and a scenario none of whose lanes can be replayed.
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
		if cfg.Topology != nil {
			for _, f := range topologyFields(l) {
				errs = append(errs, fmt.Errorf("limits[%d].%s: replay replays one limiter, not a topology's replicas and store", i, f))
			}
		}
		for _, r := range cfg.Rules {
			if r.Limit == i {
				errs = append(errs, fmt.Errorf("limits[%d].changes: replay cannot push rules (a log has no run start to time them from)", i))
				break
			}
		}
		limits = append(limits, Limit{Name: name, Key: KeySpec{part}, Policy: l.Policy, Endpoint: l.Endpoint})
	}
	if cfg.Topology != nil {
		errs = append(errs, errors.New("topology: replay replays one limiter, not replicas behind a load balancer"))
	}
	if len(cfg.Overrides) > 0 {
		errs = append(errs, errors.New("overrides (or a lane's own limits): replay applies each limit's policy in every lane"))
	}
	var lanes []string
	for _, k := range cfg.Lanes {
		if name := k.String(); slices.Contains(LaneNames, name) && !slices.Contains(lanes, name) {
			lanes = append(lanes, name)
		}
	}
	if len(cfg.Lanes) > 0 && len(lanes) == 0 {
		errs = append(errs, fmt.Errorf("none of the scenario's lanes is a per-key lane a log can replay (%v)", LaneNames))
	}
	if len(errs) > 0 {
		return nil, nil, errors.Join(errs...)
	}
	return limits, lanes, nil
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
