package run

import (
	"context"
	"errors"

	"github.com/rlsim/rlsim/contention"
	"github.com/rlsim/rlsim/scenarios"
)

// study runs a contention study: its sweep of client counts and backoff kinds.
type study struct{ s *scenarios.Scenario }

// override sets the seed; the lanes and the duration do not apply to a study.
func (k study) override(ov Overrides, lanes []string) (bool, error) {
	if ov.Seed != nil {
		k.s.Contention.Seed = *ov.Seed
	}
	var errs []error
	for _, flag := range []struct {
		name string
		set  bool
	}{{"--lanes", lanes != nil}, {"--duration", ov.Duration > 0}} {
		if flag.set {
			errs = append(errs, BadInputf("%s: %s does not apply to %s, a contention study", k.s.File, flag.name, k.s.Name))
		}
	}
	return true, errors.Join(errs...)
}

func (k study) run(ctx context.Context, o Options) (Outcome, error) {
	out := Outcome{Scenario: k.s}
	c := *k.s.Contention
	c.MaxEvents = o.MaxEvents
	r, err := contention.Run(ctx, c)
	if err != nil {
		return out, err
	}
	out.Contention = &r
	return out, nil
}

func (k study) unwatchable() error {
	return BadInputf("%s: %s is a contention study, which has no lanes to watch; run it with rlsim run", k.s.File, k.s.Name)
}
