package sim

import (
	"time"

	"github.com/rlsim/rlsim/sim/engine"
)

// What a study built on sim's engine outside this package (package contention)
// shares with the lanes: the seeded streams, the backoff convention, saturating
// time and the event queue.

// Stream is a seeded random stream, the same SplitMix64 streams sim's clients
// draw from: derive one per client and purpose with NewStream so that the kinds
// a study compares draw the same numbers (common random numbers). The zero value
// is a valid stream. Not safe for concurrent use.
type Stream struct{ s engine.Stream }

// NewStream derives an independent stream from a seed and labels.
func NewStream(seed uint64, labels ...uint64) Stream {
	return Stream{engine.NewStream(seed, labels...)}
}

// AbsNormal draws |Normal(mean, sd)|, rounded to the nanosecond.
func (s *Stream) AbsNormal(mean, sd time.Duration) time.Duration { return s.s.AbsNormal(mean, sd) }

// Backoff is the sleep before retry number n of r, an exponential policy, given
// the previous sleep (zero before the first retry), drawing its jitter from s:
// rlsim's one backoff convention, the one clients follow in a Simulation.
func (r Retry) Backoff(n int, previous time.Duration, s *Stream) time.Duration {
	return backoff(r, n, previous, &s.s)
}

// Later is now+d, saturated at the largest Duration instead of wrapping around.
func Later(now, d time.Duration) time.Duration { return later(now, d) }

// Queue is sim's event queue for a study outside sim: events carry two int32s
// (say, a client and a step) and come out in time order, ties in the order they
// were scheduled, so runs are reproducible. The zero value is an empty queue at
// time 0. Not safe for concurrent use.
type Queue struct{ e eventQueue }

// Reset empties the queue and sets its clock back to 0, keeping its memory.
func (q *Queue) Reset() { q.e.Reset() }

// Now is the virtual time of the latest event popped.
func (q *Queue) Now() time.Duration { return q.e.Now() }

// Schedule adds an event at virtual time at, which must not be before Now.
func (q *Queue) Schedule(at time.Duration, a, b int32) { q.e.Schedule(at, evStudy, a, b) }

// Pending is the number of scheduled events.
func (q *Queue) Pending() int { return q.e.Pending() }

// Pop removes the earliest event, advances the clock to it and returns its two values.
func (q *Queue) Pop() (a, b int32) {
	ev := q.e.Pop()
	return ev.A, ev.B
}

// Labels of the random streams, so each purpose draws independently.
const (
	labelArrival = iota + 1
	labelRetry
	labelDrop
	labelService
	labelProbe
	labelRTT
)
