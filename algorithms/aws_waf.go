package algorithms

import (
	"errors"
	"fmt"
	"time"
)

// AWSWAFParams is an AWS WAF rate-based rule statement (RateBasedStatement),
// in AWS's words (developer guide, "Rate-based rule high-level settings",
// waf-rule-statement-type-rate-based-high-level-settings.html), plus the
// evaluation interval AWS does not publish exactly.
type AWSWAFParams struct {
	// Limit is `Limit`: "The maximum number of requests matching your criteria
	// that AWS WAF should just track for the specified evaluation window. The
	// lowest limit setting allowed is 10" (100 before the August 2024 change,
	// "AWS WAF enhances rate-based rules to support lower rate limits").
	Limit int64
	// EvaluationWindowSec is `EvaluationWindowSec`: "Valid settings are 60 (1
	// minute), 120 (2 minutes), 300 (5 minutes), and 600 (10 minutes), and 300 (5
	// minutes) is the default." 0 means 300.
	EvaluationWindowSec int64
	// EvaluationInterval is how often WAF checks the rate. AWS says only that it
	// "checks the rate frequently, with timing that's independent of the
	// evaluation window setting" and that detection delay "usually ... is below 30
	// seconds" (rate-based rule caveats); the Terraform AWS provider's
	// wafv2_web_acl docs say "about every 10 seconds", older AWS answers "every
	// 30 seconds". 0 means 10s. It must divide the window and be at least a
	// sixtieth of it.
	EvaluationInterval time.Duration
}

// AWSWAFParamsOf translates p: Limit is the rule's limit and Window its
// evaluation window, which must be 60, 120, 300 or 600 s; WAF has no burst, so
// Burst must be 0 or Limit. The evaluation interval is the 10s default.
func AWSWAFParamsOf(p Policy) (AWSWAFParams, error) {
	if err := p.Validate(); err != nil {
		return AWSWAFParams{}, fmt.Errorf("aws waf: %w", err)
	}
	var errs []error
	switch p.Window {
	case time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute:
	default:
		errs = append(errs, fmt.Errorf("window %v is not an evaluation window (60, 120, 300 or 600 s)", p.Window))
	}
	if p.EffectiveBurst() != p.Limit {
		errs = append(errs, fmt.Errorf("burst %d: a rate-based rule has no burst", p.Burst))
	}
	if p.Limit < 10 {
		errs = append(errs, fmt.Errorf("limit %d is below WAF's lowest, 10", p.Limit))
	}
	if err := errors.Join(errs...); err != nil {
		return AWSWAFParams{}, fmt.Errorf("aws waf: %w", err)
	}
	return AWSWAFParams{Limit: p.Limit, EvaluationWindowSec: int64(p.Window / time.Second)}, nil
}

// awsWAFSlots bounds the ring: a window of at most 60 evaluation intervals, plus
// the interval in progress.
const awsWAFSlots = 61

// AWSWAF is an AWS WAF (WAFv2) rate-based rule (developer guide,
// waf-rule-statement-type-rate-based-high-level-settings.html and
// waf-rule-statement-type-rate-based-caveats.html), for one aggregation key (an IP, a
// forwarded IP, custom keys): WAF counts the key's requests and, at each
// evaluation, "counts the requests for the [evaluation window] immediately
// preceding the current time"; "when this limit is breached, AWS WAF applies the
// rule action" to the key's further requests until "the rate drops below the
// limit" (rate-based high-level settings; caveats: "requests [may be] coming in
// at too high a rate for up to several minutes before AWS WAF detects and rate
// limits them").
//
// rlsim models the periodic check exactly: evaluations happen at k×interval,
// k = 0, 1, … from the run's start t=0; the evaluation at e counts the key's
// requests in [e − window, e) and blocks the key, from e until the next
// evaluation, when that count exceeds Limit. Between evaluations the verdict
// never changes, however many requests arrive: a key can be admitted far beyond
// the limit during its first interval. Counts are kept per interval in a ring
// (exact at evaluation instants). Every request is counted, blocked ones too (a
// rate of requests arriving, as WAF describes it; AWS does not say otherwise).
// A request of cost counts cost requests. AWS's own estimator, which "gives more
// importance to more recent requests", is not published; rlsim uses the plain
// trailing count the settings page describes.
//
// A blocked request gets the Block action (403 by default, no Retry-After):
// RetryAfter is the exact wait to the first evaluation that would unblock the
// key if nothing else arrived (RetryAfterExact). Limit is the rule's limit;
// Remaining is Limit less the count the next evaluation would see (at least 0);
// Reset is the time to the next evaluation. WAF sends no rate-limit headers.
//
// The rule is immutable and safe for concurrent use; a state belongs to one
// goroutine.
type AWSWAF struct {
	limit    int64
	window   time.Duration
	interval time.Duration
	n        int64 // window / interval
	slots    int64 // n + 1
}

// AWSWAFState is one key's per-interval counts: 256 bytes. The zero value is a
// key never seen.
type AWSWAFState struct {
	counts [awsWAFSlots]uint32 // counts[i % slots] is interval i's requests
	last   int64               // the latest interval counted
}

