package replay

import (
	"fmt"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// tabled is keyed with the states in a sim.KeyTable and each live key's rate
// beside them in a flat slice, both by key id: the reader's ids are small and
// dense (a retired key's id is given to the next new key), so a lane needs
// neither a map nor a box per key. It decides and measures exactly as keyed
// (TestTabledAsBoxed), which Options.boxed keeps reachable for that test.
type tabled struct {
	table sim.KeyTable
	rates []keyRate // by key id
	seen  []bool    // by key id: decided since its last retirement
	n     int       // live keys
}

func newTabled(rule sim.KeyRule) (*tabled, error) {
	t, err := sim.NewKeyTable(rule)
	if err != nil {
		return nil, err
	}
	return &tabled{table: t}, nil
}

func (t *tabled) decide(key int32, now time.Duration) (algorithms.Verdict, *keyRate) {
	if need := int(key) + 1; need > len(t.seen) {
		t.rates = append(t.rates, make([]keyRate, need-len(t.rates))...)
		t.seen = append(t.seen, make([]bool, need-len(t.seen))...)
	}
	if !t.seen[key] {
		t.seen[key] = true
		t.n++
	}
	return t.table.Verdict(key, now, 1), &t.rates[key]
}

func (t *tabled) retire(key int32, now time.Duration) (keyRate, bool) {
	if int(key) >= len(t.seen) || !t.seen[key] {
		return keyRate{}, false
	}
	if !t.table.Idle(key, now) {
		panic(fmt.Sprintf("replay: tabled.retire: key %d retired at %v before its state is idle", key, now))
	}
	r := t.rates[key]
	t.rates[key], t.seen[key] = keyRate{}, false
	t.n--
	t.table.Forget(key)
	return r, true
}

func (t *tabled) each(f func(key int32, r *keyRate)) {
	for key, seen := range t.seen {
		if seen {
			f(int32(key), &t.rates[key])
		}
	}
}

func (t *tabled) live() int { return t.n }
