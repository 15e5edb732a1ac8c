package conform

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// WriteChecks writes the comparison of every lane as a table, then the first
// differences of each lane in full.
func WriteChecks(w io.Writer, checks []LaneCheck, opts CheckOptions) error {
	var b strings.Builder
	fmt.Fprintf(&b, "clock %s, time scale %g; tolerance %v of scenario time: a differing verdict is within it when the side that refused would have admitted within %v, and refusals agree when their retry instants (decision time + Retry-After) are within %v\n"+
		"unexplained: decided otherwise than the exact algorithm fed the instants Redis decided at, in the same order, or answered outside the calling convention (a conforming script has none)\n\n",
		opts.Replay.Clock, opts.Replay.Scale, opts.Tolerance, opts.Tolerance, opts.Tolerance)
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "lane\tscript\tattempts\tagreed\tdiffered within tolerance\tdiffered\tretry-after differed\tunexplained\tstore errors\tadmitted exact/redis\tmax skew\tround trip p50\tround trip max")
	for _, c := range checks {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t%d/%d\t%v\t%v\t%v\n", c.Lane, c.Script, c.Attempts, c.Agreed,
			c.DifferedWithin, c.Differed, c.RetryAfterDiffered, unexplained(c), storeErrors(c), c.ExactAdmitted, c.RealAdmitted,
			c.MaxSkew, c.RoundTrip.Round(time.Microsecond), c.RoundTripMax.Round(time.Microsecond))
	}
	tw.Flush()
	for _, c := range checks {
		if len(c.Diffs) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n%s: the first %d attempts decided differently:\n", c.Lane, len(c.Diffs))
		for _, d := range c.Diffs {
			fmt.Fprintf(&b, "  t=%v key %s cost %d (client %d, request %d, attempt %d): exact lane %s; redis %s",
				d.Attempt.At, d.Attempt.Key, d.Attempt.Cost, d.Attempt.Client, d.Attempt.Request, d.Attempt.Try,
				verdict(d.Attempt.Admitted, d.Attempt.RetryAfter), answer(d.Answer))
			switch {
			case d.Answer.Invalid != "":
				b.WriteString(": unexplained")
			case d.Answer.Err == nil:
				how := "explained by the clock"
				if !d.Explained {
					how = "unexplained"
				}
				fmt.Fprintf(&b, "; exact algorithm at that instant %s: %s", verdict(d.Twin.Admitted, d.Twin.RetryAfter), how)
			}
			b.WriteString("\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// unexplained tells the unexplained attempts and how many of them were
// answers outside the calling convention.
func unexplained(c LaneCheck) string {
	if c.Invalid == 0 {
		return fmt.Sprint(c.Unexplained)
	}
	return fmt.Sprintf("%d (%d answers outside the calling convention)", c.Unexplained, c.Invalid)
}

// storeErrors tells the failed calls and what the fail mode made of them.
func storeErrors(c LaneCheck) string {
	if c.StoreErrors == 0 {
		return "0"
	}
	s := fmt.Sprintf("%d (fail %s: %d admitted", c.StoreErrors, c.OnStoreError, c.FailAdmitted)
	if c.Restarts > 0 {
		s += fmt.Sprintf("; redis restarted %d×, state lost", c.Restarts)
	}
	return s + ")"
}

func verdict(admitted bool, retryAfter time.Duration) string {
	switch {
	case admitted:
		return "admit"
	case retryAfter == algorithms.Never:
		return "refuse (Retry-After never)"
	}
	return fmt.Sprintf("refuse (Retry-After %v)", retryAfter)
}

func answer(a Answer) string {
	if a.Err != nil {
		v := verdict(a.Admitted, a.RetryAfter)
		if !a.Admitted && a.RetryAfter == 0 {
			v = "refuse (no Retry-After)"
		}
		return fmt.Sprintf("store error (%v), so the fail mode's %s", a.Err, v)
	}
	if a.Invalid != "" {
		return fmt.Sprintf("an answer outside the calling convention (%s)", a.Invalid)
	}
	return fmt.Sprintf("%s, decided at t=%v", verdict(a.Admitted, a.RetryAfter), a.Now)
}

// WriteRace writes the race run by run, measured beside simulated, and the
// mean and range of each over the runs.
func WriteRace(w io.Writer, r Race) error {
	if len(r.Runs) == 0 {
		return nil
	}
	limit := r.Runs[0].MeasuredAtomic.Limit
	var b strings.Builder
	replicas := fmt.Sprintf("%d replicas", r.Replicas)
	if r.Replicas == 1 {
		replicas = "1 replica"
	}
	fmt.Fprintf(&b, "race: lane %s, %s behind round robin, each sending its requests concurrently; %d runs at time scale %g\n",
		r.Lane, replicas, len(r.Runs), r.Scale)
	fmt.Fprintf(&b, "fleet peak: the most one key got admitted in any window of the limit's length (limit %d); simulated: the topology simulation with a shared store whose round trip is exponential with the measured mean, times the time scale; sent late by: the latest send, in scenario time (a large one says the machine could not keep the pace)\n\n", limit)
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "run\tseed\tround trip\tstore latency\tsent late by\tracy measured\tracy simulated\tatomic measured\tatomic simulated")
	for i, run := range r.Runs {
		fmt.Fprintf(tw, "%d\t%d\t%v\t%v\t%v\t%s\t%s\t%s\t%s\n", i+1, run.Seed, run.RoundTrip.Round(time.Microsecond),
			run.StoreLatency.Round(time.Microsecond), run.MaxLag.Round(time.Microsecond), peak(run.MeasuredRacy),
			peak(run.SimulatedRacy), peak(run.MeasuredAtomic), peak(run.SimulatedAtomic))
	}
	s := r.Summary()
	fmt.Fprintf(tw, "mean (range)\t\t\t\t\t%s\t%s\t%s\t%s\n", s.MeasuredRacy, s.SimulatedRacy, s.MeasuredAtomic, s.SimulatedAtomic)
	tw.Flush()
	_, err := io.WriteString(w, b.String())
	return err
}

func peak(p Peak) string { return fmt.Sprintf("%d (%.2f×)", p.Count, p.Ratio) }

// Spread is the mean and range of a ratio over runs.
type Spread struct{ Mean, Min, Max float64 }

func (s Spread) String() string { return fmt.Sprintf("%.2f× (%.2f–%.2f×)", s.Mean, s.Min, s.Max) }

// RaceSummary is the spread over runs of each peak's ratio to the limit.
type RaceSummary struct {
	MeasuredRacy, SimulatedRacy, MeasuredAtomic, SimulatedAtomic Spread
}

// Summary is the spread of r's peaks over its runs.
func (r Race) Summary() RaceSummary {
	of := func(get func(RaceRun) Peak) Spread {
		s := Spread{Min: get(r.Runs[0]).Ratio, Max: get(r.Runs[0]).Ratio}
		for _, run := range r.Runs {
			x := get(run).Ratio
			s.Mean += x / float64(len(r.Runs))
			s.Min, s.Max = min(s.Min, x), max(s.Max, x)
		}
		return s
	}
	return RaceSummary{
		MeasuredRacy:    of(func(r RaceRun) Peak { return r.MeasuredRacy }),
		SimulatedRacy:   of(func(r RaceRun) Peak { return r.SimulatedRacy }),
		MeasuredAtomic:  of(func(r RaceRun) Peak { return r.MeasuredAtomic }),
		SimulatedAtomic: of(func(r RaceRun) Peak { return r.SimulatedAtomic }),
	}
}
