package sim

import (
	"math"
	"time"
)

// loopRetries is about how many retries the clients of g make when they
// retry until served (no max_attempts), faster than the limit frees room: a
// client sending at λ against its share μ of the tightest limit (and of the
// backend) builds a backlog growing at λ−μ, each request of it retrying every
// wait (its shortest wait and a round trip). A deadline L caps each request's
// life, so the backlog stops growing at (λ−μ)L. Over the duration T that is
// (λ−μ)(min(T,L)²/2 + min(T,L)(T−min(T,L)))/wait; in the drain D the backlog
// B drains at μ, and is gone within L: B×min(D, B/μ, L)/2/wait more.
func (c Config) loopRetries(g ClientGroup) float64 {
	r := g.Retry
	if r.Kind == RetryNone || r.MaxAttempts > 0 || g.Count == 0 || c.Duration <= 0 {
		return 0
	}
	wait := loopWait(r) + g.RTT
	if wait <= 0 {
		return 0
	}
	seconds := func(d time.Duration) float64 { return d.Seconds() }
	var lambda float64
	for _, a := range g.Arrivals {
		lambda += arrivalsOf(a, c.Duration) / seconds(c.Duration)
	}
	mu := c.clientShare()
	if lambda <= mu {
		return 0
	}
	T, D, L := seconds(c.Duration), seconds(c.Drain), math.Inf(1)
	if g.Deadline > 0 {
		L = seconds(g.Deadline)
	}
	grow := min(T, L)
	backlog := (lambda - mu) * grow
	during := (lambda - mu) * (grow*grow/2 + grow*(T-grow))
	span := min(D, L)
	if mu > 0 {
		span = min(span, backlog/mu)
	}
	after := backlog * span / 2
	return (during + after) / seconds(wait) * float64(g.Count)
}

// loopWait is the shortest wait of retry policy r before a retry.
func loopWait(r Retry) time.Duration {
	switch r.Kind {
	case RetryFixed:
		return r.Delay
	case RetryExponential:
		return r.Cap // a loop that lasts sleeps the cap, mostly
	}
	return 0
}

// clientShare is one client's share, per second, of what the tightest limit
// of the chain and the backend admit.
func (c Config) clientShare() float64 {
	mu := math.Inf(1)
	for _, l := range c.Limits {
		mu = min(mu, float64(l.Policy.Limit)/l.Policy.Window.Seconds()*float64(c.keys(l.Key)))
	}
	if b := c.Backend; b != nil && b.Service.Mean > 0 {
		mu = min(mu, float64(b.Capacity)/b.Service.Mean.Seconds())
	}
	return mu / float64(c.clients())
}
