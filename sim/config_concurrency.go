package sim

import (
	"fmt"
	"math"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// maxConcurrencyLimits is the last index of the chain a concurrency limit may
// have, plus one: a request notes the places it holds in 64 bits.
const maxConcurrencyLimits = 64

// checkConcurrencyLimit reports what is wrong with concurrency limit l
// (Limit.Concurrency non-zero) at path.
func checkConcurrencyLimit(ck *checker, path string, l Limit) {
	if l.Concurrency < 0 {
		ck.add(path+".concurrency", "must be positive, got %d", l.Concurrency)
	} else if l.Concurrency > MaxConcurrency {
		ck.add(path+".concurrency", "must be at most %d, got %d", MaxConcurrency, l.Concurrency)
	}
	if l.Policy != (algorithms.Policy{}) {
		ck.add(path+".concurrency", "a concurrency limit counts requests in flight, not a rate: give concurrency, or limit and window, not both")
	}
}

// checkConcurrencyChain reports where c's concurrency limits cannot be: first
// in the chain, past its 64th limit, in a topology, under a rule push or an
// override that gives them a rate.
func checkConcurrencyChain(ck *checker, c *Config) {
	for i, l := range c.Limits {
		if l.Concurrency == 0 {
			continue
		}
		path := fmt.Sprintf("limits[%d].concurrency", i)
		switch {
		case i == 0:
			ck.add(path, "the first limit of the chain must be a rate (the most admitted in a window is measured on it); put the concurrency limit after one")
		case i >= maxConcurrencyLimits:
			ck.add(path, "a concurrency limit must be among the first %d limits of the chain", maxConcurrencyLimits)
		}
		if c.Topology != nil {
			ck.add(path, "a concurrency limit is not simulated in a topology yet; leave the topology out")
		}
	}
	for j, ch := range c.Rules {
		if ch.Limit >= 0 && ch.Limit < len(c.Limits) && c.Limits[ch.Limit].Concurrency != 0 && ch.Policy != (algorithms.Policy{}) {
			ck.add(fmt.Sprintf("rules[%d]", j), "limits[%d] is a concurrency limit: a rule push may change its enforcement, not give it a rate", ch.Limit)
		}
	}
	for j, o := range c.Overrides {
		if o.Limit >= 0 && o.Limit < len(c.Limits) && c.Limits[o.Limit].Concurrency != 0 {
			ck.add(fmt.Sprintf("overrides[%d].limit_index", j), "limits[%d] is a concurrency limit, the same in every lane: it has no policy to override", o.Limit)
		}
	}
}

// isRate reports whether l is a rate limit (has a Policy), not a concurrency limit.
func (l Limit) isRate() bool { return l.Concurrency == 0 }

// concurrencyCapacity is about how many requests concurrency limit l lets
// through in a span d: on each key, its places once, then again every mean
// service time of the backend. Without a backend a request is answered the
// instant it is released, so the limit bounds nothing the estimate counts.
func (c Config) concurrencyCapacity(l Limit, d time.Duration) float64 {
	b := c.Backend
	if b == nil || b.Service.Mean <= 0 {
		return math.Inf(1)
	}
	return float64(l.Concurrency) * (1 + float64(d)/c.meanService()) * float64(c.keys(l.Key))
}

// concurrencyRetries is about how many retries the clients of c make against
// a concurrency limit they overload: the arrivals beyond its throughput μ
// (its places over the backend's mean service time, on every key) make a
// backlog growing at λ−μ, each of whose requests retries every wait w of its
// policy while it waits for a place: over the duration T that is
// (λ−μ)T²/2w, then, while the backlog B drains at μ in the drain D,
// B²/2μw, or (BD − μD²/2)/w if it outlasts D (as pacingHolds counts holds).
// A group with max_attempts m makes at most m−1 retries per request of the
// backlog. Shared out over the groups by their arrivals.
func (c Config) concurrencyRetries(arrivals float64) float64 {
	mu := math.Inf(1)
	for _, l := range c.Limits {
		if !l.isRate() {
			mu = min(mu, c.concurrencyCapacity(l, time.Second)-float64(l.Concurrency)*float64(c.keys(l.Key)))
		}
	}

	T, D := c.Duration.Seconds(), c.Drain.Seconds()
	lambda := arrivals / T
	if math.IsInf(mu, 1) || lambda <= mu || T <= 0 {
		return 0
	}
	backlog := (lambda - mu) * T
	waited := backlog * T / 2 // request-seconds in the backlog over T
	if mu > 0 && backlog/mu <= D {
		waited += backlog * backlog / (2 * mu)
	} else {
		waited += backlog*D - mu*D*D/2
	}
	var retries float64
	for _, g := range c.Clients {
		share := 0.0
		for _, a := range g.Arrivals {
			share += float64(g.Count) * arrivalsOf(a, c.Duration) / arrivals
		}
		if g.Retry.Kind == RetryNone || share == 0 {
			continue
		}
		n := math.Inf(1)
		if w := retryWait(g.Retry); w > 0 {
			n = share * waited / w.Seconds()
		}
		if m := g.Retry.MaxAttempts; m > 0 {
			n = min(n, share*backlog*float64(m-1))
		}
		if !math.IsInf(n, 1) {
			retries += n
		}
	}
	return retries
}

// retryWait is about how long policy r waits between retries once it has
// backed off: a fixed delay, an exponential backoff's cap (its mean under
// full jitter) or its base without one, nothing for immediate retries.
func retryWait(r Retry) time.Duration {
	switch r.Kind {
	case RetryFixed:
		return r.Delay
	case RetryExponential:
		if r.Cap <= 0 {
			return r.Base
		}
		if r.Jitter == JitterFull {
			return max(r.Base, r.Cap/2)
		}
		return max(r.Base, r.Cap)
	}
	return 0
}
