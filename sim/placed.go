package sim

import (
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// localLimit is a limit whose state each replica keeps alone.
type localLimit struct {
	f       *fleet
	kind    LaneKind
	policy  algorithms.Policy // the limit's; a replica's is perReplica
	divided bool
	keys    int
	reps    []stateTable // per replica, up to the most replicas
	st      LimitTopology
}

func newLocalLimit(f *fleet, kind LaneKind, lim Limit, p algorithms.Policy, keys int) (*localLimit, error) {
	ll := &localLimit{f: f, kind: kind, divided: lim.LocalLimit == LocalDivided, keys: keys}
	return ll, ll.build(p)
}

// build gives every replica a fresh table for policy p at the current fleet size.
func (ll *localLimit) build(p algorithms.Policy) error {
	ll.policy = p
	ll.reps = ll.reps[:0]
	for range ll.f.most {
		t, err := newTable(ll.kind, ll.perReplica(), ll.keys)
		if err != nil {
			return err
		}
		ll.reps = append(ll.reps, t)
	}
	return nil
}

// perReplica is a replica's policy: the limit's, or it divided by the replica count.
func (ll *localLimit) perReplica() algorithms.Policy {
	p := ll.policy
	if !ll.divided {
		return p
	}
	n := int64(ll.f.count)
	p.Limit = max(1, p.Limit/n)
	if p.Burst > 0 {
		p.Burst = max(1, p.Burst/n)
	}
	return p
}

func (ll *localLimit) decide(key int32, now time.Duration, cost int64) algorithms.Decision {
	return ll.reps[ll.f.ctx.replica].decide(key, now, cost)
}

func (ll *localLimit) peek(key int32, now time.Duration, cost int64) algorithms.Decision {
	return ll.reps[ll.f.ctx.replica].peek(key, now, cost)
}

func (ll *localLimit) setPolicy(p algorithms.Policy) { mustBuild(ll.build(p)) }

func (ll *localLimit) resize(old, n int) {
	if ll.divided {
		mustBuild(ll.build(ll.policy))
		return
	}
	for j := min(old, n); j < max(old, n); j++ {
		ll.reps[j] = ll.reps[j].like(ll.keys)
	}
}

func (ll *localLimit) stats() *LimitTopology { return &ll.st }

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
	kind     LaneKind
	keys     int
	store    stateTable
	copies   stateTable   // per request slot: the state a racy check read
	readAt   []uint32     // per request slot: the rule epoch its copy was read in
	epoch    uint32       // rule pushes so far: a copy read before one is not written back
	fallback []stateTable // per replica, for FailLocal
	fbPolicy algorithms.Policy
	mode     FailMode
	st       LimitTopology
}

func newSharedLimit(f *fleet, kind LaneKind, lim Limit, p algorithms.Policy, keys, classes int) (*sharedLimit, error) {
	sl := &sharedLimit{f: f, index: len(f.limits), kind: kind, keys: keys, mode: lim.OnStoreError, fbPolicy: lim.Fallback}
	var err error
	if sl.store, err = newTable(kind, p, keys); err != nil {
		return nil, err
	}
	sl.copies = sl.store.like(0)
	if sl.mode == FailLocal {
		for range f.most {
			t, err := newTable(kind, lim.Fallback, keys)
			if err != nil {
				return nil, err
			}
			sl.fallback = append(sl.fallback, t)
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
	case ctx.racy:
		slot := ctx.req
		sl.copies.grow(int(slot) + 1)
		for int(slot) >= len(sl.readAt) {
			sl.readAt = append(sl.readAt, 0)
		}
		sl.readAt[slot] = sl.epoch
		sl.copies.copyFrom(slot, sl.store, key)
		d := sl.copies.decide(slot, now, cost)
		if d.Admitted() {
			sl.f.calls[slot].writes |= 1 << sl.index
		}
		return d
	}
	return sl.store.decide(key, now, cost)
}

func (sl *sharedLimit) peek(key int32, now time.Duration, cost int64) algorithms.Decision {
	if sl.f.ctx.storeErr {
		return sl.failed(key, now, cost, true)
	}
	return sl.store.peek(key, now, cost)
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
		t := sl.fallback[sl.f.ctx.replica]
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
	t, err := newTable(sl.kind, p, sl.keys)
	mustBuild(err)
	sl.store, sl.epoch = t, sl.epoch+1
	sl.copies = t.like(sl.copiesLen())
}

// copiesLen is how many request slots the copies table holds.
func (sl *sharedLimit) copiesLen() int { return len(sl.readAt) }

func (sl *sharedLimit) resize(old, n int) {
	for j := min(old, n); j < max(old, n) && sl.fallback != nil; j++ {
		sl.fallback[j] = sl.fallback[j].like(sl.keys)
	}
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
	kind   LaneKind
	keys   int
	global stateTable
	views  []stateTable // per replica
	pulled [][]uint32   // per replica and key: the sync its view was pulled at
	epoch  uint32       // syncs so far, plus one
	pushes []admission  // admissions since the last sync, every replica's, in time order
	keyOf  []int32      // of each push
	st     LimitTopology
}

func newSyncedLimit(f *fleet, kind LaneKind, lim Limit, p algorithms.Policy, keys int) (*syncedLimit, error) {
	sy := &syncedLimit{f: f, kind: kind, keys: keys}
	return sy, sy.build(p)
}

func (sy *syncedLimit) build(p algorithms.Policy) error {
	g, err := newTable(sy.kind, p, sy.keys)
	if err != nil {
		return err
	}
	sy.global, sy.views, sy.pulled, sy.epoch = g, nil, nil, 1
	for range sy.f.most {
		sy.views = append(sy.views, g.like(sy.keys))
		sy.pulled = append(sy.pulled, make([]uint32, sy.keys))
	}
	return nil
}

// view is the replica's table with key's state pulled since the last sync.
func (sy *syncedLimit) view(key int32) stateTable {
	r := sy.f.ctx.replica
	v := sy.views[r]
	if sy.pulled[r][key] != sy.epoch {
		v.copyFrom(key, sy.global, key)
		sy.pulled[r][key] = sy.epoch
	}
	return v
}

func (sy *syncedLimit) decide(key int32, now time.Duration, cost int64) algorithms.Decision {
	d := sy.view(key).decide(key, now, cost)
	if d.Admitted() {
		sy.pushes = append(sy.pushes, admission{at: now, cost: cost})
		sy.keyOf = append(sy.keyOf, key)
	}
	return d
}

func (sy *syncedLimit) peek(key int32, now time.Duration, cost int64) algorithms.Decision {
	return sy.view(key).peek(key, now, cost)
}

// sync charges the store with every admission pushed and has every view pulled anew.
func (sy *syncedLimit) sync() {
	for i, a := range sy.pushes {
		sy.global.charge(sy.keyOf[i], a.at, a.cost)
	}
	sy.pushes, sy.keyOf = sy.pushes[:0], sy.keyOf[:0]
	sy.epoch++
}

func (sy *syncedLimit) setPolicy(p algorithms.Policy) { mustBuild(sy.build(p)) }

func (sy *syncedLimit) resize(old, n int) {
	for j := min(old, n); j < max(old, n); j++ {
		clear(sy.pulled[j])
	}
}

func (sy *syncedLimit) stats() *LimitTopology { return &sy.st }
