package sim

import (
	"time"
)

// clientState is what every client of this lane remembers: 16 B. What only
// some clients need (an arrival stream, retry draws, a pause) lives in the
// lane's slices beside it, allocated only when some group needs it.
type clientState struct {
	requests  int64 // requests started so far
	succeeded int32 // requests that succeeded
}

// request is one unique piece of work and its retries.
type request struct {
	client    int32
	attempt   int32
	num       int64
	cost      int64
	prevSleep time.Duration
	// raDue is the instant a Retry-After pointed to, -1 if none; while a
	// failed answer is on its way back to the client (evHear) it holds that
	// answer's Retry-After instead, and, with a client timeout
	// (ClientGroup.Timeout), from the attempt until its answer, when the
	// attempt was sent.
	raDue   time.Duration
	entered time.Duration // when it entered the backend
	started time.Duration // when its first attempt was made (sent, with a round trip)
	service time.Duration // the service time of its latest attempt the backend took
	places  uint64        // bit i: it holds a place of concurrency limit i of the chain (lane_concurrency.go)
	// With a client timeout (ClientGroup.Timeout): gen changes whenever the
	// client sends an attempt or hears an answer of this slot, and when the
	// slot is freed, so that a timeout event finds the attempt still
	// unanswered only if gen is its own. timedOut marks an attempt its client
	// gave up (its retry went on in a slot of its own), late one the service
	// finished, answered too late, before the client gave it up.
	gen int32
	// heardStatus is the status of the failed answer on its way back to the
	// client (evHear), with a round trip: an HTTP status, 0 to 599.
	heardStatus    int16
	timedOut, late bool
}

// requests is a pool of live requests addressed by index, reusing freed slots.
type requests struct {
	all  []request
	free []int32
}

func (p *requests) get() int32 {
	if n := len(p.free); n > 0 {
		i := p.free[n-1]
		p.free = p.free[:n-1]
		return i
	}
	p.all = append(p.all, request{})
	return int32(len(p.all) - 1)
}

func (p *requests) put(i int32) {
	p.all[i].gen++
	p.free = append(p.free, i)
}
