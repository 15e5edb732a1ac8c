package sim

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// TestKeyTableDecidesAsKeyStates holds a KeyTable to the rule it comes from:
// on random requests over a few keys (costs up to 3, times that tie, jump and
// stay put), with keys forgotten once idle as replay retires them, every
// per-key lane's table gives each key the Decision a KeyState of its own
// gives (or, asked for the Verdict alone, its verdict, leaving the state in
// step), and says it is idle exactly when that state does.
func TestKeyTableDecidesAsKeyStates(t *testing.T) {
	for _, name := range LanesOf(RateLimiter) {
		kind, _ := ParseLane(name)
		for seed := range uint64(40) {
			rng := rand.New(rand.NewPCG(seed, 9))
			p := algorithms.Policy{Limit: 1 + rng.Int64N(5), Window: time.Duration(1+rng.IntN(4)) * time.Second, Burst: 1 + rng.Int64N(6)}
			rule, err := kind.PerKey(p)
			if err != nil {
				continue // a product that cannot say this policy
			}
			table, err := NewKeyTable(rule)
			if err != nil {
				t.Fatalf("%s: NewKeyTable: %v", name, err)
			}
			t.Run(fmt.Sprintf("%s/%d", name, seed), func(t *testing.T) {
				keyTableAgrees(t, rng, rule, table)
			})
		}
	}
}

func keyTableAgrees(t *testing.T, rng *rand.Rand, rule KeyRule, table KeyTable) {
	const keys = 5
	states := make([]KeyState, keys)
	var now time.Duration
	for i := range 600 {
		switch r := rng.IntN(10); {
		case r < 4: // the same instant
		case r < 9:
			now += time.Duration(rng.IntN(700)) * time.Millisecond
		default:
			now += time.Duration(rng.IntN(20)) * time.Second
		}
		key := int32(rng.IntN(keys))
		if states[key] == nil {
			states[key] = rule.NewState()
		}
		cost := 1 + rng.Int64N(3)
		want := states[key].Decide(now, cost)
		if rng.IntN(2) == 0 { // the verdict alone must leave the state as Decide does: later Decides see it
			if got := table.Verdict(key, now, cost); got != want.Verdict {
				t.Fatalf("request %d: Verdict(key %d, %v, %d) = %v, want %v", i, key, now, cost, got, want.Verdict)
			}
		} else if got := table.Decide(key, now, cost); got != want {
			t.Fatalf("request %d: Decide(key %d, %v, %d) = %+v, want %+v", i, key, now, cost, got, want)
		}
		other := int32(rng.IntN(keys))
		idle := states[other] == nil || states[other].Idle(now)
		if got := table.Idle(other, now); got != idle {
			t.Fatalf("request %d: Idle(key %d, %v) = %v, want %v", i, other, now, got, idle)
		}
		if idle && rng.IntN(2) == 0 {
			table.Forget(other)
			states[other] = nil
			if !forgotten(table, other) {
				t.Fatalf("request %d: Forget(key %d) kept its state (its memory)", i, other)
			}
		}
	}
}

// forgotten reports whether key's state in table is a never-seen key's zero
// state (Forget drops a sliding log's ring with it).
func forgotten(table KeyTable, key int32) bool {
	v := reflect.ValueOf(table).Elem().FieldByName("states")
	return int(key) >= v.Len() || v.Index(int(key)).IsZero()
}

// TestNewKeyTableRefusesForeignRules: a rule the registry did not make has
// no table.
func TestNewKeyTableRefusesForeignRules(t *testing.T) {
	if _, err := NewKeyTable(foreignRule{}); err == nil {
		t.Error("NewKeyTable(a caller's own rule) = nil error")
	}
}

type foreignRule struct{}

func (foreignRule) NewState() KeyState { return nil }
