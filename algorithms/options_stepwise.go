package algorithms

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// StepwiseBucket is a token bucket that refills in steps: it gains Limit
// tokens at once at each step, one step every Window, up to Burst
// (Policy.EffectiveBurst), instead of continuously. A request of cost units
// is admitted if the bucket holds at least cost tokens, which it then spends;
// refused requests spend nothing. A never-seen key's bucket is full. A step
// due at t is applied before a request at t. This is tokens_per_fill = Limit
// every fill_interval = Window; where the steps fall is the Align:
//
//   - AlignClock: at multiples of Window from t=0, as Envoy's local rate limit
//     timer before 1.32 (EnvoyLocal's stepwise refill, whose arithmetic this
//     is with tokens_per_fill = Limit, fill_interval = Window) and Bucket4j
//     8.19's Bandwidth.refillIntervallyAligned with timeOfFirstRefill at a
//     multiple of the period.
//   - AlignCalendar: at multiples of Window since the Unix epoch, in the wall
//     time of Epoch (t=0): each UTC minute for 1m, hour for 1h, midnight for
//     24h (Bucket4j's refillIntervallyAligned with timeOfFirstRefill on the
//     calendar boundary). With Epoch at the Unix epoch it is AlignClock.
//   - AlignFirst: at multiples of Window from the key's first request, as
//     Bucket4j 8.19's Bandwidth refillIntervally (BandwidthBuilder
//     .refillIntervally; BucketState64BitsInteger: a bucket created at t has
//     lastRefillTimeNanos = t, and refill moves it on by whole periods only,
//     "currentTimeNanos −= (currentTimeNanos − previousRefillNanos) %
//     refillPeriodNanos", whether or not the bucket is full). Bucket4j creates a
//     per-key bucket at the key's first request, so its phase is that
//     request's instant (admitted or not), and a local bucket keeps it forever: unlike
//     AlignedFixedWindow's AlignFirst, an idle key does not restart its phase.
//
// RetryAfter is exact: the time to the first step that gives the bucket cost
// tokens, ⌈(cost − tokens)/Limit⌉ steps on (Bucket4j's
// calculateDelayNanosAfterWillBePossibleToConsumeForIntervalBandwidth); a
// retry 1ns earlier is refused. Never when cost > Burst. Remaining is the
// tokens left; Reset is the time to the step at which the bucket is full.
//
// Reserve (WithWait) serves a waiting request at its turn, the step
// RetryAfter reaches: the key's state becomes the bucket at that step with
// the request's tokens taken, as the bare bucket would be had the request
// come at its turn. (Bucket4j's BlockingBucket instead takes the tokens at
// once into debt, so a refill that the cap at Burst would have cut is not cut
// and a waiting request can push past Burst at one instant; rlsim keeps the
// bound.) A request earlier than the step its key's state has reached (a
// waiting request holds that step, or time went backwards) is served at that
// step at the earliest: it is refused until then (or waits, with Wait), so
// nothing is admitted before a request already waiting, and time going
// backwards never admits more.
//
// Times are nanoseconds since the start. The rule is immutable and safe for
// concurrent use; each StepwiseBucketState belongs to one goroutine. No
// decision allocates.
type StepwiseBucket struct {
	limit  int64
	burst  int64
	window time.Duration
	align  Align
	phase  time.Duration // AlignCalendar: steps fall where (now + phase) mod window = 0
}

// StepwiseBucketState is one key's bucket: 24 bytes. The zero value is a
// never-seen key, full.
type StepwiseBucketState struct {
	missing int64         // tokens missing from a full bucket just after the step at `at`; above Burst after a Charge
	at      time.Duration // the step the state was served at
	seen    bool
}

var (
	_ Filling[StepwiseBucketState]       = (*StepwiseBucket)(nil)
	_ valuePeeker[StepwiseBucketState]   = (*StepwiseBucket)(nil)
	_ chargedPeeker[StepwiseBucketState] = (*StepwiseBucket)(nil)
	_ reservePeeker[StepwiseBucketState] = (*StepwiseBucket)(nil)
)

