package algorithms

import (
	"fmt"
	"time"
)

// LeakyBucket is a queue in front of an outlet, with the semantics of nginx's
// limit_req with burst= (and without nodelay): the outlet releases one unit of
// cost every T = Window/Limit, and up to Burst (Policy.EffectiveBurst) units may
// wait for it. It shapes traffic instead of refusing a burst: a request is
// admitted late, at its release slot.
//
// The state is the next free outlet slot, nextFree, kept exactly (whole ns plus a
// remainder in units of 1/L' ns, as GCRA's TAT). A request of cost units at now
// is released at r = max(now, nextFree) after delay = r − now. It is admitted iff
//
//	delay + (cost−1)×T ≤ Burst×T
//
// with verdict Admit if delay is 0 and Delay, Decision.Delay = ⌈delay⌉ ns,
// otherwise; then nextFree = r + cost×T. Otherwise it is refused and nothing
// changes. A request of cost c occupies the outlet for c slots, so the condition
// says its last unit leaves within Burst×T: at most Burst units are ever waiting
// (released later than now), and when the queue is empty a request of up to
// Burst+1 units is admitted (one leaves now, Burst wait), as nginx admits burst+1
// simultaneous requests.
//
// Releases are cost×T apart exactly; rounded up to whole nanoseconds, releases i
// and j > i with costs c_i … c_{j−1} in between satisfy
// r_j − r_i > (c_i + … + c_{j−1})×T − 1ns.
//
// RetryAfter is exact: ⌈delay − (Burst−cost+1)×T⌉, the time until the condition
// holds if nothing else arrives. Never when cost > Burst+1. Remaining is the
// largest cost that would be admitted right after this decision; Reset is the
// time until the queue is empty.
//
// Memory is 16 bytes per key. Times are nanoseconds since the start. A now
// earlier than a previous call only sees nextFree further away, so it is never
// admitted more. The rule is immutable and safe for concurrent use; each
// LeakyBucketState belongs to one goroutine.
type LeakyBucket struct {
	pace
	limit int64
	burst int64
	depth int64 // (burst+1)×W': (Burst+1)×T in units of 1/L' ns
}

// LeakyBucketState is one key's next free outlet slot: 16 bytes. The zero value
// is a never-seen key with an empty queue.
type LeakyBucketState struct {
	nextFree exactDur
}

// NewLeakyBucket returns a leaky-bucket (queue) rule for p, or every problem with p.
func NewLeakyBucket(p Policy) (*LeakyBucket, error) {
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("leaky bucket: %w", err)
	}
	lb := &LeakyBucket{pace: newPace(p.Limit, p.Window), limit: p.Limit, burst: p.EffectiveBurst()}
	if err := lb.checkScale("burst", lb.burst, 2); err != nil {
		return nil, fmt.Errorf("leaky bucket: %w", err)
	}
	lb.depth = (lb.burst + 1) * lb.span
	return lb, nil
}

// Decide admits (now or late) or refuses a request of cost units (cost ≥ 1) at now.
func (lb *LeakyBucket) Decide(s *LeakyBucketState, now time.Duration, cost int64) Decision {
	if cost < 1 {
		badCost("LeakyBucket.Decide", cost)
	}
	t := at(now)
	delay := lb.sub(maxExact(s.nextFree, t), t)
	d := Decision{Limit: lb.limit, RetryAfterExact: true}
	switch {
	case cost > lb.burst+1:
		d.Verdict, d.RetryAfter = Refuse, Never
		return lb.queued(d, delay)
	case lb.fromUnits(lb.depth - cost*lb.span).less(delay):
		d.Verdict = Refuse
		d.RetryAfter = lb.sub(delay, lb.fromUnits(lb.depth-cost*lb.span)).ceil()
		return lb.queued(d, delay)
	}
	if d.Delay = delay.ceil(); d.Delay > 0 {
		d.Verdict = Delay
	}
	queue := lb.add(delay, lb.interval(cost))
	s.nextFree = lb.add(t, queue)
	return lb.queued(d, queue)
}

// Queue is Decide's verdict and delay alone, for callers that need no answer
// (no headers, no trace): when Decide would admit the request, now or late, it
// returns true and Decide's Delay and leaves s as Decide would; otherwise it
// returns false and changes nothing (property_test.go: QueueIsDecidesDelay).
func (lb *LeakyBucket) Queue(s *LeakyBucketState, now time.Duration, cost int64) (delay time.Duration, ok bool) {
	if cost < 1 {
		badCost("LeakyBucket.Queue", cost)
	}
	if cost > lb.burst+1 {
		return 0, false
	}
	t := at(now)
	wait := lb.sub(maxExact(s.nextFree, t), t)
	if lb.fromUnits(lb.depth - cost*lb.span).less(wait) {
		return 0, false
	}
	s.nextFree = lb.add(t, lb.add(wait, lb.interval(cost)))
	return wait.ceil(), true
}

// Idle reports whether the queue has drained by now.
func (lb *LeakyBucket) Idle(s *LeakyBucketState, now time.Duration) bool {
	return !at(now).less(s.nextFree)
}

// queued fills Remaining and Reset from queue = nextFree − now.
func (lb *LeakyBucket) queued(d Decision, queue exactDur) Decision {
	if !lb.fromUnits(lb.depth).less(queue) {
		d.Remaining = lb.bySpan.div(lb.depth - lb.toUnits(queue))
	}
	d.Reset = queue.ceil()
	return d
}
