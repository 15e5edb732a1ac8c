package sim

import (
	"context"
	"slices"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim/engine"
)

// lane is one limiting strategy applied to the whole population on its own
// virtual clock. Lanes share nothing mutable; they see the same arrivals because
// each client's arrival stream (or its superposed group's, see superposable)
// is seeded the same way in every lane.
type lane struct {
	// dec is where the direct path and the kernel have Decide fill its
	// Decision: one on the stack would escape through the interface call.
	dec   algorithms.Decision
	kind  LaneKind
	index int     // in Config.Lanes
	name  string  // Config.LaneName(index)
	cfg   *Config // as this lane applies it (Config.laneConfig)
	pop   *population
	eng   eventQueue
	end   time.Duration

	chain          []decider
	limits         []Limit             // the chain's limits as the lane applies them now
	policies       []algorithms.Policy // of each limit of chain, as it applies now
	shadow         []bool              // of each limit of chain: a dry run now
	shadowed       int                 // the first shadow that would refuse the attempt being decided, or -1
	nextRule       int                 // the next of cfg.Rules to apply
	ruleAt         time.Duration       // when: cfg.Rules[nextRule].At, or noRule
	conc           concurrencyLimiter  // nil unless the lane is a concurrency limiter
	shedRetryAfter time.Duration       // the Retry-After of conc's 503
	parts          *partitionedLimiter // conc's partitions; nil without
	keyTables      []KeyTableStats     // the figures of key tables a rule push replaced
	nearReplaced   []int64             // per limit: near_limit hits of tables a rule push replaced
	refusalStatus  int                 // the HTTP status of the lane's refusals (Config.RefusalStatus)
	gate           clientGate          // nil unless the lane is a client gate
	quick          admitter            // the chain's one limit when its verdict alone will do (quickPath), else nil
	quickRefusal   refuser             // quick, when it also tells a refusal alone (asked once the first refusal's headers are kept); else nil
	direct         directPath          // the one limit's direct path, if it has one (setQuickPath)
	kern           kernel              // the arrivals-only loop, when the lane fits it (fast_kernel.go)
	concs          []int               // the chain's concurrency limits (lane_concurrency.go)

	clients  []clientState
	arrivals []arrivalState   // each client's first arrival component; nil when every group is oneShot or superposed
	streams  []arrivalState   // per group: the stream its clients share, if superposed
	extras   []arrivalState   // arrival components after each client's first
	retryRnd []engine.Stream  // each client's retry draws; nil when no group retries
	paused   []time.Duration  // a pacing client sends nothing before this instant; nil when no group paces
	budgets  []retryBudget    // each client's retry budget (Retry.Budget); nil when no group has one
	means    []superposedMean // per group: its mean gap, if superposed
	reqs     requests
	backend  *backend
	sheds    *shedders // the backend's load shedders; nil without (lane_shedding.go)
	shedder  string    // the shedder shedding now, for the trace

	m      metrics
	events int64 // processed so far
	warmth int64 // what warm read, thrown away
	cold   bool  // the per-client and per-key state is large enough for warm to pay (warmFrom)
	warmed int   // arrivals left of those warmAhead warmed
	trace  TraceSink
	rec    TraceRecord
	err    error // the first error the trace sink returned
	// cols counts the lane's attempts per column (Options.Columns); nil when
	// not counted. sampleTo is where the record of the attempt being counted
	// goes when it is its column's first of its mark (lane_columns.go).
	cols     *ColumnRing
	sampleTo *TraceRecord

	fleet *fleet           // nil without a topology, or for a concurrency limiter
	asOne *fleet           // a topology that decides as one limiter, run without its fleet (topo_onelimiter.go); else nil
	adapt *adaptiveSampler // the adaptive lanes' state over time; nil for the others
}

