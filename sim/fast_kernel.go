package sim

import (
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim/window"
)

// The kernel is the lane loop specialised for the commonest world, where every
// event is a new request answered at once: no trace, no topology, no
// client gate but the adaptive throttle (fast_throttle.go), no backend, one limit on the quick path (quickPath: no shadow,
// no pacing client reading its headers) or a concurrency limiter, whose
// place a request takes and gives back at once (fast_conc.go), no client
// that retries (a refused request gives up at once) and none with a round
// trip or a deadline (an answer is heard when it is given). It handles the earliest
// event when that is an arrival or an injected request, exactly as handle
// would, and leaves any other event, and the events at a rule push, to the
// general loop (runUntil), then takes over again. What it saves: the request
// slot, a pop and a push (the next arrival replaces the one handled in one
// sift), the call chain arrive … succeed, one of the limiter's two interface
// calls (its direct path is asked where it has one, see directPath), and the
// counters, kept in locals (kernelRun) and flushed when a series bucket ends
// and when it returns, so that a lane looks the same at every stop.

// kernel is what a lane keeps for its kernel between calls.
type kernel struct {
	// fits is true when the lane's world fits the kernel for the whole run
	// (kernelFits); the quick path, which rule pushes change, and the trace,
	// which a step of RunUntil may set, are checked at every call.
	fits    bool
	classes []kernelClass // per group
	dirty   []int32       // the groups whose tally is not zero
	keys    []int32       // client → its key of the first limit (population.keyOf[0]); nil when it has one key, 0
	// batched is true when the lane has one key and every request one cost:
	// its cross-check takes the decisions in runs (window.Tracker.CheckRun).
	batched bool
	// record, when set, receives every request the kernel handles, for
	// lanes that follow this one (fast_follow.go).
	record *requestBlock
	// store is true when the lane's one limit is shared in a store whose
	// calls the kernel makes (topo_store_kernel.go); fused counts the calls
	// whose decision and answer it carried out at once (for the tests' reach).
	store bool
	fused int64
	// answered counts the answers it acted on to calls handed to the
	// general path (topo_store_kernel_calls.go), for the tests' reach too;
	// awaited the calls it decided at once but whose answers it scheduled
	// (kernelAwaited).
	answered, awaited int64
	// inFlight is the lane's concurrency limiter as an inFlighter, if it
	// counts its requests in flight (fast_conc.go).
	inFlight inFlighter
	// gate is the lane's client gate, the adaptive throttle, when the
	// kernel takes it (fast_throttle.go).
	gate *throttleGate
	// tallies holds the client tallies deferred (fast_tallies.go), with
	// room for tallyBufferSize; nil unless the lane's clients are cold.
	tallies []uint64
}

// kernelClass is what the kernel keeps for one class (client group g): its
// requests' cost, and what it counted since its last flush: requests started
// (each with its one attempt), admitted (each succeeding at once) and refused
// (each given up at once).
type kernelClass struct {
	g                          int32
	cost                       int64
	started, admitted, refused int64
}

// addTo adds what cls counted to a result's counts: each request started is
// unique and one attempt, each admitted succeeded, each refused gave up.
func (cls *kernelClass) addTo(unique, attempts, admitted, succeeded, refused, gaveUp *int64) {
	*unique += cls.started
	*attempts += cls.started
	*admitted += cls.admitted
	*succeeded += cls.admitted
	*refused += cls.refused
	*gaveUp += cls.refused
}

// kernelFits reports whether the lane's world fits the kernel (see kernel),
// but for the quick path and the trace.
func (l *lane) kernelFits() bool {
	if kernelOff || (l.fleet != nil && !l.fleet.fitsKernel()) || (l.conc != nil && !l.concInKernel()) || (l.gate != nil && !l.gateInKernel()) || l.backend != nil || l.concs != nil {
		return false
	}
	for g := range l.pop.groups {
		grp := &l.pop.groups[g]
		if r := &grp.Retry; r.Kind != RetryNone && r.MaxAttempts != 1 {
			return false
		}
		if grp.RTT > 0 || grp.Deadline > 0 || grp.Timeout > 0 { // an answer heard later than given
			return false
		}
	}
	return true
}

