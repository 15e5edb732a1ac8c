package replay

import (
	"fmt"
	"slices"

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

// FromScenario takes a scenario's limits (each with its name, key and policy)
// and those of its lanes a log can replay (the per-key ones; all six if it
// names none). It is an error when none of its lanes can be replayed.
func FromScenario(cfg *sim.Config) ([]Limit, []string, error) {
	var limits []Limit
	for _, l := range cfg.Limits {
		name := l.Name
		if name == "" {
			name = l.Key.String()
		}
		limits = append(limits, Limit{Name: name, Key: KeySpec{scenarioKeys[l.Key]}, Policy: l.Policy})
	}
	if len(cfg.Lanes) == 0 {
		return limits, nil, nil
	}
	var lanes []string
	for _, k := range cfg.Lanes {
		if name := k.String(); slices.Contains(LaneNames, name) && !slices.Contains(lanes, name) {
			lanes = append(lanes, name)
		}
	}
	if len(lanes) == 0 {
		return nil, nil, fmt.Errorf("none of the scenario's lanes is a per-key lane a log can replay (%v)", LaneNames)
	}
	return limits, lanes, nil
}