// start schedules every client's first arrival of every component.
func (l *lane) start(ctx context.Context) error {
	if l.fleet != nil {
		l.fleet.start()
	}
	// A backend change applies from its instant on, before any request then
	// (as a rule push does): scheduled first, it comes first among the events
	// of its instant, a burst's first arrival included.
	if l.backend != nil {
		for i, ch := range l.cfg.Backend.Changes {
			l.eng.Schedule(ch.At, evChange, int32(i), 0)
		}
	}
	for c := range l.pop.clients() {
		if c%setupCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		g := l.pop.groupOf[c]
		if (l.pop.superposed[g] || oneShot(&l.pop.groups[g])) && l.pop.indexOf[c] > 0 {
			continue // its group's first client holds the group's stream, or its run of arrivals
		}
		for j := range l.pop.groups[g].Arrivals {
			l.scheduleArrival(int32(c), int32(j))
		}
	}
	return nil
}

func (l *lane) scheduleArrival(c, comp int32) {
	g := l.pop.groupOf[c]
	if grp := &l.pop.groups[g]; !l.pop.superposed[g] && oneShot(grp) {
		// Every client arrives at the same instant, in client order: one
		// pending event for the group, the next client's pushed as each is
		// taken, with the sequence numbers they would have had (reserve).
		if at, ok := nextArrival(&grp.Arrivals[0], &arrivalState{}, l.cfg.Duration); ok {
			l.eng.Schedule(at, evArrival, c, 0)
			l.eng.Reserve(grp.Count)
		}
		return
	}
	if at, ok := l.nextArrival(c, comp); ok {
		l.eng.Schedule(at, evArrival, c, comp)
	}
}

// nextArrival draws the time of client c's next arrival of component comp (of
// its group's stream, if superposed: then comp is 0), or ok=false when none
// is left before the end of Duration. Not for a one-shot group (oneShot),
// whose arrivals scheduleArrival and ScheduleNext schedule.
func (l *lane) nextArrival(c, comp int32) (at time.Duration, ok bool) {
	g := l.pop.groupOf[c]
	grp := &l.pop.groups[g]
	if l.pop.superposed[g] {
		return nextSuperposed(&grp.Arrivals[0], grp.Count, &l.streams[g], l.cfg.Duration, &l.means[g])
	}
	st := &l.arrivals[c]
	if comp > 0 {
		st = &l.extras[l.pop.extraComp[c]+comp-1]
	}
	return nextArrival(&grp.Arrivals[comp], st, l.cfg.Duration)
}

// runUntil processes every event at or before t (and before the lane's end).
func (l *lane) runUntil(t time.Duration, budget int) (processed int) {
	t = min(t, l.end)
	for processed < budget {
		if l.kern.fits {
			if processed += l.runKernel(t, budget-processed); processed == budget {
				break
			}
		}
		at, ok := l.eng.Next()
		if !ok || at > t {
			break
		}
		for at >= l.ruleAt {
			l.applyRule()
		}
		ev := l.eng.Pop()
		if l.cold {
			l.warmNext()
		}
		l.handle(ev)
		processed++
	}
	l.events += int64(processed)
	return processed
}

func (l *lane) done() bool {
	at, ok := l.eng.Next()
	return !ok || at > l.end
}

func (l *lane) handle(ev event) {
	switch ev.Kind() {
	case evArrival:
		l.arrival(ev)
	case evAttempt:
		l.attempt(ev.A)
	case evHear:
		l.heard(ev.A)
	case evTimeout:
		l.timeout(ev.A, ev.B)
	case evRelease:
		l.released(ev.A)
	case evComplete:
		l.backend.complete(l, ev.A)
	case evChange:
		l.backend.change(l, int(ev.A))
	case evInject:
		l.arrive(ev.A)
	case evStoreDecide:
		l.fleet.storeDecide(ev.A)
	case evStoreWrite:
		l.fleet.storeWrite(ev.A)
	case evStoreReply:
		l.fleet.storeReply(ev.A)
	case evReplicas:
		l.fleet.resize(int(ev.A))
	case evSync:
		l.fleet.sync(int(ev.A))
	case evProbe:
		l.fleet.probeAll()
	case evProbeDecide:
		l.fleet.probeDecide(ev.A)
	case evProbeReply:
		l.fleet.probeReply(ev.A)
	case evRestart:
		l.fleet.restart()
	}
}

