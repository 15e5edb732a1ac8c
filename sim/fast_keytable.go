package sim

import (
	"errors"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// KeyTable holds a rate-limiter lane's per-key states by small key index, in
// one flat slice of the algorithm's own state type: no box and no map entry
// per key, one call per decision. It decides exactly as a KeyState per key
// from the rule it was made from (held by TestKeyTableDecidesAsKeyStates).
// An index is a non-negative int32 the caller keeps small and dense (replay's
// key ids, reused once freed); the table grows to the largest index decided.
// A key never decided, or forgotten, is a never-seen key. Not safe for
// concurrent use.
type KeyTable interface {
	// Decide is the algorithm's Decide on key's state.
	Decide(key int32, now time.Duration, cost int64) algorithms.Decision
	// Verdict is Decide's verdict alone, the state left as Decide leaves it:
	// from the algorithm's Answer or Admit where it has one (no Decision built
	// when they settle it), else from Decide.
	Verdict(key int32, now time.Duration, cost int64) algorithms.Verdict
	// Idle reports whether key's state decides at now exactly as a never-seen key's.
	Idle(key int32, now time.Duration) bool
	// Forget makes key a never-seen key again, its state's memory dropped.
	Forget(key int32)
}

// errNoTable is a rule not made by the registry (PerKey, LaneRule).
var errNoTable = errors.New("sim.NewKeyTable: the rule is not a registry lane's per-key algorithm")

// NewKeyTable is an empty table of rule r's states. It fails for a rule that
// did not come from PerKey (a product's rule, a caller's own).
func NewKeyTable(r KeyRule) (KeyTable, error) {
	t, ok := r.(interface{ newTable() KeyTable })
	if !ok {
		return nil, errNoTable
	}
	return t.newTable(), nil
}

func (r boundRule[S]) newTable() KeyTable {
	t := &flatTable[S]{alg: r.alg}
	t.answer, _ = r.alg.(algorithms.Answerer[S])
	t.admit, _ = r.alg.(algorithms.Admitter[S])
	return t
}

// flatTable is KeyTable over states of type S, by index.
type flatTable[S any] struct {
	alg    algorithms.Algorithm[S]
	answer algorithms.Answerer[S] // nil if the algorithm has no Answer
	admit  algorithms.Admitter[S] // nil if it has no Admit
	states []S
}

// state is key's state, the slice grown to hold it.
func (t *flatTable[S]) state(key int32) *S {
	if need := int(key) + 1; need > len(t.states) {
		t.states = append(t.states, make([]S, need-len(t.states))...)
	}
	return &t.states[key]
}

func (t *flatTable[S]) Decide(key int32, now time.Duration, cost int64) algorithms.Decision {
	return t.alg.Decide(t.state(key), now, cost)
}

func (t *flatTable[S]) Verdict(key int32, now time.Duration, cost int64) algorithms.Verdict {
	s := t.state(key)
	switch {
	case t.answer != nil:
		if _, admitted, refused := t.answer.Answer(s, now, cost); admitted {
			return algorithms.Admit
		} else if refused {
			return algorithms.Refuse
		}
	case t.admit != nil:
		if t.admit.Admit(s, now, cost) {
			return algorithms.Admit
		}
	}
	return t.alg.Decide(s, now, cost).Verdict
}

func (t *flatTable[S]) Idle(key int32, now time.Duration) bool {
	if int(key) >= len(t.states) {
		var never S
		return t.alg.Idle(&never, now)
	}
	return t.alg.Idle(&t.states[key], now)
}

func (t *flatTable[S]) Forget(key int32) {
	if int(key) < len(t.states) {
		var never S
		t.states[key] = never
	}
}