// NewStepwiseBucket returns a stepwise token bucket for p whose steps fall as
// align says; epoch is the wall-clock instant of t=0, read by AlignCalendar
// only. It returns every problem with them.
func NewStepwiseBucket(p Policy, align Align, epoch time.Time) (*StepwiseBucket, error) {
	var errs []error
	if err := p.Validate(); err != nil {
		errs = append(errs, err)
	}
	if align > AlignCalendar {
		errs = append(errs, fmt.Errorf("unknown alignment %v (want clock, first or calendar)", align))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("stepwise token bucket: %w", err)
	}
	b := &StepwiseBucket{limit: p.Limit, burst: p.EffectiveBurst(), window: p.Window, align: align}
	if align == AlignCalendar {
		b.phase = calendarPhase(epoch, p.Window)
	}
	return b, nil
}

// calendarPhase is epoch's wall time since the Unix epoch modulo window, in
// [0, window): t falls on a multiple of window since the Unix epoch when
// (t + phase) mod window = 0. epoch must lie in the years 1678 to 2262
// (time.Time.UnixNano).
func calendarPhase(epoch time.Time, window time.Duration) time.Duration {
	return time.Duration(floorMod(epoch.UnixNano(), int64(window)))
}

// stepOf is the last step at or before now of a key not yet served (its first step).
func (b *StepwiseBucket) stepOf(now time.Duration) time.Duration {
	if b.align == AlignFirst {
		return now
	}
	return now - time.Duration(floorMod(int64(now%b.window)+int64(b.phase), int64(b.window)))
}

// state is s at now: the tokens missing, the step the request is served at,
// and whether that step is after now (ahead).
func (b *StepwiseBucket) state(s *StepwiseBucketState, now time.Duration) (missing int64, step time.Duration, ahead bool) {
	if !s.seen {
		return 0, b.stepOf(now), false
	}
	if now < s.at {
		return s.missing, s.at, true
	}
	n := int64((now - s.at) / b.window)
	step = s.at + time.Duration(n)*b.window
	if n >= (s.missing+b.limit-1)/b.limit {
		return 0, step, false
	}
	return s.missing - n*b.limit, step, false
}

// after is the instant n steps after step, or Never if it overflows.
func (b *StepwiseBucket) after(step time.Duration, n int64) time.Duration {
	if n > (math.MaxInt64-max(int64(step), 0))/int64(b.window) {
		return Never
	}
	return step + time.Duration(n)*b.window
}

// until is the duration from now to the instant n steps after step (Never if it overflows).
func (b *StepwiseBucket) until(step time.Duration, n int64, now time.Duration) time.Duration {
	t := b.after(step, n)
	if t == Never {
		return Never
	}
	return t - now
}

// stepsFor is the steps needed for missing to fall to at most room: ⌈(missing − room)/Limit⌉, 0 if none.
func (b *StepwiseBucket) stepsFor(missing, room int64) int64 {
	if missing <= room {
		return 0
	}
	need := missing - room
	return need/b.limit + min(need%b.limit, 1)
}

// Decide admits or refuses a request of cost units (cost ≥ 1) at now.
func (b *StepwiseBucket) Decide(s *StepwiseBucketState, now time.Duration, cost int64) Decision {
	if cost < 1 {
		badCost("StepwiseBucket.Decide", cost)
	}
	missing, step, ahead := b.state(s, now)
	if !s.seen { // the key exists from its first request, admitted or not: its phase with AlignFirst
		s.at, s.seen = step, true
	}
	d := Decision{Limit: b.limit, RetryAfterExact: true}
	switch {
	case cost > b.burst:
		d.Verdict, d.RetryAfter = Refuse, Never
	case ahead || missing > b.burst-cost:
		d.Verdict = Refuse
		d.RetryAfter = b.until(step, b.stepsFor(missing, b.burst-cost), now)
	default:
		missing += cost
		s.missing, s.at, s.seen = missing, step, true
	}
	if !ahead {
		d.Remaining = max(b.burst-missing, 0)
	}
	if missing > 0 {
		d.Reset = b.until(step, b.stepsFor(missing, 0), now)
	}
	return d
}

