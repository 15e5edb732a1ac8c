package sim

import (
	"context"
	"errors"
	"reflect"
	"runtime"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// laneSinks is a LaneTraceSink keeping each lane's records apart.
type laneSinks struct {
	traceLog
	lanes []*traceLog
}

func (s *laneSinks) ForLanes(n int) []TraceSink {
	sinks := make([]TraceSink, n)
	s.lanes = make([]*traceLog, n)
	for i := range sinks {
		s.lanes[i] = &traceLog{}
		sinks[i] = s.lanes[i]
	}
	return sinks
}

// records is every record, lane after lane.
func (s *laneSinks) records() []TraceRecord {
	recs := s.recs
	for _, l := range s.lanes {
		recs = append(recs, l.recs...)
	}
	return recs
}

// TestRunLikeASimulation wants Run, which builds each lane as it starts and
// drops it when it ends, to measure, trace and fail exactly as a Simulation
// whose lanes all live from New to the end: lanes one after the other and at
// once, with a plain trace sink and a per-lane one, over every lane, a
// topology and an event budget.
func TestRunLikeASimulation(t *testing.T) {
	poisson := liveWorld(Arrival{Kind: ArrivalPoisson, Rate: Rate{Count: 6, Per: time.Second}})
	poisson.Clients[0].Retry = Retry{Kind: RetryExponential, Base: 50 * time.Millisecond, Cap: time.Second, Jitter: JitterFull, MaxAttempts: 3}
	fleet := withTopology(poisson, Topology{Replicas: []ReplicaStep{{Count: 3}}}, func(*Limit) {})
	tooLarge := poisson
	tooLarge.Limits = append([]Limit(nil), poisson.Limits...)
	tooLarge.Limits[0].Policy.Limit = 1<<30 + 1
	tests := []struct {
		name      string
		cfg       Config
		maxEvents int64
		fails     bool
	}{
		{"every lane", poisson, 0, false},
		{"topology", fleet, 0, false},
		{"budget", poisson, 300, true},
		{"a limit too large to log", tooLarge, 0, true},
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, tc := range tests {
		for _, procs := range []int{1, 4} {
			for _, perLane := range []bool{false, true} {
				runtime.GOMAXPROCS(procs)
				play := func(run func(Options) (Result, error)) (Result, error, []TraceRecord) {
					var plain traceLog
					var split laneSinks
					opt := Options{MaxEvents: tc.maxEvents, Trace: &plain}
					if perLane {
						opt.Trace = &split
					}
					r, err := run(opt)
					if perLane {
						return r, err, split.records()
					}
					return r, err, plain.recs
				}
				want, wantErr, wantTrace := play(func(opt Options) (Result, error) {
					s, err := New(tc.cfg, opt)
					if err != nil {
						return Result{}, err
					}
					return s.RunToEnd(context.Background())
				})
				got, err, trace := play(func(opt Options) (Result, error) { return Run(context.Background(), tc.cfg, opt) })
				where := tc.name + ", GOMAXPROCS " + itoa(procs)
				if perLane {
					where += ", per-lane trace"
				}
				if (wantErr != nil) != tc.fails {
					t.Errorf("%s: a Simulation's error %v, want failed=%v", where, wantErr, tc.fails)
				}
				if tc.maxEvents > 0 && procs > 1 {
					// Lanes at once spend a budget in the order they get to it, so
					// where it ran out is up to the scheduler, as for a Simulation.
					var be *BudgetError
					if !errors.As(err, &be) || be.Budget != tc.maxEvents {
						t.Errorf("%s: Run's error %v, want the budget's", where, err)
					}
					continue
				}
				if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
					t.Errorf("%s: Run's error %v, want %v", where, err, wantErr)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s: Run measured\n%+v\nwant\n%+v", where, got, want)
				}
				if len(trace) != len(wantTrace) || !reflect.DeepEqual(trace, wantTrace) {
					t.Errorf("%s: Run traced %d records, want %d, or others", where, len(trace), len(wantTrace))
				}
			}
		}
	}
}

// TestRunHoldsOnlyTheLaneRunning runs every lane one after the other and
// counts, at each report of progress, the lanes built and not yet released:
// one, the lane running. (Lanes at once hold as many as run at once.)
func TestRunHoldsOnlyTheLaneRunning(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	cfg := Config{Duration: 20 * time.Second, Seed: 3,
		Limits:  []Limit{{Key: KeyUser, Policy: algorithms.Policy{Limit: 4, Window: time.Second}}},
		Clients: []ClientGroup{{Count: 100, Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 50, Per: time.Second}}}}},
	}
	var s *Simulation
	most, reports := 0, 0
	opt := Options{Progress: func(Progress) {
		alive := 0
		for _, l := range s.lanes {
			if l != nil {
				alive++
			}
		}
		most, reports = max(most, alive), reports+1
	}}
	s, pop, err := newSimulation(context.Background(), cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	s.lanes = make([]*lane, len(s.cfg.Lanes))
	s.streamed = &streamedLanes{pop: pop, results: make([]LaneResult, len(s.lanes)), events: make([]int64, len(s.lanes))}
	if _, err := s.RunToEnd(context.Background()); err != nil {
		t.Fatal(err)
	}
	if reports <= len(s.lanes) {
		t.Fatalf("%d reports of progress for %d lanes: too few to see lanes overlap", reports, len(s.lanes))
	}
	if most != 1 {
		t.Errorf("at most %d lanes held at once, want 1", most)
	}
	for i, l := range s.lanes {
		if l != nil {
			t.Errorf("lane %d still held after the run", i)
		}
	}
}

// TestRunStopsWithTheContext wants a cancelled context's error from Run.
func TestRunStopsWithTheContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, liveWorld(Arrival{Kind: ArrivalConstant, Rate: Rate{Count: 6, Per: time.Second}}), Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Run with a cancelled context: error %v, want %v", err, context.Canceled)
	}
}
