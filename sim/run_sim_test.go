package sim

import (
	"context"
	"errors"
	"math"
	"reflect"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// mixedWorld is a small scenario in which the lanes disagree: a burst across a
// window boundary, steady Poisson users who retry, and a backend with a queue.
func mixedWorld() Config {
	return Config{
		Name: "mixed", Duration: 10 * time.Second, Seed: 7,
		Limits: []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 10, Window: time.Second}}},
		Clients: []ClientGroup{
			{Name: "burst", Count: 1, Arrivals: []Arrival{
				{Kind: ArrivalBurst, At: 900 * time.Millisecond, Count: 10, Spread: 100 * time.Millisecond},
				{Kind: ArrivalBurst, At: time.Second, Count: 10, Spread: 100 * time.Millisecond},
			}},
			{Name: "steady", Count: 20,
				Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 1, Per: 2 * time.Second}}},
				Retry: Retry{Kind: RetryExponential, Base: 100 * time.Millisecond, Cap: 2 * time.Second,
					Jitter: JitterFull, MaxAttempts: 5, HonorRetryAfter: true}},
		},
		Backend: &Backend{Capacity: 4, QueueSize: 10, Service: Service{Kind: ServiceExponential, Mean: 50 * time.Millisecond}},
	}
}

type traceLog struct{ recs []TraceRecord }

func (t *traceLog) Record(r *TraceRecord) error {
	t.recs = append(t.recs, *r)
	return nil
}

func mustRun(t testing.TB, cfg Config, opt Options) Result {
	t.Helper()
	r, err := Run(context.Background(), cfg, opt)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return r
}

func TestSameSeedSameResultOtherSeedDiffers(t *testing.T) {
	a := mustRun(t, mixedWorld(), Options{})
	b := mustRun(t, mixedWorld(), Options{})
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two runs of the same config and seed differ")
	}
	other := mixedWorld()
	other.Seed++
	c := mustRun(t, other, Options{})
	if reflect.DeepEqual(a.Lanes, c.Lanes) {
		t.Fatal("a different seed gave identical lanes")
	}
}

func TestSteppingGivesTheSameResultAsRunningToTheEnd(t *testing.T) {
	whole := mustRun(t, mixedWorld(), Options{})
	s, err := New(mixedWorld(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for at := time.Duration(0); !s.Done(); at += 37 * time.Millisecond {
		if err := s.RunUntil(at); err != nil {
			t.Fatal(err)
		}
	}
	if got := s.Result(); !reflect.DeepEqual(got.Lanes, whole.Lanes) {
		t.Fatal("stepping with RunUntil ended with other figures than RunToEnd")
	}
}

func TestEveryLaneSeesTheSameArrivals(t *testing.T) {
	var log traceLog
	mustRun(t, mixedWorld(), Options{Trace: &log})
	// The first record of a first attempt is the lane's decision on it.
	type attempt struct {
		lane    LaneKind
		client  int
		request int64
	}
	decided := map[attempt]bool{}
	first := map[LaneKind][]TraceRecord{}
	for _, r := range log.recs {
		a := attempt{r.Lane, r.Client, r.Request}
		if r.Attempt == 1 && r.Event != TraceSuccess && !decided[a] {
			decided[a] = true
			first[r.Lane] = append(first[r.Lane], TraceRecord{At: r.At, Client: r.Client, Request: r.Request})
		}
	}
	want := first[LaneFixedWindow]
	if len(want) == 0 {
		t.Fatal("no first attempts traced")
	}
	for lane, got := range first {
		if !slices.Equal(got, want) {
			t.Errorf("%v: first attempts differ from fixed window's (%d vs %d)", lane, len(got), len(want))
		}
	}
}

func TestSlidingLogLaneAgreesWithItself(t *testing.T) {
	cfg := mixedWorld()
	cfg.Lanes = []LaneKind{LaneSlidingLog, LaneFixedWindow}
	r := mustRun(t, cfg, Options{})
	if d := r.Lanes[0].SlidingLogDisagreement; d != 0 {
		t.Errorf("sliding log lane disagrees with an exact sliding log on %.3f of decisions, want 0", d)
	}
	if d := r.Lanes[1].SlidingLogDisagreement; d == 0 {
		t.Error("fixed window never disagreed with a sliding log across a boundary burst")
	}
}

func TestPeakRecomputedFromTheTrace(t *testing.T) {
	var log traceLog
	r := mustRun(t, mixedWorld(), Options{Trace: &log})
	window := r.Limits[0].Policy.Window
	for _, lane := range r.Lanes {
		admitted := map[string][]admission{}
		for _, rec := range log.recs {
			if rec.Lane != lane.Lane {
				continue
			}
			switch rec.Event {
			case TraceAdmit:
				admitted[rec.Key] = append(admitted[rec.Key], admission{rec.At, rec.Cost})
			case TraceDelay:
				admitted[rec.Key] = append(admitted[rec.Key], admission{rec.At + rec.Delay, rec.Cost})
			}
		}
		var best int64
		for _, adm := range admitted {
			best = max(best, bruteMaxInWindow(adm, window))
		}
		if best != lane.Peak.Count {
			t.Errorf("%v: trace gives %d in the busiest window, result says %d", lane.Lane, best, lane.Peak.Count)
		}
	}
}

// bruteMaxInWindow tries every window [a.at, a.at+window) starting at an admission.
func bruteMaxInWindow(adm []admission, window time.Duration) int64 {
	slices.SortStableFunc(adm, func(a, b admission) int { return int(a.at - b.at) })
	var best int64
	for i := range adm {
		var sum int64
		for j := i; j < len(adm) && adm[j].at < adm[i].at+window; j++ {
			sum += adm[j].cost
		}
		best = max(best, sum)
	}
	return best
}

// queueWorld is one Poisson stream into a backend, with a limit that never refuses.
func queueWorld(lambda, mu float64, servers int, d time.Duration) Config {
	perArrival := time.Duration(float64(time.Second) / lambda)
	return Config{
		Duration: d, Seed: 3, Lanes: []LaneKind{LaneTokenBucket},
		Limits:  []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 100_000, Window: time.Second}}},
		Clients: []ClientGroup{{Count: 1, Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 1, Per: perArrival}}}}},
		Backend: &Backend{Capacity: servers, QueueSize: 1 << 20,
			Service: Service{Kind: ServiceExponential, Mean: time.Duration(float64(time.Second) / mu)}},
	}
}