var (
	_ Algorithm[AWSWAFState] = (*AWSWAF)(nil)
	_ Charging[AWSWAFState]  = (*AWSWAF)(nil)
)

// NewAWSWAF returns the rule for x, or every problem with x.
func NewAWSWAF(x AWSWAFParams) (*AWSWAF, error) {
	var errs []error
	if x.Limit < 10 {
		errs = append(errs, fmt.Errorf("limit must be at least 10, got %d", x.Limit))
	}
	if x.Limit >= 1<<31 {
		errs = append(errs, fmt.Errorf("limit %d is too large", x.Limit))
	}
	sec := x.EvaluationWindowSec
	if sec == 0 {
		sec = 300
	}
	switch sec {
	case 60, 120, 300, 600:
	default:
		errs = append(errs, fmt.Errorf("evaluation window %ds: valid settings are 60, 120, 300 and 600", x.EvaluationWindowSec))
	}
	interval := x.EvaluationInterval
	if interval == 0 {
		interval = 10 * time.Second
	}
	window := time.Duration(sec) * time.Second
	if interval < 0 || window%interval != 0 || window/interval > awsWAFSlots-1 {
		errs = append(errs, fmt.Errorf("evaluation interval %v must divide the %v window into at most %d parts", x.EvaluationInterval, window, awsWAFSlots-1))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("aws waf: %w", err)
	}
	n := int64(window / interval)
	return &AWSWAF{limit: x.Limit, window: window, interval: interval, n: n, slots: n + 1}, nil
}

// interval i's slot.
func (w *AWSWAF) slot(i int64) int64 { return i % w.slots }

// advance moves the ring on to interval k, clearing the intervals skipped.
func (w *AWSWAF) advance(s *AWSWAFState, k int64) {
	if k <= s.last {
		return
	}
	if k-s.last >= w.slots {
		s.counts = [awsWAFSlots]uint32{}
	} else {
		for i := s.last + 1; i <= k; i++ {
			s.counts[w.slot(i)] = 0
		}
	}
	s.last = k
}

// countAt is the evaluation at e = k×interval: the requests of intervals
// k−n … k−1, all of which the ring holds once it has been advanced to ≥ k.
func (w *AWSWAF) countAt(s *AWSWAFState, k int64) int64 {
	lo, hi := max(k-w.n, s.last-w.slots+1, 0), min(k-1, s.last)
	if lo > hi {
		return 0
	}
	var sum int64
	// One division for the first slot, then a wrapping index: a divide per
	// slot would dominate Decide.
	for i, j := lo, w.slot(lo); i <= hi; i++ {
		sum += int64(s.counts[j])
		if j++; j == w.slots {
			j = 0
		}
	}
	return sum
}

// Decide lets the request through or blocks it, by the latest evaluation at
// or before now, then counts it.
func (w *AWSWAF) Decide(s *AWSWAFState, now time.Duration, cost int64) Decision {
	if cost < 1 {
		badCost("AWSWAF.Decide", cost)
	}
	k := int64(now / w.interval)
	if now < 0 {
		k = 0
	}
	w.advance(s, k)
	d := Decision{Limit: w.limit, Reset: time.Duration(k+1)*w.interval - now, RetryAfterExact: true}
	if w.countAt(s, k) > w.limit {
		d.Verdict = Refuse
	}
	w.count(s, k, cost)
	next := w.countAt(s, k+1) // what the next evaluation sees: intervals k+1−n … k
	if d.Verdict == Refuse {
		// The evaluation at k+j sees intervals k+j−n … k (nothing after k has
		// arrived): each step drops interval k+j−n. It ends by j = n+1.
		j, sum := int64(1), next
		for ; sum > w.limit; j++ {
			if old := k + j - w.n; old >= 0 && old > s.last-w.slots {
				sum -= int64(s.counts[w.slot(old)])
			}
		}
		d.RetryAfter = time.Duration(k+j)*w.interval - now
	}
	d.Remaining = max(w.limit-next, 0)
	return d
}

// count adds cost to interval k's count (or to an earlier interval's, when time
// went backwards and the ring still holds it), saturating.
func (w *AWSWAF) count(s *AWSWAFState, k int64, cost int64) {
	if k <= s.last-w.slots {
		return // too old to matter to any later evaluation
	}
	c := &s.counts[w.slot(k)]
	*c = uint32(min(int64(*c)+cost, 1<<32-1))
}

// Idle reports whether no counted request can reach the evaluation at or after
// now: the key then decides as a never-seen one.
func (w *AWSWAF) Idle(s *AWSWAFState, now time.Duration) bool {
	k := int64(now / w.interval)
	for i := max(k-w.n, s.last-w.slots+1, 0); i <= s.last; i++ {
		if s.counts[w.slot(i)] != 0 {
			return false
		}
	}
	return true
}

// Charge counts cost at now, as Decide does (WAF counts blocked requests too).
func (w *AWSWAF) Charge(s *AWSWAFState, now time.Duration, cost int64) {
	k := max(int64(now/w.interval), 0)
	w.advance(s, k)
	w.count(s, k, cost)
}
