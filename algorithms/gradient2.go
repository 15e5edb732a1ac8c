package algorithms

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// Gradient2Config configures a Gradient2 concurrency limit. Zero fields take
// the defaults of Netflix concurrency-limits' Gradient2Limit.Builder (v0.5.4,
// Gradient2Limit.java): Initial 20, Min 20, Max 200, Smoothing 0.2, QueueSize
// 4, LongWindow 600, RTTTolerance 1.5.
type Gradient2Config struct {
	Initial, Min, Max float64 // starting limit, its floor and its ceiling; 1 ≤ Min ≤ Max < 2^31, Initial ≥ 1
	Smoothing         float64 // weight of a new estimate against the old limit, in (0, 1]
	QueueSize         float64 // the queue allowed on top of the gradient's limit, ≥ 0
	LongWindow        int     // samples in the long-term latency average, ≥ 1
	RTTTolerance      float64 // how much the short latency may exceed the long one before the limit shrinks, ≥ 1
}

// Gradient2 is a server-side adaptive concurrency limit, as Netflix
// concurrency-limits' Gradient2Limit computes it. It admits a request while
// fewer than ⌊limit⌋ are in flight and refuses it (HTTP 503) otherwise. On each
// completion with latency rtt it keeps a long-term latency, an exponential
// average over LongWindow samples (the library's ExpAvgMeasurement: the plain
// mean of the first 10 samples, then factor 2/(LongWindow+1)), and moves the
// limit:
//
//	long  = average(rtt)                           (then long ×= 0.95 if long/rtt > 2)
//	if in flight < limit/2: no change              (app limited)
//	gradient = max(0.5, min(1, tolerance × long / rtt))
//	next  = limit × gradient + queueSize
//	limit = clamp(limit × (1 − smoothing) + next × smoothing, Min, Max)
//
// The gradient compares the latency now with its long-term average: a queue
// building behind the limit raises rtt above the average and shrinks the
// limit, at most by half a step; with no queue the limit grows by
// smoothing × queueSize a completion.
//
// Where rlsim differs from the library: a sample's in-flight count is read at
// completion, the completed request included (the library passes the count it
// recorded when the request started); the limit is updated on every completion
// (the library's README pairs Gradient2 with a WindowedLimit that feeds it one
// aggregate sample a window: a Gradient2 lane is the bare limit); a completion
// with no latency (no backend) changes nothing, where the library would divide
// by zero; a Max below Initial is an error, where the library only logs it.
//
// A Gradient2 is one server's state; it is not safe for concurrent use. The now
// arguments are not used by the rule; they keep the shape of every algorithm
// method.
type Gradient2 struct {
	cfg      Gradient2Config
	limit    float64
	inFlight int
	long     expAverage
}

// WithDefaults is cfg with its zero fields set to the library's defaults.
func (cfg Gradient2Config) WithDefaults() Gradient2Config {
	if cfg.Initial == 0 {
		cfg.Initial = 20
	}
	if cfg.Min == 0 {
		cfg.Min = 20
	}
	if cfg.Max == 0 {
		cfg.Max = 200
	}
	if cfg.Smoothing == 0 {
		cfg.Smoothing = 0.2
	}
	if cfg.QueueSize == 0 {
		cfg.QueueSize = 4
	}
	if cfg.LongWindow == 0 {
		cfg.LongWindow = 600
	}
	if cfg.RTTTolerance == 0 {
		cfg.RTTTolerance = 1.5
	}
	return cfg
}

// NewGradient2 returns a Gradient2 limit for cfg (zero fields taking their
// defaults), or every problem with cfg.
func NewGradient2(cfg Gradient2Config) (*Gradient2, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.check(); err != nil {
		return nil, fmt.Errorf("gradient2: %w", err)
	}
	return &Gradient2{cfg: cfg, limit: cfg.Initial, long: expAverage{window: cfg.LongWindow, warmup: gradient2Warmup}}, nil
}

