package report

import (
	"strings"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// judgement is how one lane is read: the one set of rules, from the one set of
// figures, behind both the findings and the report's badges, so the two cannot
// disagree. Every rule is judged for every lane: a lane that let the limit
// through can still have starved the clients it exists to protect.
type judgement struct {
	NoLimit     bool // the scenario has no rate to hold
	NotLimiting bool // see sim.LaneResult.NotLimiting
	// Concurrency marks a lane that bounds requests in flight: its busiest
	// window is reported against the rate but never held against it.
	Concurrency bool
	Over        bool            // the busiest window held more than the limit (sim.LaneResult.Over)
	Starved     bool            // some class got under half its fair share
	Class       sim.ClassResult // the worst-served class, when Starved
}

// judge reads lane l by the rules the findings state.
func judge(l sim.LaneResult) judgement {
	p := l.Peak
	j := judgement{
		NoLimit:     p.Limit == 0,
		NotLimiting: l.NotLimiting(),
		Concurrency: l.Lane.Info().Class == sim.ConcurrencyLimiter,
	}
	j.Over = l.Over()
	j.Class, j.Starved = starved(l)
	return j
}

// badge is the judgement in a few words and its tone ("good", "bad" or
// "note"). Only what a finding would hold against the lane is "bad": a
// concurrency lane over the rate is a note, as the findings say.
func (j judgement) badge(r0 string) (string, string) {
	var words []string
	tone := "good"
	switch {
	case j.NoLimit:
		words, tone = append(words, "no limit"), "note"
	case j.NotLimiting:
		words, tone = append(words, "limited nothing"), "note"
	case j.Concurrency:
		words, tone = append(words, "limits concurrency"), "note"
	case j.Over:
		words, tone = append(words, r0+"× the limit"), "bad"
	default:
		words = append(words, "held the limit")
	}
	if j.Starved {
		words, tone = append(words, "starved "+scenarios.Escape(j.Class.Name)), "bad"
	}
	return strings.Join(words, "; "), tone
}
