package tui

import (
	"fmt"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// knob is the part of a limit's policy the rule keys change.
type knob uint8

const (
	knobLimit knob = iota // requests per window
	knobBurst             // the largest burst: the token bucket's size, GCRA's tolerance, the leaky queue's depth
)

// of is k's value in p.
func (k knob) of(p algorithms.Policy) int64 {
	if k == knobBurst {
		return p.EffectiveBurst()
	}
	return p.Limit
}

// maxRuleValue is the largest limit or burst the keys raise to: a million,
// so that a burst fired the size of the limit (b) stays a few seconds of work
// at most. A scenario's larger value can be lowered, not raised.
const maxRuleValue = 1_000_000

// stepUp is v raised by one press: ×1.25 rounded, by one at least, to
// maxRuleValue at most; v itself if it is there already or above.
func stepUp(v int64) int64 {
	if v >= maxRuleValue {
		return v
	}
	return min(max((v*5+2)/4, v+1), maxRuleValue)
}

// stepDown is v lowered by one press: ÷1.25 rounded, by one at least, to 1 at least.
func stepDown(v int64) int64 {
	return max(min((v*4+2)/5, v-1), 1)
}

// stepped is p with k raised (up) or lowered by one press. A burst equal to
// the limit (a scenario's default) follows the limit; another stays.
func stepped(p algorithms.Policy, k knob, up bool) algorithms.Policy {
	step := stepDown
	if up {
		step = stepUp
	}
	switch k {
	case knobLimit:
		follows := p.EffectiveBurst() == p.Limit
		p.Limit = step(p.Limit)
		if follows && p.Burst != 0 {
			p.Burst = p.Limit
		}
	case knobBurst:
		p.Burst = step(p.EffectiveBurst())
	}
	return p
}

// changeRule pushes, at the present, the chosen limit's rule with k one step
// up or down, through sim.Simulation.ChangeRule: the path of a scenario's
// scheduled rule pushes. The present's requests were decided already, so the
// change decides from the next one on, as a push scheduled a nanosecond later
// would. The change is kept, so that a rebuild (a burst fired) replays it.
func (m *Model) changeRule(k knob, up bool) {
	if m.finished {
		m.status = "no change: the run is over; r plays it again"
		return
	}
	now := m.sim.Now()
	was := m.sim.Rule(m.limit)
	if was.Concurrency > 0 {
		m.status = fmt.Sprintf("no change: %s bounds requests in flight (%d at once), not a rate; c chooses another limit", scenarios.Escape(was.Name), was.Concurrency)
		return
	}
	ch := sim.RuleChange{At: now, Limit: m.limit, Policy: stepped(was.Policy, k, up), Shadow: was.Shadow}
	from, to := k.of(was.Policy), k.of(ch.Policy)
	if from == to {
		m.status = fmt.Sprintf("no change: the %s is at its smallest, 1", k)
		if up {
			m.status = fmt.Sprintf("no change: the keys raise a %s to %d at most", k, maxRuleValue)
		}
		return
	}
	if err := m.sim.ChangeRule(ch); err != nil {
		m.status = "no change: " + err.Error()
		return
	}
	m.changes = append(m.changes, ch)
	m.status = fmt.Sprintf("%s %s %d from t=%s, was %d; every key starts afresh", k, scenarios.Escape(was.Name),
		to, formatTime(now), from)
	if k == knobLimit && m.limit == 0 {
		m.status += "; max/win is judged against the limit in force in its window"
	}
}

func (k knob) String() string {
	if k == knobBurst {
		return "burst"
	}
	return "limit"
}

// chooseLimit moves the rule keys on to the chain's next limit.
func (m *Model) chooseLimit() {
	n := len(m.sim.Config().Limits)
	m.limit = (m.limit + 1) % n
	lim := m.sim.Rule(m.limit)
	m.status = fmt.Sprintf("the rule keys now change limit %d of %d, %s", m.limit+1, n, scenarios.Escape(lim.Name))
}

// replayChanges runs s to each kept rule change and pushes it there, as the
// live run did: to the instant it was pressed at, whose requests were then
// decided already (none were at 0, before the first frame).
func replayChanges(s *sim.Simulation, changes []sim.RuleChange) error {
	for _, ch := range changes {
		if ch.At > s.Now() {
			if err := s.RunUntil(ch.At); err != nil {
				return err
			}
		}
		if err := s.ChangeRule(ch); err != nil {
			return err
		}
	}
	return nil
}
