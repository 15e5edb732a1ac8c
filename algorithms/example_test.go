package algorithms_test

import (
	"fmt"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// show prints one decision the way the examples read.
func show(at time.Duration, d algorithms.Decision) {
	switch d.Verdict {
	case algorithms.Refuse:
		fmt.Printf("t=%v refuse, retry after %v\n", at, d.RetryAfter)
	case algorithms.Delay:
		fmt.Printf("t=%v delay %v\n", at, d.Delay)
	default:
		fmt.Printf("t=%v admit, %d remaining\n", at, d.Remaining)
	}
}

// A fixed window of 2 per second admits 4 requests within 2ms across a boundary.
func ExampleFixedWindow() {
	fw, err := algorithms.NewFixedWindow(algorithms.Policy{Limit: 2, Window: time.Second})
	if err != nil {
		panic(err)
	}
	var s algorithms.FixedWindowState
	for _, at := range []time.Duration{999 * time.Millisecond, 999 * time.Millisecond, 999 * time.Millisecond, time.Second, time.Second} {
		show(at, fw.Decide(&s, at, 1))
	}
	// Output:
	// t=999ms admit, 1 remaining
	// t=999ms admit, 0 remaining
	// t=999ms refuse, retry after 1ms
	// t=1s admit, 1 remaining
	// t=1s admit, 0 remaining
}

// A sliding log of 2 per second never admits more than 2 in any second.
func ExampleSlidingLog() {
	sl, err := algorithms.NewSlidingLog(algorithms.Policy{Limit: 2, Window: time.Second})
	if err != nil {
		panic(err)
	}
	var s algorithms.SlidingLogState
	for _, at := range []time.Duration{0, 999 * time.Millisecond, time.Second, time.Second} {
		show(at, sl.Decide(&s, at, 1))
	}
	// Output:
	// t=0s admit, 1 remaining
	// t=999ms admit, 0 remaining
	// t=1s admit, 0 remaining
	// t=1s refuse, retry after 999ms
}

// The sliding window counter weighs the previous window by how much of it still
// overlaps the last second.
func ExampleSlidingWindowCounter() {
	sw, err := algorithms.NewSlidingWindowCounter(algorithms.Policy{Limit: 4, Window: time.Second})
	if err != nil {
		panic(err)
	}
	var s algorithms.SlidingWindowCounterState
	for range 4 {
		sw.Decide(&s, 500*time.Millisecond, 1)
	}
	d := sw.Decide(&s, time.Second, 1) // estimate 4×1.0 + 0
	show(time.Second, d)
	fmt.Println("exact:", d.RetryAfterExact)
	show(1250*time.Millisecond, sw.Decide(&s, 1250*time.Millisecond, 1)) // 4×0.75 + 0
	// Output:
	// t=1s refuse, retry after 250ms
	// exact: false
	// t=1.25s admit, 0 remaining
}

// A token bucket of 3 per second refills one token every 333333333⅓ns, exactly:
// the token is there at the instant Retry-After names, not a nanosecond later.
func ExampleTokenBucket() {
	tb, err := algorithms.NewTokenBucket(algorithms.Policy{Limit: 3, Window: time.Second, Burst: 2})
	if err != nil {
		panic(err)
	}
	var s algorithms.TokenBucketState
	show(0, tb.Decide(&s, 0, 1))
	show(0, tb.Decide(&s, 0, 1))
	d := tb.Decide(&s, 0, 1)
	show(0, d)
	show(d.RetryAfter-1, tb.Decide(&s, d.RetryAfter-1, 1))
	show(d.RetryAfter, tb.Decide(&s, d.RetryAfter, 1))
	// Output:
	// t=0s admit, 1 remaining
	// t=0s admit, 0 remaining
	// t=0s refuse, retry after 333.333334ms
	// t=333.333333ms refuse, retry after 1ns
	// t=333.333334ms admit, 0 remaining
}

// GCRA answers exactly as the token bucket, from one timestamp.
func ExampleGCRA() {
	g, err := algorithms.NewGCRA(algorithms.Policy{Limit: 3, Window: time.Second, Burst: 2})
	if err != nil {
		panic(err)
	}
	var s algorithms.GCRAState
	for _, at := range []time.Duration{0, 0, 0, 333333334} {
		show(at, g.Decide(&s, at, 1))
	}
	// Output:
	// t=0s admit, 1 remaining
	// t=0s admit, 0 remaining
	// t=0s refuse, retry after 333.333334ms
	// t=333.333334ms admit, 0 remaining
}

// The leaky bucket queues a burst and releases it one request per T = 500ms.
func ExampleLeakyBucket() {
	lb, err := algorithms.NewLeakyBucket(algorithms.Policy{Limit: 2, Window: time.Second, Burst: 2})
	if err != nil {
		panic(err)
	}
	var s algorithms.LeakyBucketState
	for range 4 {
		show(0, lb.Decide(&s, 0, 1))
	}
	// Output:
	// t=0s admit, 2 remaining
	// t=0s delay 500ms
	// t=0s delay 1s
	// t=0s refuse, retry after 500ms
}

// Keyed keeps one state per key and forgets keys that have gone idle.
func ExampleKeyed() {
	tb, err := algorithms.NewTokenBucket(algorithms.Policy{Limit: 1, Window: time.Second})
	if err != nil {
		panic(err)
	}
	users := algorithms.NewKeyed[algorithms.TokenBucketState](tb)
	fmt.Println(users.Decide("alice", 0, 1).Verdict, users.Decide("alice", 0, 1).Verdict, users.Decide("bob", 0, 1).Verdict)
	fmt.Println("keys:", users.Len(), "evicted at 0.5s:", users.Evict(500*time.Millisecond), "evicted at 1s:", users.Evict(time.Second))
	// Output:
	// admit refuse admit
	// keys: 2 evicted at 0.5s: 0 evicted at 1s: 2
}

// AIMD grows its concurrency limit while latency is under target and cuts it when
// latency goes over.
func ExampleAIMD() {
	a, err := algorithms.NewAIMD(algorithms.AIMDConfig{Initial: 2, Min: 1, Max: 10, Target: 100 * time.Millisecond})
	if err != nil {
		panic(err)
	}
	fmt.Println(a.Acquire(0), a.Acquire(0), a.Acquire(0), "in flight:", a.InFlight())
	a.Release(50*time.Millisecond, 50*time.Millisecond)
	fmt.Printf("fast completion: limit %.2f\n", a.Limit())
	a.Release(300*time.Millisecond, 300*time.Millisecond)
	fmt.Printf("slow completion: limit %.2f\n", a.Limit())
	// Output:
	// true true false in flight: 2
	// fast completion: limit 2.50
	// slow completion: limit 2.25
}

// A client whose backend refuses everything starts dropping requests itself.
func ExampleThrottle() {
	th, err := algorithms.NewThrottle(algorithms.ThrottleConfig{}) // K=2, 2 minutes, 24 buckets
	if err != nil {
		panic(err)
	}
	var client algorithms.ThrottleState
	for i := range 10 {
		at := time.Duration(i) * time.Second
		if th.Allow(&client, at, 0.5) { // the caller's random draw
			th.Answered(&client, at+100*time.Millisecond, i < 3) // 3 accepted, then refused
		}
	}
	fmt.Printf("p = %.3f\n", th.DropProbability(&client, 10*time.Second))
	fmt.Println("u=0.2 sent:", th.Allow(&client, 10*time.Second, 0.2))
	fmt.Printf("p after 3 minutes: %.3f\n", th.DropProbability(&client, 190*time.Second))
	// Output:
	// p = 0.364
	// u=0.2 sent: false
	// p after 3 minutes: 0.000
}