// gradient2Warmup is the samples the long-term average takes as a plain mean
// before it turns exponential (Gradient2Limit's `new ExpAvgMeasurement(longWindow, 10)`).
const gradient2Warmup = 10

func (cfg Gradient2Config) check() error {
	var errs []error
	if !(cfg.Max >= 1 && cfg.Max <= math.MaxInt32) {
		errs = append(errs, fmt.Errorf("max must be within [1, 2^31-1], got %v", cfg.Max))
	} else if !(cfg.Min >= 1 && cfg.Min <= cfg.Max) {
		errs = append(errs, fmt.Errorf("min must be within [1, max] = [1, %v], got %v", cfg.Max, cfg.Min))
	}
	if !(cfg.Initial >= 1 && cfg.Initial <= cfg.Max) {
		errs = append(errs, fmt.Errorf("initial must be within [1, max] = [1, %v], got %v", cfg.Max, cfg.Initial))
	}
	if !(cfg.Smoothing > 0 && cfg.Smoothing <= 1) {
		errs = append(errs, fmt.Errorf("smoothing must be within (0, 1], got %v", cfg.Smoothing))
	}
	if !(cfg.QueueSize >= 0 && cfg.QueueSize <= math.MaxInt32) {
		errs = append(errs, fmt.Errorf("queue_size must be within [0, 2^31-1], got %v", cfg.QueueSize))
	}
	if cfg.LongWindow < 1 {
		errs = append(errs, fmt.Errorf("long_window must be at least 1, got %d", cfg.LongWindow))
	}
	if !(cfg.RTTTolerance >= 1 && cfg.RTTTolerance <= math.MaxInt32) {
		errs = append(errs, fmt.Errorf("rtt_tolerance must be within [1, 2^31-1], got %v", cfg.RTTTolerance))
	}
	return errors.Join(errs...)
}

// Acquire admits a request at now if fewer than ⌊limit⌋ are in flight, counting
// it in flight, and reports whether it did.
func (g *Gradient2) Acquire(now time.Duration) bool {
	if g.inFlight >= int(g.limit) {
		return false
	}
	g.inFlight++
	return true
}

// AcquireOver counts a request in flight at now whatever the limit: a
// partitioned limiter admits a partition within its guaranteed share even when
// the limit is full (concurrency-limits' AbstractPartitionedLimiter).
func (g *Gradient2) AcquireOver(now time.Duration) { g.inFlight++ }

// Release records the completion at now of an acquired request that took
// latency, and adapts the limit. It panics if nothing is in flight.
func (g *Gradient2) Release(now, latency time.Duration) {
	if g.inFlight == 0 {
		panic("algorithms: Gradient2.Release without a matching Acquire")
	}
	inFlight := g.inFlight
	g.inFlight--
	if latency <= 0 {
		return
	}
	short := float64(latency)
	long := g.long.add(short)
	if long/short > 2 {
		g.long.value *= 0.95
	}
	if float64(inFlight) < g.limit/2 {
		return
	}
	gradient := max(0.5, min(1, g.cfg.RTTTolerance*long/short))
	next := g.limit*gradient + g.cfg.QueueSize
	next = g.limit*(1-g.cfg.Smoothing) + next*g.cfg.Smoothing
	g.limit = max(g.cfg.Min, min(g.cfg.Max, next))
}

// Limit is the current limit on requests in flight (its floor is what Acquire uses).
func (g *Gradient2) Limit() float64 { return g.limit }

// InFlight is the number of requests admitted and not yet released.
func (g *Gradient2) InFlight() int { return g.inFlight }

// expAverage is concurrency-limits' ExpAvgMeasurement: the mean of the first
// warmup samples, then an exponential average with factor 2/(window+1).
type expAverage struct {
	window, warmup, count int
	sum, value            float64
}

func (a *expAverage) add(sample float64) float64 {
	if a.count < a.warmup {
		a.count++
		a.sum += sample
		a.value = a.sum / float64(a.count)
		return a.value
	}
	factor := 2 / float64(a.window+1)
	a.value = a.value*(1-factor) + sample*factor
	return a.value
}
