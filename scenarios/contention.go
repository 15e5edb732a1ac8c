package scenarios

import (
	"fmt"

	"github.com/rlsim/rlsim/contention"
	"github.com/rlsim/rlsim/sim"
)

// This file is the contention section of a scenario file: its schema, how it
// becomes a contention.Config and back.

// checked is what Parse and CheckBudget ask of either kind of configuration.
type checked interface {
	Validate() error
	EstimateEvents() int64
}

// checked is s's configuration, of whichever kind; nil when it has none.
func (s *Scenario) checked() checked {
	switch {
	case s.Contention != nil:
		return s.Contention
	case s.Config != nil:
		return s.Config
	}
	return nil
}

// contentionFile is the contention section that gives back c.
func contentionFile(c *contention.Config) *contentionSpec {
	cs := &contentionSpec{Clients: c.Clients, Base: dur(c.Base), Cap: dur(c.Cap),
		Hop: optDur(c.Hop), HopStdDev: optDur(c.HopStdDev), Runs: c.Runs}
	for _, j := range c.Jitters {
		cs.Jitters = append(cs.Jitters, j.String())
	}
	if c.Schedule != sim.ScheduleBaseFirst {
		cs.Schedule = c.Schedule.String()
	}
	return cs
}

type contentionSpec struct {
	Clients   []int     `yaml:"clients" required:"true" check:"positive" doc:"client counts to sweep, e.g. [10, 20, 30]"`
	Jitters   []string  `yaml:"jitters,omitempty" enum:"backoff" doc:"backoff kinds to compare: the four jitters and no_backoff (default the four jitters)"`
	Base      *Duration `yaml:"base,omitempty" check:"positive" doc:"the backoff's base (default 5ms)"`
	Schedule  string    `yaml:"schedule,omitempty" enum:"schedule" doc:"base_first: retry n sleeps base x 2^(n-1); brooker: base x 2^n, as the AWS blog's simulator (default base_first)"`
	Cap       *Duration `yaml:"cap,omitempty" check:"positive" doc:"largest backoff (default 2s)"`
	Hop       *Duration `yaml:"hop,omitempty" check:"positive" doc:"mean one-way network time (default 10ms)"`
	HopStdDev *Duration `yaml:"hop_stddev,omitempty" check:"nonneg" doc:"standard deviation of the network time (default 2ms)"`
	Runs      int       `yaml:"runs,omitempty" check:"positive" doc:"repetitions averaged per cell (default 1)"`
}

func (b *builder) contention(cs *contentionSpec, seed uint64) *contention.Config {
	c := &contention.Config{Seed: seed, Clients: cs.Clients, Base: durOr(cs.Base, contentionBase),
		Cap: durOr(cs.Cap, contentionCap), Hop: durOr(cs.Hop, 0), HopStdDev: durOr(cs.HopStdDev, 0), Runs: cs.Runs}
	if len(cs.Clients) == 0 && b.has("contention.clients") {
		b.addf("contention.clients", "at least one client count is needed")
	}
	if len(cs.Jitters) == 0 {
		c.Jitters = []sim.JitterKind{sim.JitterNone, sim.JitterFull, sim.JitterEqual, sim.JitterDecorrelated}
	}
	seen := map[sim.JitterKind]bool{}
	for i, n := range cs.Jitters {
		k, ok := sim.ParseJitter(n)
		if !ok {
			continue
		}
		if seen[k] {
			b.addf(fmt.Sprintf("contention.jitters[%d]", i), "%s is listed twice", n)
		}
		seen[k] = true
		c.Jitters = append(c.Jitters, k)
	}
	if cs.Schedule != "" {
		c.Schedule, _ = sim.ParseSchedule(cs.Schedule)
	}
	if c.Cap < c.Base {
		b.addf("contention.cap", "%v is below base %v", c.Cap, c.Base)
	}
	return c
}
