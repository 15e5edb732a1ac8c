package sim

import (
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// refusal is a key a shared limit refused, held in a replica's refusal cache:
// refused locally from from (when the store's answer is back at the
// replica) until until (its Retry-After), exact as the store's was.
type refusal struct {
	from, until time.Duration
	exact       bool
}

// cachedRefusal reports whether the refusal cache of the replica in ctx
// refuses client c's attempt at now: some shared limit counting c holds a
// refusal of its key.
func (f *fleet) cachedRefusal(c int32, now time.Duration) bool {
	for i, pl := range f.limits {
		if sl, ok := pl.(*sharedLimit); ok && sl.cache != nil && !f.lane.pop.skips(i, c) {
			if _, ok := sl.cached(f.lane.pop.keyOf[i][c], now); ok {
				return true
			}
		}
	}
	return false
}

// cacheEntry is the replica's refusal of key (the one in ctx).
func (sl *sharedLimit) cacheEntry(key int32) *refusal {
	return &sl.cache[int(sl.f.ctx.replica)*sl.keys+int(key)]
}

// cached is the replica's cached refusal of key at now, if it holds one.
func (sl *sharedLimit) cached(key int32, now time.Duration) (refusal, bool) {
	e := *sl.cacheEntry(key)
	return e, e.from <= now && now < e.until
}

// fromCache decides key at now on the replica's refusal cache alone, no call
// made (ctx.cached): its cached refusal, or the store's state peeked (the
// chain refuses on another limit's refusal, so nothing is charged). A refusal
// the store would have admitted is counted: what the cache cost.
func (sl *sharedLimit) fromCache(key int32, now time.Duration, cost int64) algorithms.Decision {
	d := sl.store.peek(key, now, cost)
	e, ok := sl.cached(key, now)
	if !ok {
		return d
	}
	if d.Admitted() {
		sl.f.result.Remedies.CacheDiffers++
	}
	return algorithms.Decision{Verdict: algorithms.Refuse, RetryAfter: e.until - now, RetryAfterExact: e.exact}
}

// remember caches the store's refusal d of key at now on the replica, from
// when its answer is back there, unless it gives no Retry-After to wait for.
func (sl *sharedLimit) remember(key int32, now time.Duration, d algorithms.Decision) {
	if sl.cache == nil || d.Verdict != algorithms.Refuse || d.RetryAfter <= 0 || d.RetryAfter == algorithms.Never ||
		sl.f.lane.cfg.Limits[sl.index].Shadow {
		return
	}
	e := sl.cacheEntry(key)
	from := max(now, sl.f.calls[sl.f.ctx.req].back)
	if e.until > now {
		from = min(from, e.from) // a refusal known earlier still holds: this one extends it
	}
	*e = refusal{from: from, until: later(now, d.RetryAfter), exact: d.RetryAfterExact}
}

// forgetReplicas drops the cached refusals of the replicas from j to k
// (they left or joined the fleet).
func (sl *sharedLimit) forgetReplicas(j, k int) {
	if sl.cache != nil {
		clear(sl.cache[j*sl.keys : k*sl.keys])
	}
}
