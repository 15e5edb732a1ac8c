package run

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// comparison runs a limiter comparison: every lane of s.Config.
type comparison struct{ s *scenarios.Scenario }

func (k comparison) override(ov Overrides, lanes []string) (bool, error) {
	c := k.s.Config
	if ov.Seed != nil {
		c.Seed = *ov.Seed
	}
	if ov.Duration > 0 {
		c.Duration = ov.Duration
	}
	if lanes != nil {
		if err := scenarios.SelectLanes(c, lanes); err != nil {
			return false, BadInputf("%s: --lanes: %v", k.s.File, err)
		}
	}
	if err := checkedLanes(k.s, c.LaneNames()); err != nil {
		return false, err
	}
	if err := c.Validate(); err != nil {
		return false, BadInputf("%s: with the flags given: %s", k.s.File, laneNamed(c, strings.ReplaceAll(err.Error(), "\n", "; ")))
	}
	return true, nil
}

var variantPath = regexp.MustCompile(`variants\[(\d+)\]`)

// laneNamed names a lane of msg by its name rather than sim's
// variants[i], which no file or flag of the user's says.
func laneNamed(c *sim.Config, msg string) string {
	return variantPath.ReplaceAllStringFunc(msg, func(m string) string {
		i, err := strconv.Atoi(variantPath.FindStringSubmatch(m)[1])
		if err != nil || i >= len(c.LanesRun()) {
			return m
		}
		return "lane " + c.LaneName(i)
	})
}

func (comparison) unwatchable() error { return nil }

func (k comparison) run(ctx context.Context, o Options) (Outcome, error) {
	out := Outcome{Scenario: k.s}
	simulate := o.Simulate
	if simulate == nil {
		simulate = sim.Run
	}
	so := sim.Options{MaxEvents: o.MaxEvents, Progress: o.Progress, Cores: o.Cores}
	var sinks teeSink
	if o.Trace != nil {
		sinks = append(sinks, o.Trace.Sink(k.s.Name))
	}
	if o.Collect != nil {
		if sink := o.Collect(*k.s.Config); sink != nil {
			sinks = append(sinks, sink)
		}
	}
	switch len(sinks) {
	case 1:
		so.Trace = sinks[0]
	case 2:
		so.Trace = sinks
	}
	r, err := simulate(ctx, *k.s.Config, so)
	if err != nil {
		return out, err
	}
	out.Result = &r
	out.Checks = Checks(k.s.Checks, &r)
	return out, nil
}

// teeSink hands every record to each of its sinks.
type teeSink []sim.TraceSink

func (t teeSink) Record(r *sim.TraceRecord) error {
	for _, s := range t {
		if err := s.Record(r); err != nil {
			return err
		}
	}
	return nil
}

// checkedLanes refuses lanes (the --lanes flag's) that leave out a lane a check names.
func checkedLanes(s *scenarios.Scenario, lanes []string) error {
	var errs []error
	for i, c := range s.Checks {
		if c.Lane != "" && !slices.Contains(lanes, c.Lane) {
			errs = append(errs, BadInput(&scenarios.FieldError{File: s.File, Line: c.Line, Path: fmt.Sprintf("checks[%d].lane", i),
				Msg: fmt.Sprintf("%s is checked, and --lanes leaves it out", c.Lane)}))
		}
	}
	return errors.Join(errs...)
}