// erlangC is the probability that an arrival waits in an M/M/c queue.
func erlangC(c int, lambda, mu float64) float64 {
	a := lambda / mu
	rho := a / float64(c)
	term, sum := 1.0, 0.0
	for k := 0; k < c; k++ {
		if k > 0 {
			term *= a / float64(k)
		}
		sum += term
	}
	last := term * a / float64(c) / (1 - rho)
	return last / (sum + last)
}

func TestBackendMatchesQueueingTheory(t *testing.T) {
	if testing.Short() {
		t.Skip("long run")
	}
	for _, tc := range []struct {
		name       string
		lambda, mu float64
		servers    int
	}{
		{"M/M/1 at 60%", 60, 100, 1},
		{"M/M/3 at 80%", 240, 100, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := mustRun(t, queueWorld(tc.lambda, tc.mu, tc.servers, 4000*time.Second), Options{})
			c := float64(tc.servers)
			want := erlangC(tc.servers, tc.lambda, tc.mu)/(c*tc.mu-tc.lambda) + 1/tc.mu
			got := r.Lanes[0].Backend.Latency.Mean.Seconds()
			if math.Abs(got-want)/want > 0.02 {
				t.Errorf("mean time in system = %.5fs, queueing theory says %.5fs (%d served)", got, want, r.Lanes[0].Backend.Served)
			}
			if u, wantU := r.Lanes[0].Backend.Utilisation, tc.lambda/(c*tc.mu); math.Abs(u-wantU) > 0.01 {
				t.Errorf("utilisation = %.4f, want %.4f", u, wantU)
			}
		})
	}
}

func TestHonouredRetryAfterSucceedsExactlyThen(t *testing.T) {
	for _, lane := range []LaneKind{LaneFixedWindow, LaneSlidingLog, LaneTokenBucket, LaneGCRA} {
		t.Run(lane.String(), func(t *testing.T) {
			cfg := Config{
				Duration: 5 * time.Second, Lanes: []LaneKind{lane},
				Limits: []Limit{{Key: KeyUser, Policy: algorithms.Policy{Limit: 5, Window: time.Second}}},
				Clients: []ClientGroup{{Count: 3, Arrivals: []Arrival{{Kind: ArrivalBurst, At: 250 * time.Millisecond, Count: 6}},
					Retry: Retry{Kind: RetryFixed, Delay: time.Millisecond, HonorRetryAfter: true, MaxAttempts: 2}}},
			}
			got := mustRun(t, cfg, Options{}).Lanes[0]
			if got.Refused != 3 || got.RetryAfter.RetriedAt != 3 || got.RetryAfter.SucceededAt != 3 || got.Succeeded != 18 {
				t.Errorf("refused %d, retried at Retry-After %d, of which admitted %d, succeeded %d; want 3, 3, 3, 18",
					got.Refused, got.RetryAfter.RetriedAt, got.RetryAfter.SucceededAt, got.Succeeded)
			}
		})
	}
}

