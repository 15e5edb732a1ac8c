package algorithms

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"golang.org/x/time/rate"
)

// benchPolicy and benchStep make a mix of admissions and refusals: requests every
// 7ms (about 143/s) against 100/s with bursts of 100.
var benchPolicy = Policy{Limit: 100, Window: time.Second, Burst: 100}

const benchStep = 7 * time.Millisecond

func benchDecide[S any](b *testing.B, alg Algorithm[S]) {
	var s S
	var now time.Duration
	b.ReportAllocs()
	for range b.N {
		now += benchStep
		alg.Decide(&s, now, 1)
	}
}

// The concrete types below (not Algorithm[S]) are what a hot loop calls.

func BenchmarkTokenBucketDecide(b *testing.B) {
	tb := must(NewTokenBucket(benchPolicy))
	var s TokenBucketState
	var now time.Duration
	b.ReportAllocs()
	for range b.N {
		now += benchStep
		tb.Decide(&s, now, 1)
	}
}

func BenchmarkGCRADecide(b *testing.B) {
	g := must(NewGCRA(benchPolicy))
	var s GCRAState
	var now time.Duration
	b.ReportAllocs()
	for range b.N {
		now += benchStep
		g.Decide(&s, now, 1)
	}
}

func BenchmarkXTimeRateAllowN(b *testing.B) {
	lim := rate.NewLimiter(rate.Limit(float64(benchPolicy.Limit)/benchPolicy.Window.Seconds()), int(benchPolicy.Burst))
	var now time.Duration
	b.ReportAllocs()
	for range b.N {
		now += benchStep
		lim.AllowN(t0.Add(now), 1)
	}
}

func BenchmarkFixedWindowDecide(b *testing.B) {
	fw := must(NewFixedWindow(benchPolicy))
	var s FixedWindowState
	var now time.Duration
	b.ReportAllocs()
	for range b.N {
		now += benchStep
		fw.Decide(&s, now, 1)
	}
}

func BenchmarkSlidingLogDecide(b *testing.B) {
	sl := must(NewSlidingLog(benchPolicy))
	var s SlidingLogState
	sl.Decide(&s, 0, 1) // the ring is allocated on the first admission
	var now time.Duration
	b.ReportAllocs()
	for range b.N {
		now += benchStep
		sl.Decide(&s, now, 1)
	}
}

func BenchmarkSlidingWindowCounterDecide(b *testing.B) {
	sw := must(NewSlidingWindowCounter(benchPolicy))
	var s SlidingWindowCounterState
	var now time.Duration
	b.ReportAllocs()
	for range b.N {
		now += benchStep
		sw.Decide(&s, now, 1)
	}
}

func BenchmarkLeakyBucketDecide(b *testing.B) {
	lb := must(NewLeakyBucket(benchPolicy))
	var s LeakyBucketState
	var now time.Duration
	b.ReportAllocs()
	for range b.N {
		now += benchStep
		lb.Decide(&s, now, 1)
	}
}

func BenchmarkAlgorithmInterfaceDecide(b *testing.B) {
	b.Run("token bucket", func(b *testing.B) { benchDecide[TokenBucketState](b, must(NewTokenBucket(benchPolicy))) })
}

func BenchmarkKeyedDecide(b *testing.B) {
	k := NewKeyed[TokenBucketState](must(NewTokenBucket(benchPolicy)))
	keys := make([]string, 1000)
	for i := range keys {
		keys[i] = fmt.Sprintf("user-%d", i)
		k.Decide(keys[i], 0, 1)
	}
	var now time.Duration
	i := 0
	b.ReportAllocs()
	for range b.N {
		now += benchStep
		k.Decide(keys[i], now, 1)
		i = (i + 1) % len(keys)
	}
}

func BenchmarkThrottleAllow(b *testing.B) {
	th := must(NewThrottle(ThrottleConfig{}))
	var s ThrottleState
	var now time.Duration
	b.ReportAllocs()
	for range b.N {
		now += benchStep
		if th.Allow(&s, now, 0.5) {
			th.Answered(&s, now, true)
		}
	}
}

const keysMeasured = 100_000

// heapPerKey is the live heap per key after add has been called for every key.
func heapPerKey(add func(i int), keep func()) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range keysMeasured {
		add(i)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	keep()
	return float64(after.HeapAlloc-before.HeapAlloc) / keysMeasured
}

func benchBytesPerKey[S any](b *testing.B, alg Algorithm[S]) {
	keys := make([]string, keysMeasured)
	for i := range keys {
		keys[i] = fmt.Sprintf("user-%d", i)
	}
	var perKey float64
	for range b.N {
		k := NewKeyed(alg)
		perKey = heapPerKey(func(i int) { k.Decide(keys[i], 0, 1) }, func() { runtime.KeepAlive(k) })
	}
	b.ReportMetric(perKey, "B/key")
}

// BenchmarkBytesPerKey reports the memory one key holds in a Keyed, map entry
// included (key strings excluded: the caller owns them), after one admission.
func BenchmarkBytesPerKey(b *testing.B) {
	b.Run("fixed window", func(b *testing.B) { benchBytesPerKey[FixedWindowState](b, must(NewFixedWindow(benchPolicy))) })
	b.Run("sliding log", func(b *testing.B) { benchBytesPerKey[SlidingLogState](b, must(NewSlidingLog(benchPolicy))) })
	b.Run("sliding window counter", func(b *testing.B) {
		benchBytesPerKey[SlidingWindowCounterState](b, must(NewSlidingWindowCounter(benchPolicy)))
	})
	b.Run("token bucket", func(b *testing.B) { benchBytesPerKey[TokenBucketState](b, must(NewTokenBucket(benchPolicy))) })
	b.Run("gcra", func(b *testing.B) { benchBytesPerKey[GCRAState](b, must(NewGCRA(benchPolicy))) })
	b.Run("leaky bucket", func(b *testing.B) { benchBytesPerKey[LeakyBucketState](b, must(NewLeakyBucket(benchPolicy))) })
	b.Run("throttle", func(b *testing.B) {
		th := must(NewThrottle(ThrottleConfig{}))
		var perClient float64
		for range b.N {
			var clients []ThrottleState
			perClient = heapPerKey(func(i int) {
				if clients == nil {
					clients = make([]ThrottleState, keysMeasured)
				}
				th.Answered(&clients[i], 0, true)
			}, func() { runtime.KeepAlive(clients) })
		}
		b.ReportMetric(perClient, "B/key")
	})
}
