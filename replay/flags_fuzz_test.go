package replay

import (
	"math"
	"strings"
	"testing"
	"time"
)

// FuzzReplayFlags gives replay's numeric flags any values: what
// Flags.Options accepts is a replay that can run (a legitimate share in
// (0, 1], a finite --where at least 0, limits every lane can replay, a
// non-negative --late), and what it refuses names a flag.
func FuzzReplayFlags(f *testing.F) {
	f.Add(0.5, int64(5e9), 10, "key=ip limit=100/1m burst=20", "keys_refused <= 0", "limits[0].limit=10,20")
	f.Add(math.NaN(), int64(-1), 0, "key=ip limit=NaN/1m", "refused <= NaN", "limits[0].limit=NaN")
	f.Add(math.Inf(1), int64(math.MaxInt64), -1, "key=ip limit=9223372036854775807/1ns burst=9223372036854775807", "refused_share <= Inf%", "limits[0].burst=9223372036854775807")
	f.Add(5e-324, int64(0), math.MaxInt, "key=ip limit=1/876000h", "lane gcra refused >= 1e308", "limits[0].limit=1..10000/1")
	f.Fuzz(func(t *testing.T, legit float64, late int64, top int, limit, where, vary string) {
		opts := Flags{Limits: []string{limit}, LogFormat: "auto", TZ: "UTC", Late: time.Duration(late),
			LegitBelow: legit, Top: top, Format: "text", Vary: vary, Find: "min " + strings.Split(vary, "=")[0], Where: []string{where}}
		ro, err := opts.Options()
		if err != nil {
			for _, line := range strings.Split(err.Error(), "\n") {
				if !strings.HasPrefix(line, "--") {
					t.Errorf("%q: names no flag first", line)
				}
			}
			return
		}
		if !(ro.LegitBelow > 0 && ro.LegitBelow <= 1) || ro.Late < NoLate || ro.Top <= 0 {
			t.Errorf("accepted --legit-below %v, --late %v, --top %d", ro.LegitBelow, ro.Late, ro.Top)
		}
		for _, w := range ro.Where {
			if !(w.Want >= 0) || math.IsInf(w.Want, 0) {
				t.Errorf("accepted --where %q: %v", where, w.Want)
			}
		}
		for _, l := range ro.Limits {
			if err := l.Check(nil); err != nil || l.Policy.Window > MaxSpan {
				t.Errorf("accepted --limit %q: %v", limit, err)
			}
		}
		if ro.Sweep != nil {
			if err := ro.Sweep.Check(ro.Limits, nil); err != nil {
				t.Errorf("accepted --vary %q: %v", vary, err)
			}
		}
	})
}
