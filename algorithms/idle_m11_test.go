package algorithms

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// Every rule's Idle keeps its promise: a never-seen state is idle at any
// instant, a state that has just admitted is not, and a state found idle
// decides from then on as a never-seen one (from each instant it is found
// idle, the two fed the same requests, every decision compared), over random
// traffic with pauses longer than the windows.
func TestIdleStatesDecideAsNeverSeen(t *testing.T) {
	for _, r := range costRules(t) {
		v := reflect.ValueOf(r)
		name := v.Type().Elem().Name()
		decide, idle := v.MethodByName("Decide"), v.MethodByName("Idle")
		if !idle.IsValid() {
			continue
		}
		state := decide.Type().In(0).Elem()
		call := func(m reflect.Value, s reflect.Value, now time.Duration, cost ...int64) reflect.Value {
			args := []reflect.Value{s, reflect.ValueOf(now)}
			if len(cost) > 0 {
				args = append(args, reflect.ValueOf(cost[0]))
			}
			return m.Call(args)[0]
		}
		for _, now := range []time.Duration{0, time.Second, time.Hour} {
			if !call(idle, reflect.New(state), now).Bool() {
				t.Errorf("%s: a never-seen state is not idle at %v", name, now)
			}
		}
		rng := rand.New(rand.NewPCG(5, uint64(len(name))))
		s := reflect.New(state)
		if call(decide, s, 0, 1).Interface().(Decision).Verdict == Admit && call(idle, s, 0).Bool() {
			t.Errorf("%s: idle at once after an admission", name)
		}
		var fresh reflect.Value // the never-seen state started where s was last found idle
		now, compared := time.Duration(0), 0
		for i := range 400 {
			switch gap := rng.IntN(40); {
			case gap == 0:
				now += 70 * time.Second
			case gap < 4:
				now += 2 * time.Second
			default:
				now += time.Duration(rng.IntN(300)) * time.Millisecond
			}
			if i > 5 && call(idle, s, now).Bool() {
				fresh = reflect.New(state) // from each idle instant, as a never-seen state
			}
			cost := int64(1 + rng.IntN(3))
			d := call(decide, s, now, cost).Interface().(Decision)
			if fresh.IsValid() {
				if want := call(decide, fresh, now, cost).Interface().(Decision); d != want {
					t.Errorf("%s: at %v, %d requests after it was idle, %+v; a never-seen key %+v", name, now, compared, d, want)
					break
				}
				compared++
			}
		}
		if !fresh.IsValid() {
			t.Logf("%s: never idle in the traffic", name)
		}
	}
}