// arrival is an arrival event: a new request of its client (of a client its
// group's stream picks, if superposed), and that client's or group's next arrival.
func (l *lane) arrival(ev event) {
	g := l.pop.groupOf[ev.A]
	switch grp := &l.pop.groups[g]; {
	case l.pop.superposed[g]:
		st := &l.streams[g]
		c := ev.A + st.pick(grp.Count)
		if grp.Count >= warmFrom || warmAlways {
			if l.warmed--; l.warmed <= 0 {
				l.warmAhead(ev.A, st, grp.Count)
			}
		}
		l.arrive(c)
		l.scheduleArrival(ev.A, ev.B)
	case oneShot(grp):
		l.arrive(ev.A)
		if next := ev.A + 1; int(next) < l.pop.clients() && l.pop.groupOf[next] == g {
			l.eng.ScheduleNext(ev, next)
		}
	default:
		l.arrive(ev.A)
		l.scheduleArrival(ev.A, ev.B)
	}
}

// arrive starts a new request of client c.
func (l *lane) arrive(c int32) {
	if l.cold {
		l.warm(c)
	}
	cs := &l.clients[c]
	cs.requests++
	r := l.reqs.get()
	l.reqs.all[r] = request{
		client: c, num: cs.requests, cost: l.pop.groups[l.pop.groupOf[c]].Cost, raDue: -1, started: l.eng.Now(),
		gen: l.reqs.all[r].gen, // a timeout of the slot's last request is not this one's
	}
	g := l.pop.groupOf[c]
	l.m.unique(g)
	if l.budgets != nil && l.pop.groups[g].Retry.Budget != nil {
		l.budgets[c].depositRequest(l.eng.Now())
	}
	if half := l.halfTrip(r, 1); half > 0 {
		if at := later(l.eng.Now(), half); at <= l.end {
			l.eng.Schedule(at, evAttempt, r, 0)
		}
		return // else still on its way when the simulation ends
	}
	l.attempt(r)
}

// attempt is one try of request r at the lane's current time. A pacing client
// whose quota ran out holds the try until the quota's reset.
func (l *lane) attempt(r int32) {
	now := l.eng.Now()
	req := &l.reqs.all[r]
	c := req.client
	if l.paused != nil {
		if held := l.paused[c]; now < held {
			if held <= l.end {
				l.eng.Schedule(held, evAttempt, r, 0)
			}
			return
		}
	}
	req.attempt++
	g := l.pop.groupOf[c]
	l.m.attempt(now, g)
	atRetryAfter := req.raDue == now
	req.raDue = -1

	if l.fleet != nil {
		l.fleet.unrouted(r) // until begin routes it: a client's own drop reaches no replica
	}
	if l.gate != nil {
		allowed := l.gate.allow(c, now)
		if p, ok := l.gate.(dropProber); ok {
			l.adapt.drop(now, p.lastDrop(c))
		}
		if !allowed {
			l.m.dropped(now, g)
			l.record(TraceDrop, r, nil, "")
			l.fail(r, 0, 0)
			return
		}
	}
	l.startTimeout(r)
	if atRetryAfter {
		l.m.retriedAtRetryAfter()
	}
	if l.conc != nil {
		if l.enter(r) && atRetryAfter {
			l.m.retryAfterSucceeded()
		}
		return
	}
	if l.fleet != nil {
		l.fleet.begin(r, atRetryAfter)
		return
	}
	if l.direct.known() && l.trace == nil {
		l.attemptDirect(r, c, now, atRetryAfter)
		return
	}
	if l.quick != nil && l.trace == nil && l.quick.admit(l.pop.keyOf[0][c], now, req.cost) {
		l.admitAtOnce(r, atRetryAfter)
		return
	}
	answer, quota, refused := l.decideChain(c, now, req.cost)
	l.holdPlaces(r)
	l.act(r, answer, quota, refused, atRetryAfter)
}

