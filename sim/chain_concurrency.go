package sim

import (
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// concTable is a concurrency limit of the chain (Limit.Concurrency): per key,
// how many requests are in flight, at most n. decide takes a place if one is
// free and refuses otherwise; release gives a place back. The cost of a
// request does not count: a place is a request, as Stripe's concurrent
// requests limiter, nginx limit_conn and HAProxy maxconn count them.
type concTable struct {
	n        int64
	inFlight []int64
	// took is the key whose place the last decide took, or -1: the lane
	// reads it (lane_concurrency.go) to know the request holds a place.
	took int32
	// most is the most in flight of any key at any instant.
	most int64
}

func newConcTable(n int64, keys int) *concTable {
	return &concTable{n: n, inFlight: make([]int64, keys), took: -1}
}

func (t *concTable) decide(key int32, now time.Duration, cost int64) algorithms.Decision {
	d := t.peek(key, now, cost)
	if d.Verdict == algorithms.Admit {
		t.inFlight[key]++
		t.most = max(t.most, t.inFlight[key])
		t.took = key
		d.Remaining--
	}
	return d
}

// peek is decide's answer, taking no place: a refusal carries no Retry-After
// (when a place frees is not known), Remaining the places left before this one.
func (t *concTable) peek(key int32, _ time.Duration, _ int64) algorithms.Decision {
	left := t.n - t.inFlight[key]
	if left <= 0 {
		return algorithms.Decision{Verdict: algorithms.Refuse, Limit: t.n}
	}
	return algorithms.Decision{Verdict: algorithms.Admit, Limit: t.n, Remaining: left}
}

// release gives back a place of key.
func (t *concTable) release(key int32) {
	if t.inFlight[key] <= 0 {
		panic("sim: concTable.release: no request of the key is in flight")
	}
	t.inFlight[key]--
}
