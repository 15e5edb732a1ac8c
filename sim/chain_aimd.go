package sim

// The AIMD concurrency lane's settings: their defaults, checks and limiter.

import (
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

func aimdDefaults(c *Config) { c.AIMD = c.AIMD.withDefaults(c.Backend) }

// withDefaults is a with its zero fields filled: the defaults live here only.
func (a AIMDSettings) withDefaults(b *Backend) AIMDSettings {
	if a.Initial == 0 {
		a.Initial = 10
	}
	if a.Min == 0 {
		a.Min = 1
	}
	if a.Max == 0 {
		a.Max = 1000
	}
	if a.Target == 0 {
		a.Target = 100 * time.Millisecond
		if b != nil && b.Service.Mean > 0 {
			a.Target = 2 * b.Service.Mean
		}
	}
	if a.Backoff == 0 {
		a.Backoff = 0.9
	}
	return a
}

func checkAIMD(ck *checker, c *Config) {
	ck.atMostTime("aimd.target", c.AIMD.Target)
	ck.atMostTime("aimd.retry_after", c.AIMD.RetryAfter)
	a := c.AIMD.withDefaults(c.Backend)
	if a.Min < 0 || a.Max < 0 || a.Initial < 0 {
		ck.add("aimd", "initial, min and max must not be negative")
	} else if a.Min > a.Max {
		ck.add("aimd.min", "must be at most max (%v), got %v", a.Max, a.Min)
	} else if a.Initial < a.Min || a.Initial > a.Max {
		ck.add("aimd.initial", "must be within [min, max] = [%v, %v], got %v", a.Min, a.Max, a.Initial)
	}
	if a.Backoff < 0 || a.Backoff >= 1 {
		ck.add("aimd.backoff", "must be in (0, 1): it multiplies the limit on a cut, got %v", a.Backoff)
	}
	if a.RetryAfter < 0 {
		ck.add("aimd.retry_after", "must not be negative, got %v", a.RetryAfter)
	}
	if a.Target < 0 {
		ck.add("aimd.target", "must not be negative, got %v", a.Target)
	}
}

// newAIMD builds the AIMD lane's limiter from c's settings, defaults filled in.
func newAIMD(c *Config) (concurrencyLimiter, error) {
	a := c.AIMD
	return algorithms.NewAIMD(algorithms.AIMDConfig{Initial: a.Initial, Min: a.Min, Max: a.Max, Target: a.Target, Backoff: a.Backoff})
}
