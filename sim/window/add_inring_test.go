package window

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"
)

// addBoth adds to both trackers and fails unless they are left the same
// in every field but their fast-path switches.
func addBoth(t *testing.T, fast, general *Tracker, key int32, at time.Duration, cost int64) {
	t.Helper()
	fast.Add(key, at, cost)
	general.Add(key, at, cost)
	a, b := *fast, *general
	a.off, b.off = FastPaths{}, FastPaths{}
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("Add(%d, %v, %d): the common case in one loop left\n%+v\nthe general path\n%+v", key, at, cost, a, b)
	}
}

// addSequence drives a fast and a general tracker through one random run
// drawn from seed and returns the fast one and its admissions, by key.
func addSequence(t *testing.T, seed uint64) (*Tracker, [][]admission) {
	rnd := rand.New(rand.NewPCG(seed, 7))
	w := time.Duration(1 + rnd.IntN(60))
	limit := int64(1 + rnd.IntN(40))
	keys := 1 + rnd.IntN(4)
	mk := NewUntimed
	if rnd.IntN(2) == 0 {
		mk = NewTracker
	}
	fast, general := mk(w, limit, keys), mk(w, limit, keys)
	general.SetFastPaths(FastPaths{InlineAddOff: true})
	adm := make([][]admission, keys)
	at := time.Duration(0)
	for range 1 + rnd.IntN(300) {
		at += time.Duration(rnd.IntN(4)) // often several at one instant
		key, cost := int32(rnd.IntN(keys)), int64(1+rnd.IntN(3))
		adm[key] = append(adm[key], admission{at, cost})
		addBoth(t, &fast, &general, key, at, cost)
	}
	return &fast, adm
}

// TestAddInRingIsTheGeneralAdd holds Add's common case on an
// unchecked tracker's Add, to the general path: after every Add of random
// runs (rings that grow, go back to the slab, keys over the limit, timed and
// untimed trackers), both trackers are the same field for field, and the
// fast one's worst window is brute force's.
func TestAddInRingIsTheGeneralAdd(t *testing.T) {
	var inRing int
	for seed := range uint64(400) {
		fast, adm := addSequence(t, seed)
		var want int64
		for _, a := range adm {
			want = max(want, bruteMaxInWindow(slices.Clone(a), fast.window))
		}
		if fast.best.Count != want {
			t.Fatalf("seed %d: the worst window holds %d, brute force %d", seed, fast.best.Count, want)
		}
		for i := range fast.keys {
			if fast.keys[i].size > 0 {
				inRing++
			}
		}
	}
	if inRing < 100 {
		t.Fatalf("only %d keys ended with a ring: the common case is barely run", inRing)
	}
}

func FuzzAddInRingIsTheGeneralAdd(f *testing.F) {
	for _, seed := range []uint64{0, 1, 99} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed uint64) { addSequence(t, seed) })
}

// TestAddRunIsEachAdd holds AddRun to an Add of each of its times, on random
// runs of one key (rings that grow, go back to the slab, keys over the
// limit, timed and untimed, with and without Add's common case): the
// trackers are the same field for field after every run.
func TestAddRunIsEachAdd(t *testing.T) {
	var inRing int
	for seed := range uint64(300) {
		rnd := rand.New(rand.NewPCG(seed, 11))
		w, limit := time.Duration(1+rnd.IntN(60)), int64(1+rnd.IntN(40))
		mk := NewUntimed
		if rnd.IntN(2) == 0 {
			mk = NewTracker
		}
		run, each := mk(w, limit, 2), mk(w, limit, 2)
		off := FastPaths{InlineAddOff: rnd.IntN(4) == 0}
		run.SetFastPaths(off)
		each.SetFastPaths(off)
		at := time.Duration(0)
		for range 1 + rnd.IntN(30) {
			key, cost := int32(rnd.IntN(2)), int64(1+rnd.IntN(2))
			times := make([]time.Duration, rnd.IntN(70))
			for i := range times {
				at += time.Duration(rnd.IntN(4))
				times[i] = at
				each.Add(key, at, cost)
			}
			run.AddRun(key, times, cost)
			if !reflect.DeepEqual(run, each) {
				t.Fatalf("seed %d: AddRun(%d, %v, %d) left\n%+v\nAdd of each\n%+v", seed, key, times, cost, run, each)
			}
			if run.keys[key].size > 0 {
				inRing++
			}
		}
	}
	if inRing < 1000 {
		t.Fatalf("only %d runs ended on a ring: the loop is barely run", inRing)
	}
}
