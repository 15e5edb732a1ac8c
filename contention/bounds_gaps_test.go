package contention

import (
	"math"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/sim"
)

// Validate's enum and zero edges: the last backoff kind and schedule are
// known, the one past them is not; zero durations and zero runs (the
// defaults) pass, a nanosecond or a run below does not.
func TestValidateEnumAndZeroEdges(t *testing.T) {
	kinds, schedules := len(sim.BackoffNames()), len(sim.ScheduleNames())
	for _, tc := range []struct {
		name  string
		edit  func(*Config)
		field string // "" when valid
	}{
		{"the last backoff kind", func(c *Config) { c.Jitters = []sim.JitterKind{sim.JitterKind(kinds - 1)} }, ""},
		{"one past the last backoff kind", func(c *Config) { c.Jitters = []sim.JitterKind{sim.JitterKind(kinds)} }, "contention.jitters[0]: unknown value"},
		{"the last schedule", func(c *Config) { c.Schedule = sim.Schedule(schedules - 1) }, ""},
		{"one past the last schedule", func(c *Config) { c.Schedule = sim.Schedule(schedules) }, "contention.schedule: unknown value"},
		{"zero durations", func(c *Config) { c.Base, c.Cap, c.Hop, c.HopStdDev = 0, 0, 0, 0 }, ""},
		{"base -1ns", func(c *Config) { c.Base = -1 }, "contention.base: must not be negative"},
		{"zero runs", func(c *Config) { c.Runs = 0 }, ""},
		{"clients 0 beside a valid count", func(c *Config) { c.Clients = []int{1, 0} }, "contention.clients[1]: must be positive"},
	} {
		c := Config{Clients: []int{10}}
		tc.edit(&c)
		err := c.Validate()
		if tc.field == "" && err != nil {
			t.Errorf("%s: Validate() = %v, want nil", tc.name, err)
		}
		if tc.field != "" && (err == nil || !strings.Contains(err.Error(), tc.field)) {
			t.Errorf("%s: Validate() = %v, want %q", tc.name, err, tc.field)
		}
	}
}

// Two samples are the first with an interval: t(0.975, 1)·s/√2 either side.
func TestMeanIntervalTwoSamples(t *testing.T) {
	var m meanInterval
	m.add(1)
	m.add(3)
	mean, low, high := m.bounds()
	half := 12.7062 * math.Sqrt2 / math.Sqrt2
	if mean != 2 || math.Abs(low-(2-half)) > 1e-9 || math.Abs(high-(2+half)) > 1e-9 {
		t.Errorf("bounds of 1, 3 = %v [%v, %v], want 2 [%v, %v]", mean, low, high, 2-half, 2+half)
	}
	var none meanInterval
	if mean, low, high := none.bounds(); mean != 0 || low != 0 || high != 0 {
		t.Errorf("bounds of no sample = %v [%v, %v], want 0 [0, 0]", mean, low, high)
	}
}

// EstimateEvents saturates at 2^62 instead of overflowing.
func TestEstimateEventsSaturates(t *testing.T) {
	c := Config{Jitters: []sim.JitterKind{sim.JitterNoBackoff}, Runs: MaxRuns}
	for range 300 { // 300 × (MaxClients²/2 + MaxClients) × 4 × MaxRuns ≈ 6e18 events
		c.Clients = append(c.Clients, MaxClients)
	}
	if got := c.EstimateEvents(); got != 1<<62 {
		t.Errorf("300 cells of MaxClients, MaxRuns runs: EstimateEvents() = %d, want 2^62", got)
	}
	c.Clients = c.Clients[:200] // ≈ 4.0e18, under 2^62 ≈ 4.6e18
	if got := c.EstimateEvents(); got >= 1<<62 || got < 3_900_000_000_000_000_000 {
		t.Errorf("200 cells: EstimateEvents() = %d, want about 4.0e18, under 2^62", got)
	}
	small := Config{Clients: []int{10}, Jitters: []sim.JitterKind{sim.JitterNoBackoff}, Runs: 1}
	// no backoff: n²/2 + n calls, four events each.
	if got := small.EstimateEvents(); got != 4*(50+10) {
		t.Errorf("10 clients, no backoff, 1 run: EstimateEvents() = %d, want 240", got)
	}
}
