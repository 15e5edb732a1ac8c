package sim

import (
	"cmp"
	"math"
	"strings"
	"time"
)

// EstimateEvents is about how many events a run of c processes, all lanes
// together, for checking a budget before the run starts. Per lane it counts
//
//   - every arrival (exactly for bursts, constant rates and on/off cycles, the
//     mean for Poisson);
//   - every retry: a request refused with probability p tries again, up to
//     m = max_attempts, so it makes (1 − p^m)/(1 − p) attempts, where p is the
//     share of arrivals the chain (and the backend) cannot take: over the whole
//     run at its limit rate, and at the instant of each burst at its burst size;
//     without max_attempts, m is how many of its shortest waits fit in the run;
//     retries quicker than the chain frees a unit meet it full again, so a
//     refused one makes as many as fit in that time (see attemptsPerRequest);
//   - retries until served, in a backlog that grows while the clients send
//     faster than their share (see loopRetries);
//   - with a round trip (ClientGroup.RTT), each first attempt's arrival at
//     the limiter and each answer's way back, and waits a round trip longer;
//   - with a timeout, each attempt's timeout, and the attempts the backend
//     answers too late as refused (see lateShare), retried a timeout later;
//     with a deadline, only the retries that fit in it; with a retry budget,
//     at most Ratio retries per request and MinPerSecond a second besides;
//   - every request served by a backend (whose service time is each group's
//     ServiceFactor × its mean, weighted by arrivals), and every scheduled
//     backend change;
//   - every time a pacing client holds a request until its quota resets (see
//     pacingHolds);
//   - every retry of a backlog that overloads a concurrency limit (see
//     concurrencyRetries);
//   - with a topology, in each lane it applies to: the store's events of every
//     attempt that calls it (two for an atomic check, three for a racy one,
//     when the store takes time), every sync of a synced limit and every
//     autoscaler step; a local or synced limit's capacity is the fleet's.
//
// It is within 2× of the real count on every built-in scenario (a test checks
// that) and it is not a bound: the run itself stops at Options.MaxEvents.
func (c Config) EstimateEvents() int64 {
	c = c.withDefaults()
	var arrivals float64
	for _, g := range c.Clients {
		for _, a := range g.Arrivals {
			arrivals += float64(g.Count) * arrivalsOf(a, c.Duration)
		}
	}
	capacity := c.capacity(c.Duration)
	pRate := refusedShare(arrivals, capacity)
	attempts, _ := c.groupAttempts(-1, arrivals, pRate)
	var base float64
	for _, g := range c.Clients {
		base += c.pacingHolds(g)
	}
	if arrivals > 0 {
		base += c.concurrencyRetries(arrivals)
	}
	if c.Backend != nil {
		base += min(arrivals, capacity) + float64(len(c.Backend.Changes))
	}
	var e float64
	for li := range c.Lanes {
		mine, heard := c.groupAttempts(li, arrivals, pRate)
		// Setting a client up costs about an event's work, so a lane costs at least
		// one event per client, even if few of them ever send.
		e += max(mine+heard+base, float64(c.clients()))
	}
	e += c.fleetEvents(attempts)
	if !(e <= 1<<62) { // NaN too: an estimate that cannot be made is over every budget
		return 1 << 62
	}
	return int64(math.Ceil(e))
}

// groupAttempts is about how many attempts every group makes in lane li
// (−1: by the chain's own policies, without retry loops), and how many more
// events the round trips of those with one take: each first attempt's way to
// the limiter and each refusal's way back.
func (c Config) groupAttempts(li int, arrivals, pRate float64) (attempts, heard float64) {
	for _, g := range c.Clients {
		var mine, requests float64
		for _, a := range g.Arrivals {
			n := float64(g.Count) * arrivalsOf(a, c.Duration)
			p := pRate
			if a.Kind == ArrivalBurst || a.Kind == ArrivalIdleThenBurst {
				p = max(p, refusedShare(float64(g.Count)*float64(a.Count), c.capacity(a.Spread)))
			}
			late := c.lateShare(g)
			p = 1 - (1-p)*(1-late)
			mine += n * attemptsPerRequest(p, g.Retry, c.retrySpan(g), c.refill(), g.RTT+time.Duration(late*float64(g.Timeout)))
			requests += n
		}
		if li >= 0 {
			mine = max(mine, requests+c.loopRetries(g, li, arrivals))
		}
		mine = c.budgeted(g, requests, mine)
		attempts += mine
		if g.RTT > 0 {
			heard += mine - requests*(1-pRate) + requests
		}
		if g.Timeout > 0 {
			heard += mine // each attempt's timeout
		}
	}
	return attempts, heard
}

