package sim

import (
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// options are the lane options of the lane r's limiter belongs to.
func (r laneRule) options() LaneOptions {
	if r.lane == nil {
		return LaneOptions{}
	}
	return r.lane.options
}

// wraps reports whether o wraps the lane's rule: every option but the status
// (what a refusal says) and those that choose another rule (optionRate).
func (o LaneOptions) wraps() bool {
	o.Status, o.AlignFirst, o.AlignCalendar, o.Stepwise = 0, false, false, false
	return !o.None()
}

// optionRate is the registry builder of the rule r's options choose in place
// of its kind's own: a stepwise token bucket, a fixed window aligned to the
// first request or to the calendar; nil when they choose none.
func (r laneRule) optionRate() func(algorithms.Policy, laneRule) (func(int) decider, error) {
	o := r.options()
	align := algorithms.AlignClock
	switch {
	case o.AlignFirst:
		align = algorithms.AlignFirst
	case o.AlignCalendar:
		align = algorithms.AlignCalendar
	}
	epoch := r.epoch()
	switch {
	case r.kind == LaneTokenBucket && o.Stepwise:
		return rateOf(func(p algorithms.Policy) (*algorithms.StepwiseBucket, error) {
			return algorithms.NewStepwiseBucket(p, align, epoch)
		})
	case r.kind == LaneFixedWindow && o.AlignCalendar:
		return rateOf(func(p algorithms.Policy) (*algorithms.AlignedFixedWindow, error) {
			return algorithms.NewCalendarFixedWindow(p, epoch)
		})
	case r.kind == LaneFixedWindow && o.AlignFirst:
		return rateOf(alignedFirst)
	}
	return nil
}

// withOptions is the builder of dense tables of rule a wrapped in the lane
// options o, innermost first: the starting level, the wait, the penalty, the
// ban, the clock (algorithms.WithWait must sit inside the others). Without
// options it is a's own table, which the fast paths may take.
func withOptions[S any](a rule[S], o LaneOptions) (func(int) decider, error) {
	if !o.wraps() {
		return func(keys int) decider { return newDense[S](a, keys) }, nil
	}
	var r algorithms.Chargeable[S] = a
	var err error
	if o.Start != nil {
		if r, err = algorithms.StartAt[S](r, *o.Start, 0); err != nil {
			return nil, err
		}
	}
	if o.Wait > 0 {
		if r, err = algorithms.WithWait[S](r, o.Wait); err != nil {
			return nil, err
		}
	}
	if o.Penalty {
		r = algorithms.WithPenalty[S](r)
	}
	if o.Ban > 0 {
		b, err := algorithms.WithBan[S](r, o.Ban)
		if err != nil {
			return nil, err
		}
		return clocked[algorithms.BanState[S]](b, o.Clock)
	}
	return clocked[S](r, o.Clock)
}

// clocked is the builder of tables of r on a clock of tick (none when zero).
func clocked[S any](r algorithms.Chargeable[S], tick time.Duration) (func(int) decider, error) {
	if tick > 0 {
		c, err := algorithms.WithClock[S](r, tick)
		if err != nil {
			return nil, err
		}
		r = c
	}
	return func(keys int) decider { return newDense[S](r, keys) }, nil
}

// alignedFirst is a fixed window whose windows start at each key's first
// request (LaneOptions.AlignFirst).
func alignedFirst(p algorithms.Policy) (*algorithms.AlignedFixedWindow, error) {
	return algorithms.NewAlignedFixedWindow(p, algorithms.AlignFirst)
}
