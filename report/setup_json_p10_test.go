package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// wantLimitJSON is what the JSON should say of l, recomputed from its fields:
// the effective burst (the limit when Burst is 0), each placement's own fields.
func wantLimitJSON(l sim.Limit, placed bool) map[string]any {
	m := map[string]any{"name": l.Name, "key": l.Key.String(), "limit": float64(l.Policy.Limit),
		"window_s": l.Policy.Window.Seconds(), "burst": float64(l.Policy.EffectiveBurst())}
	if l.Concurrency != 0 {
		m["concurrency"] = float64(l.Concurrency)
	}
	if l.Shadow {
		m["shadow"] = true
	}
	if !placed {
		return m
	}
	m["state"] = l.State.String()
	switch l.State {
	case sim.StateLocal:
		m["local_limit"] = l.LocalLimit.String()
	case sim.StateSynced:
		m["sync_interval_s"] = l.SyncInterval.Seconds()
	case sim.StateShared:
		if l.Store != "" {
			m["store"] = l.Store
		}
		m["on_store_error"] = l.OnStoreError.String()
		if l.OnStoreError == sim.FailLocal {
			m["fallback"] = map[string]any{"limit": float64(l.Fallback.Limit), "window_s": l.Fallback.Window.Seconds(),
				"burst": float64(l.Fallback.EffectiveBurst())}
		}
	}
	return m
}

// A lane's own setup (its limits, with bursts left 0 and set, each placement)
// is written field by field as the limit says, as the results' limits are.
func TestLaneSetupLimitsInTheJSON(t *testing.T) {
	run := sample()
	pol := func(limit, burst int64, w time.Duration) algorithms.Policy {
		return algorithms.Policy{Limit: limit, Window: w, Burst: burst}
	}
	setup := []sim.Limit{
		{Name: "per user", Key: sim.KeyUser, Policy: pol(7, 0, 2*time.Second), State: sim.StateLocal, LocalLimit: sim.LocalDivided},
		{Name: "per ip", Key: sim.KeyIP, Policy: pol(5, 9, time.Second), State: sim.StateLocal, Shadow: true},
		{Name: "synced", Key: sim.KeyTenant, Policy: pol(30, 0, time.Minute), State: sim.StateSynced, SyncInterval: 250 * time.Millisecond},
		{Name: "shared", Key: sim.KeyAPIKey, Policy: pol(12, 0, time.Second), State: sim.StateShared, Store: "east",
			OnStoreError: sim.FailLocal, Fallback: pol(3, 0, 500*time.Millisecond)},
		{Name: "closed", Key: sim.KeyGlobal, Policy: pol(4, 6, time.Second), State: sim.StateShared, OnStoreError: sim.FailClosed},
		{Name: "in flight", Key: sim.KeyUser, Concurrency: 8, State: sim.StateLocal},
	}
	run.Result.Lanes[1].Setup = &sim.LaneSetup{Limits: setup}
	var b bytes.Buffer
	if err := WriteJSON(&b, []Run{run}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Runs []struct {
			Limits []map[string]any `json:"limits"`
			Lanes  []struct {
				Setup *struct {
					Limits []map[string]any `json:"limits"`
				} `json:"setup"`
			} `json:"lanes"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	r := doc.Runs[0]
	for i, l := range run.Result.Limits {
		same(t, fmt.Sprintf("limits[%d]", i), r.Limits[i], wantLimitJSON(l, false))
	}
	for li, lane := range r.Lanes {
		if (lane.Setup != nil) != (li == 1) {
			t.Errorf("lanes[%d].setup present = %v, want only lane 1's", li, lane.Setup != nil)
		}
	}
	got := r.Lanes[1].Setup.Limits
	if len(got) != len(setup) {
		t.Fatalf("lanes[1].setup.limits has %d limits, want %d", len(got), len(setup))
	}
	for i, l := range setup {
		same(t, fmt.Sprintf("lanes[1].setup.limits[%d]", i), got[i], wantLimitJSON(l, true))
	}
}

func same(t *testing.T, where string, got, want map[string]any) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if !bytes.Equal(g, w) {
		t.Errorf("%s = %s\nwant %s", where, g, w)
	}
}
