package sim

import (
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// health is a fleet's health check as it runs: which replicas are in the
// load balancer's rotation, their streaks of probe verdicts, the probes
// waiting on the store, and what a probe is to each limit (its key, whether
// the limit counts it).
type health struct {
	cfg      *HealthCheck
	out      []bool          // per replica, up to the most: out of the rotation
	streak   []int32         // per replica: failed probes in a row (in), passed ones (out)
	since    []time.Duration // per replica out: since when
	gen      []uint32        // per replica: its joins and leaves so far (a probe of an earlier one is ignored)
	rotation []int32         // the replicas in the rotation, in order
	noneAt   time.Duration   // since when the rotation is empty
	keys     []int32         // per limit: the probe's key
	skip     []bool          // per limit: it does not count the probe
	calls    bool            // some shared limit counts the probe: it calls the store
	waiting  []probeCall     // probes waiting on the store
	free     []int32         // slots of waiting free again
	res      HealthResult
}

// probeCall is a probe waiting on the store.
type probeCall struct {
	replica int32
	gen     uint32
	failed  bool // the call failed: decided by the fail modes at the reply
	refused bool // the chain's verdict, when the store decided it
	back    time.Duration
}

// newHealth is fleet f's health check, or nil without one. The probe's
// keys past a limit's own are the extra slot newFleet gives its tables.
func newHealth(f *fleet) *health {
	hc := f.topo.WithHealthDefaults().Health
	if hc == nil {
		return nil
	}
	h := &health{cfg: hc, out: make([]bool, f.most), streak: make([]int32, f.most),
		since: make([]time.Duration, f.most), gen: make([]uint32, f.most)}
	h.res.Out = make([]time.Duration, f.most)
	for i, lim := range f.lane.cfg.Limits {
		h.keys = append(h.keys, probeKey(&f.lane.pop.keys[i], lim.Key, hc.Endpoint))
		skip := lim.Endpoint != "" && lim.Endpoint != hc.Endpoint
		h.skip = append(h.skip, skip)
		h.calls = h.calls || !skip && lim.State == StateShared
	}
	h.rotate(f.count)
	return h
}

// probeKeyName is the key a limit counting by kind sees for a probe of endpoint.
func probeKeyName(kind KeyKind, endpoint string) string {
	switch kind {
	case KeyGlobal:
		return "global"
	case KeyEndpoint:
		return KeyEndpoint.String() + ":" + endpoint
	}
	return kind.String() + ":health-probe"
}

// probeKey is the id in t of a probe's key, or t.len() (the extra slot) when
// no client has it.
func probeKey(t *keyTable, kind KeyKind, endpoint string) int32 {
	name := probeKeyName(kind, endpoint)
	if t.run.count > 0 {
		if i, ok := t.run.index(name); ok {
			return t.run.first + int32(i)
		}
	}
	for j, n := range t.names {
		if n == name {
			if int32(j) >= t.run.first {
				return int32(j) + t.run.count
			}
			return int32(j)
		}
	}
	return int32(t.len())
}

// probeSlots is how many key slots past the clients' a fleet's tables hold:
// one for the probe's key when there is a health check.
func probeSlots(t *Topology) int {
	if t.Health != nil {
		return 1
	}
	return 0
}

// rotate rebuilds the rotation of a fleet of n replicas.
func (h *health) rotate(n int) {
	h.rotation = h.rotation[:0]
	for j := range n {
		if !h.out[j] {
			h.rotation = append(h.rotation, int32(j))
		}
	}
}

// probeAll is a health check round: a probe to every replica in the fleet,
// in order, and the next round.
func (f *fleet) probeAll() {
	l := f.lane
	if next := later(l.eng.Now(), f.health.cfg.Interval); next <= l.end {
		l.eng.Schedule(next, evProbe, 0, 0)
	}
	for j := range f.count {
		f.probe(int32(j))
	}
}

// probe sends replica rep a probe: decided at once when no limit that
// counts it calls the store (or the store answers in no time, or fails at
// once), else when the call reaches the store, its verdict known when the
// answer (or the failure) is back.
func (f *fleet) probe(rep int32) {
	h, now := f.health, f.lane.eng.Now()
	f.probeCtx(rep)
	if !h.calls {
		f.verdict(rep, h.gen[rep], !f.probeChain(now))
		return
	}
	a := f.store.call(now, rep, -1, 1)
	f.probeCalled(a.trips)
	f.latency.Add(a.roundTrip)
	f.callOutcome(a.failure, -1)
	failed := a.failure != storeAnswered
	if failed {
		f.result.StoreErrors++
	}
	if a.roundTrip == 0 {
		f.ctx.storeErr = failed
		f.verdict(rep, h.gen[rep], !f.probeChain(now))
		f.ctx.storeErr = false
		return
	}
	back := later(now, a.roundTrip)
	if back > f.lane.end {
		return // answered after the run
	}
	slot := h.slot(probeCall{replica: rep, gen: h.gen[rep], failed: failed, back: back})
	if failed {
		f.lane.eng.Schedule(back, evProbeReply, slot, 0)
		return
	}
	f.lane.eng.Schedule(later(now, a.reach), evProbeDecide, slot, 0)
}

// slot keeps c waiting and returns its slot.
func (h *health) slot(c probeCall) int32 {
	if n := len(h.free); n > 0 {
		s := h.free[n-1]
		h.free = h.free[:n-1]
		h.waiting[s] = c
		return s
	}
	h.waiting = append(h.waiting, c)
	return int32(len(h.waiting) - 1)
}

// probeDecide is probe slot s's call reaching the store: the chain decides it.
func (f *fleet) probeDecide(s int32) {
	c := &f.health.waiting[s]
	f.probeCtx(c.replica)
	c.refused = f.probeChain(f.lane.eng.Now())
	f.lane.eng.Schedule(c.back, evProbeReply, s, 0)
}

// probeReply is probe slot s's answer, or its failure, back at the load balancer.
func (f *fleet) probeReply(s int32) {
	h := f.health
	c := h.waiting[s]
	h.free = append(h.free, s)
	refused := c.refused
	if c.failed {
		f.probeCtx(c.replica)
		f.ctx.storeErr = true
		refused = f.probeChain(f.lane.eng.Now())
		f.ctx.storeErr = false
	}
	f.verdict(c.replica, c.gen, !refused)
}

// probeCtx sets what the placed limits read for a probe of replica rep.
func (f *fleet) probeCtx(rep int32) {
	f.ctx.req, f.ctx.replica, f.ctx.class = -1, rep, -1
	f.ctx.storeErr, f.ctx.racy, f.ctx.probe = false, false, true
}

// probeCalled counts a probe's calls round trips to the store, for every
// shared limit counting it.
func (f *fleet) probeCalled(calls int64) {
	f.result.StoreCalls += calls
	for i, lim := range f.lane.cfg.Limits {
		if lim.State == StateShared && !f.health.skip[i] {
			f.limits[i].stats().StoreCalls += calls
		}
	}
}

// probeChain puts a probe through the chain at now, as decideChain does a
// client's attempt (cost 1): whether a limit refused it.
func (f *fleet) probeChain(now time.Duration) (refused bool) {
	l, h := f.lane, f.health
	if len(f.limits) > 1 && l.cfg.Chain == ChainAllOrNothing {
		for i, pl := range f.limits {
			if !l.shadow[i] && !h.skip[i] && pl.peek(h.keys[i], now, 1).Verdict == algorithms.Refuse {
				return true
			}
		}
	}
	for i, pl := range f.limits {
		if h.skip[i] {
			continue
		}
		if d := pl.decide(h.keys[i], now, 1); !l.shadow[i] && d.Verdict == algorithms.Refuse {
			return true
		}
	}
	return false
}

// verdict counts a probe of replica rep (sent in its generation gen) that
// passed or not, and moves the replica in or out of the rotation when its
// streak says so.
func (f *fleet) verdict(rep int32, gen uint32, passed bool) {
	h := f.health
	h.res.Probes++
	if !passed {
		h.res.Failed++
	}
	if int(rep) >= f.count || gen != h.gen[rep] {
		return // the replica left the fleet since
	}
	if passed == h.out[rep] { // a failure while in, a pass while out: the streak that moves it
		h.streak[rep]++
	} else {
		h.streak[rep] = 0
	}
	switch {
	case !h.out[rep] && int(h.streak[rep]) >= h.cfg.UnhealthyAfter:
		f.setOut(rep, true)
	case h.out[rep] && int(h.streak[rep]) >= h.cfg.HealthyAfter:
		f.setOut(rep, false)
	}
}

// setOut takes replica rep out of the rotation, or brings it back.
func (f *fleet) setOut(rep int32, out bool) {
	h, now := f.health, f.lane.eng.Now()
	h.out[rep], h.streak[rep] = out, 0
	if out {
		h.since[rep] = now
		h.res.Removals++
		f.phase(PhaseReplicaOut, int(rep), -1, "")
	} else {
		h.res.Out[rep] += now - h.since[rep]
		f.phase(PhaseReplicaIn, int(rep), -1, "")
	}
	f.rerotate()
}

// rerotate rebuilds the rotation after a change, noting when it becomes
// empty and when it stops being so.
func (f *fleet) rerotate() {
	h, now := f.health, f.lane.eng.Now()
	was := len(h.rotation)
	h.rotate(f.count)
	switch {
	case was > 0 && len(h.rotation) == 0:
		h.noneAt = now
		f.phase(PhaseNoHealthyReplica, -1, -1, "")
	case was == 0 && len(h.rotation) > 0:
		h.res.NoHealthyFor += now - h.noneAt
		if len(h.res.Down) < maxPhases {
			h.res.Down = append(h.res.Down, Span{h.noneAt, now})
		}
	}
}

// resizeHealth follows the autoscaler from old to n replicas: a replica that
// leaves takes its health with it, one that joins starts in the rotation.
func (f *fleet) resizeHealth(old, n int) {
	h, now := f.health, f.lane.eng.Now()
	for j := min(old, n); j < max(old, n); j++ {
		if h.out[j] {
			h.res.Out[j] += now - h.since[j]
		}
		h.out[j], h.streak[j] = false, 0
		h.gen[j]++
	}
	f.rerotate()
}

// noHealthy answers request r 503 from the load balancer: no replica is in the rotation.
func (f *fleet) noHealthy(r int32) {
	f.health.res.NoHealthy++
	f.lane.m.classes[f.lane.pop.groupOf[f.lane.reqs.all[r].client]].ShedNoHealthy++
	f.lane.shed(r, 0)
}

// healthResult is the health check's figures at the end, end being when the run stopped.
func (f *fleet) healthResult(end time.Duration) *HealthResult {
	h := f.health
	if h == nil {
		return nil
	}
	r := h.res
	r.Out = append([]time.Duration(nil), h.res.Out...)
	for j := range f.count {
		if h.out[j] {
			r.Out[j] += end - h.since[j]
		}
	}
	r.Down = append([]Span(nil), h.res.Down...)
	if len(h.rotation) == 0 {
		r.NoHealthyFor += end - h.noneAt
		if len(r.Down) < maxPhases {
			r.Down = append(r.Down, Span{h.noneAt, end})
		}
	}
	return &r
}
