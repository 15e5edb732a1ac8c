package sim

import (
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// lease is the units of one key a replica holds, taken from the store, until
// they expire.
type lease struct {
	units int64
	until time.Duration
}

// leases reports whether a shared limit of lane kind leases units (Store.Lease
// set, and a fixed window or token bucket).
func leases(f *fleet, kind LaneKind) bool {
	return f.topo.Store.Lease > 0 && (kind == LaneFixedWindow || kind == LaneTokenBucket)
}

// leaseOf is the replica's lease of key (the replica in ctx), expired ones
// counted and emptied at now.
func (sl *sharedLimit) leaseOf(key int32, now time.Duration) *lease {
	l := &sl.leased[int(sl.f.ctx.replica)*sl.keys+int(key)]
	if l.units > 0 && now >= l.until {
		sl.f.result.Remedies.LeaseExpired += l.units
		l.units = 0
	}
	return l
}

// covered reports whether every shared limit counting client c leases and
// the replica in ctx holds enough of each for cost at now: the decision
// needs no store call.
func (f *fleet) covered(c int32, now time.Duration, cost int64) bool {
	some := false
	for i, pl := range f.limits {
		sl, ok := pl.(*sharedLimit)
		if !ok || f.lane.pop.skips(i, c) {
			continue
		}
		if sl.leased == nil || sl.leaseOf(f.lane.pop.keyOf[i][c], now).units < cost {
			return false
		}
		some = true
	}
	return some
}

// leaseDecide decides key at now on the replica's lease: spent locally when
// it holds cost, else topped up from the store (up to Store.Lease, or cost
// if more) and spent, or refused by the store when not even cost is left.
func (sl *sharedLimit) leaseDecide(key int32, now time.Duration, cost int64, peek bool) algorithms.Decision {
	l := sl.leaseOf(key, now)
	if l.units < cost {
		want := max(sl.f.topo.Store.Lease, cost-l.units)
		if peek {
			if d := sl.store.peek(key, now, cost-l.units); !sl.fits(d) {
				return d
			}
			return algorithms.Decision{Verdict: algorithms.Admit, Remaining: l.units + want - cost}
		}
		g := sl.grantable(key, now, want)
		if l.units+g < cost {
			d := sl.store.peek(key, now, cost-l.units)
			if d.Verdict != algorithms.Refuse { // it fits only after a wait: no lease waits
				d = algorithms.Decision{Verdict: algorithms.Refuse, RetryAfter: d.Delay}
			}
			sl.remember(key, now, d)
			return d
		}
		sl.store.decide(key, now, g)
		sl.f.result.Remedies.LeaseTaken += g
		if l.units == 0 {
			l.until = now - now%sl.window + sl.window
		}
		l.units += g
	} else if peek {
		return algorithms.Decision{Verdict: algorithms.Admit, Remaining: l.units - cost}
	}
	l.units -= cost
	return algorithms.Decision{Verdict: algorithms.Admit, Remaining: l.units}
}

// fits is whether d admits at once.
func (sl *sharedLimit) fits(d algorithms.Decision) bool { return d.Verdict == algorithms.Admit }

// grantable is the most units, up to want, the store admits for key at now:
// the largest fitting amount, found by halving (a fit of g means every
// smaller amount fits).
func (sl *sharedLimit) grantable(key int32, now time.Duration, want int64) int64 {
	if sl.fits(sl.store.peek(key, now, want)) {
		return want
	}
	lo, hi := int64(0), want // lo fits (0 trivially), hi does not
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if sl.fits(sl.store.peek(key, now, mid)) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// dropLeases counts the units held by replicas j to k as never spent, and
// empties them (the replicas left or joined, or the end came).
func (sl *sharedLimit) dropLeases(j, k int) {
	if sl.leased == nil {
		return
	}
	for i := j * sl.keys; i < k*sl.keys; i++ {
		sl.f.result.Remedies.LeaseExpired += sl.leased[i].units
		sl.leased[i].units = 0
	}
}