func TestUsersBehindOneAddressShareThePerIPBudget(t *testing.T) {
	nat := ClientGroup{Name: "users", Count: 300, Identity: Identity{IP: "203.0.113.7"},
		Arrivals: []Arrival{{Kind: ArrivalBurst, At: 0, Count: 1}}}
	for _, tc := range []struct {
		key          KeyKind
		keys         int
		wantAdmitted int64
	}{{KeyIP, 1, 100}, {KeyUser, 300, 300}} {
		cfg := Config{Duration: time.Second, Lanes: []LaneKind{LaneTokenBucket}, Clients: []ClientGroup{nat},
			Limits: []Limit{{Key: tc.key, Policy: algorithms.Policy{Limit: 100, Window: time.Minute}}}}
		pop, _ := newPopulation(context.Background(), cfg.withDefaults().Clients, cfg.Limits)
		if n := pop.keys[0].len(); n != tc.keys {
			t.Errorf("keyed by %v: %d keys, want %d", tc.key, n, tc.keys)
		}
		if got := mustRun(t, cfg, Options{}).Lanes[0].Admitted; got != tc.wantAdmitted {
			t.Errorf("keyed by %v: admitted %d, want %d", tc.key, got, tc.wantAdmitted)
		}
	}
}

func TestOutageAnswers503AndRecoveryServes(t *testing.T) {
	cfg := queueWorld(50, 100, 2, 30*time.Second)
	cfg.Backend.Changes = []BackendChange{{At: 10 * time.Second, Capacity: 0}, {At: 20 * time.Second, Capacity: 2}}
	r := mustRun(t, cfg, Options{}).Lanes[0]
	if r.Shed == 0 {
		t.Fatal("no 503 during a 10 s outage")
	}
	width := mustBucket(cfg)
	for _, p := range r.Series {
		// Requests in service when the outage starts may still finish in its first bucket.
		in := p.Start >= 10*time.Second+width && p.Start+width <= 20*time.Second
		if in && p.Succeeded > 0 {
			t.Errorf("bucket at %v served %d during the outage", p.Start, p.Succeeded)
		}
		if p.Start > 21*time.Second && p.Start < 29*time.Second && p.Succeeded == 0 {
			t.Errorf("bucket at %v served nothing after recovery", p.Start)
		}
	}
}

func mustBucket(c Config) time.Duration { return c.withDefaults().Bucket }

func TestAIMDShedsWhenTheBackendSlowsDown(t *testing.T) {
	cfg := queueWorld(80, 100, 2, 60*time.Second)
	cfg.Lanes = []LaneKind{LaneAIMD}
	cfg.Backend.QueueSize = 1000
	cfg.Backend.Changes = []BackendChange{{At: 20 * time.Second, Capacity: 1, Service: Service{Kind: ServiceExponential, Mean: 40 * time.Millisecond}}}
	r := mustRun(t, cfg, Options{}).Lanes[0]
	var before, during int64
	for _, p := range r.Series {
		if p.Start < 20*time.Second {
			before += p.Shed
		} else {
			during += p.Shed
		}
	}
	if before != 0 || during == 0 {
		t.Errorf("AIMD shed %d before and %d after the slowdown; want none, then some", before, during)
	}
}

func TestClientThrottleDropsUnderOverload(t *testing.T) {
	cfg := Config{Duration: 60 * time.Second, Lanes: []LaneKind{LaneClientThrottle, LaneTokenBucket},
		Limits: []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 10, Window: time.Second}}},
		Clients: []ClientGroup{{Count: 10, Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 5, Per: time.Second}}},
			Retry: Retry{Kind: RetryFixed, Delay: 100 * time.Millisecond, MaxAttempts: 3}}}}
	r := mustRun(t, cfg, Options{})
	throttled, plain := r.Lanes[0], r.Lanes[1]
	if throttled.Dropped == 0 {
		t.Fatal("the adaptive throttle dropped nothing at 5× the limit")
	}
	if throttled.Refused >= plain.Refused {
		t.Errorf("server refusals with client throttling %d, without %d; want fewer", throttled.Refused, plain.Refused)
	}
}

