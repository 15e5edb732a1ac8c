package algorithms

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// chargeCase runs one limiter over traffic, charging every request, and checks
// the two properties of Charge: what Decide admits, Charge leaves alike; and a
// state charged past its limit admits no more, from then on, than a state that
// had the same requests admitted up to its limit and was then left alone
// (it is in debt at least as deep).
func chargeCase[S any, A interface {
	Algorithm[S]
	Charging[S]
}](t *testing.T, name string, alg A, reqs []request) {
	var charged, decided S
	for i, q := range reqs {
		before := Peek[S](alg, &charged, q.at, q.cost)
		var copyOf S
		copyState(&copyOf, &charged)
		alg.Charge(&charged, q.at, q.cost)
		if before.Verdict == Admit {
			alg.Decide(&copyOf, q.at, q.cost)
			if !reflect.DeepEqual(comparable(copyOf), comparable(charged)) {
				t.Fatalf("%s: request %d (%v, cost %d) fits, and Charge left %+v, Decide %+v", name, i, q.at, q.cost, charged, copyOf)
			}
		}
		alg.Decide(&decided, q.at, q.cost)
	}
	if len(reqs) == 0 {
		return
	}
	// From the last request on, the charged state never admits a unit request
	// the decided one refuses.
	end := reqs[len(reqs)-1].at
	for k := range 200 {
		at := end + time.Duration(k)*time.Millisecond*7
		c, d := Peek[S](alg, &charged, at, 1), Peek[S](alg, &decided, at, 1)
		if c.Admitted() && !d.Admitted() {
			t.Fatalf("%s: at %v the charged state admits, the state that admitted only what fit refuses", name, at)
		}
		if c.Remaining < 0 {
			t.Fatalf("%s: at %v Remaining %d", name, at, c.Remaining)
		}
	}
}

// copyState copies a state, deeply for a sliding log.
func copyState[S any](dst, src *S) {
	if c, ok := any(dst).(interface{ CopyFrom(*S) }); ok {
		c.CopyFrom(src)
		return
	}
	*dst = *src
}

// comparable is a state as a value DeepEqual can compare: a sliding log as its
// entries in order with their costs, whatever its ring's layout.
func comparable(s any) any {
	if sl, ok := s.(SlidingLogState); ok {
		var out [][2]int64
		for i := range sl.n {
			out = append(out, [2]int64{int64(sl.entry(i).at), int64(sl.entry(i).upto - sl.uptoBefore(i))})
		}
		return out
	}
	return s
}

func TestChargeIsDecideWhenItFitsAndADebtOtherwise(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	for i := range 300 {
		p, reqs := randomCase(r)
		name := fmt.Sprintf("case %d %+v", i, p)
		if a, err := NewFixedWindow(p); err == nil {
			chargeCase[FixedWindowState](t, name+" fixed window", a, reqs)
		}
		if a, err := NewSlidingLog(p); err == nil {
			chargeCase[SlidingLogState](t, name+" sliding log", a, reqs)
		}
		if a, err := NewSlidingWindowCounter(p); err == nil {
			chargeCase[SlidingWindowCounterState](t, name+" sliding window counter", a, reqs)
		}
		if a, err := NewTokenBucket(p); err == nil {
			chargeCase[TokenBucketState](t, name+" token bucket", a, reqs)
		}
		if a, err := NewGCRA(p); err == nil {
			chargeCase[GCRAState](t, name+" gcra", a, reqs)
		}
		if a, err := NewLeakyBucket(p); err == nil {
			chargeCase[LeakyBucketState](t, name+" leaky bucket", a, reqs)
		}
	}
}
