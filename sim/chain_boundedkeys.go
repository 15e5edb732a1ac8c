package sim

import (
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// forgettable is a table whose keys can be forgotten and asked whether they
// are idle: what a bounded key table needs of the table it bounds.
type forgettable interface {
	decider
	// forget makes key a never-seen key.
	forget(key int32)
	// idle reports whether key decides at now as a never-seen key would.
	idle(key int32, now time.Duration) bool
}

func (d *dense[S]) forget(key int32) {
	d.forgetNear(key)
	var zero S
	d.states[key] = zero
}

func (d *dense[S]) idle(key int32, now time.Duration) bool { return d.alg.Idle(&d.states[key], now) }

// boundedKeys bounds a limit's table to size keys (LaneOptions.Keys), the least
// recently used last, and meets a new key in a full table as full says. A key
// not in the table has a never-seen state (an evicted key is forgotten).
type boundedKeys struct {
	inner forgettable
	limit int64 // the policy's limit, for the refusals of a full table
	full  TableFull
	size  int
	count int
	// in, prev and next hold the table's keys as a list, most recently used
	// first: head, and least recently used last: tail (-1 when empty).
	in         []bool
	prev, next []int32
	head, tail int32
	stats      KeyTableStats
}

// KeyTableStats is what a bounded key table did over a run (LaneOptions.Keys).
type KeyTableStats struct {
	Limit     string // the limit whose table it is
	Size      int    // its size, in keys
	Evicted   int64  // keys evicted to make room for a new one
	Refused   int64  // requests refused because the table was full
	Untracked int64  // requests let through untracked because it was full (TableAdmit)
}

func newBoundedKeys(inner forgettable, p algorithms.Policy, o LaneOptions, keys int) *boundedKeys {
	k := &boundedKeys{inner: inner, limit: p.Limit, full: o.WhenFull, size: o.Keys, head: -1, tail: -1,
		in: make([]bool, keys), prev: make([]int32, keys), next: make([]int32, keys)}
	k.stats.Size = o.Keys
	return k
}

// room makes key a member of the table if it can, evicting as full says; it
// reports whether key is in the table, and otherwise the answer a full table
// gives. peek asks without changing anything.
func (k *boundedKeys) room(key int32, now time.Duration, peek bool) (in bool, answer algorithms.Decision) {
	if k.in[key] {
		if !peek {
			k.unlink(key)
			k.push(key)
		}
		return true, answer
	}
	evict := k.count >= k.size && (k.full == TableEvict || k.full == TableEvictIdle && k.inner.idle(k.tail, now))
	if k.count < k.size || evict {
		if !peek {
			if evict {
				k.evict()
			}
			k.push(key)
			k.count++
		}
		return true, answer
	}
	if k.full == TableAdmit {
		if !peek {
			k.stats.Untracked++
		}
		return false, algorithms.Decision{Verdict: algorithms.Admit, Limit: k.limit}
	}
	if !peek {
		k.stats.Refused++
	}
	return false, algorithms.Decision{Verdict: algorithms.Refuse, Limit: k.limit}
}

func (k *boundedKeys) decide(key int32, now time.Duration, cost int64) algorithms.Decision {
	if in, d := k.room(key, now, false); !in {
		return d
	}
	return k.inner.decide(key, now, cost)
}

func (k *boundedKeys) peek(key int32, now time.Duration, cost int64) algorithms.Decision {
	if in, d := k.room(key, now, true); !in {
		return d
	}
	return k.inner.peek(key, now, cost)
}

// evict forgets the least recently used key.
func (k *boundedKeys) evict() {
	old := k.tail
	k.unlink(old)
	k.in[old] = false
	k.inner.forget(old)
	k.count--
	k.stats.Evicted++
}

// push puts key first.
func (k *boundedKeys) push(key int32) {
	k.in[key] = true
	k.prev[key], k.next[key] = -1, k.head
	if k.head >= 0 {
		k.prev[k.head] = key
	}
	k.head = key
	if k.tail < 0 {
		k.tail = key
	}
}

// unlink takes key out of the list (its membership stays as it is).
func (k *boundedKeys) unlink(key int32) {
	p, n := k.prev[key], k.next[key]
	if p >= 0 {
		k.next[p] = n
	} else {
		k.head = n
	}
	if n >= 0 {
		k.prev[n] = p
	} else {
		k.tail = p
	}
}