// setKernel readies the kernel if the lane fits it.
func (l *lane) setKernel() {
	if !l.kernelFits() {
		l.kern = kernel{}
		return
	}
	n := len(l.pop.groups)
	// A class is listed dirty at most twice between flushes: by an answer to
	// one of its requests started before (kernelReplyCall), then by its first
	// request; the second listing flushes nothing.
	l.kern = kernel{fits: true, classes: make([]kernelClass, n), dirty: make([]int32, 0, 2*n), keys: l.pop.keyOf[0]}
	if l.pop.keys[0].len() == 1 {
		l.kern.keys = nil // every client's key is 0: no table to read (a cache miss a request with millions of clients)
	}
	for g, grp := range l.pop.groups {
		l.kern.classes[g] = kernelClass{g: int32(g), cost: grp.Cost}
	}
	l.kern.batched = l.batchable()
	l.kern.store = l.fleet != nil && l.fleet.shared
	l.kern.inFlight, _ = l.conc.(inFlighter)
	l.kern.gate, _ = l.gate.(*throttleGate)
	if l.cold {
		l.kern.tallies = make([]uint64, 0, tallyBufferSize)
	}
}

// batchable reports whether the kernel may hand the lane's cross-check its
// decisions in runs (window.Tracker.CheckRun): one key, every request of the unit.
func (l *lane) batchable() bool {
	return l.pop.keys[0].len() == 1 && l.m.peak.Unit() > 0 && !batchOff
}

// kernelRun is what one call of runKernel counts in locals until it flushes.
type kernelRun struct {
	disagreed int64         // decisions the cross-check would have taken otherwise
	verdicts  uint64        // metrics.verdicts, folded on
	lastDone  time.Duration // when the latest request admitted or refused was
	point     kernelPoint
	record    *requestBlock // where a leader records the requests it handles (fast_follow.go), or nil
	tally     bool          // the clients' tallies are deferred (fast_tallies.go)
	// given, for a follower that keeps no log of its own (fast_follow.go), is the
	// leader's cross-check verdict on each request of the block it follows,
	// and request the index there of the request it handles.
	given   []bool
	request int
	// batch holds, in a batched lane, the decisions the cross-check has not
	// seen yet (flushChecks).
	batch window.Batch
	// twin holds, in a batched fleet lane, the first twins instants its exact
	// twin admitted a request of twinCost at that the twin's window has not
	// counted yet (flushTwin, in flushChecks).
	twin     [window.BatchSize]time.Duration
	twins    int
	twinCost int64
	// For a lane whose limit is in a store (topo_store_kernel.go): stop is
	// the latest instant the kernel handles; next the earliest event pending
	// but the request handled (its client's or group's next arrival
	// included); room the events the budget leaves after that request; took
	// the events handled with it (its call's decision and answer); arrival
	// the next arrival of the request's client or superposed group, -1 when
	// it has none drawn.
	stop, next, arrival time.Duration
	room, took          int
}

// b2i is 1 for true, 0 for false, without a branch.
func b2i(b bool) int {
	var i int
	if b {
		i = 1
	}
	return i
}

// crossChecked counts the cross-check's verdict allowed on a request the
// lane admitted (admitted) or refused, and records it for followers.
func (run *kernelRun) crossChecked(allowed, admitted bool) {
	run.disagreed += int64(b2i(allowed != admitted))
	if b := run.record; b != nil {
		b.allowed = append(b.allowed, allowed)
	}
}

// kernelPoint is the series bucket the kernel counts in: the one that holds
// at and ends at end.
type kernelPoint struct {
	at, end                    time.Duration
	started, admitted, refused int64
}