// act carries out the chain's answer to the attempt of request r: refused, or
// admitted now or late. atRetryAfter says the attempt came at the instant a
// Retry-After pointed to.
func (l *lane) act(r int32, answer algorithms.Decision, quota int, refused, atRetryAfter bool) {
	now := l.eng.Now()
	req := &l.reqs.all[r]
	c := req.client
	g := l.pop.groupOf[c]
	if refused {
		l.slidingLogCheck(c, req.cost, false)
		l.refuse(r, quota, answer)
		return
	}
	delay := answer.Delay
	l.pace(c, quota, answer)
	l.slidingLogCheck(c, req.cost, true)
	if atRetryAfter {
		l.m.retryAfterSucceeded()
	}
	if delay > 0 {
		l.m.delayed(now, delay, g)
		l.record(TraceDelay, r, &answer, l.quotaName(quota))
		l.eng.ScheduleInOrder(later(now, delay), evRelease, r, 0)
		return
	}
	l.record(TraceAdmit, r, &answer, l.quotaName(quota))
	l.admit(r)
}

// quotaName is the name of the limit whose quota an answer's headers report, or
// "" when no limit sends headers.
func (l *lane) quotaName(quota int) string {
	if quota < 0 {
		return ""
	}
	return l.cfg.Limits[quota].Name
}

// pace lets a client of a pacing group read the quota headers of an answer from
// limit quota: when they say no quota is left, it sends nothing more until the
// reset they give (whole seconds, as the header carries it). A limit that sends
// no headers tells it nothing.
func (l *lane) pace(c int32, quota int, d algorithms.Decision) {
	grp := &l.pop.groups[l.pop.groupOf[c]]
	if quota < 0 || l.cfg.Limits[quota].NoHeaders || d.Remaining > 0 || !grp.Pace {
		return
	}
	// paused is read when an attempt reaches the limiter: with a round trip
	// the client hears the reset half a trip later and its next send takes
	// half a trip to arrive.
	l.paused[c] = max(l.paused[c], later(l.eng.Now(), HeaderRetryAfter(d.Reset)+grp.RTT))
}

// decideChain puts a request of client c through the limit chain at now. On a
// refusal it returns the refusing limit's answer and index (the first refusing
// limit in chain order). Otherwise the answer carries the longest delay of any
// leaky layer and the quota of quota, the limit closest to running out among
// those that send headers, as the RateLimit draft asks (−1 when none sends
// them). With ChainAllOrNothing it peeks at every limit before charging any, so a
// refusal charges nothing anywhere.
func (l *lane) decideChain(c int32, now time.Duration, cost int64) (answer algorithms.Decision, quota int, refused bool) {
	l.shadowed = -1
	if len(l.chain) > 1 && l.cfg.Chain == ChainAllOrNothing {
		for i, lim := range l.chain {
			if l.shadow[i] || l.pop.skips(i, c) {
				continue
			}
			if d := lim.peek(l.pop.keyOf[i][c], now, cost); d.Verdict == algorithms.Refuse {
				return d, i, true
			}
		}
	}
	quota = -1
	var delay time.Duration
	for i, lim := range l.chain {
		if l.pop.skips(i, c) {
			continue
		}
		d := lim.decide(l.pop.keyOf[i][c], now, cost)
		if l.shadow[i] {
			if d.Verdict == algorithms.Refuse {
				l.m.shadowRefused(now, l.pop.groupOf[c], i, l.shadowed < 0)
				if l.shadowed < 0 {
					l.shadowed = i
				}
			}
			continue
		}
		if d.Verdict == algorithms.Refuse {
			return d, i, true
		}
		delay = max(delay, d.Delay)
		if !l.cfg.Limits[i].NoHeaders && (quota < 0 || d.Remaining < answer.Remaining) {
			answer, quota = d, i
		}
	}
	if quota < 0 {
		answer = algorithms.Decision{}
	}
	answer.Delay = delay
	if delay > 0 {
		answer.Verdict = algorithms.Delay
	}
	return answer, quota, false
}

