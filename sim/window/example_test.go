package window_test

import (
	"fmt"
	"time"

	"github.com/rlsim/rlsim/sim/window"
)

// A checked tracker of 2 per second, fed a lane that admits everything: the
// cross-check says which admissions an exact sliding log would have refused,
// and the worst window is 3 against 2 (over 2 from 600ms to 1s, and from 1.1s
// to 1.3s, when the admission at 300ms leaves it).
func ExampleTracker() {
	p := window.NewChecked(time.Second, 2, 1, 1, window.FastPaths{})
	for _, at := range []time.Duration{0, 300 * time.Millisecond, 600 * time.Millisecond, 1100 * time.Millisecond} {
		fmt.Printf("t0+%v: sliding log %v\n", at, p.Verdict(0, at, 1, true))
	}
	w := p.Worst(func(int32) string { return "global" })
	fmt.Printf("worst: %d in [%v, %v) for %s, %.1f× the limit; over it for %v\n", w.Count, w.Start, w.End, w.Key, w.Ratio, p.OverLimit())
	// Output:
	// t0+0s: sliding log true
	// t0+300ms: sliding log true
	// t0+600ms: sliding log false
	// t0+1.1s: sliding log true
	// worst: 3 in [0s, 1s) for global, 1.5× the limit; over it for 600ms
}
