package replay

import (
	"fmt"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// LaneNames are the per-key lanes a log can replay through, in table order, by
// their scenario-file names: the registry's textbook rate-limiter lanes. AIMD
// and client throttling need a backend and clients that react, which a log
// does not have. The product lanes (ProductLanes) replay too, when named:
// they read only the policies their product can say, and a key whose product
// state is not idle at retirement is kept by name (placedLimit).
var LaneNames = textbookLanes()

// DefaultLanes are the lanes a replay runs when none is named: LaneNames.
var DefaultLanes = LaneNames

func textbookLanes() []string {
	var names []string
	for _, name := range sim.LanesOf(sim.RateLimiter) {
		if k, _ := sim.ParseLane(name); k.Info().Product == "" {
			names = append(names, name)
		}
	}
	return names
}

// decider decides one limit's requests by key id and measures each live key's
// rate beside its state, holding both only until the reader retires the key.
type decider interface {
	decide(key int32, now time.Duration) (algorithms.Verdict, *keyRate)
	// retire forgets key and returns its rate record; it panics if the key's
	// state would not decide as a never-seen key's would at now.
	retire(key int32, now time.Duration) (keyRate, bool)
	each(f func(key int32, r *keyRate))
	live() int
}

// keyed is algorithms.Keyed on key ids, which hash faster than the key strings:
// a key's state is created on its first request and removed when the reader
// retires the key, by which time the algorithm's Idle says it decides exactly as
// a never-seen key would.
type keyed struct {
	rule   sim.KeyRule
	states map[int32]*keyEntry
}

type keyEntry struct {
	state sim.KeyState
	rate  keyRate
}

func (k keyed) decide(key int32, now time.Duration) (algorithms.Verdict, *keyRate) {
	e, ok := k.states[key]
	if !ok {
		e = &keyEntry{state: k.rule.NewState()}
		k.states[key] = e
	}
	return e.state.Decide(now, 1).Verdict, &e.rate
}

func (k keyed) retire(key int32, now time.Duration) (keyRate, bool) {
	e, ok := k.states[key]
	if !ok {
		return keyRate{}, false
	}
	if !e.state.Idle(now) {
		panic(fmt.Sprintf("replay: keyed.retire: key %d retired at %v before its state is idle", key, now))
	}
	delete(k.states, key)
	return e.rate, true
}

func (k keyed) each(f func(key int32, r *keyRate)) {
	for key, e := range k.states {
		f(key, &e.rate)
	}
}

func (k keyed) live() int { return len(k.states) }

// retireAfter is how long after a key's last request every lane's state for it
// is idle under p, and its last rate window closed: two windows (the sliding
// window counter's previous count), plus the time to drain or refill a burst
// and one more emission interval (leaky bucket, token bucket, GCRA), rounded up.
func retireAfter(p algorithms.Policy) time.Duration {
	interval := (p.Window + time.Duration(p.Limit) - 1) / time.Duration(p.Limit)
	if p.Burst+2 > (1<<61)/int64(interval) {
		return 1 << 61 // longer than any log
	}
	return 2*p.Window + time.Duration(p.Burst+2)*interval
}

// newDecider builds lane's limiter for p: the registry's per-key algorithm of
// the rate-limiter lane named lane, its states in a key table (tabled).
func newDecider(lane string, p algorithms.Policy) (decider, error) {
	rule, err := perKeyRule(lane, p)
	if err != nil {
		return nil, err
	}
	return newTabled(rule)
}

// newBoxed is newDecider with a boxed state per key in a map (keyed): the
// general path tabled is held to (Options.boxed).
func newBoxed(lane string, p algorithms.Policy) (decider, error) {
	rule, err := perKeyRule(lane, p)
	if err != nil {
		return nil, err
	}
	return keyed{rule: rule, states: map[int32]*keyEntry{}}, nil
}

func perKeyRule(lane string, p algorithms.Policy) (sim.KeyRule, error) {
	kind, ok := sim.ParseLane(lane)
	if !ok || kind.Info().Class != sim.RateLimiter {
		return nil, fmt.Errorf("unknown lane %q (want one of %v)", lane, LaneNames)
	}
	return kind.PerKey(p)
}