// slidingLogCheck feeds the lane's cross-check (an exact sliding log with the
// first limit) the attempt of client c just decided, if that limit counts it.
func (l *lane) slidingLogCheck(c int32, cost int64, admitted bool) {
	if !l.pop.skips(0, c) {
		l.m.slidingLogCheck(l.pop.keyOf[0][c], l.eng.Now(), cost, admitted)
	}
}

// released lets a delayed request out of the leaky queue.
func (l *lane) released(r int32) { l.admit(r) }

// admit counts a request the limiter let through and sends it to the backend.
func (l *lane) admit(r int32) {
	req := &l.reqs.all[r]
	c := req.client
	l.m.admitted(l.eng.Now(), l.pop.groupOf[c], l.pop.keyOf[0][c], req.cost, l.peakCounts(r))
	if l.fleet != nil {
		l.fleet.admitted(r, l.eng.Now(), req.cost)
	}
	l.enter(r)
}

// peakCounts reports whether the lane's peak counts request r's admission
// now: the first limit counts its client, and no store decision counted it.
func (l *lane) peakCounts(r int32) bool {
	if l.pop.skips(0, l.reqs.all[r].client) {
		return false
	}
	return l.fleet == nil || !l.fleet.takePeak(r)
}

// enter hands request r to the backend (through the concurrency limit of a
// concurrency-limiter lane). It reports false when that limit shed the request.
func (l *lane) enter(r int32) bool {
	if l.sheds != nil && l.shedding(r) {
		return false
	}
	if l.conc != nil {
		req := &l.reqs.all[r]
		ok := l.concAcquire(req.client)
		l.adapt.conc(l.eng.Now(), l.conc)
		l.slidingLogCheck(req.client, req.cost, ok)
		if !ok {
			l.m.classes[l.pop.groupOf[req.client]].ShedByLane++
			l.shed(r, l.shedRetryAfter)
			return false
		}
		l.m.admitted(l.eng.Now(), l.pop.groupOf[req.client], l.pop.keyOf[0][req.client], req.cost, l.peakCounts(r))
		l.record(TraceAdmit, r, nil, "")
	}
	l.reqs.all[r].entered = l.eng.Now()
	if l.backend == nil {
		l.succeed(r)
		return true
	}
	l.backend.arrive(l, r)
	return true
}

func (l *lane) refuse(r int32, limit int, d algorithms.Decision) {
	l.releasePlaces(r)
	req := &l.reqs.all[r]
	name := l.cfg.Limits[limit].Name
	l.m.refused(l.eng.Now(), l.pop.groupOf[req.client], limit, d, l.cfg.HeaderStyle, l.limits)
	l.throttleAnswer(req.client, false)
	l.pace(req.client, limit, d)
	l.record(TraceRefuse, r, &d, name)
	l.fail(r, d.RetryAfter, l.refusalStatus)
}

// shed answers 503: over the concurrency limit, or the backend is full or down. The
// answer carries retryAfter as its Retry-After, if positive.
func (l *lane) shed(r int32, retryAfter time.Duration) {
	l.releasePlaces(r)
	req := &l.reqs.all[r]
	l.m.shed(l.eng.Now(), l.pop.groupOf[req.client], retryAfter)
	l.throttleAnswer(req.client, false)
	sample := l.cols != nil && l.column(TraceShed)
	if traced := l.trace != nil && l.err == nil; traced || sample {
		l.fillRecord(TraceShed, r)
		l.rec.RetryAfter, l.rec.Shedder = retryAfter, l.shedder
		if sample {
			l.keepSample()
		}
		if traced {
			l.err = l.trace.Record(&l.rec)
		}
	}
	l.fail(r, retryAfter, statusShed)
}

