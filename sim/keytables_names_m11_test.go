package sim

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// A lane with bounded key tables reports one per limit of the chain, in
// chain order, each named by its own limit and of the size asked; a rule
// push on the second limit keeps that limit's table before the push as an
// entry of its own, under its name.
func TestKeyTablesNamedByTheirOwnLimits(t *testing.T) {
	cfg := Config{
		Duration: 2 * time.Second, Seed: 1, Lanes: []LaneKind{LaneTokenBucket},
		Variants: []Variant{{Options: LaneOptions{Keys: 3}}},
		Limits: []Limit{
			{Name: "per-ip", Key: KeyIP, Policy: algorithms.Policy{Limit: 100, Window: time.Second}},
			{Name: "per-user", Key: KeyUser, Policy: algorithms.Policy{Limit: 100, Window: time.Second}},
		},
		Clients: []ClientGroup{{Name: "c", Count: 8, Identity: Identity{User: "u{i}", IP: "10.0.0.{i}"},
			Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 4, Per: time.Second}}}}},
	}
	lr := mustRun(t, cfg, Options{}).Lanes[0]
	if len(lr.KeyTables) != 2 {
		t.Fatalf("key tables %+v, want one per limit", lr.KeyTables)
	}
	for i, kt := range lr.KeyTables {
		if kt.Limit != cfg.Limits[i].Name || kt.Size != 3 {
			t.Errorf("key table %d: %+v, want %s's, of 3 keys", i, kt, cfg.Limits[i].Name)
		}
	}
	cfg.Rules = []RuleChange{{At: time.Second, Limit: 1, Policy: algorithms.Policy{Limit: 50, Window: time.Second}}}
	lr = mustRun(t, cfg, Options{}).Lanes[0]
	names := map[string]int{}
	for _, kt := range lr.KeyTables {
		names[kt.Limit]++
	}
	if len(lr.KeyTables) != 3 || names["per-ip"] != 1 || names["per-user"] != 2 {
		t.Errorf("after a push on per-user: key tables %+v, want per-ip's and per-user's twice", lr.KeyTables)
	}
}
