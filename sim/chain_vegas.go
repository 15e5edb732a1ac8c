package sim

// The Vegas concurrency lane's settings: their defaults, checks and limiter.

import (
	"math"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim/engine"
)

// vegasDefaults fills the zero fields of c.Vegas with the algorithm's defaults,
// which live in algorithms.VegasConfig.WithDefaults only.
func vegasDefaults(c *Config) {
	v := &c.Vegas
	d := v.algorithm(0).WithDefaults()
	v.Initial, v.Max, v.Smoothing, v.ProbeMultiplier = d.Initial, d.Max, d.Smoothing, d.ProbeMultiplier
}

// algorithm is v as the algorithm's configuration, its probe jitter seeded by seed.
func (v VegasSettings) algorithm(seed uint64) algorithms.VegasConfig {
	return algorithms.VegasConfig{Initial: v.Initial, Max: v.Max, Smoothing: v.Smoothing, ProbeMultiplier: v.ProbeMultiplier, Seed: seed}
}

func checkVegas(ck *checker, c *Config) {
	v := c.Vegas
	ck.atMostTime("vegas.retry_after", v.RetryAfter)
	filled := *c
	vegasDefaults(&filled)
	d := filled.Vegas
	if d.Max < 1 || d.Max > math.MaxInt32 {
		ck.add("vegas.max", "must be within [1, 2^31-1], got %v", d.Max)
	} else if d.Initial < 1 || d.Initial > d.Max {
		ck.add("vegas.initial", "must be within [1, max] = [1, %v], got %v", d.Max, d.Initial)
	}
	if v.Smoothing < 0 || v.Smoothing > 1 {
		ck.add("vegas.smoothing", "must be in (0, 1], got %v", v.Smoothing)
	}
	if v.ProbeMultiplier < 0 {
		ck.add("vegas.probe_multiplier", "must not be negative, got %d", v.ProbeMultiplier)
	}
	if v.RetryAfter < 0 {
		ck.add("vegas.retry_after", "must not be negative, got %v", v.RetryAfter)
	}
}

// newVegas builds the Vegas lane's limiter from c's settings, defaults filled in.
func newVegas(c *Config) (concurrencyLimiter, error) {
	return algorithms.NewVegas(c.Vegas.algorithm(probeSeed(c.Seed)))
}

func probeSeed(seed uint64) uint64 {
	s := engine.NewStream(seed, labelProbe)
	return s.Uint64()
}
