package contention

import (
	"strings"
	"testing"
	"time"
)

// Each bound of Validate at its edge and one step past it.
func TestAuditValidateEdges(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(*Config)
		field string // "" when valid
	}{
		{"one client", func(c *Config) { c.Clients = []int{1} }, ""},
		{"MaxClients clients", func(c *Config) { c.Clients = []int{MaxClients} }, ""},
		{"base MaxTime", func(c *Config) { c.Base, c.Cap = MaxTime, MaxTime }, ""},
		{"base MaxTime+1ns", func(c *Config) { c.Base, c.Cap = MaxTime+1, MaxTime }, "contention.base: must be at most"},
		{"cap MaxTime", func(c *Config) { c.Cap = MaxTime }, ""},
		{"cap MaxTime+1ns", func(c *Config) { c.Cap = MaxTime + 1 }, "contention.cap: must be at most"},
		{"hop MaxTime", func(c *Config) { c.Hop = MaxTime }, ""},
		{"hop MaxTime+1ns", func(c *Config) { c.Hop = MaxTime + 1 }, "contention.hop: must be at most"},
		{"hop_stddev MaxTime", func(c *Config) { c.HopStdDev = MaxTime }, ""},
		{"hop_stddev MaxTime+1ns", func(c *Config) { c.HopStdDev = MaxTime + 1 }, "contention.hop_stddev: must be at most"},
		{"cap = base", func(c *Config) { c.Base, c.Cap = time.Second, time.Second }, ""},
		{"cap a ns under base", func(c *Config) { c.Base, c.Cap = time.Second, time.Second-1 }, "contention.cap: must be at least base"},
		{"cap = the default base", func(c *Config) { c.Cap = DefaultBase }, ""},
		{"base = the default cap", func(c *Config) { c.Base = DefaultCap }, ""},
		{"base a ns past the default cap", func(c *Config) { c.Base = DefaultCap + 1 }, "contention.cap: must be at least base"},
		{"MaxRuns runs", func(c *Config) { c.Runs = MaxRuns }, ""},
		{"MaxRuns+1 runs", func(c *Config) { c.Runs = MaxRuns + 1 }, "contention.runs: must be at most"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Config{Clients: []int{10}}
			tc.edit(&c)
			err := c.Validate()
			if tc.field == "" && err != nil {
				t.Errorf("Validate() = %v, want nil", err)
			}
			if tc.field != "" && (err == nil || !strings.Contains(err.Error(), tc.field)) {
				t.Errorf("Validate() = %v, want %q", err, tc.field)
			}
		})
	}
}

// Separated needs two runs on both sides and intervals that do not overlap:
// intervals that touch are not separated.
func TestAuditSeparatedEdges(t *testing.T) {
	row := func(runs int, lo, hi float64) Row { return Row{Runs: runs, CallsLow: lo, CallsHigh: hi} }
	for _, tc := range []struct {
		name string
		a, b Row
		want bool
	}{
		{"apart", row(2, 1, 2), row(2, 3, 4), true},
		{"apart, the other way", row(2, 3, 4), row(2, 1, 2), true},
		{"touching", row(2, 1, 2), row(2, 2, 3), false},
		{"one run on one side", row(1, 1, 1), row(2, 3, 4), false},
		{"one run on the other", row(2, 1, 2), row(1, 3, 3), false},
	} {
		if got := tc.a.Separated(tc.b); got != tc.want {
			t.Errorf("%s: Separated = %v, want %v", tc.name, got, tc.want)
		}
	}
}