// concAcquire asks the lane's concurrency limit, through its partitions if
// it has some, for a slot for a request of client c.
func (l *lane) concAcquire(c int32) bool {
	if l.parts != nil {
		return l.parts.acquire(l.eng.Now(), int(l.pop.groupOf[c]))
	}
	return l.conc.Acquire(l.eng.Now())
}

// concRelease gives back the slot of a request of client c, done at now after latency.
func (l *lane) concRelease(now, latency time.Duration, c int32) {
	if l.parts != nil {
		l.parts.release(now, latency, int(l.pop.groupOf[c]))
		return
	}
	l.conc.Release(now, latency)
}

// backendShed answers 503 to request r, which the backend took and could not
// serve (its queue full, or an outage). In a concurrency-limiter lane r holds a
// slot of the limit: it is released with the time r spent in the backend as
// its latency, as the libraries' servlet filter and gRPC interceptor release a
// request their service answered with an error (onSuccess with its round trip;
// only a deadline passed is a drop), so the slot is not held for ever.
func (l *lane) backendShed(r int32, retryAfter time.Duration) {
	if l.conc != nil {
		now := l.eng.Now()
		l.concRelease(now, now-l.reqs.all[r].entered, l.reqs.all[r].client)
		l.adapt.conc(now, l.conc)
	}
	l.shed(r, retryAfter)
}

// succeed answers 200 to request r.
func (l *lane) succeed(r int32) {
	l.releasePlaces(r)
	now := l.eng.Now()
	req := &l.reqs.all[r]
	latency := now - req.entered
	if l.conc != nil {
		l.concRelease(now, latency, req.client)
		l.adapt.conc(now, l.conc)
	}
	g := l.pop.groupOf[req.client]
	grp := &l.pop.groups[g]
	if !req.timedOut {
		l.throttleAnswer(req.client, true)
	}
	heard := later(now, l.halfTrip(r, req.attempt))
	l.recordLatency(TraceSuccess, r, latency)
	if req.timedOut || grp.Timeout > 0 && heard > later(req.raDue, grp.Timeout) { // raDue: when it was sent
		l.servedLate(r, latency)
		return
	}
	if grp.Deadline > 0 && heard > later(req.started, grp.Deadline) {
		var wasted time.Duration
		if l.backend != nil {
			wasted = req.service
		}
		l.m.abandonedServed(now, g, latency, wasted, l.backend != nil)
		l.reqs.put(r)
		return
	}
	l.clients[req.client].succeeded++
	l.m.succeeded(now, g, latency, heard-req.started, l.backend != nil)
	l.reqs.put(r)
}

// throttleAnswer tells client c's adaptive throttle, on that lane, that an answer
// came back: a request is counted when it is answered, not when it is sent.
func (l *lane) throttleAnswer(c int32, accepted bool) {
	if l.gate != nil {
		l.gate.answered(c, l.eng.Now(), accepted)
	}
}

// fail sends a failed attempt's answer back to its client, which hears it a
// half round trip later (evHear, heard) or at once, and applies its retry
// policy then (retryOrGiveUp). A drop (status 0) never left the client.
func (l *lane) fail(r int32, retryAfter time.Duration, status int) {
	req := &l.reqs.all[r]
	half := l.halfTrip(r, req.attempt)
	if half == 0 || status == 0 {
		l.retryOrGiveUp(r, retryAfter, status)
		return
	}
	req.raDue, req.heardStatus = retryAfter, int16(status) // raDue is -1 since attempt: free until heard
	if at := later(l.eng.Now(), half); at <= l.end {
		l.eng.Schedule(at, evHear, r, 0)
	} // else still on its way when the simulation ends
}

