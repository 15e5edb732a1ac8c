package sim

import "time"

// breakerState is a circuit breaker's state (see Breaker).
type breakerState uint8

const (
	breakerClosed breakerState = iota
	breakerOpen
	breakerHalfOpen
)

// breaker is one replica's circuit breaker on one shard of the store.
type breaker struct {
	state breakerState
	// gen counts the state changes: an outcome counts only in the generation
	// its call was sent in.
	gen uint32
	// fails are the times of the last failures while closed, a ring of
	// Breaker.Failures; n of them held, the oldest at head.
	fails   []time.Duration
	head, n int
	until   time.Duration // open: when its cooldown ends
	sent    int           // half-open: probes sent
	ok      int           // half-open: probes answered
	counts  BreakerCounts
}

// breakerOf is the breaker of request r's call: its replica's on its client's shard.
func (f *fleet) breakerOf(r int32) *breaker {
	c := f.lane.reqs.all[r].client
	i := int(f.replicaOf[r])*f.shardCount() + f.shardOf(c)
	for i >= len(f.breakers) {
		j := len(f.breakers)
		f.breakers = append(f.breakers, breaker{counts: BreakerCounts{Replica: j / f.shardCount(), Shard: j % f.shardCount()}})
	}
	return &f.breakers[i]
}

// allow reports whether a call may be sent now: closed, or half-open with a
// probe left; an open breaker whose cooldown has ended turns half-open first.
func (f *fleet) allow(b *breaker, now time.Duration) bool {
	if b.state == breakerOpen && now >= b.until {
		f.setBreaker(b, breakerHalfOpen, now)
	}
	switch b.state {
	case breakerClosed:
		return true
	case breakerHalfOpen:
		if b.sent < f.topo.Store.Breaker.Probes {
			b.sent++
			return true
		}
	}
	return false
}

// outcome is the outcome of a call sent in generation gen, known at now.
func (f *fleet) outcome(b *breaker, gen uint32, failed bool, now time.Duration) {
	if gen != b.gen {
		return
	}
	cfg := &f.topo.Store.Breaker
	switch {
	case b.state == breakerHalfOpen && failed:
		f.setBreaker(b, breakerOpen, now)
	case b.state == breakerHalfOpen:
		b.ok++
		if b.ok >= cfg.Probes {
			f.setBreaker(b, breakerClosed, now)
		}
	case b.state == breakerClosed && failed:
		if b.fails == nil {
			b.fails = make([]time.Duration, cfg.Failures)
		}
		if b.n < cfg.Failures {
			b.fails[(b.head+b.n)%cfg.Failures] = now
			b.n++
		} else {
			b.fails[b.head] = now
			b.head = (b.head + 1) % cfg.Failures
		}
		if b.n == cfg.Failures && now-b.fails[b.head] < cfg.Window {
			f.setBreaker(b, breakerOpen, now)
		}
	}
}

// setBreaker moves b to state s at now, in a new generation, and records the phase.
func (f *fleet) setBreaker(b *breaker, s breakerState, now time.Duration) {
	b.state, b.gen, b.sent, b.ok, b.n, b.head = s, b.gen+1, 0, 0, 0, 0
	kind := PhaseBreakerClosed
	switch s {
	case breakerOpen:
		cool := f.topo.Store.Breaker.Cooldown
		b.until = later(now, cool)
		b.counts.Opens++
		b.counts.OpenTime += min(b.until, max(f.lane.end, now)) - now
		kind = PhaseBreakerOpen
	case breakerHalfOpen:
		kind = PhaseBreakerHalfOpen
	}
	f.phase(kind, b.counts.Replica, b.counts.Shard, "")
}

// breakerResult adds what the breakers did to rem.
func (f *fleet) breakerResult(rem *Remedies) {
	for _, b := range f.breakers {
		c := b.counts
		if c.Opens == 0 && c.Saved == 0 {
			continue
		}
		rem.Breakers = append(rem.Breakers, c)
		rem.BreakerOpens += c.Opens
		rem.BreakerSaved += c.Saved
		rem.BreakerOpenTime += c.OpenTime
	}
}
