package conform

import (
	"strings"
	"testing"
	"time"
)

// Flags.Check at each bound of the flags it checks, both sides: --runs 1 to
// MaxRuns, --replicas each 1 to MaxReplicas, --show 0 to MaxShow, --tolerance
// from 0, --max-wall and --max-events from one unit, --time-scale 1 to
// MaxScale.
func TestFlagsCheckBounds(t *testing.T) {
	base := func() Flags {
		return Flags{Scenario: "demo", Redis: "127.0.0.1:1", Clock: "driver", Scale: 10, Tolerance: 50 * time.Millisecond,
			Show: 5, Runs: 3, Format: "text", MaxEvents: 1000, MaxWall: time.Minute}
	}
	for _, tc := range []struct {
		name   string
		edit   func(*Flags)
		refuse string // "" when accepted
	}{
		{"runs 1", func(f *Flags) { f.Runs = 1 }, ""},
		{"runs MaxRuns", func(f *Flags) { f.Runs = MaxRuns }, ""},
		{"runs 0", func(f *Flags) { f.Runs = 0 }, "--runs"},
		{"runs MaxRuns+1", func(f *Flags) { f.Runs = MaxRuns + 1 }, "--runs"},
		{"replicas 1 and MaxReplicas", func(f *Flags) { f.Replicas = []int{1, MaxReplicas} }, ""},
		{"replicas 0", func(f *Flags) { f.Replicas = []int{4, 0} }, "--replicas"},
		{"replicas MaxReplicas+1", func(f *Flags) { f.Replicas = []int{MaxReplicas + 1} }, "--replicas"},
		{"show 0", func(f *Flags) { f.Show = 0 }, ""},
		{"show MaxShow", func(f *Flags) { f.Show = MaxShow }, ""},
		{"show -1", func(f *Flags) { f.Show = -1 }, "--show"},
		{"show MaxShow+1", func(f *Flags) { f.Show = MaxShow + 1 }, "--show"},
		{"tolerance 0", func(f *Flags) { f.Tolerance = 0 }, ""},
		{"tolerance -1ns", func(f *Flags) { f.Tolerance = -1 }, "--tolerance"},
		{"max-wall 1ns", func(f *Flags) { f.MaxWall = 1 }, ""},
		{"max-wall 0", func(f *Flags) { f.MaxWall = 0 }, "--max-wall"},
		{"max-events 1", func(f *Flags) { f.MaxEvents = 1 }, ""},
		{"max-events 0", func(f *Flags) { f.MaxEvents = 0 }, "--max-events"},
		{"time-scale 1", func(f *Flags) { f.Scale = 1 }, ""},
		{"time-scale MaxScale", func(f *Flags) { f.Scale = MaxScale }, ""},
		{"server clock at scale 1", func(f *Flags) { f.Clock, f.Scale = "server", 1 }, ""},
		{"server clock at scale 2", func(f *Flags) { f.Clock, f.Scale = "server", 2 }, "--time-scale"},
		{"format json", func(f *Flags) { f.Format = "json" }, ""},
		{"format csv", func(f *Flags) { f.Format = "csv" }, "--format"},
	} {
		f := base()
		tc.edit(&f)
		err := f.Check()
		switch {
		case tc.refuse == "" && err != nil:
			t.Errorf("%s: Check() = %v, want accepted", tc.name, err)
		case tc.refuse != "" && (err == nil || !strings.Contains(err.Error(), tc.refuse)):
			t.Errorf("%s: Check() = %v, want refused naming %s", tc.name, err, tc.refuse)
		}
	}
}