// runKernel handles up to budget events at or before t, while the earliest
// event is a new request (an arrival or an injected one) before the next rule
// push, and returns how many it handled: none when the lane is not on the
// quick path or has a trace to write. Each event is what handle, arrive,
// attempt, admit and succeed (or refuse and giveUp) would do, in line: in Go a
// call spills every live register, and the calls were much of the cost.
func (l *lane) runKernel(t time.Duration, budget int) (processed int) {
	releases := l.delaysInKernel() // fast_delays.go
	if l.quick == nil && !releases && !l.kern.store && l.conc == nil || l.trace != nil {
		return 0
	}
	e, pop := &l.eng, l.pop
	stop := min(t, l.ruleAt-1)
	run := kernelRun{verdicts: l.m.verdicts, record: l.kern.record, stop: stop, tally: l.tallyFits()}
	// The arrival source is the lane's own event heap: the earliest event,
	// while it is a new request, and after it the next arrival of its client
	// or superposed group. A source shared by lanes would hand out the same
	// (time, client, group) in the same order.
	for processed < budget {
		top, found := e.Top()
		if !found && releases {
			if n := l.kernelReleases(&run, stop, budget-processed); n > 0 {
				processed += n
				continue
			}
		}
		kind := top.Kind()
		if !found || top.At > stop || (kind != evArrival && kind != evInject) {
			if l.kern.store && l.kernelStoreEvent(&run, stop) { // topo_store_kernel.go
				processed++
				continue
			}
			break
		}
		now := top.At
		e.AdvanceTo(now)
		c, g := top.A, pop.groupOf[top.A]
		grp := &pop.groups[g]
		if kind == evArrival && pop.superposed[g] {
			processed += l.runSuperposed(&run, top, stop, budget-processed)
			continue
		}
		// The next arrival is drawn now, before the decision (which draws
		// nothing from the arrival streams), so that the processor works
		// out the draw while it decides; it is scheduled after.
		var at time.Duration
		var ok, runNext bool
		switch {
		case kind == evArrival && oneShot(grp):
			next := top.A + 1 // the next client of the group's run (ScheduleNext)
			runNext = int(next) < pop.clients() && pop.groupOf[next] == g
		case kind == evArrival:
			at, ok = l.nextArrival(top.A, top.B)
		}
		if run.record != nil {
			run.record.add(now, c, g)
		}
		if l.kern.store {
			run.next, run.room, run.arrival = l.pendingAfter(now, at, ok, runNext), budget-processed-1, -1
			if ok {
				run.arrival = at
			}
		}
		l.kernelRequest(&run, c, &l.kern.classes[g], now)

		// The next arrival replaces the handled event, still the earliest:
		// anything scheduled while it was handled comes after it.
		switch {
		case ok:
			e.ReplaceTop(at, evArrival, top.A, top.B)
		case runNext:
			e.ReplaceTopNext(top, top.A+1)
		default:
			e.DropTop()
		}
		processed += 1 + run.took
		run.took = 0
	}
	if processed > 0 {
		l.flushKernel(&run)
	}
	return processed
}

// runSuperposed handles the arrival top, at the top of the heap, of a
// superposed group, and the group's next arrivals one after another while
// each comes before every other pending event, at or before stop, within
// budget (at least 1): without the heap,
// which holds the latest drawn arrival only when it returns. Each arrival
// takes its sequence number when it is drawn, as in ReplaceTop. It returns
// how many events it handled.
func (l *lane) runSuperposed(run *kernelRun, top event, stop time.Duration, budget int) (processed int) {
	e, pop := &l.eng, l.pop
	g := pop.groupOf[top.A]
	grp := &pop.groups[g]
	st, cls, record := &l.streams[g], &l.kern.classes[g], run.record
	draw := newSuperposedDraw(&grp.Arrivals[0], grp.Count, l.cfg.Duration, &l.means[g])
	// An arrival after last waits in the heap: the next event comes first
	// (ties too: it was scheduled before), or the stop.
	other := e.NextAfterTop()
	last := min(other-1, stop)
	releases := l.delaysInKernel()
	for now := top.At; ; {
		e.AdvanceTo(now)
		c := top.A + st.pick(grp.Count) // drawn before the gap, as arrival does
		if (grp.Count >= warmFrom || warmAlways) && !(run.tally && l.kern.keys == nil) {
			if l.warmed--; l.warmed <= 0 {
				l.warmAhead(top.A, st, grp.Count)
			}
		}
		at, ok := draw.after(now, st.rnd.Exp1(), st)
		if record != nil {
			record.add(now, c, g)
		}
		if l.kern.store {
			run.next, run.room, run.arrival = other, budget-processed-1, -1
			if ok {
				run.next, run.arrival = min(other, at), at
			}
		}
		seq := e.Seq()
		l.kernelRequest(run, c, cls, now)
		processed += 1 + run.took
		run.took = 0
		if !ok {
			e.DropTop()
			return processed
		}
		if e.Seq() != seq { // a delayed request's release, or a store call's events, scheduled
			other = e.NextAfterTop()
			last = min(other-1, stop)
		}
		if at > last && releases && processed < budget {
			processed += l.releasesBefore(run, at, stop, budget-processed)
			other = e.NextAfterTop()
			last = min(other-1, stop)
		}
		if at > last || processed >= budget {
			e.ReplaceTop(at, evArrival, top.A, top.B)
			return processed
		}
		e.TakeSeq() // the arrival at at is scheduled now, as ReplaceTop would
		now = at
	}
}

