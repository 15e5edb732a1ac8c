package window

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// TestCheckRunIsOneCheckPerDecision feeds two cross-checks of one key the same
// decisions: one a decision at a time, as the kernel of a lane with several
// keys does (checkInLine, else check), the other in runs of 1 to 64
// (checkRun, after checkRunInLine alone), of up to a limit's worth. Every verdict, the most admitted in
// a window and the time over the limit must be the same, and runs must have
// been checked in one loop.
func TestCheckRunIsOneCheckPerDecision(t *testing.T) {
	for _, unit := range []int64{1, 2} {
		for _, c := range []struct {
			limit  int64
			window time.Duration
		}{{5, 10 * time.Millisecond}, {20, 7 * time.Millisecond}, {32, 10 * time.Millisecond}, {200, 7 * time.Millisecond}, {1000, time.Second}} {
			checkRunAgainstOneByOne(t, c.limit, c.window, unit)
		}
	}
}

func checkRunAgainstOneByOne(t *testing.T, limit int64, window time.Duration, unit int64) {
	t.Helper()
	rnd := rand.New(rand.NewPCG(uint64(limit), uint64(unit)))
	one, runs := NewChecked(window, limit, 1, unit, FastPaths{}), NewChecked(window, limit, 1, unit, FastPaths{})
	sl, err := algorithms.NewSlidingLog(algorithms.Policy{Limit: limit, Window: window})
	if err != nil {
		t.Fatal(err)
	}
	var log algorithms.SlidingLogState
	var now time.Duration
	inLine, sharedInLine, decisions := 0, 0, 0
	admitRate := 0.5
	for run := range 3000 {
		if run%20 == 0 { // a phase of 20 runs: the lane admits at random, or is the sliding log
			if admitRate = []float64{0.2, 0.5, 0.9, -1}[rnd.IntN(4)]; admitRate < 0 {
				now += 2 * window // everything expires: the log and the window share again
			}
		}
		var b Batch
		b.N = 1 + rnd.IntN(min(BatchSize, int(limit/unit))) // a run within one window's worth
		var want [BatchSize]bool
		for i := range b.N {
			now += time.Duration(rnd.Int64N(int64(window) / limit * unit / 2)) // 4 limits' worth a window
			if rnd.Int64N(20*limit) == 0 {
				now += 2 * window // everything expires
			}
			logSays := sl.Allow(&log, now, unit)
			b.At[i], b.Admitted[i] = now, rnd.Float64() < admitRate || admitRate < 0 && logSays
			got, done := one.checkInLine(0, now, unit, b.Admitted[i])
			if !done {
				got = one.check(0, now, unit, b.Admitted[i])
			}
			if want[i] = got; got != logSays {
				t.Fatalf("%d per %v, unit %d, decision %d: the cross-check says %v, the sliding log %v", limit, window, unit, decisions+i, got, logSays)
			}
		}
		var allowed [BatchSize]bool
		shared := runs.keys[0].log == 0
		n := runs.checkRunInLine(0, &b, 0, &allowed)
		if n > 0 && shared {
			sharedInLine++
		} else if n > 0 {
			inLine++
		}
		runs.CheckRun(0, &b, n, &allowed)
		if allowed != want {
			t.Fatalf("%d per %v, unit %d, decisions %d to %d: verdicts %v in a run, %v one at a time", limit, window, unit, decisions, decisions+b.N-1, allowed[:b.N], want[:b.N])
		}
		decisions += b.N
	}
	if runs.best != one.best || runs.bestID != one.bestID {
		t.Errorf("%d per %v, unit %d: most in a window %+v in runs, %+v one at a time", limit, window, unit, runs.best, one.best)
	}
	if got, want := runs.OverLimit(), one.OverLimit(); got != want || want == 0 {
		t.Errorf("%d per %v, unit %d: time over the limit %v in runs, %v one at a time (want it above 0, to test it)", limit, window, unit, got, want)
	}
	if inLine < 100 || sharedInLine < 5 && limit/unit > 2*int64(inline) { // else the window never needs a ring
		t.Errorf("%d per %v, unit %d: %d runs of 3000 checked in one loop, %d of them with a shared window: the test compares too little",
			limit, window, unit, inLine+sharedInLine, sharedInLine)
	}
}
