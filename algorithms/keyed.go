package algorithms

import "time"

// Keyed applies one rule per key (user, API key, IP, …): a map from key to that
// key's state S. A key's state is created, as S's zero value, on its first
// request, and removed by Evict once it decides exactly as a new key would, so
// eviction never changes a decision.
//
// Memory per key is the map entry (the key's string header and a pointer) plus
// one S; Decide on an existing key does not allocate. The zero Keyed is not
// usable; call NewKeyed. A Keyed is not safe for concurrent use.
type Keyed[S any] struct {
	alg    Algorithm[S]
	states map[string]*S
}

// NewKeyed returns an empty Keyed applying alg to every key.
func NewKeyed[S any](alg Algorithm[S]) *Keyed[S] {
	return &Keyed[S]{alg: alg, states: make(map[string]*S)}
}

// Decide decides a request of cost units by key at now.
func (k *Keyed[S]) Decide(key string, now time.Duration, cost int64) Decision {
	s, ok := k.states[key]
	if !ok {
		s = new(S)
		k.states[key] = s
	}
	return k.alg.Decide(s, now, cost)
}

// Evict removes every key whose state is idle at now (see Algorithm.Idle) and
// reports how many it removed. Call it with a now no earlier than any later Decide.
func (k *Keyed[S]) Evict(now time.Duration) int {
	n := 0
	for key, s := range k.states {
		if k.alg.Idle(s, now) {
			delete(k.states, key)
			n++
		}
	}
	return n
}

// Len is the number of keys held.
func (k *Keyed[S]) Len() int { return len(k.states) }