// kernelRequest is arrive, attempt and the rest for a new request of client c
// of class cls at now, the lane's clock, in the kernel.
func (l *lane) kernelRequest(run *kernelRun, c int32, cls *kernelClass, now time.Duration) {
	if l.cold && !(run.tally && l.kern.keys == nil) {
		l.warm(c)
	}
	// The request and its attempt, counted in the class's tally and the series
	// bucket, and in its client's when the decision is known, if deferred.
	var cs *clientState
	if !run.tally {
		cs = &l.clients[c]
		cs.requests++
	}
	if cls.started == 0 {
		l.kern.dirty = append(l.kern.dirty, cls.g)
	}
	cls.started++
	if now >= run.point.end {
		l.nextPoint(run, now)
	}
	run.point.started++
	if l.kern.gate != nil && !l.kernelSend(run, c, cls, now) {
		return // dropped by its client (fast_throttle.go)
	}
	if l.kern.store {
		l.kernelStore(run, c, cls, now)
		return
	}
	if l.conc != nil {
		l.kernelConc(run, c, cls, now) // fast_conc.go
		return
	}

	// The decision: Admit on the limit's direct path where it has one,
	// and once the first refusal's headers are kept, its refusal too. A
	// delay (Traefik's: a queue that admits is in the kernel) is
	// kernelDecide's, which hands it to the general path.
	cost, key := cls.cost, int32(0)
	if l.kern.keys != nil {
		key = l.kern.keys[c]
	}
	var retryAfter time.Duration
	var admitted, refused bool
	f := l.fleet
	if f != nil {
		f.kernelRoute(c)
	}
	switch {
	case l.quick == nil: // a queue: its delays are in the kernel (fast_delays.go)
		if retryAfter, admitted, refused = l.kernelQueue(run, c, cls, key, now); !admitted && !refused {
			return
		}
	case !l.direct.known():
		admitted = l.quick.admit(key, now, cost)
	case l.m.headersSet:
		retryAfter, admitted, refused = l.direct.answer(key, now, cost)
	default:
		admitted = l.direct.admitNow(key, now, cost)
	}
	if !admitted && !refused {
		if retryAfter, admitted, refused = l.kernelDecide(run, c, cls, key); !admitted && !refused {
			return // delayed: the general path has it
		}
	}
	if f != nil {
		f.kernelDecided(run, c, key, now, cost, admitted)
	}
	l.kernelAnswer(c, now, admitted) // to the client's throttle, if any

	// kernelCheck and kernelAnswered, written out: a call here spills every
	// live register, and costs the commonest path a tenth of its time.
	switch {
	case run.given != nil:
		if admitted {
			l.m.peak.Add(key, now, cost)
		}
		run.crossChecked(run.given[run.request], admitted)
	case l.kern.batched:
		b := &run.batch
		b.At[b.N], b.Admitted[b.N] = now, admitted
		if b.N++; b.N == window.BatchSize {
			l.flushChecks(run)
		}
	default:
		run.crossChecked(l.m.peak.Verdict(key, now, cost, admitted), admitted)
	}
	a := int64(b2i(admitted))
	l.m.retryAfterGiven(retryAfter) // none when admitted
	run.verdicts = foldVerdict(run.verdicts, now, cls.g, uint64(foldRefuse-a))
	if run.tally {
		l.deferTally(c, a)
	} else {
		cs.succeeded += int32(a)
	}
	cls.admitted += a
	cls.refused += 1 - a
	run.point.admitted += a
	run.point.refused += 1 - a
	run.lastDone = now
	if l.cols != nil {
		l.kernelColumn(c, cost, key, admitted, retryAfter)
	}
}