// Charge takes cost tokens at now's step whether they are there or not.
func (b *StepwiseBucket) Charge(s *StepwiseBucketState, now time.Duration, cost int64) {
	missing, step, _ := b.state(s, now)
	s.missing, s.at, s.seen = satAdd(missing, cost), step, true
}

// Reserve is Decide, except that a request refused with RetryAfter r ≤
// maxWait (r ≠ Never) is served at its turn, now + r: the state becomes the
// bucket at that step with cost taken, and the answer is Delay r.
func (b *StepwiseBucket) Reserve(s *StepwiseBucketState, now time.Duration, cost int64, maxWait time.Duration) Decision {
	d := b.Decide(s, now, cost)
	if d.Verdict != Refuse || d.RetryAfter == Never || d.RetryAfter > maxWait {
		return d
	}
	turn := now + d.RetryAfter
	missing, _, _ := b.state(s, turn)
	missing += cost
	s.missing, s.at, s.seen = missing, turn, true
	return Decision{Verdict: Delay, Delay: d.RetryAfter, Limit: b.limit, Reset: b.until(turn, b.stepsFor(missing, 0), now), RetryAfterExact: true}
}

// Idle reports whether s decides as a never-seen key from now on: never seen,
// or full at a step at or before now with steps on the clock or the calendar
// (with AlignFirst a seen key keeps its phase: never idle).
func (b *StepwiseBucket) Idle(s *StepwiseBucketState, now time.Duration) bool {
	if !s.seen {
		return true
	}
	if b.align == AlignFirst {
		return false
	}
	missing, _, ahead := b.state(s, now)
	return !ahead && missing == 0
}

// Peek is the Decision Decide would return, with s left as it is.
func (b *StepwiseBucket) Peek(s *StepwiseBucketState, now time.Duration, cost int64) Decision {
	return b.peek(s, now, cost)
}

// FillTo makes s a bucket holding tokens (0 ≤ tokens ≤ Burst) at now's step:
// with AlignFirst its first step is now.
func (b *StepwiseBucket) FillTo(s *StepwiseBucketState, now time.Duration, tokens int64) {
	s.missing, s.at, s.seen = b.burst-tokens, b.stepOf(now), true
}

// Capacity is Burst, the tokens of a full bucket.
func (b *StepwiseBucket) Capacity() int64 { return b.burst }

func (b *StepwiseBucket) unseen(s *StepwiseBucketState) bool { return !s.seen }

func (b *StepwiseBucket) peek(s *StepwiseBucketState, now time.Duration, cost int64) Decision {
	return b.peekFrom(s, false, 0, now, cost, 0)
}

func (b *StepwiseBucket) peekCharged(s *StepwiseBucketState, now time.Duration, cost int64) Decision {
	c := *s
	b.Charge(&c, now, cost)
	return b.Decide(&c, now, cost)
}

func (b *StepwiseBucket) peekReserve(s *StepwiseBucketState, now time.Duration, cost int64, maxWait time.Duration) Decision {
	return b.peekFrom(s, false, 0, now, cost, maxWait)
}

func (b *StepwiseBucket) peekFrom(s *StepwiseBucketState, fill bool, tokens int64, now time.Duration, cost int64, maxWait time.Duration) Decision {
	c := *s
	if fill {
		b.FillTo(&c, now, tokens)
	}
	if maxWait > 0 {
		return b.Reserve(&c, now, cost, maxWait)
	}
	return b.Decide(&c, now, cost)
}
