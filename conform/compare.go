package conform

import (
	"slices"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// Outcome is how one real decision compares with the exact lane's.
type Outcome uint8

const (
	// Agreed: the same verdict and, on a refusal, retry instants (decision
	// time + Retry-After) within the tolerance of each other.
	Agreed Outcome = iota
	// DifferedWithin: the verdicts differ, but the side that refused would
	// have admitted within the tolerance (its Retry-After ≤ tolerance): the
	// limiters disagree only about when, by less than clock skew explains.
	DifferedWithin
	// Differed: the verdicts differ beyond the tolerance.
	Differed
	// RetryAfterDiffered: both refused, with retry instants further apart
	// than the tolerance.
	RetryAfterDiffered
	// StoreError: the call failed; no decision to compare.
	StoreError
	// Invalid: the script's answer is not one the calling convention allows
	// (Answer.Invalid): no decision, and unexplained.
	Invalid
)

// compare is the outcome of real against the exact decision of a, within tol.
func compare(a Attempt, real Answer, tol time.Duration) Outcome {
	switch {
	case real.Err != nil:
		return StoreError
	case real.Invalid != "":
		return Invalid
	case a.Admitted == real.Admitted && a.Admitted:
		return Agreed
	case a.Admitted == real.Admitted:
		if a.RetryAfter == algorithms.Never || real.RetryAfter == algorithms.Never {
			if a.RetryAfter == real.RetryAfter {
				return Agreed
			}
			return RetryAfterDiffered
		}
		gap := (real.Now + real.RetryAfter) - (a.At + a.RetryAfter)
		if gap <= tol && -gap <= tol {
			return Agreed
		}
		return RetryAfterDiffered
	}
	refusing := real.RetryAfter
	if real.Admitted {
		refusing = a.RetryAfter
	}
	if refusing <= tol {
		return DifferedWithin
	}
	return Differed
}

// Diff is one attempt the two limiters decided differently, in full.
type Diff struct {
	Outcome Outcome
	Attempt Attempt // with the exact lane's decision
	Answer  Answer  // the real one
	// Twin is the exact algorithm's decision at the instant Redis decided at
	// (Answer.Now), on the attempts Redis had decided before; Explained is
	// true when it is Redis's, within the tolerance: the clock made the
	// difference, not the script.
	Twin      Attempt
	Explained bool
}

// Tally counts the outcomes of one lane's comparison.
type Tally struct {
	Attempts           int
	Agreed             int
	DifferedWithin     int
	Differed           int
	RetryAfterDiffered int
	StoreErrors        int
	// Invalid counts the answers the calling convention does not allow
	// (malformed, out of its bounds, or an error the script raised), and
	// InvalidReason says what was wrong with the first.
	Invalid       int
	InvalidReason string
	// Unexplained counts the attempts Redis decided otherwise than the exact
	// algorithm fed the same instants (Answer.Now) in the same order, beyond
	// the tolerance: differences of logic, not of clock. A conforming script
	// has none. The algorithm starts afresh where Redis restarted. Every
	// invalid answer is unexplained too.
	Unexplained int
	// Restarts counts the times Redis came back as a new server (state lost).
	Restarts int
	// ExactAdmitted and RealAdmitted count the admissions of each side;
	// RealAdmitted counts Redis's alone, FailAdmitted those of the fail mode.
	ExactAdmitted, RealAdmitted, FailAdmitted int
	// MaxSkew is the largest |Now − At|: how far the time the script decided
	// at strayed from the attempt's instant (0 on the scheduled clock).
	MaxSkew time.Duration
	// RoundTrip is the median real round trip, and RoundTripMax the largest.
	RoundTrip, RoundTripMax time.Duration
}

// Beyond counts the attempts decided differently beyond the tolerance.
func (t Tally) Beyond() int { return t.Differed + t.RetryAfterDiffered }

// tally compares answers with attempts and with tw fed the instants of the
// answers, keeping the first shown differences in full.
func tally(tw twin, attempts []Attempt, answers []Answer, tol time.Duration, shown int) (Tally, []Diff) {
	t := Tally{Attempts: len(attempts)}
	var diffs []Diff
	trips := make([]time.Duration, 0, len(answers))
	for i, a := range attempts {
		ans := answers[i]
		o := compare(a, ans, tol)
		var twinAttempt Attempt
		explained := true
		if ans.Restarted {
			tw = tw.fresh()
			t.Restarts++
		}
		switch {
		case ans.Invalid != "":
			// No decision: the algorithm is not fed an instant the script
			// may have made up, and nothing explains it.
			t.Invalid++
			t.Unexplained++
			explained = false
			if t.InvalidReason == "" {
				t.InvalidReason = ans.Invalid
			}
		case ans.Err == nil:
			twinAttempt = a
			twinAttempt.At = ans.Now
			d := tw.decide(a.Key, ans.Now, a.Cost)
			twinAttempt.Admitted, twinAttempt.RetryAfter = d.Admitted(), d.RetryAfter
			if to := compare(twinAttempt, ans, tol); to == Differed || to == RetryAfterDiffered {
				t.Unexplained++
				explained = false
			}
		}
		switch o {
		case Agreed:
			t.Agreed++
		case DifferedWithin:
			t.DifferedWithin++
		case Differed:
			t.Differed++
		case RetryAfterDiffered:
			t.RetryAfterDiffered++
		case StoreError:
			t.StoreErrors++
		}
		if (o == Differed || o == RetryAfterDiffered || o == StoreError || o == Invalid || !explained) && len(diffs) < shown {
			diffs = append(diffs, Diff{Outcome: o, Attempt: a, Answer: ans, Twin: twinAttempt, Explained: explained})
		}
		if a.Admitted {
			t.ExactAdmitted++
		}
		if ans.Err != nil {
			if ans.Admitted {
				t.FailAdmitted++
			}
			continue
		}
		trips = append(trips, ans.RoundTrip)
		if ans.Invalid != "" {
			continue
		}
		if ans.Admitted {
			t.RealAdmitted++
		}
		t.MaxSkew = max(t.MaxSkew, ans.Now-a.At, a.At-ans.Now)
	}
	if len(trips) > 0 {
		slices.Sort(trips)
		t.RoundTrip, t.RoundTripMax = trips[len(trips)/2], trips[len(trips)-1]
	}
	return t, diffs
}
