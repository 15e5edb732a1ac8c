package sim

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// The rows of issue 30 that grow with the number of clients, each a whole run
// (setup, events and the end-of-run passes), so that what is linear in clients
// counts: BenchmarkManyClients keeps 10 M requests as the clients go from 100
// to 10 M; BenchmarkRetryStorm scales retry-storm-full-jitter (clients, limit,
// backend) from 20 k to 2 M clients. Run one round each:
//
//	go test ./sim -run XXX -bench 'ManyClients|RetryStorm' -benchtime 1x

// manyClientsSameRequests is n Poisson clients sending 10 M requests in all
// over 1000 s into one global token bucket of 8,000/s, bursts of 100 (the
// 100-client model of bench/model.yaml when n is 100).
func manyClientsSameRequests(n int) Config {
	return Config{
		Duration: 1000 * time.Second, Lanes: []LaneKind{LaneTokenBucket},
		Limits: []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 8000, Window: time.Second, Burst: 100}}},
		Clients: []ClientGroup{{Count: n, Arrivals: []Arrival{{Kind: ArrivalPoisson,
			Rate: Rate{Count: 1, Per: time.Duration(n) * 100 * time.Microsecond}}}}},
	}
}

// retryStorm is retry-storm-full-jitter scaled k times: 200k clients fail at
// once and retry with full jitter into a backend of 10k servers and a queue of
// 20k, under a global limit of 100k a second.
func retryStorm(k int) Config {
	return Config{
		Duration: 30 * time.Second, Lanes: []LaneKind{LaneTokenBucket},
		Limits: []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 100 * int64(k), Window: time.Second}}},
		Clients: []ClientGroup{{Count: 200 * k,
			Arrivals: []Arrival{{Kind: ArrivalBurst, At: time.Second, Count: 1}},
			Retry: Retry{Kind: RetryExponential, Base: 100 * time.Millisecond, Cap: 10 * time.Second,
				Jitter: JitterFull, MaxAttempts: 10}}},
		Backend: &Backend{Capacity: 10 * k, QueueSize: 20 * k, Service: Service{Mean: 100 * time.Millisecond}},
	}
}

// benchmarkWholeRun runs cfg from New to the end of RunToEnd per iteration
// and reports the CPU time per attempt.
func benchmarkWholeRun(b *testing.B, cfg Config) {
	b.ReportAllocs()
	var attempts int64
	cpu := cpuTime()
	for range b.N {
		s, err := New(cfg, Options{})
		if err != nil {
			b.Fatal(err)
		}
		r, err := s.RunToEnd(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		for _, l := range r.Lanes {
			attempts += l.Attempts
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(attempts), "ns/attempt")
	if used := cpuTime() - cpu; used > 0 && attempts > 0 {
		b.ReportMetric(float64(used.Nanoseconds())/float64(attempts), "cpu-ns/attempt")
	}
}

func BenchmarkManyClients(b *testing.B) {
	for _, n := range []int{100, 1_000_000, 10_000_000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) { benchmarkWholeRun(b, manyClientsSameRequests(n)) })
	}
}

func BenchmarkRetryStorm(b *testing.B) {
	for _, k := range []int{100, 1000, 10_000} {
		b.Run(strconv.Itoa(200*k), func(b *testing.B) { benchmarkWholeRun(b, retryStorm(k)) })
	}
}