func TestValidateReportsEveryProblem(t *testing.T) {
	cfg := mixedWorld()
	cfg.Duration = 0
	cfg.Limits[0].Policy.Limit = 0
	cfg.Clients[1].Retry.Cap = time.Millisecond
	cfg.Clients[0].Count = -1
	err := cfg.Validate()
	var fe FieldErrors
	if !errors.As(err, &fe) {
		t.Fatalf("Validate = %v, want FieldErrors", err)
	}
	var fields []string
	for _, e := range fe {
		fields = append(fields, e.Field)
	}
	want := []string{"duration", "limits[0].limit", "clients[0].count", "clients[1].retry.cap"}
	if !slices.Equal(fields, want) {
		t.Errorf("fields with problems = %q, want %q", fields, want)
	}
	if _, err := New(cfg, Options{}); err == nil {
		t.Error("New accepted an invalid config")
	}
}

func TestCancelledRunStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cfg := queueWorld(1000, 2000, 1, time.Hour)
	if _, err := Run(ctx, cfg, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Run with a cancelled context = %v, want context.Canceled", err)
	}
}

func TestMemoryStaysFlatAsRequestsGrow(t *testing.T) {
	alloc := func(d time.Duration) uint64 {
		cfg := Config{Duration: d, Lanes: []LaneKind{LaneTokenBucket, LaneLeakyBucket, LaneSlidingLog},
			Limits:  []Limit{{Key: KeyUser, Policy: algorithms.Policy{Limit: 100, Window: time.Second}}},
			Clients: []ClientGroup{{Count: 10, Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 50, Per: time.Second}}}}}}
		// Bytes allocated per run, over a few runs (as testing.Benchmark
		// measures them, without its second of runs per size).
		const runs = 4
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for range runs {
			mustRun(t, cfg, Options{})
		}
		runtime.ReadMemStats(&after)
		return (after.TotalAlloc - before.TotalAlloc) / runs
	}
	small, large := alloc(10*time.Second), alloc(100*time.Second)
	t.Logf("bytes a run: %d for 10s, %d for 100s", small, large)
	if float64(large) > 1.25*float64(small) {
		t.Errorf("10× the requests allocated %d bytes against %d: memory grows with requests", large, small)
	}
}

func TestOverrideChangesOnlyItsLane(t *testing.T) {
	cfg := Config{Duration: 5 * time.Second, Lanes: []LaneKind{LaneLeakyBucket, LaneTokenBucket},
		Limits:    []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 10, Window: time.Second, Burst: 5}}},
		Overrides: []LaneOverride{{Lane: LaneLeakyBucket, Policy: algorithms.Policy{Limit: 10, Window: time.Second, Burst: 20}}},
		Clients:   []ClientGroup{{Count: 1, Arrivals: []Arrival{{Kind: ArrivalBurst, At: time.Second, Count: 30}}}}}
	r := mustRun(t, cfg, Options{})
	// A queue of 20 behind the outlet takes 21 of 30; the token bucket's burst of 5 takes 5.
	if leaky, tb := r.Lanes[0].Admitted, r.Lanes[1].Admitted; leaky != 21 || tb != 5 {
		t.Errorf("admitted: leaky bucket %d, token bucket %d; want 21 and 5", leaky, tb)
	}
	if r.Lanes[0].Peak.Limit != 10 {
		t.Errorf("the override's lane is measured against limit %d, want the chain's 10", r.Lanes[0].Peak.Limit)
	}
}

// TestClientThrottleCountsAnswersNotSends is the polite client of issue 9: a burst
// of 10 over 100ms, far under a 1000/s limit, to a backend that serves each in
// 200ms. Counting at send judged the burst against itself (7 of 10 dropped with no
// refusal at all); counting at the answer drops nothing.
func TestClientThrottleCountsAnswersNotSends(t *testing.T) {
	cfg := Config{Duration: time.Second, Lanes: []LaneKind{LaneClientThrottle},
		Limits: []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 1000, Window: time.Second}}},
		Clients: []ClientGroup{{Name: "polite", Count: 1, Arrivals: []Arrival{
			{Kind: ArrivalBurst, Count: 10, Spread: 100 * time.Millisecond}}}},
		Backend: &Backend{Capacity: 100, Service: Service{Mean: 200 * time.Millisecond}},
	}
	lane := mustRun(t, cfg, Options{}).Lanes[0]
	if lane.Dropped != 0 || lane.Refused != 0 || lane.Shed != 0 {
		t.Errorf("polite burst: dropped %d, refused %d, shed %d; want 0, 0, 0", lane.Dropped, lane.Refused, lane.Shed)
	}
	if lane.Admitted != 10 {
		t.Errorf("polite burst: admitted %d, want 10", lane.Admitted)
	}
}
