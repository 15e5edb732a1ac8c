package sim

// The Gradient2 concurrency lane's settings: their defaults, checks and limiter.

import (
	"math"

	"github.com/rlsim/rlsim/algorithms"
)

// gradient2Defaults fills the zero fields of c.Gradient2 with the algorithm's
// defaults, which live in algorithms.Gradient2Config.WithDefaults only.
func gradient2Defaults(c *Config) {
	g := &c.Gradient2
	d := g.algorithm().WithDefaults()
	g.Initial, g.Min, g.Max, g.Smoothing = d.Initial, d.Min, d.Max, d.Smoothing
	g.QueueSize, g.LongWindow, g.RTTTolerance = d.QueueSize, d.LongWindow, d.RTTTolerance
}

// algorithm is g as the algorithm's configuration.
func (g Gradient2Settings) algorithm() algorithms.Gradient2Config {
	return algorithms.Gradient2Config{Initial: g.Initial, Min: g.Min, Max: g.Max, Smoothing: g.Smoothing,
		QueueSize: g.QueueSize, LongWindow: g.LongWindow, RTTTolerance: g.RTTTolerance}
}

// checkGradient2 checks c.Gradient2 as algorithms.NewGradient2 will, field by
// field, the defaults filled in where a field is left out.
func checkGradient2(ck *checker, c *Config) {
	g := c.Gradient2
	ck.atMostTime("gradient2.retry_after", g.RetryAfter)
	filled := *c
	gradient2Defaults(&filled)
	d := filled.Gradient2
	if !(d.Max >= 1 && d.Max <= math.MaxInt32) {
		ck.add("gradient2.max", "must be within [1, 2^31-1], got %v", d.Max)
	} else {
		if !(d.Min >= 1 && d.Min <= d.Max) {
			ck.add("gradient2.min", "must be within [1, max] = [1, %v], got %v", d.Max, d.Min)
		}
		if !(d.Initial >= 1 && d.Initial <= d.Max) {
			ck.add("gradient2.initial", "must be within [1, max] = [1, %v], got %v", d.Max, d.Initial)
		}
	}
	if !(d.Smoothing > 0 && d.Smoothing <= 1) {
		ck.add("gradient2.smoothing", "must be in (0, 1], got %v", g.Smoothing)
	}
	if !(d.QueueSize >= 0 && d.QueueSize <= math.MaxInt32) {
		ck.add("gradient2.queue_size", "must be within [0, 2^31-1], got %v", g.QueueSize)
	}
	if d.LongWindow < 1 {
		ck.add("gradient2.long_window", "must be at least 1, got %d", g.LongWindow)
	}
	if !(d.RTTTolerance >= 1 && d.RTTTolerance <= math.MaxInt32) {
		ck.add("gradient2.rtt_tolerance", "must be within [1, 2^31-1], got %v", g.RTTTolerance)
	}
	if g.RetryAfter < 0 {
		ck.add("gradient2.retry_after", "must not be negative, got %v", g.RetryAfter)
	}
}

// newGradient2 builds the Gradient2 lane's limiter from c's settings, defaults filled in.
func newGradient2(c *Config) (concurrencyLimiter, error) {
	return algorithms.NewGradient2(c.Gradient2.algorithm())
}