// pendingAfter is, for the request at the top of the heap handled at now,
// the earliest event pending beside it: the heap's and the line's others,
// and the next arrival of its client (at, when ok) or, of a one-shot run,
// its next client (at now, runNext).
func (l *lane) pendingAfter(now, at time.Duration, ok, runNext bool) time.Duration {
	next := l.eng.NextAfterTop()
	switch {
	case runNext:
		next = now
	case ok:
		next = min(next, at)
	}
	return next
}

// kernelCheck is the cross-check (metrics.slidingLogCheck) of the kernel's
// decision on an attempt of key and cost at now, and its admission added.
func (l *lane) kernelCheck(run *kernelRun, key int32, now time.Duration, cost int64, admitted bool) {
	switch {
	case run.given != nil:
		if admitted {
			l.m.peak.Add(key, now, cost)
		}
		run.crossChecked(run.given[run.request], admitted)
	case l.kern.batched:
		b := &run.batch
		b.At[b.N], b.Admitted[b.N] = now, admitted
		if b.N++; b.N == window.BatchSize {
			l.flushChecks(run)
		}
	default:
		run.crossChecked(l.m.peak.Verdict(key, now, cost, admitted), admitted)
	}
}

// kernelAnswered counts the answer to the kernel's request of client c of
// class cls, given at at: admitted (and succeeded), or refused with
// retryAfter (and given up), with no branch on a verdict that may be as
// often one as the other; the verdict folded is foldAdmit or foldRefuse.
func (l *lane) kernelAnswered(run *kernelRun, c int32, cls *kernelClass, at, retryAfter time.Duration, admitted bool) {
	a := int64(b2i(admitted))
	l.m.retryAfterGiven(retryAfter) // none when admitted
	run.verdicts = foldVerdict(run.verdicts, at, cls.g, uint64(foldRefuse-a))
	l.clients[c].succeeded += int32(a)
	cls.admitted += a
	cls.refused += 1 - a
	if at >= run.point.end { // an answer from the store may come in a later bucket
		l.nextPoint(run, at)
	}
	run.point.admitted += a
	run.point.refused += 1 - a
	run.lastDone = at
}

// flushChecks hands the decisions of run's batch to the cross-check, and
// the twin's admissions batched to its window.
func (l *lane) flushChecks(run *kernelRun) {
	l.flushTwin(run)
	b := &run.batch
	if b.N == 0 {
		return
	}
	var allowed [window.BatchSize]bool
	l.m.peak.CheckRun(0, b, 0, &allowed)
	for i := range b.N {
		run.crossChecked(allowed[i], b.Admitted[i])
	}
	b.N = 0
}

// nextPoint flushes the kernel's series bucket and starts the one holding now.
func (l *lane) nextPoint(run *kernelRun, now time.Duration) {
	l.flushPoint(run)
	i := now / l.m.bucket
	run.point = kernelPoint{at: now, end: (i + 1) * l.m.bucket}
}

// kernelDecide answers a request of client c of class cls that the kernel
// did not answer at once: admitted at once, or refused with retryAfter, or
// neither when it is delayed (carried out here). Once the first refusal's
// headers are kept, a limit sim does not know that can tell a refusal without
// a Decision (algorithms.Refuser) is asked that first.
func (l *lane) kernelDecide(run *kernelRun, c int32, cls *kernelClass, key int32) (retryAfter time.Duration, admitted, refused bool) {
	now, cost := l.eng.Now(), cls.cost
	if l.quickRefusal != nil && l.m.headersSet && !l.direct.known() {
		if retryAfter, refused := l.quickRefusal.refusal(key, now, cost); refused {
			return retryAfter, false, true
		}
	}
	// A limit that may delay (Traefik) gives its delay without a Decision:
	// nobody in the kernel's world reads more (quickPath).
	if l.direct.delays() {
		if delay, ok := l.direct.admit(key, now, cost); ok {
			if delay == 0 {
				return 0, true, false
			}
			l.kernelLate(run, c, cost, delay)
			return 0, false, false
		}
	}
	// d is filled in place and read field by field: a Decision copied whole
	// from where a call left it costs more than the call.
	d := &l.dec
	l.direct.decide(d, l.quick, key, now, cost)
	switch {
	case d.Verdict == algorithms.Refuse:
		l.m.refusalHeaders(0, d, l.cfg.HeaderStyle, l.limits)
		return d.RetryAfter, false, true
	case d.Delay > 0:
		l.kernelDelay(run, c, d)
		return 0, false, false
	}
	return 0, true, false
}