// capacity is how many requests the chain and the backend can take in a span d:
// the most admitted at the limit rate after a full burst, on every key.
func (c Config) capacity(d time.Duration) float64 {
	most := math.Inf(1)
	for _, l := range c.Limits {
		if !l.isRate() {
			most = min(most, c.concurrencyCapacity(l, d))
			continue
		}
		per := float64(l.Policy.EffectiveBurst()) + float64(l.Policy.Limit)*float64(d)/float64(l.Policy.Window)
		most = min(most, per*float64(c.keys(l.Key))*float64(c.fleetShare(l)))
	}
	if b := c.Backend; b != nil {
		most = min(most, float64(b.QueueSize+b.Capacity)+float64(b.Capacity)*float64(d)/c.meanService())
	}
	return most
}

// lateShare is about what share of g's attempts the backend answers later
// than g's timeout (ClientGroup.Timeout), by the service time alone (its
// mean scaled by g's ServiceFactor): constant, all or none; exponential, the
// chance it outlasts the timeout less the round trip. 0 without a timeout or
// a backend.
func (c Config) lateShare(g ClientGroup) float64 {
	b := c.Backend
	if g.Timeout <= 0 || b == nil || b.Service.Mean <= 0 {
		return 0
	}
	mean := float64(b.Service.Mean) * cmp.Or(g.ServiceFactor, 1)
	left := float64(g.Timeout - g.RTT)
	if b.Service.Kind == ServiceExponential {
		return math.Exp(-max(left, 0) / mean)
	}
	if mean > left {
		return 1
	}
	return 0
}

// meanService is the backend's mean service time in nanoseconds over the
// requests the clients send: each group's ServiceFactor × Backend.Service.Mean,
// weighted by its arrivals.
func (c Config) meanService() float64 {
	mean := float64(c.Backend.Service.Mean)
	var sent, scaledSent float64
	for _, g := range c.Clients {
		var n float64
		for _, a := range g.Arrivals {
			n += float64(g.Count) * arrivalsOf(a, c.Duration)
		}
		sent += n
		scaledSent += n * cmp.Or(g.ServiceFactor, 1)
	}
	if sent > 0 {
		mean *= scaledSent / sent
	}
	return mean
}

// keys is about how many keys a limit counting by kind sees: a group whose
// template holds "{i}" gives each client its own, else the group shares one.
func (c Config) keys(kind KeyKind) int {
	if kind == KeyGlobal {
		return 1
	}
	n := 0
	for _, g := range c.Clients {
		if tmpl := identityTemplate(&g.Identity, kind); tmpl == "" || strings.Contains(tmpl, "{i}") {
			n += g.Count
		} else {
			n++
		}
	}
	return max(n, 1)
}

// pacingHolds is about how many times the clients of g, if they pace themselves,
// hold a request until their quota resets. A client sending at λ against its
// share μ of the tightest limit builds a backlog growing at λ−μ, and every held
// request is held again at each reset (every w, at least the header's whole
// second): over the duration T that is (λ−μ)T²/2w, then, while the backlog B
// drains at μ in the drain D, B²/2μw, or (BD − μD²/2)/w if it outlasts D.
func (c Config) pacingHolds(g ClientGroup) float64 {
	if !g.Pace || g.Count == 0 || c.Duration <= 0 {
		return 0
	}
	seconds := func(d time.Duration) float64 { return d.Seconds() }
	var lambda float64
	for _, a := range g.Arrivals {
		lambda += arrivalsOf(a, c.Duration) / seconds(c.Duration)
	}
	mu, w := math.Inf(1), 1.0
	for _, l := range c.Limits {
		if !l.isRate() {
			continue // sends no quota headers: nobody paces on it
		}
		share := float64(l.Policy.Limit) / seconds(l.Policy.Window) / float64(c.clients()) * float64(c.keys(l.Key))
		if share < mu {
			mu, w = share, max(1, math.Ceil(seconds(l.Policy.Window)))
		}
	}
	if math.IsInf(mu, 1) || lambda <= mu {
		return 0
	}
	T, D := seconds(c.Duration), seconds(c.Drain)
	backlog := (lambda - mu) * T
	holds := (lambda - mu) * T * T / (2 * w)
	if mu > 0 && backlog/mu <= D {
		holds += backlog * backlog / (2 * mu * w)
	} else {
		holds += (backlog*D - mu*D*D/2) / w
	}
	return holds * float64(g.Count)
}

