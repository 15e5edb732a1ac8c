package sim

import (
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// localLimit is a limit whose state each replica keeps alone.
type localLimit struct {
	reps replicaTables
	st   LimitTopology
}

func newLocalLimit(f *fleet, rule laneRule, lim Limit, p algorithms.Policy, keys int) (*localLimit, error) {
	ll := &localLimit{reps: replicaTables{f: f, rule: rule, divided: lim.LocalLimit == LocalDivided, keys: keys}}
	return ll, ll.reps.build(p)
}

func (ll *localLimit) decide(key int32, now time.Duration, cost int64) algorithms.Decision {
	return ll.reps.decide(key, now, cost)
}

func (ll *localLimit) peek(key int32, now time.Duration, cost int64) algorithms.Decision {
	return ll.reps.peek(key, now, cost)
}

func (ll *localLimit) setPolicy(p algorithms.Policy) { mustBuild(ll.reps.build(p)) }
func (ll *localLimit) resize(old, n int)             { ll.reps.resize(old, n) }
func (ll *localLimit) stats() *LimitTopology         { return &ll.st }

// replicaTables is a policy counted on each replica alone (a local limit, or
// the fallback of a shared one): every replica enforces the whole policy, or
// its share of it (DividedShare of the limit and of the burst), so the shares
// sum to the policy and the fleet never admits more than it.
//
// When the fleet is resized a divided policy is divided anew, every replica
// starting afresh on its new share; but for one window after the step each
// replica must also still fit its old share, on its old state (a replica that
// joins had none, and refuses): so admissions before the step still count
// after it, and the fleet admits no more in any window than one division
// allows. A whole policy keeps the state of the replicas that stay.
type replicaTables struct {
	f       *fleet
	rule    laneRule
	keys    int
	divided bool
	policy  algorithms.Policy
	reps    []stateTable // per replica, up to the most replicas
	quick   []admitter   // per replica, its table where it gives its verdict alone (admits); else nil
	refuse  []refuser    // per replica, its table where it tells a refusal alone; else nil
	held    []heldShares // earlier divisions still binding, oldest first
}

// maxHeld is the most earlier divisions a limit holds: with steps closer
// than a window apart, the older divisions bind longer instead of more piling up.
const maxHeld = 4

// heldShares is a division of the policy that binds its replicas until until.
type heldShares struct {
	reps  []stateTable
	until time.Duration
}

// build gives every replica a fresh table for policy p at the current fleet size.
func (rt *replicaTables) build(p algorithms.Policy) error {
	rt.policy, rt.held = p, nil
	reps, err := rt.tables(rt.f.count)
	rt.setReps(reps)
	return err
}

// setReps makes reps the replicas' tables, each with its verdict-alone path.
func (rt *replicaTables) setReps(reps []stateTable) {
	rt.reps, rt.quick, rt.refuse = reps, rt.quick[:0], rt.refuse[:0]
	for _, t := range reps {
		rt.quick = append(rt.quick, quickOf(t))
		rt.refuse = append(rt.refuse, refuserOf(t))
	}
}

// quickOf is t when it gives its verdict alone (admitter.admits), else nil.
func quickOf(t stateTable) admitter {
	if q, ok := t.(admitter); ok && q.admits() {
		return q
	}
	return nil
}

// tables is a fresh table per replica (up to the most) for n replicas.
func (rt *replicaTables) tables(n int) ([]stateTable, error) {
	reps := make([]stateTable, 0, rt.f.most)
	for j := range rt.f.most {
		p, ok := rt.share(n, j)
		if !ok {
			reps = append(reps, refuseAll{})
			continue
		}
		t, err := newTable(rt.rule, p, rt.keys)
		if err != nil {
			return nil, err
		}
		reps = append(reps, t)
	}
	return reps, nil
}

// share is replica j's policy in a fleet of n; ok is false for a share of
// nothing (a replica past n, or one whose share of the limit, or of a burst
// its limiter has, is 0).
func (rt *replicaTables) share(n, j int) (p algorithms.Policy, ok bool) {
	p = rt.policy
	if !rt.divided {
		return p, true
	}
	p.Limit = DividedShare(p.Limit, n, j)
	if p.Burst > 0 && hasBurst(rt.rule.kind) {
		p.Burst = DividedShare(p.Burst, n, j)
		if p.Burst == 0 {
			return p, false
		}
	}
	return p, p.Limit > 0
}

func (rt *replicaTables) resize(old, n int) {
	if !rt.divided {
		for j := min(old, n); j < max(old, n); j++ {
			rt.reps[j] = rt.reps[j].like(rt.keys)
			rt.quick[j], rt.refuse[j] = quickOf(rt.reps[j]), refuserOf(rt.reps[j])
		}
		return
	}
	now := rt.f.lane.eng.Now()
	rt.expire(now)
	rt.held = append(rt.held, heldShares{reps: rt.reps, until: now + rt.policy.Window})
	if h := len(rt.held); h > maxHeld {
		// The division before binds instead, until then: it has been charged with
		// every admission since it began, so it guards the same windows.
		rt.held[h-2].until = rt.held[h-1].until
		rt.held = rt.held[:h-1]
	}
	reps, err := rt.tables(n)
	mustBuild(err)
	rt.setReps(reps)
}

// expire drops the held divisions that no longer bind at now.
func (rt *replicaTables) expire(now time.Duration) {
	i := 0
	for i < len(rt.held) && rt.held[i].until <= now {
		i++
	}
	rt.held = rt.held[i:]
}

func (rt *replicaTables) decide(key int32, now time.Duration, cost int64) algorithms.Decision {
	r := rt.f.ctx.replica
	if len(rt.held) == 0 {
		return rt.reps[r].decide(key, now, cost)
	}
	d, ok := rt.heldPeek(key, now, cost)
	if !ok {
		return d
	}
	cur := rt.reps[r].decide(key, now, cost)
	if !cur.Admitted() {
		return cur
	}
	for _, h := range rt.held {
		h.reps[r].decide(key, now, cost) // it fits: heldPeek said so
	}
	return slower(cur, d)
}

func (rt *replicaTables) peek(key int32, now time.Duration, cost int64) algorithms.Decision {
	r := rt.f.ctx.replica
	if len(rt.held) == 0 {
		return rt.reps[r].peek(key, now, cost)
	}
	d, ok := rt.heldPeek(key, now, cost)
	if !ok {
		return d
	}
	cur := rt.reps[r].peek(key, now, cost)
	if !cur.Admitted() {
		return cur
	}
	return slower(cur, d)
}

// slower is cur, an admission, delayed at least as long as held's: an
// admission must wait for its turn in every division that binds.
func slower(cur, held algorithms.Decision) algorithms.Decision {
	cur.Delay = max(cur.Delay, held.Delay)
	if cur.Delay > 0 {
		cur.Verdict = algorithms.Delay
	}
	return cur
}

// heldPeek is whether every held division admits the attempt on its
// replica; if not, d is the refusal, its Retry-After no later than the
// division stops binding. If so, d.Delay is the longest delay among them.
func (rt *replicaTables) heldPeek(key int32, now time.Duration, cost int64) (d algorithms.Decision, ok bool) {
	rt.expire(now)
	r := rt.f.ctx.replica
	var most time.Duration
	for _, h := range rt.held {
		d = h.reps[r].peek(key, now, cost)
		if !d.Admitted() {
			if d.RetryAfter > h.until-now {
				d.RetryAfter, d.RetryAfterExact = h.until-now, false
			}
			return d, false
		}
		most = max(most, d.Delay)
	}
	return algorithms.Decision{Delay: most}, true
}

// hasBurst is whether lane kind's limiter has a burst apart from its limit
// (the windowed counters have none to divide): its registry row says.
func hasBurst(kind LaneKind) bool { return kind.Info().burst }

// DividedShare is replica i's share of limit divided over n replicas:
// ⌊(limit+i)/n⌋ for i < n, 0 past n. The shares differ by at most one, the
// larger on the higher replicas, and sum to limit exactly; with fewer than n
// the first n−limit replicas have none.
func DividedShare(limit int64, n, i int) int64 {
	if i < 0 || i >= n {
		return 0
	}
	return (limit + int64(i)) / int64(n)
}

// refuseAll is the table of a replica whose share is nothing: it refuses
// every attempt, and no wait admits one.
type refuseAll struct{}

func (refuseAll) decide(int32, time.Duration, int64) algorithms.Decision {
	return algorithms.Decision{Verdict: algorithms.Refuse, RetryAfter: algorithms.Never, RetryAfterExact: true}
}
func (z refuseAll) peek(k int32, now time.Duration, c int64) algorithms.Decision {
	return z.decide(k, now, c)
}
func (z refuseAll) like(int) stateTable              { return z }
func (refuseAll) copyFrom(int32, stateTable, int32)  {}
func (refuseAll) grow(int)                           {}
func (refuseAll) charge(int32, time.Duration, int64) {}
func (refuseAll) chargeAll([]push)                   {}

// mustBuild panics on a table that cannot be built from a policy already checked.
func mustBuild(err error) {
	if err != nil {
		panic("sim: a checked policy failed to build: " + err.Error())
	}
}

// sharedLimit is a limit whose state lives in the store.
type sharedLimit struct {
	f        *fleet
	index    int
	rule     laneRule
	keys     int
	store    stateTable
	quick    admitter       // store, when it gives its verdict alone; else nil
	copies   stateTable     // per request slot: the state a racy check read
	readAt   []uint32       // per request slot: the rule epoch its copy was read in
	epoch    uint32         // rule pushes so far: a copy read before one is not written back
	fallback *replicaTables // for FailLocal: the fallback policy, whole or divided
	mode     FailMode
	st       LimitTopology
	stretch  uint32 // the fleet's stretch of store errors its fail mode last decided in
	// nearBefore is the near_limit hits of the store's tables a rule push replaced.
	nearBefore int64
	// cache is the refusal cache (Store.RefusalCache), per replica × key.
	cache []refusal
	// leased is each replica's lease per key (Store.Lease), window the
	// policy's (a lease expires at its window's end).
	leased []lease
	window time.Duration
}

func newSharedLimit(f *fleet, rule laneRule, lim Limit, p algorithms.Policy, keys, classes int) (*sharedLimit, error) {
	sl := &sharedLimit{f: f, index: len(f.limits), rule: rule, keys: keys, mode: lim.OnStoreError}
	t, err := newTable(rule, p, keys)
	if err != nil {
		return nil, err
	}
	sl.setStoreTable(t)
	sl.copies = sl.store.like(0)
	if f.topo.Store.RefusalCache {
		sl.cache = make([]refusal, f.most*keys)
	}
	if leases(f, rule.kind) {
		sl.leased, sl.window = make([]lease, f.most*keys), p.Window
	}
	if sl.mode == FailLocal {
		sl.fallback = &replicaTables{f: f, rule: rule, divided: lim.LocalLimit == LocalDivided, keys: keys}
		if err := sl.fallback.build(lim.Fallback); err != nil {
			return nil, err
		}
	}
	sl.st.Classes = make([]OutageClass, classes)
	for g := range sl.st.Classes {
		sl.st.Classes[g].Name = f.lane.pop.groups[g].Name
	}
	return sl, nil
}

func (sl *sharedLimit) decide(key int32, now time.Duration, cost int64) algorithms.Decision {
	ctx := &sl.f.ctx
	switch {
	case ctx.storeErr:
		return sl.failed(key, now, cost, false)
	case ctx.cached:
		return sl.fromCache(key, now, cost)
	case ctx.racy:
		slot := ctx.req
		sl.readCopy(key, slot)
		d := sl.copies.decide(slot, now, cost)
		if d.Admitted() {
			sl.f.calls[slot].writes |= 1 << sl.index
		}
		sl.remember(key, now, d)
		return d
	}
	if sl.leased != nil {
		return sl.leaseDecide(key, now, cost, false)
	}
	d := sl.store.decide(key, now, cost)
	sl.remember(key, now, d)
	return d
}

func (sl *sharedLimit) peek(key int32, now time.Duration, cost int64) algorithms.Decision {
	switch {
	case sl.f.ctx.storeErr:
		return sl.failed(key, now, cost, true)
	case sl.f.ctx.cached:
		return sl.fromCache(key, now, cost)
	case sl.leased != nil:
		return sl.leaseDecide(key, now, cost, true)
	}
	d := sl.store.peek(key, now, cost)
	sl.remember(key, now, d) // the chain refuses on it, as the store decided
	return d
}

// failed is the limit's decision when its store call failed, by its fail
// mode. It counts the decision, unless it is a peek that admits (the chain
// then decides the limit again, or another limit refuses the attempt).
func (sl *sharedLimit) failed(key int32, now time.Duration, cost int64, peek bool) algorithms.Decision {
	var d algorithms.Decision
	count := &sl.st.Unavailable.Open
	switch sl.mode {
	case FailClosed:
		d.Verdict, count = algorithms.Refuse, &sl.st.Unavailable.Closed
	case FailLocal:
		t := sl.fallback
		count = &sl.st.Unavailable.Local
		if peek {
			d = t.peek(key, now, cost)
		} else {
			d = t.decide(key, now, cost)
		}
	}
	if peek && d.Admitted() {
		return d
	}
	sl.failModePhase()
	if sl.f.ctx.probe {
		return d // a probe is no client: the health check counts it
	}
	*count++
	c := &sl.st.Classes[sl.f.ctx.class]
	c.Decided++
	if d.Admitted() {
		c.Admitted++
	}
	return d
}

// writeBack is the write of a racy check: the copy request slot r read and
// admitted on replaces the store's state of key, unless a rule push started
// every key afresh since the read.
func (sl *sharedLimit) writeBack(key int32, r int32) {
	if sl.readAt[r] == sl.epoch {
		sl.store.copyFrom(key, sl.copies, r)
	}
}

func (sl *sharedLimit) setPolicy(p algorithms.Policy) {
	if n, ok := sl.nearLimit(); ok {
		sl.nearBefore = n
	}
	t, err := newTable(sl.rule, p, sl.keys)
	mustBuild(err)
	sl.setStoreTable(t)
	sl.epoch++
	sl.window = p.Window
	sl.dropLeases(0, sl.f.most) // leases of the old policy's state go with it
	sl.copies = t.like(sl.copiesLen())
}

// copiesLen is how many request slots the copies table holds.
func (sl *sharedLimit) copiesLen() int { return len(sl.readAt) }

func (sl *sharedLimit) resize(old, n int) {
	if sl.fallback != nil {
		sl.fallback.resize(old, n)
	}
	sl.forgetReplicas(min(old, n), max(old, n))
	sl.dropLeases(min(old, n), max(old, n))
}

func (sl *sharedLimit) stats() *LimitTopology { return &sl.st }

// syncedLimit counts locally and syncs with the store every interval: the
// store's state is the exact limiter charged with every admission pushed, in
// time order, over its limit if need be (a debt, as INCRBY makes); a replica decides on the store's state as of the last sync plus
// its own admissions since (a copy it pulls at its first decision of a key
// after each sync, which equals pulling every key at the sync, as the store's
// state only changes at syncs).
type syncedLimit struct {
	f      *fleet
	rule   laneRule
	keys   int
	global stateTable
	views  []stateTable // per replica
	quick  []admitter   // per replica, its view where it gives its verdict alone (admits); else nil
	refuse []refuser    // per replica, its view where it tells a refusal alone; else nil
	pulled []uint32     // per replica and key (replica×keys+key): the sync its view was pulled at
	epoch  uint32       // syncs so far, plus one
	pushes []push       // admissions since the last sync, every replica's, in time order
	st     LimitTopology
}

// admission is cost admitted at at.
type admission struct {
	at   time.Duration
	cost int64
}

func newSyncedLimit(f *fleet, rule laneRule, lim Limit, p algorithms.Policy, keys int) (*syncedLimit, error) {
	sy := &syncedLimit{f: f, rule: rule, keys: keys}
	return sy, sy.build(p)
}

func (sy *syncedLimit) build(p algorithms.Policy) error {
	g, err := newTable(sy.rule, p, sy.keys)
	if err != nil {
		return err
	}
	sy.global, sy.views, sy.quick, sy.refuse, sy.epoch = g, nil, nil, nil, 1
	sy.pulled = make([]uint32, sy.f.most*sy.keys)
	sy.pushes = sy.pushes[:0] // admissions under the old policy are not charged to the new state
	for range sy.f.most {
		sy.views = append(sy.views, g.like(sy.keys))
		sy.quick = append(sy.quick, quickOf(sy.views[len(sy.views)-1]))
		sy.refuse = append(sy.refuse, refuserOf(sy.views[len(sy.views)-1]))
	}
	return nil
}

// view is the replica's table with key's state pulled since the last sync.
func (sy *syncedLimit) view(key int32) stateTable {
	r := sy.f.ctx.replica
	sy.pull(r, key)
	return sy.views[r]
}

// pull copies key's state from the store to replica r's view, unless it has
// since the last sync.
func (sy *syncedLimit) pull(r, key int32) {
	if i := int(r)*sy.keys + int(key); sy.pulled[i] != sy.epoch {
		sy.views[r].copyFrom(key, sy.global, key)
		sy.pulled[i] = sy.epoch
	}
}

func (sy *syncedLimit) decide(key int32, now time.Duration, cost int64) algorithms.Decision {
	d := sy.view(key).decide(key, now, cost)
	if d.Admitted() {
		sy.pushes = append(sy.pushes, push{at: now, cost: cost, key: key})
	}
	return d
}

func (sy *syncedLimit) peek(key int32, now time.Duration, cost int64) algorithms.Decision {
	return sy.view(key).peek(key, now, cost)
}

// sync charges the store with every admission pushed and has every view pulled anew.
func (sy *syncedLimit) sync() {
	sy.global.chargeAll(sy.pushes)
	sy.pushes = sy.pushes[:0]
	sy.epoch++
}

func (sy *syncedLimit) setPolicy(p algorithms.Policy) { mustBuild(sy.build(p)) }

func (sy *syncedLimit) resize(old, n int) {
	for j := min(old, n); j < max(old, n); j++ {
		clear(sy.pulled[j*sy.keys : (j+1)*sy.keys])
	}
}

func (sy *syncedLimit) stats() *LimitTopology { return &sy.st }