// heard is an evHear event: request r's client hears the failed answer fail sent.
func (l *lane) heard(r int32) {
	req := &l.reqs.all[r]
	retryAfter := req.raDue
	req.raDue = -1
	l.retryOrGiveUp(r, retryAfter, int(req.heardStatus))
}

// retryOrGiveUp applies the client's retry policy to a failed attempt. retryAfter is the
// Retry-After the answer carried, exact, zero if none; a client honouring it
// reads it as its policy says (the header's whole seconds by default) and, when it
// retries at exactly that instant, the retry is counted as one at Retry-After.
// status is the answer's HTTP status, 0 for a request never sent.
// The client's deadline, if it has one, abandons an answer heard after it or a
// retry that would be sent at or after it; its retry budget may refuse the retry.
func (l *lane) retryOrGiveUp(r int32, retryAfter time.Duration, status int) {
	now := l.eng.Now()
	req := &l.reqs.all[r]
	if req.timedOut {
		l.reqs.put(r) // its client gave it up, and its retry went on
		return
	}
	req.gen++      // heard: its timeout, if it has one, is void
	req.raDue = -1 // heard: no longer when it was sent
	c := req.client
	g := l.pop.groupOf[c]
	grp := &l.pop.groups[g]
	policy := &grp.Retry
	deadline := time.Duration(-1)
	if grp.Deadline > 0 {
		deadline = later(req.started, grp.Deadline)
	}
	if deadline >= 0 && now > deadline {
		l.abandon(r)
		return
	}
	if policy.Kind == RetryNone || (policy.MaxAttempts > 0 && int(req.attempt) >= policy.MaxAttempts) ||
		status != 0 && len(policy.On) > 0 && !slices.Contains(policy.On, status) {
		l.giveUp(r)
		return
	}
	rnd := &l.retryRnd[c]
	sleep := retrySleep(policy, int(req.attempt), req.prevSleep, rnd)
	req.prevSleep = sleep
	if retryAfter > 0 && policy.HonorRetryAfter {
		if retryAfter == algorithms.Never {
			l.giveUp(r)
			return
		}
		told := retryAfter
		if policy.RetryAfter == RetryAfterHeader {
			told = HeaderRetryAfter(retryAfter)
		}
		if sleep <= told {
			sleep = later(told, rnd.Duration(policy.RetryAfterJitter))
			if sleep == told {
				req.raDue = later(now, sleep)
			}
		}
	}
	send := later(now, sleep)
	if deadline >= 0 && send >= deadline {
		l.abandon(r)
		return
	}
	if l.budgets != nil && policy.Budget != nil && !l.budgets[c].tryWithdraw(now) {
		l.m.retryDenied(g)
		l.giveUp(r)
		return
	}
	half := l.halfTrip(r, req.attempt+1)
	if req.raDue >= 0 {
		req.raDue = later(req.raDue, half)
	}
	at := later(send, half)
	if at > l.end {
		return // still pending when the simulation ends
	}
	l.eng.Schedule(at, evAttempt, r, 0)
}

func (l *lane) giveUp(r int32) {
	l.m.gaveUp(l.eng.Now(), l.pop.groupOf[l.reqs.all[r].client])
	l.reqs.put(r)
}

// halfTrip is half the round trip of attempt number attempt of request r
// (ClientGroup.RTT): constant, or exponential drawn from a stream of its own
// (client, request, attempt), so that every lane, and each way, gives the
// attempt the same, and nothing is kept per request.
func (l *lane) halfTrip(r, attempt int32) time.Duration {
	req := &l.reqs.all[r]
	grp := &l.pop.groups[l.pop.groupOf[req.client]]
	if grp.RTTKind == ServiceExponential && grp.RTT > 0 {
		rnd := engine.NewStream(l.cfg.Seed, labelRTT, uint64(req.client), uint64(req.num), uint64(attempt))
		return rnd.Exp(grp.RTT) / 2
	}
	return grp.RTT / 2
}

