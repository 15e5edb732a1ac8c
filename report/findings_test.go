package report

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// decisionLog keeps every lane's decisions as the trace reports them.
type decisionLog map[int][]decision // by lane index

// decision is what the trace tells of one decision: when, whose attempt, and
// what was decided.
type decision struct {
	at, delay time.Duration
	client    int
	request   int64
	attempt   int
	event     sim.TraceEvent
}

func (d decisionLog) Record(r *sim.TraceRecord) error {
	if r.Event != sim.TraceSuccess {
		d[r.LaneIndex] = append(d[r.LaneIndex], decision{at: r.At, delay: r.Delay, client: r.Client, request: r.Request, attempt: r.Attempt, event: r.Event})
	}
	return nil
}

// tracedBuiltin is a built-in comparison's result with its decisions and its
// would-be refusals by shadow limits, from one traced run for the whole
// package: the tests only read them.
func tracedBuiltin(t *testing.T, name string) (sim.Result, decisionLog, shadowCount) {
	t.Helper()
	v, _ := tracedRuns.LoadOrStore(name, &tracedRun{})
	run := v.(*tracedRun)
	run.once.Do(func() {
		run.log, run.shadows = decisionLog{}, shadowCount{}
		_, run.r, run.err = loadAndRun(name, traceBoth{run.log, run.shadows})
	})
	if run.err != nil {
		t.Fatal(run.err)
	}
	return run.r, run.log, run.shadows
}

// tracedRuns holds each built-in's traced run, by name.
var tracedRuns sync.Map

type tracedRun struct {
	once    sync.Once
	r       sim.Result
	log     decisionLog
	shadows shadowCount
	err     error
}

// traceBoth hands every record to both sinks.
type traceBoth [2]sim.TraceSink

func (b traceBoth) Record(r *sim.TraceRecord) error {
	if err := b[0].Record(r); err != nil {
		return err
	}
	return b[1].Record(r)
}

// runBuiltin runs a built-in comparison, with its decisions when log is not nil.
// Without a log a built-in runs once for the whole package: the tests only
// read its result, and a built-in decides the same on every run.
func runBuiltin(t *testing.T, name string, log decisionLog) (*scenarios.Scenario, sim.Result) {
	t.Helper()
	if log != nil {
		return runBuiltinOnce(t, name, log)
	}
	v, _ := builtinRuns.LoadOrStore(name, &builtinRun{})
	run := v.(*builtinRun)
	run.once.Do(func() { run.sc, run.r, run.err = loadAndRun(name, nil) })
	if run.err != nil {
		t.Fatal(run.err)
	}
	return run.sc, run.r
}

// builtinRuns holds each built-in's result without a log, by name.
var builtinRuns sync.Map

type builtinRun struct {
	once sync.Once
	sc   *scenarios.Scenario
	r    sim.Result
	err  error
}

func runBuiltinOnce(t *testing.T, name string, log sim.TraceSink) (*scenarios.Scenario, sim.Result) {
	t.Helper()
	s, r, err := loadAndRun(name, log)
	if err != nil {
		t.Fatal(err)
	}
	return s, r
}

func loadAndRun(name string, log sim.TraceSink) (*scenarios.Scenario, sim.Result, error) {
	s, err := scenarios.LoadBuiltin(name)
	if err != nil {
		return nil, sim.Result{}, err
	}
	var opt sim.Options
	if log != nil {
		opt.Trace = log
	}
	r, err := sim.Run(context.Background(), *s.Config, opt)
	return s, r, err
}

func comparisons() []string {
	var names []string
	for _, b := range scenarios.Builtins() {
		if s, err := scenarios.LoadBuiltin(b.Name); err == nil && s.Config != nil {
			names = append(names, b.Name)
		}
	}
	return names
}

// Two lanes have the same verdict hash exactly when the trace shows them making
// the same decision on every attempt; so "made the same decision on every
// attempt" is said of those lanes and no others (nat-per-ip once said fixed
// window and sliding log agree: equal totals, peaks of 49 and 40).
func TestSameDecisionsMeansSameVerdicts(t *testing.T) {
	for _, name := range comparisons() {
		t.Run(name, func(t *testing.T) {
			r, log, _ := tracedBuiltin(t, name)
			for i, a := range r.Lanes {
				for j, b := range r.Lanes[i+1:] {
					same := slices.Equal(log[i], log[i+1+j])
					if same != (a.Verdicts == b.Verdicts) {
						t.Errorf("%s and %s: decisions alike %v, verdict hashes equal %v", a.Title(), b.Title(), same, a.Verdicts == b.Verdicts)
					}
				}
			}
			for _, f := range Findings(r) {
				if !strings.Contains(f, "made the same decision on every attempt") {
					continue
				}
				var named []int
				for i, l := range r.Lanes {
					if strings.Contains(f, l.Title()) {
						named = append(named, i)
					}
				}
				for _, i := range named[1:] {
					if !slices.Equal(log[i], log[named[0]]) {
						t.Errorf("%q, but %s and %s decided differently", f, r.Lanes[named[0]].Title(), r.Lanes[i].Title())
					}
				}
			}
		})
	}
}

