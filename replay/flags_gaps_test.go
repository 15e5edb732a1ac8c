package replay

import (
	"strings"
	"testing"
	"time"
)

// Flags.Options at each accepted edge and one step past it: --legit-below in
// (0, 1] (1 itself a share), --top from 1, --late from 0 (0 places no line
// behind: NoLate, not the 5s default), and a progress ETA only while the bytes
// read are within the total.
func TestFlagsOptionsEdges(t *testing.T) {
	base := func() Flags {
		return Flags{Limits: []string{"key=ip limit=10/1m"}, LogFormat: "auto", TZ: "UTC", Late: 5 * time.Second,
			LegitBelow: 0.5, Top: 10, Format: "text"}
	}
	for _, tc := range []struct {
		name   string
		edit   func(*Flags)
		refuse string // "" when accepted
		check  func(Options) bool
	}{
		{"legit-below 1", func(f *Flags) { f.LegitBelow = 1 }, "", func(o Options) bool { return o.LegitBelow == 1 }},
		{"legit-below the least positive", func(f *Flags) { f.LegitBelow = 5e-324 }, "", nil},
		{"legit-below 0", func(f *Flags) { f.LegitBelow = 0 }, "--legit-below", nil},
		{"top 1", func(f *Flags) { f.Top = 1 }, "", func(o Options) bool { return o.Top == 1 }},
		{"top 0", func(f *Flags) { f.Top = 0 }, "--top", nil},
		{"late 0", func(f *Flags) { f.Late = 0 }, "", func(o Options) bool { return o.Late == NoLate }},
		{"late 1ns", func(f *Flags) { f.Late = 1 }, "", func(o Options) bool { return o.Late == 1 }},
		{"late -1ns", func(f *Flags) { f.Late = -1 }, "--late", nil},
	} {
		f := base()
		tc.edit(&f)
		o, err := f.Options()
		switch {
		case tc.refuse == "" && err != nil:
			t.Errorf("%s: %v, want accepted", tc.name, err)
		case tc.refuse != "" && (err == nil || !strings.Contains(err.Error(), tc.refuse)):
			t.Errorf("%s: %v, want refused naming %s", tc.name, err, tc.refuse)
		case tc.refuse == "" && tc.check != nil && !tc.check(o):
			t.Errorf("%s: options %+v do not hold it", tc.name, o)
		}
	}
	for _, tc := range []struct {
		bytes, total int64
		eta          bool
	}{{100, 100, true}, {101, 100, false}, {0, 100, false}, {1, 100, true}} {
		if got := ProgressLine(10, tc.bytes, tc.total, 1); strings.Contains(got, "ETA") != tc.eta {
			t.Errorf("ProgressLine(bytes %d of %d) = %q, want an ETA %v", tc.bytes, tc.total, got, tc.eta)
		}
	}
}
