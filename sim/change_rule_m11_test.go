package sim

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// ChangeRule takes a change at the simulation's time or later, refuses one
// before it naming rules.at, and a change at now applies before any request
// at now: Rule reads it at once.
func TestChangeRuleFromNowOn(t *testing.T) {
	cfg := auditConfig()
	s, err := New(cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RunUntil(400 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	now := s.Now()
	pushed := algorithms.Policy{Limit: 3, Window: time.Second}
	err = s.ChangeRule(RuleChange{At: now - 1, Policy: pushed})
	if fe, ok := err.(FieldErrors); !ok || len(fe) != 1 || fe[0].Field != "rules.at" {
		t.Errorf("a change a ns before now: %v, want one error at rules.at", err)
	}
	if len(s.Config().Rules) != 0 {
		t.Errorf("a refused change was kept: %+v", s.Config().Rules)
	}
	if err := s.ChangeRule(RuleChange{At: now, Policy: pushed}); err != nil {
		t.Errorf("a change at now: %v", err)
	}
	if got := s.Rule(0).Policy; got != pushed {
		t.Errorf("Rule(0) at now = %+v, want the change made at now, %+v", got, pushed)
	}
	if err := s.ChangeRule(RuleChange{At: now + time.Second, Policy: algorithms.Policy{Limit: 7, Window: time.Second}}); err != nil {
		t.Errorf("a change later: %v", err)
	}
	if got := s.Rule(0).Policy; got != pushed {
		t.Errorf("Rule(0) at now = %+v after a later change, want %+v", got, pushed)
	}
}