// abandon gives up request r at its client's deadline.
func (l *lane) abandon(r int32) {
	l.m.abandoned(l.pop.groupOf[l.reqs.all[r].client])
	l.giveUp(r)
}

// retrySleep is the wait before retry n (the attempt that failed was number n).
func retrySleep(p *Retry, n int, previous time.Duration, rnd *engine.Stream) time.Duration {
	switch p.Kind {
	case RetryFixed:
		return p.Delay
	case RetryExponential:
		return backoff(*p, n, previous, rnd)
	}
	return 0
}

// record traces an attempt's fate; d is the limiter's answer, if it gave one, and
// limit the limit it speaks for (see TraceRecord.Limit).
func (l *lane) record(ev TraceEvent, r int32, d *algorithms.Decision, limit string) {
	sample := l.cols != nil && l.column(ev)
	traced := l.trace != nil && l.err == nil
	if !traced && !sample {
		return
	}
	l.fillRecord(ev, r)
	l.rec.Limit = limit
	if l.shadowed >= 0 && (ev == TraceAdmit || ev == TraceDelay || ev == TraceRefuse) {
		l.rec.Shadow = l.cfg.Limits[l.shadowed].Name
	}
	if d != nil {
		l.rec.Delay, l.rec.RetryAfter = d.Delay, d.RetryAfter
		if limit != "" { // no limit of the chain reports its quota otherwise
			l.rec.Remaining, l.rec.Reset, l.rec.Answered = d.Remaining, d.Reset, true
		}
	}
	if sample {
		l.keepSample()
	}
	if traced {
		l.err = l.trace.Record(&l.rec)
	}
}

func (l *lane) recordLatency(ev TraceEvent, r int32, latency time.Duration) {
	if l.trace == nil || l.err != nil {
		return
	}
	l.fillRecord(ev, r)
	l.rec.Latency = latency
	l.err = l.trace.Record(&l.rec)
}

func (l *lane) fillRecord(ev TraceEvent, r int32) {
	req := &l.reqs.all[r]
	c := req.client
	l.rec = TraceRecord{
		At: l.eng.Now(), Lane: l.kind, LaneName: l.name, LaneIndex: l.index, Event: ev, Client: int(c),
		Class:   l.pop.groups[l.pop.groupOf[c]].Name,
		Key:     l.pop.keys[0].name(l.pop.keyOf[0][c]),
		Request: req.num, Attempt: int(req.attempt), Cost: req.cost, Replica: -1, Shard: -1,
	}
	if l.fleet != nil {
		l.rec.Replica = int(l.fleet.replicaOf[r])
		if l.fleet.shardCount() > 1 {
			l.rec.Shard = l.fleet.shardOf(c)
		}
		if call := &l.fleet.calls[r]; call.outcome != StoreNoCall && !call.traced {
			l.rec.Store, l.rec.StoreLatency, call.traced = call.outcome, call.latency, true
		}
	}
	l.adaptiveRecord(ev, c)
}

// adaptiveRecord adds the adaptive lane's state to the trace record being
// filled for an event ev of client c.
func (l *lane) adaptiveRecord(ev TraceEvent, c int32) {
	if l.adapt == nil {
		return
	}
	if l.conc != nil { // read from the limiter, not the sampler, so that each checks the other
		l.rec.Concurrency, l.rec.ConcurrencyLimit = true, l.conc.Limit()
		if f, ok := l.conc.(inFlighter); ok {
			l.rec.InFlight = f.InFlight()
		}
	}
	if p, ok := l.gate.(dropProber); ok && ev != TraceShed && ev != TraceSuccess {
		l.rec.Throttled, l.rec.DropProbability = true, p.lastDrop(c)
	}
}
