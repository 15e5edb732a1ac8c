package sim

import (
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// The store's verdict alone. Where nobody reads more of a chain's answer than
// its verdict and delay (answerUnread: one limit, no shadow, no trace, no
// pacing client) and that limit is shared, without leases, in a store whose
// table gives its verdict alone (algorithms.Admitter), a call reaching the
// store asks the table's verdict first: an admission at once needs no
// Decision, and anything else goes through decideChain, which answers it.

// setStoreQuick sets the shared limit whose verdict alone decides a store
// call's admission (storeQuick), or nil; the lane calls it where it sets its
// quick path (at its build and at each rule push).
func (f *fleet) setStoreQuick() {
	f.storeQuick = nil
	if storeQuickOff || !f.lane.answerUnread() || f.lane.cols != nil { // columns keep the first admission's headers
		return
	}
	if sl, ok := f.limits[0].(*sharedLimit); ok && sl.leased == nil {
		f.storeQuick = sl
	}
}

// decideAtStore is decideChain for the call of request r reaching the store
// at now, its answer, quota and verdict written in the call: the store's
// verdict alone when it admits at once.
func (f *fleet) decideAtStore(call *storeCall, r int32, now time.Duration) {
	l := f.lane
	req := &l.reqs.all[r]
	if sl := f.storeQuick; sl != nil && sl.admitAt(l.pop.keyOf[0][req.client], now, req.cost) {
		l.shadowed = -1
		call.answer, call.quota, call.refused = algorithms.Decision{}, 0, false
		if l.cfg.Limits[0].NoHeaders {
			call.quota = -1
		}
		return
	}
	answer, quota, refused := l.decideChain(req.client, now, req.cost)
	call.answer, call.quota, call.refused = answer, int32(quota), refused
}

// admitAt is decide's verdict alone, for an answered store call: true with
// the admission made (in the store, or in the copy a racy check read, to be
// written back), else false with nothing changed but that copy (decide then
// answers, reading it afresh).
func (sl *sharedLimit) admitAt(key int32, now time.Duration, cost int64) bool {
	ctx := &sl.f.ctx
	if !ctx.racy {
		return sl.quick != nil && sl.quick.admit(key, now, cost)
	}
	q, ok := sl.copies.(admitter)
	if !ok || !q.admits() {
		return false
	}
	slot := ctx.req
	sl.readCopy(key, slot)
	if !q.admit(slot, now, cost) {
		return false
	}
	sl.f.calls[slot].writes |= 1 << sl.index
	return true
}

// readCopy is a racy check of request slot reading key's state from the store.
func (sl *sharedLimit) readCopy(key, slot int32) {
	sl.copies.grow(int(slot) + 1)
	for int(slot) >= len(sl.readAt) {
		sl.readAt = append(sl.readAt, 0)
	}
	sl.readAt[slot] = sl.epoch
	sl.copies.copyFrom(slot, sl.store, key)
}

// setStoreTable makes t the store's table of the limit, and its verdict
// alone the quick one when it gives one.
func (sl *sharedLimit) setStoreTable(t stateTable) {
	sl.store, sl.quick = t, nil
	if q, ok := t.(admitter); ok && q.admits() {
		sl.quick = q
	}
}
