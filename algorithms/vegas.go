package algorithms

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// VegasConfig configures a Vegas concurrency limit. Zero fields take the
// defaults of Netflix concurrency-limits' VegasLimit: Initial 20, Max 1000,
// Smoothing 1, ProbeMultiplier 30.
type VegasConfig struct {
	Initial, Max    float64 // starting limit and its ceiling; 1 ≤ Initial ≤ Max < 2^31
	Smoothing       float64 // weight of a new limit against the old one, in (0, 1]
	ProbeMultiplier int     // probe the no-load latency about every ProbeMultiplier×limit completions
	Seed            uint64  // seeds the probe's jitter, so runs repeat exactly
}

// Vegas is a server-side adaptive concurrency limit after TCP Vegas, as Netflix
// concurrency-limits' VegasLimit computes it. It admits a request while fewer
// than ⌊limit⌋ are in flight and refuses it (HTTP 503) otherwise. It keeps the
// smallest latency seen, the no-load latency; on each completion with latency
// rtt it estimates the queue behind the limit as
//
//	queue = ⌈limit × (1 − noLoad/rtt)⌉
//
// and, with d = max(1, ⌊log10 ⌊limit⌋⌋), moves the limit:
//
//	queue ≤ d        limit += 6d (beta: no queue, grow fast)
//	queue < 3d       limit += d  (alpha: a short queue, grow slowly)
//	queue > 6d       limit −= d  (a long queue: shrink)
//	otherwise        unchanged   (the sweet spot)
//
// The new limit is clamped to [1, Max] and blended with the old one by
// Smoothing. While fewer than half the limit are in flight the limit does not
// move (it would drift upward unused). About every ProbeMultiplier×limit
// completions (jittered by a factor in [0.5, 1)) Vegas forgets its no-load
// latency and takes the current sample as the new one, so a service that got
// permanently slower is not read as forever queueing.
//
// Where rlsim differs from the library: a sample's in-flight count is read at
// completion (the library reads it when the request started); there are no
// drops (timeouts), so the drop branch is never taken; a completion with no
// latency (no backend) changes nothing, where the library requires rtt > 0; the
// probe jitter comes from a seeded generator instead of ThreadLocalRandom.
//
// The limit is a float64, as in the library; it never feeds back into virtual
// time. A Vegas is one server's state; it is not safe for concurrent use. The
// now arguments are not used by the rule; they keep the shape of every
// algorithm method.
type Vegas struct {
	cfg        VegasConfig
	limit      float64
	inFlight   int
	noLoad     time.Duration // smallest latency since the last probe; 0 before any
	probeCount int
	jitter     float64 // in [0.5, 1)
	rnd        uint64
}

// WithDefaults is cfg with its zero fields set to the library's defaults.
func (cfg VegasConfig) WithDefaults() VegasConfig {
	if cfg.Initial == 0 {
		cfg.Initial = 20
	}
	if cfg.Max == 0 {
		cfg.Max = 1000
	}
	if cfg.Smoothing == 0 {
		cfg.Smoothing = 1
	}
	if cfg.ProbeMultiplier == 0 {
		cfg.ProbeMultiplier = 30
	}
	return cfg
}

// NewVegas returns a Vegas limit for cfg (zero fields taking their defaults),
// or every problem with cfg.
func NewVegas(cfg VegasConfig) (*Vegas, error) {
	cfg = cfg.WithDefaults()
	var errs []error
	if !(cfg.Max >= 1 && cfg.Max <= math.MaxInt32) {
		errs = append(errs, fmt.Errorf("max must be within [1, 2^31-1], got %v", cfg.Max))
	}
	if !(cfg.Initial >= 1 && cfg.Initial <= cfg.Max) {
		errs = append(errs, fmt.Errorf("initial must be within [1, max] = [1, %v], got %v", cfg.Max, cfg.Initial))
	}
	if !(cfg.Smoothing > 0 && cfg.Smoothing <= 1) {
		errs = append(errs, fmt.Errorf("smoothing must be within (0, 1], got %v", cfg.Smoothing))
	}
	if cfg.ProbeMultiplier < 1 {
		errs = append(errs, fmt.Errorf("probe_multiplier must be at least 1, got %d", cfg.ProbeMultiplier))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("vegas: %w", err)
	}
	v := &Vegas{cfg: cfg, limit: cfg.Initial, rnd: cfg.Seed}
	v.resetProbe()
	return v, nil
}

// Acquire admits a request at now if fewer than ⌊limit⌋ are in flight, counting
// it in flight, and reports whether it did.
func (v *Vegas) Acquire(now time.Duration) bool {
	if v.inFlight >= int(v.limit) {
		return false
	}
	v.inFlight++
	return true
}

// AcquireOver counts a request in flight at now whatever the limit: a
// partitioned limiter admits a partition within its guaranteed share even when
// the limit is full (concurrency-limits' AbstractPartitionedLimiter).
func (v *Vegas) AcquireOver(now time.Duration) { v.inFlight++ }

// Release records the completion at now of an acquired request that took
// latency, and adapts the limit. It panics if nothing is in flight.
func (v *Vegas) Release(now, latency time.Duration) {
	if v.inFlight == 0 {
		panic("algorithms: Vegas.Release without a matching Acquire")
	}
	inFlight := v.inFlight
	v.inFlight--
	if latency <= 0 {
		return
	}
	v.probeCount++
	if v.jitter*float64(v.cfg.ProbeMultiplier)*v.limit <= float64(v.probeCount) {
		v.resetProbe()
		v.noLoad = latency
		return
	}
	if v.noLoad == 0 || latency < v.noLoad {
		v.noLoad = latency
		return
	}
	if inFlight*2 < int(v.limit) {
		return
	}
	v.update(latency)
}

func (v *Vegas) update(rtt time.Duration) {
	queue := int(math.Ceil(v.limit * (1 - float64(v.noLoad)/float64(rtt))))
	d := log10Root(int(v.limit))
	next := v.limit
	switch {
	case queue <= d:
		next += float64(6 * d)
	case queue < 3*d:
		next += float64(d)
	case queue > 6*d:
		next -= float64(d)
	default:
		return
	}
	next = max(1, min(v.cfg.Max, next))
	v.limit = (1-v.cfg.Smoothing)*v.limit + v.cfg.Smoothing*next
}

// resetProbe restarts the count to the next probe with a fresh jitter in [0.5, 1).
func (v *Vegas) resetProbe() {
	v.probeCount = 0
	v.rnd += 0x9e3779b97f4a7c15 // splitmix64
	z := v.rnd
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	v.jitter = 0.5 + 0.5*float64(z>>11)/(1<<53)
}

// log10Root is max(1, ⌊log10 n⌋), the library's Log10RootFunction with baseline 0.
func log10Root(n int) int {
	d := 0
	for ; n >= 10; n /= 10 {
		d++
	}
	return max(1, d)
}

// Limit is the current concurrency limit; ⌊Limit⌋ requests may be in flight.
func (v *Vegas) Limit() float64 { return v.limit }

// InFlight is the number of acquired requests not yet released.
func (v *Vegas) InFlight() int { return v.inFlight }