// clients is how many clients the scenario has in all.
func (c Config) clients() int {
	n := 0
	for _, g := range c.Clients {
		n += g.Count
	}
	return max(n, 1)
}

// refusedShare is the share of n requests that a capacity of capacity refuses.
func refusedShare(n, capacity float64) float64 {
	if n <= 0 || capacity >= n {
		return 0
	}
	return 1 - capacity/n
}

// refill is the longest time any limit of the chain takes to free one unit, in ns.
func (c Config) refill() float64 {
	var most float64
	for _, l := range c.Limits {
		if l.isRate() {
			most = max(most, float64(l.Policy.Window)/float64(l.Policy.Limit))
		}
	}
	return most
}

// attemptsPerRequest is the mean attempts of a request refused with probability
// p, under retry policy r, in a run of length end, when the chain frees a unit
// every refill ns. Retries far apart are refused independently, each with
// probability p; retries quicker than refill keep meeting the same full limit
// until a unit frees, so a refused request makes refill/wait of them.
func attemptsPerRequest(p float64, r Retry, end time.Duration, refill float64, rtt time.Duration) float64 {
	if r.Kind == RetryNone || p == 0 {
		return 1
	}
	fit := retriesThatFit(r, end, rtt)
	m := float64(r.MaxAttempts)
	if m == 0 || fit+1 < m {
		m = fit + 1
	}
	if p >= 1 {
		return m
	}
	independent := (1 - math.Pow(p, m)) / (1 - p)
	quick := 1 + p*min(m-1, refill*fit/float64(end))
	return max(independent, quick)
}

// retriesThatFit is how many retries of policy r fit in a span end, each after
// its shortest wait and a round trip rtt.
func retriesThatFit(r Retry, end, rtt time.Duration) float64 {
	var wait time.Duration
	switch r.Kind {
	case RetryFixed:
		wait = r.Delay
	case RetryExponential:
		wait = r.Base
		if r.Jitter == JitterFull || r.Jitter == JitterEqual {
			wait = r.Base / 2
		}
	}
	wait += rtt
	if wait <= 0 {
		return math.Inf(1) // immediate: max_attempts bounds them
	}
	return float64(end) / float64(wait)
}

// retrySpan is how long a request of g may go on retrying: the run and its
// drain, or g's deadline if shorter.
func (c Config) retrySpan(g ClientGroup) time.Duration {
	if g.Deadline > 0 {
		return min(c.Duration+c.Drain, g.Deadline)
	}
	return c.Duration + c.Drain
}

// budgeted bounds attempts, the attempts of g's requests, by g's retry
// budget: at most Ratio retries per request, and MinPerSecond a second per
// client (the reserve, renewed every TTL) besides.
func (c Config) budgeted(g ClientGroup, requests, attempts float64) float64 {
	b := g.Retry.Budget
	if b == nil || g.Retry.Kind == RetryNone {
		return attempts
	}
	ttl := b.TTL
	if ttl == 0 {
		ttl = defaultBudgetTTL
	}
	windows := math.Ceil(float64(c.Duration+c.Drain) / float64(ttl))
	reserve := float64(b.MinPerSecond) * math.Floor(ttl.Seconds()) * windows * float64(g.Count)
	return min(attempts, requests*(1+b.Ratio)+reserve)
}

// arrivalsOf is how many requests component a makes for one client in a run of
// the given duration: exact but for Poisson, whose mean it is.
func arrivalsOf(a Arrival, duration time.Duration) float64 {
	stop := duration
	if a.Stop > 0 {
		stop = min(stop, a.Stop)
	}
	span := max(stop-a.Start, 0)
	switch a.Kind {
	case ArrivalBurst:
		if a.At >= stop {
			return 0
		}
		return float64(a.Count)
	case ArrivalConstant:
		if span == 0 {
			return 0
		}
		return float64(countIn(span, a.Rate))
	case ArrivalPoisson:
		return float64(span) * float64(a.Rate.Count) / float64(a.Rate.Per)
	case ArrivalOnOff:
		cycle := a.On + a.Off
		full := float64(span / cycle)
		rest := span % cycle
		n := full * float64(countIn(a.On, a.Rate))
		if rest > 0 {
			n += float64(countIn(min(rest, a.On), a.Rate))
		}
		return n
	case ArrivalIdleThenBurst:
		if span <= a.Idle {
			return 0
		}
		bursts := float64((span-a.Idle-1)/(a.Idle+a.Spread)) + 1
		return bursts * float64(a.Count)
	}
	return 0
}
