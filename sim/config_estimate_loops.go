package sim

import (
	"math"
	"strings"
	"time"
)

// loopRetries is about how many retries the clients of g make in lane li
// when they retry until served (no max_attempts), faster than they are
// served: a client sending at λ of which it is served μ — its share of its
// key's limit in that lane, and of what the backend serves of all that is
// offered — builds a backlog growing at λ−μ, each request of it retrying
// every wait (its shortest wait and a round trip). A deadline L caps each
// request's life, so the backlog stops growing at (λ−μ)L. Over the duration T
// that is (λ−μ)(min(T,L)²/2 + min(T,L)(T−min(T,L)))/wait; in the drain D the
// backlog B drains at μ, and is gone within L: B×min(D, B/μ, L)/2/wait more.
func (c Config) loopRetries(g ClientGroup, li int, offered float64) float64 {
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
	mu := min(c.keyShare(g, li), lambda*(1-refusedShare(offered, c.backendCapacity(c.Duration))))
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

// keyShare is, per second, what one client of g may have admitted in lane
// li by the tightest limit of the chain as that lane applies it: its key's
// rate, shared with the clients on that key (its group's, if the key's
// template has no "{i}"; everyone's, for a global limit).
func (c Config) keyShare(g ClientGroup, li int) float64 {
	share := math.Inf(1)
	for i, l := range c.Limits {
		if l.Endpoint != "" && g.Identity.Endpoint != l.Endpoint || !l.isRate() {
			continue // a concurrency limit's retries are concurrencyRetries'
		}
		p := c.policy(li, i)
		rate := float64(p.Limit) / p.Window.Seconds()
		switch tmpl := identityTemplate(&g.Identity, l.Key); {
		case l.Key == KeyGlobal:
			rate /= float64(c.clients())
		case tmpl != "" && !strings.Contains(tmpl, "{i}"):
			rate /= float64(max(g.Count, 1))
		}
		share = min(share, rate)
	}
	return share
}

// backendCapacity is how many requests the backend serves in a span d, all
// if there is none.
func (c Config) backendCapacity(d time.Duration) float64 {
	b := c.Backend
	if b == nil || b.Service.Mean <= 0 {
		return math.Inf(1)
	}
	return float64(b.QueueSize+b.Capacity) + float64(b.Capacity)*float64(d)/c.meanService()
}
