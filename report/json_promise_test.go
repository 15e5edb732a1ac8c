package report

import (
	"bytes"
	"encoding/csv"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// topologySpecJSON: nil without a topology; times in seconds; atomic is the
// store not racy; hash_key only for hash routing; outages an empty list, not null.
func TestPromiseTopologySpecJSON(t *testing.T) {
	if topologySpecJSON(nil) != nil {
		t.Fatal("topologySpecJSON(nil) != nil")
	}
	topo := &sim.Topology{Replicas: []sim.ReplicaStep{{Count: 2}, {At: 1500 * time.Millisecond, Count: 4}},
		Routing: sim.RoutingRoundRobin, HashKey: sim.KeyIP,
		Store: sim.Store{Latency: sim.Service{Mean: 2 * time.Millisecond}, Timeout: 250 * time.Millisecond}}
	jt := topologySpecJSON(topo)
	if jt.HashKey != "" {
		t.Errorf("round robin: hash_key %q, want none", jt.HashKey)
	}
	if !jt.Store.Atomic || jt.Store.LatencyMeanS != 0.002 || jt.Store.TimeoutS != 0.25 {
		t.Errorf("store = %+v, want atomic, 0.002 s mean, 0.25 s timeout", jt.Store)
	}
	if jt.Store.Outages == nil || len(jt.Store.Outages) != 0 {
		t.Errorf("outages = %#v, want an empty list", jt.Store.Outages)
	}
	if len(jt.Replicas) != 2 || jt.Replicas[1].AtS != 1.5 || jt.Replicas[1].Count != 4 {
		t.Errorf("replicas = %+v, want a step to 4 at 1.5 s", jt.Replicas)
	}
	topo.Routing = sim.RoutingRandom
	if jt := topologySpecJSON(topo); jt.HashKey != "" {
		t.Errorf("random routing: hash_key %q, want none", jt.HashKey)
	}
	topo.Routing, topo.Store.Racy = sim.RoutingHash, true
	topo.Store.Outages = []sim.Outage{{From: time.Second, To: 3 * time.Second}}
	jt = topologySpecJSON(topo)
	if jt.HashKey != sim.KeyIP.String() || jt.Store.Atomic {
		t.Errorf("hash routing, racy: hash_key %q atomic %v", jt.HashKey, jt.Store.Atomic)
	}
	if len(jt.Store.Outages) != 1 || jt.Store.Outages[0].FromS != 1 || jt.Store.Outages[0].ToS != 3 {
		t.Errorf("outages = %+v, want 1 s to 3 s", jt.Store.Outages)
	}
}

// placementJSON: local limits say whole or divided, synced ones their interval
// in seconds, shared ones what they do on a store error, with a fallback
// policy (effective burst) only when they fall back locally.
func TestPromisePlacementJSON(t *testing.T) {
	fb := algorithms.Policy{Limit: 4, Window: 2 * time.Second}
	var jl jsonLimit
	placementJSON(&jl, sim.Limit{State: sim.StateLocal, LocalLimit: sim.LocalDivided, SyncInterval: time.Second})
	if jl.LocalLimit != sim.LocalDivided.String() || jl.SyncInterval != 0 || jl.OnStoreError != "" {
		t.Errorf("local: %+v", jl)
	}
	jl = jsonLimit{}
	placementJSON(&jl, sim.Limit{State: sim.StateSynced, SyncInterval: 500 * time.Millisecond, LocalLimit: sim.LocalDivided})
	if jl.SyncInterval != 0.5 || jl.LocalLimit != "" || jl.State != sim.StateSynced.String() {
		t.Errorf("synced: %+v", jl)
	}
	jl = jsonLimit{}
	placementJSON(&jl, sim.Limit{State: sim.StateShared, OnStoreError: sim.FailClosed, Fallback: fb})
	if jl.OnStoreError != sim.FailClosed.String() || jl.Fallback != nil {
		t.Errorf("shared, fails closed: %+v", jl)
	}
	jl = jsonLimit{}
	placementJSON(&jl, sim.Limit{State: sim.StateShared, OnStoreError: sim.FailLocal, Fallback: fb})
	if jl.Fallback == nil || *jl.Fallback != (jsonPolicy{4, 2, 4}) {
		t.Errorf("shared, falls back: fallback %+v, want 4 per 2 s, burst 4", jl.Fallback)
	}
}

// classJSON: rates are fractions, 0 of nothing; a NaN fair share becomes 0.
func TestPromiseClassJSONRates(t *testing.T) {
	c := classJSON(sim.ClassResult{Unique: 4, Succeeded: 3, Attempts: 8, Refused: 2, Shed: 1, FairShare: 2})
	if c.SuccessRate != 0.75 || c.RefusedRate != 0.25 || c.ShedRate != 0.125 {
		t.Errorf("rates = %v %v %v, want 0.75 0.25 0.125", c.SuccessRate, c.RefusedRate, c.ShedRate)
	}
	if one := classJSON(sim.ClassResult{Unique: 1, Succeeded: 1, Attempts: 1, Refused: 1}); one.SuccessRate != 1 || one.RefusedRate != 1 {
		t.Errorf("1 of 1: rates %v %v, want 1", one.SuccessRate, one.RefusedRate)
	}
	z := classJSON(sim.ClassResult{Succeeded: 3, Refused: 2})
	if z.SuccessRate != 0 || z.RefusedRate != 0 || z.ShedRate != 0 {
		t.Errorf("rates of nothing = %v %v %v, want 0", z.SuccessRate, z.RefusedRate, z.ShedRate)
	}
}

// The CSV: one header for all runs; a lane row with an empty class, then one
// row per class where lane-wide columns are empty; a class's pending is its
// requests neither succeeded nor given up.
func TestPromiseCSVRows(t *testing.T) {
	res := &sim.Result{Seed: 7, Lanes: []sim.LaneResult{{Name: "gcra", Lane: sim.LaneGCRA, Attempts: 20, Unique: 10,
		Succeeded: 6, GaveUp: 1, Pending: 3, Peak: sim.WindowPeak{Count: 5, Limit: 4, Ratio: 1.25},
		Classes: []sim.ClassResult{{Name: "a", Unique: 6, Succeeded: 4, GaveUp: 1, Attempts: 12}, {Name: "b", Unique: 4, Succeeded: 2, Attempts: 8}}}}}
	run := Run{Scenario: &scenarios.Scenario{Name: "s"}, Result: res}
	var b bytes.Buffer
	if err := WriteCSV(&b, []Run{run, run}); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1+2*3 {
		t.Fatalf("%d records, want a header and 3 rows per run", len(recs))
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for _, h := range []string{"scenario", "seed", "lane", "class", "pending", "peak_ratio", "success_rate", "checks_passed"} {
		if _, ok := col[h]; !ok {
			t.Fatalf("CSV lacks column %q: %v", h, recs[0])
		}
	}
	if recs[0][0] != "scenario" || recs[0][1] != "seed" || recs[0][len(recs[0])-1] != "checks_failed" {
		t.Errorf("header order %v: want scenario, seed first, checks_failed last", recs[0])
	}
	lane, a, bb := recs[1], recs[2], recs[3]
	if lane[col["class"]] != "" || lane[col["pending"]] != "3" || lane[col["peak_ratio"]] != "1.25" || lane[col["success_rate"]] != "0.6" {
		t.Errorf("lane row = %v", lane)
	}
	if a[col["class"]] != "a" || a[col["lane"]] != "gcra" || a[col["pending"]] != "1" || a[col["peak_ratio"]] != "" {
		t.Errorf("class a row: class %q lane %q pending %q peak_ratio %q, want a, gcra, 1, empty",
			a[col["class"]], a[col["lane"]], a[col["pending"]], a[col["peak_ratio"]])
	}
	if bb[col["pending"]] != "2" || bb[col["success_rate"]] != "0.5" {
		t.Errorf("class b row: pending %q success_rate %q, want 2, 0.5", bb[col["pending"]], bb[col["success_rate"]])
	}
	if lane[col["seed"]] != "7" || lane[col["checks_passed"]] != "0" {
		t.Errorf("seed %q, checks_passed %q", lane[col["seed"]], lane[col["checks_passed"]])
	}
	if recs[4][0] != "s" || recs[4][col["class"]] != "" {
		t.Errorf("second run starts %v, want its lane row without a second header", recs[4])
	}
}
