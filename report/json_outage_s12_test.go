package report

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"

	"github.com/rlsim/rlsim/sim"
)

// topologyLists decodes the JSON of a topology result for its lists.
type topologyLists struct {
	Limits []struct {
		Limit  string           `json:"limit"`
		Outage *json.RawMessage `json:"outage_classes"`
	} `json:"limits"`
	Phases   *json.RawMessage `json:"phases"`
	Remedies struct {
		Breakers *json.RawMessage `json:"breakers"`
	} `json:"remedies"`
	Health *struct {
		OutS *json.RawMessage `json:"out_s"`
	} `json:"health"`
}

// TestTopologyJSONListsAreEmptyNotNull: docs/output.md describes
// outage_classes, phases, breakers and out_s as lists, one entry per class,
// moment, breaker and replica; with none of them each is written [], not null
// (nor left out), for every limit of the chain; a limit with classes lists
// each, in order, with its decided and admitted counts.
func TestTopologyJSONListsAreEmptyNotNull(t *testing.T) {
	tr := &sim.TopologyResult{Replicas: 2, Health: &sim.HealthResult{},
		Limits: []sim.LimitTopology{
			{Limit: "none"},
			{Limit: "unavailable, no class", Unavailable: sim.StoreCounts{Local: 3}},
			{Limit: "classes", Classes: []sim.OutageClass{{Name: "free", Decided: 5, Admitted: 2}, {Name: "paid", Decided: 4, Admitted: 4}}},
			{Limit: "last, none"},
		}}
	b, err := json.Marshal(topologyJSON(tr))
	if err != nil {
		t.Fatal(err)
	}
	var got topologyLists
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	empty := func(what string, m *json.RawMessage) {
		t.Helper()
		if m == nil || string(*m) != "[]" {
			t.Errorf("%s: %s, want []", what, rawOrAbsent(m))
		}
	}
	if len(got.Limits) != len(tr.Limits) {
		t.Fatalf("%d limits, want %d: %s", len(got.Limits), len(tr.Limits), b)
	}
	for i, l := range got.Limits {
		if l.Limit != tr.Limits[i].Limit {
			t.Errorf("limit %d is %q, want %q", i, l.Limit, tr.Limits[i].Limit)
		}
		if len(tr.Limits[i].Classes) == 0 {
			empty("limit "+l.Limit+": outage_classes", l.Outage)
			continue
		}
		var classes []jsonOutage
		if l.Outage == nil || json.Unmarshal(*l.Outage, &classes) != nil {
			t.Errorf("limit %s: outage_classes %s, want a list", l.Limit, rawOrAbsent(l.Outage))
			continue
		}
		want := []jsonOutage{{"free", 5, 2}, {"paid", 4, 4}}
		if !slices.Equal(classes, want) {
			t.Errorf("limit %s: outage_classes %+v, want %+v", l.Limit, classes, want)
		}
	}
	empty("phases", got.Phases)
	empty("remedies.breakers", got.Remedies.Breakers)
	if got.Health == nil {
		t.Fatalf("health absent with a health result: %s", b)
	}
	empty("health.out_s", got.Health.OutS)
	if bytes.Contains(b, []byte("null")) {
		t.Errorf("the topology's JSON holds a null: %s", b)
	}
}

func rawOrAbsent(m *json.RawMessage) string {
	if m == nil {
		return "null or absent"
	}
	return string(*m)
}
