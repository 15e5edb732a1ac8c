package sim

import (
	"strings"
	"testing"
	"time"
)

// Inject takes a spread up to the time left (End − Now) and a client index up
// to the last; ChangeRate a group index up to the last and any positive rate.
func TestAuditInjectAndChangeRateEdges(t *testing.T) {
	cfg := auditConfig()
	cfg.Clients[0].Count = 3
	cfg.Lanes = []LaneKind{LaneTokenBucket} // one lane: MaxInject requests are scheduled per lane
	newSim := func(t *testing.T) *Simulation {
		s, err := New(cfg, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	left := newSim(t).End()
	if left != 2*time.Second {
		t.Fatalf("End() = %v, want the duration and its default drain, 2s", left)
	}
	for _, tc := range []struct {
		name      string
		client, n int
		spread    time.Duration
		field     string // "" when accepted
	}{
		{"spread the time left", 0, 1, left, ""},
		{"spread a ns past it", 0, 1, left + 1, "inject.spread"},
		{"spread 0", 0, 1, 0, ""},
		{"spread -1ns", 0, 1, -1, "inject.spread"},
		{"the last client", 2, 1, 0, ""},
		{"past the last client", 3, 1, 0, "inject.client"},
		{"client -1", -1, 1, 0, "inject.client"},
		{"MaxInject", 0, MaxInject, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := newSim(t).Inject(tc.client, tc.n, tc.spread)
			if tc.field == "" && err != nil {
				t.Errorf("Inject(%d, %d, %v) = %v, want nil", tc.client, tc.n, tc.spread, err)
			}
			if tc.field != "" && (err == nil || !strings.Contains(err.Error(), tc.field)) {
				t.Errorf("Inject(%d, %d, %v) = %v, want a problem with %s", tc.client, tc.n, tc.spread, err, tc.field)
			}
		})
	}
	cfg.Clients = append(cfg.Clients, cfg.Clients[0])
	for _, tc := range []struct {
		group int
		rate  Rate
		field string
	}{
		{1, Rate{Count: 1, Per: 1}, ""},
		{2, Rate{Count: 1, Per: time.Second}, "rate.group"},
		{-1, Rate{Count: 1, Per: time.Second}, "rate.group"},
		{0, Rate{Count: 0, Per: time.Second}, "rate"},
		{0, Rate{Count: 1, Per: 0}, "rate"},
	} {
		err := newSim(t).ChangeRate(tc.group, tc.rate)
		if tc.field == "" && err != nil {
			t.Errorf("ChangeRate(%d, %v) = %v, want nil", tc.group, tc.rate, err)
		}
		if tc.field != "" && (err == nil || !strings.Contains(err.Error(), tc.field+":")) {
			t.Errorf("ChangeRate(%d, %v) = %v, want a problem with %s", tc.group, tc.rate, err, tc.field)
		}
	}
}