// A lane that admitted every attempt and whose limit is not a rate (AIMD with
// no backend to push back) is said to limit nothing; it heads no finding and is
// not flagged over the limit.
func TestALaneThatLimitsNothingSaysSo(t *testing.T) {
	for _, name := range comparisons() {
		t.Run(name, func(t *testing.T) {
			_, r := runBuiltin(t, name, nil)
			fs := Findings(r)
			for _, l := range r.Lanes {
				if !l.NotLimiting() {
					continue
				}
				if len(fs) > 0 && strings.HasPrefix(fs[0], l.Title()) && !strings.Contains(fs[0], "limited nothing") {
					t.Errorf("findings open with %s, which limited nothing: %q", l.Title(), fs[0])
				}
				said := false
				for _, f := range fs {
					said = said || strings.Contains(f, l.Title()) && strings.Contains(f, "limited nothing")
					if strings.Contains(f, l.Title()) && strings.Contains(f, "× the limit") {
						t.Errorf("%s limited nothing, yet: %q", l.Title(), f)
					}
				}
				if !said {
					t.Errorf("%s limited nothing and no finding says so: %q", l.Title(), fs)
				}
				if got := ratio(l); strings.Contains(got, "OVER") {
					t.Errorf("%s limited nothing; its vs-limit cell reads %q", l.Title(), got)
				}
			}
		})
	}
}

// A lane that holds the limit while the clients it exists to protect get under
// half their fair share is not shown as a success (nat-per-ip's sliding log).
func TestVerdictWeighsTheProtectedClients(t *testing.T) {
	for _, name := range comparisons() {
		t.Run(name, func(t *testing.T) {
			_, r := runBuiltin(t, name, nil)
			for _, l := range r.Lanes {
				v := laneVerdict(r, l)
				for _, c := range l.Classes {
					if len(l.Classes) < 2 || c.FairShare == 0 || float64(c.Succeeded) >= c.FairShare/2 {
						continue
					}
					if v.Tone == "good" {
						t.Errorf("%s: class %s got %d of a fair %.0f, yet the verdict is %q (%s)",
							l.Title(), c.Name, c.Succeeded, c.FairShare, v.Badge, v.Tone)
					}
				}
			}
		})
	}
}

// successLog keeps, per lane and class, each request's first attempt and the
// times from it to success, as the trace tells them.
type successLog struct {
	first map[string]time.Duration
	took  map[sim.LaneKind]map[string][]time.Duration
}

func (s *successLog) Record(r *sim.TraceRecord) error {
	id := fmt.Sprint(r.Lane, r.Client, r.Request)
	if r.Event != sim.TraceSuccess {
		if r.Attempt == 1 {
			s.first[id] = r.At
		}
		return nil
	}
	if s.took[r.Lane] == nil {
		s.took[r.Lane] = map[string][]time.Duration{}
	}
	s.took[r.Lane][r.Class] = append(s.took[r.Lane][r.Class], r.At-s.first[id])
	return nil
}

// Each class's p50 and p99 time from first attempt to success match the trace
// (the histogram is exact to 1%), and the classes' counts add up to the lane's.
func TestClassOutcomesMatchTheTrace(t *testing.T) {
	for _, name := range []string{"demo", "retry-storm-full-jitter", "nat-per-ip"} {
		t.Run(name, func(t *testing.T) {
			s, err := scenarios.LoadBuiltin(name)
			if err != nil {
				t.Fatal(err)
			}
			log := &successLog{first: map[string]time.Duration{}, took: map[sim.LaneKind]map[string][]time.Duration{}}
			r, err := sim.Run(context.Background(), *s.Config, sim.Options{Trace: log})
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range r.Lanes {
				var sum sim.ClassResult
				for _, c := range l.Classes {
					sum.Unique += c.Unique
					sum.Attempts += c.Attempts
					sum.Refused += c.Refused
					sum.Shed += c.Shed
					sum.Succeeded += c.Succeeded
					sum.GaveUp += c.GaveUp
					took := log.took[l.Lane][c.Name]
					if int64(len(took)) != c.TimeToSuccess.Count || c.TimeToSuccess.Count != c.Succeeded {
						t.Errorf("%s, %s: %d successes timed, %d in the trace, %d succeeded", l.Title(), c.Name,
							c.TimeToSuccess.Count, len(took), c.Succeeded)
						continue
					}
					if len(took) == 0 {
						continue
					}
					slices.Sort(took)
					for _, q := range []struct {
						p    float64
						got  time.Duration
						name string
					}{{0.50, c.TimeToSuccess.P50, "p50"}, {0.99, c.TimeToSuccess.P99, "p99"}} {
						rank := min(max(int(q.p*float64(len(took))+0.5), 1), len(took))
						exact := took[rank-1]
						if diff := q.got - exact; diff < 0 || float64(diff) > 0.01*float64(exact)+1 {
							t.Errorf("%s, %s: %s to success %v, the trace's %v", l.Title(), c.Name, q.name, q.got, exact)
						}
					}
				}
				if sum.Unique != l.Unique || sum.Attempts != l.Attempts || sum.Refused != l.Refused || sum.Shed != l.Shed ||
					sum.Succeeded != l.Succeeded || sum.GaveUp != l.GaveUp {
					t.Errorf("%s: the classes add up to %+v; the lane has unique %d, attempts %d, refused %d, shed %d, succeeded %d, gave up %d",
						l.Title(), sum, l.Unique, l.Attempts, l.Refused, l.Shed, l.Succeeded, l.GaveUp)
				}
			}
		})
	}
}
