package algorithms

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// ThrottleConfig configures client-side adaptive throttling. Zero fields take
// the defaults of the Google SRE book.
type ThrottleConfig struct {
	K       float64       // accepts multiplier, ≥ 1; 0 means 2
	Period  time.Duration // trailing history; 0 means 2 minutes
	Buckets int           // time buckets the period is counted in; 0 means 24
}

// Throttle is client-side adaptive throttling, as in the Google SRE book
// ("Handling Overload"): each client counts, over a trailing period, the requests
// it attempted and the requests the backend accepted, and drops a new request
// locally, before sending it, with probability
//
//	p = max(0, (requests − K×accepts) / (requests + 1))
//
// A request is counted when its answer is known, as gRPC's adaptive throttler
// does (grpc-go balancer/rls/internal/adaptive: ShouldThrottle counts only the
// requests it drops, RegisterBackendResponse counts the rest): requests = accepts
// + refused or shed answers + local drops, and a request still in flight is
// neither. So a burst sent before any answer came back is never judged against
// itself. A backend that keeps refusing pushes p towards 1 while one that accepts
// lets p fall back to 0. It sits in front of a server-side limit.
//
// Counts are kept in Buckets time buckets of Period/Buckets each, aligned to t=0;
// the trailing period at now is the bucket now falls in plus the Buckets−1 before
// it. So history ages out a bucket at a time: the window is between
// Period − Period/Buckets and Period long. Counts are int32 and saturate.
//
// Throttle is the immutable rule, safe for concurrent use; each client holds a
// ThrottleState, which belongs to one goroutine. The random draw is passed in, so
// the caller controls the seed. A now earlier than the newest bucket counted is
// counted, and judged, in that bucket.
type Throttle struct {
	k       float64
	width   time.Duration // Period / Buckets
	buckets int64
}

// ThrottleState is one client's history: 48 bytes, plus Buckets×8 bytes allocated
// on its first request. The zero value is a client with no history, which never drops.
type ThrottleState struct {
	newest   int64           // index of the newest bucket counted: now / width
	counts   []throttleCount // ring of Buckets counts, indexed by bucket mod Buckets
	requests int64           // the sums of counts, so that the usual case,
	accepts  int64           // now still in the newest bucket, reads no ring
}

type throttleCount struct{ requests, accepts int32 }

// NewThrottle returns a throttling rule for cfg, or every problem with cfg.
func NewThrottle(cfg ThrottleConfig) (*Throttle, error) {
	if cfg.K == 0 {
		cfg.K = 2
	}
	if cfg.Period == 0 {
		cfg.Period = 2 * time.Minute
	}
	if cfg.Buckets == 0 {
		cfg.Buckets = 24
	}
	var errs []error
	if !(cfg.K >= 1) || math.IsInf(cfg.K, 0) {
		errs = append(errs, fmt.Errorf("k must be finite and at least 1, got %v", cfg.K))
	}
	if cfg.Period <= 0 {
		errs = append(errs, fmt.Errorf("period must be positive, got %v", cfg.Period))
	}
	if cfg.Buckets <= 0 {
		errs = append(errs, fmt.Errorf("buckets must be positive, got %d", cfg.Buckets))
	}
	if cfg.Period > 0 && cfg.Buckets > 0 && cfg.Period%time.Duration(cfg.Buckets) != 0 {
		errs = append(errs, fmt.Errorf("period %v must split into %d whole-nanosecond buckets", cfg.Period, cfg.Buckets))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("throttle: %w", err)
	}
	return &Throttle{k: cfg.K, width: cfg.Period / time.Duration(cfg.Buckets), buckets: int64(cfg.Buckets)}, nil
}

// Allow decides whether the client sends a request at now, given a uniform random
// draw u in [0, 1): it drops the request when u < DropProbability(s, now). A
// dropped request is answered at once (locally) and counted; a sent one is
// counted by Answered when its answer comes back.
func (th *Throttle) Allow(s *ThrottleState, now time.Duration, u float64) bool {
	allowed, _ := th.Decide(s, now, u)
	return allowed
}

// Decide is Allow, with the drop probability it decided on.
func (th *Throttle) Decide(s *ThrottleState, now time.Duration, u float64) (allowed bool, drop float64) {
	drop = th.DropProbability(s, now)
	if u >= drop {
		return true, drop
	}
	th.count(s, now, false)
	return false, drop
}

// Answered records the backend's answer, at now, to a request Allow let through:
// accepted, or refused (429) or shed (503). Either way it counts a request.
func (th *Throttle) Answered(s *ThrottleState, now time.Duration, accepted bool) {
	th.count(s, now, accepted)
}

// count counts a request at now, and an accept if accepted, in now's bucket and
// in the sums. A bucket's counts stop at 2^31−1.
func (th *Throttle) count(s *ThrottleState, now time.Duration, accepted bool) {
	c := th.at(s, now)
	if c.requests < math.MaxInt32 {
		c.requests++
		s.requests++
	}
	if accepted && c.accepts < math.MaxInt32 {
		c.accepts++
		s.accepts++
	}
}

// DropProbability is max(0, (requests − K×accepts)/(requests+1)) over the
// trailing period at now. It changes nothing.
func (th *Throttle) DropProbability(s *ThrottleState, now time.Duration) float64 {
	requests, accepts := th.totals(s, now)
	p := (float64(requests) - th.k*float64(accepts)) / float64(requests+1)
	return max(p, 0)
}

// totals sums the buckets in the trailing period at now: the sums of the ring,
// less its buckets that have aged out by now (none while now is in the newest).
func (th *Throttle) totals(s *ThrottleState, now time.Duration) (requests, accepts int64) {
	requests, accepts = s.requests, s.accepts
	if s.counts == nil || th.inNewest(s, now) {
		return requests, accepts
	}
	b := int64(now / th.width)
	for gone := max(s.newest-th.buckets+1, 0); gone <= min(b-th.buckets, s.newest); gone++ {
		c := s.counts[gone%th.buckets]
		requests -= int64(c.requests)
		accepts -= int64(c.accepts)
	}
	return requests, accepts
}

// at rolls s forward to now's bucket, clearing the buckets that aged out, and
// returns that bucket's counts.
func (th *Throttle) at(s *ThrottleState, now time.Duration) *throttleCount {
	if s.counts != nil && th.inNewest(s, now) {
		return &s.counts[s.newest%th.buckets]
	}
	b := int64(now / th.width)
	if s.counts == nil {
		s.counts = make([]throttleCount, th.buckets)
		s.newest = b
	}
	if b > s.newest {
		for i := max(s.newest+1, b-th.buckets+1); i <= b; i++ {
			c := &s.counts[i%th.buckets]
			s.requests -= int64(c.requests)
			s.accepts -= int64(c.accepts)
			*c = throttleCount{}
		}
		s.newest = b
	}
	return &s.counts[s.newest%th.buckets]
}

// inNewest reports whether now's bucket is s's newest or an older one:
// now/width ≤ newest, found without a division.
func (th *Throttle) inNewest(s *ThrottleState, now time.Duration) bool {
	return now < time.Duration(s.newest+1)*th.width
}