// kernelDelay hands a request of client c that its limit delays (answer d) to
// the general path, which schedules its release.
func (l *lane) kernelDelay(run *kernelRun, c int32, d *algorithms.Decision) {
	l.flushChecks(run) // the general path asks the cross-check itself
	l.settleRequest(run, c)
	now := l.eng.Now()
	r := l.reqs.get()
	l.reqs.all[r] = request{
		client: c, attempt: 1, num: l.clients[c].requests, cost: l.pop.groups[l.pop.groupOf[c]].Cost, raDue: -1, started: now,
	}
	answer, quota, refused := l.decideOnly(*d)
	l.m.verdicts = run.verdicts
	l.act(r, answer, quota, refused, false)
	run.verdicts = l.m.verdicts
}

// kernelLate hands a request of client c and cost that its limit admits
// after delay to the general path, as attemptDirect does (admitLate): the
// answer unread, no Decision.
func (l *lane) kernelLate(run *kernelRun, c int32, cost int64, delay time.Duration) {
	l.flushChecks(run) // the general path asks the cross-check itself
	l.settleRequest(run, c)
	r := l.reqs.get()
	l.reqs.all[r] = request{client: c, attempt: 1, num: l.clients[c].requests, cost: cost, raDue: -1, started: l.eng.Now()}
	l.m.verdicts = run.verdicts
	l.admitLate(r, delay, false)
	run.verdicts = l.m.verdicts
}

// flushPoint adds what the kernel counted in its series bucket to the series.
func (l *lane) flushPoint(run *kernelRun) {
	pt := &run.point
	if pt.started == 0 && pt.admitted == 0 && pt.refused == 0 {
		return
	}
	p := l.m.point(pt.at)
	p.Attempts += pt.started
	p.Admitted += pt.admitted
	p.Succeeded += pt.admitted
	p.Refused += pt.refused
	*pt = kernelPoint{}
}

// flushKernel adds what the kernel counted to the lane's metrics.
func (l *lane) flushKernel(run *kernelRun) {
	m := &l.m
	l.settleTallies()
	l.flushChecks(run)
	l.flushPoint(run)
	m.verdicts = run.verdicts
	var total kernelClass
	for _, g := range l.kern.dirty {
		cls, cl := &l.kern.classes[g], &m.classes[g]
		cls.addTo(&cl.Unique, &cl.Attempts, &cl.Admitted, &cl.Succeeded, &cl.Refused, &cl.GaveUp)
		m.classRefusedBy[int(g)*len(m.refusedBy)] += cls.refused // the kernel runs a chain of one limit
		if cls.admitted > 0 && !l.kern.store {                   // a store's answers add their own (kernelStore)
			m.timesToSuccess(g).AddN(0, cls.admitted) // each succeeded at its first attempt
		}
		total.started += cls.started
		total.admitted += cls.admitted
		total.refused += cls.refused
		cls.started, cls.admitted, cls.refused = 0, 0, 0
	}
	l.kern.dirty = l.kern.dirty[:0]
	c := &m.counts
	total.addTo(&c.Unique, &c.Attempts, &c.Admitted, &c.Succeeded, &c.Refused, &c.GaveUp)
	m.refusedBy[0] += total.refused
	m.decisions += total.admitted + total.refused
	m.disagreed += run.disagreed
	if total.admitted+total.refused > 0 {
		c.AllDoneAt = max(c.AllDoneAt, run.lastDone)
	}
}

// refuser is a decider that can tell a refusal without a Decision
// (algorithms.Refuser).
type refuser interface {
	refusal(key int32, now time.Duration, cost int64) (retryAfter time.Duration, refused bool)
}
