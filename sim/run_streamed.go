package sim

import (
	"context"
	"runtime"
)

// Run builds each lane when it starts and releases it once it has run to the
// end, keeping only its result, so a run holds the per-key and per-client state
// of the lanes running at once (at most GOMAXPROCS), not of every lane: that is
// what lets millions of keys run through all eight lanes. A lane built later is
// the same lane (it depends only on the Config and the population), so the
// result is byte-identical to a Simulation's, whose lanes all stay alive for
// the live methods (RunUntil, Snapshot, ChangeRule, Inject).

// streamedLanes is what a Simulation run by Run keeps of its lanes.
type streamedLanes struct {
	pop     *population
	sinks   []TraceSink  // each lane's trace sink (a LaneTraceSink's), or nil
	results []LaneResult // of each released lane
	events  []int64      // processed by each released lane
	shared  []int        // the lanes that share requests (sharingLanes), led by the first; nil if none
	adopted []*lane      // lanes of that group the event budget stopped, built outside Simulation.lanes (runAlone)
}

// sharing says what lane i is in the lanes that share requests: their leader
// (then lanes are all of them), a follower, or neither.
func (st *streamedLanes) sharing(i int) (lanes []int, leader, follower bool) {
	if st == nil || len(st.shared) == 0 {
		return nil, false, false
	}
	if st.shared[0] == i {
		return st.shared, true, false
	}
	for _, j := range st.shared[1:] {
		if j == i {
			return nil, false, true
		}
	}
	return nil, false, false
}

// Run simulates cfg through every lane to the end and returns what was measured.
// It stops early with ctx's error when ctx is cancelled.
func Run(ctx context.Context, cfg Config, opt Options) (Result, error) {
	s, pop, err := newSimulation(ctx, cfg, opt)
	if err != nil {
		return Result{}, err
	}
	if err := probeLanes(ctx, &s.cfg, pop); err != nil {
		return Result{}, err
	}
	n := len(s.cfg.Lanes)
	s.lanes = make([]*lane, n)
	s.streamed = &streamedLanes{pop: pop, results: make([]LaneResult, n), events: make([]int64, n), shared: sharingLanes(&s.cfg, opt, pop)}
	return s.RunToEnd(ctx)
}

// probeLanes reports the first error that building a lane of cfg would
// report, as NewContext does, before any lane runs: it builds each lane for a
// population without clients, which costs nothing per client or key.
func probeLanes(ctx context.Context, cfg *Config, pop *population) error {
	empty := &population{groups: pop.groups, keyOf: make([][]int32, len(pop.keys)), keys: make([]keyTable, len(pop.keys)), skip: make([][]bool, len(pop.keys))}
	for i := range cfg.Lanes {
		if _, err := newLane(ctx, i, cfg.laneConfig(i), empty, nil, nil); err != nil {
			return err
		}
	}
	return nil
}

// build is lane i of s: l itself when it is built already, else built now.
func (st *streamedLanes) build(ctx context.Context, s *Simulation, i int, l *lane) (*lane, error) {
	if l != nil || st == nil {
		return l, nil
	}
	trace := s.opt.Trace
	if st.sinks != nil {
		trace = st.sinks[i]
	}
	l, err := newLane(ctx, i, s.cfg.laneConfig(i), st.pop, trace, s.columns(i))
	if err != nil {
		return nil, err
	}
	s.lanes[i] = l // only lane i's goroutine touches s.lanes[i] while lanes run
	return l, nil
}

// release takes lane i's result and drops the lane, if it has nothing left to
// do before the end. A lane the event budget stopped early stays, for
// Simulation.finish to hand it what other lanes gave back.
func (st *streamedLanes) release(s *Simulation, i int) {
	l := s.lanes[i]
	if st == nil || !l.done() {
		return
	}
	st.results[i] = l.result()
	st.events[i] = l.events
	s.lanes[i] = nil
	if st.pop.clients() >= collectFrom {
		// Collect now, so that the next lane reuses this lane's memory. Left to
		// itself the collector lets the heap grow to twice what was live at its
		// last collection, which included this lane.
		runtime.GC()
	}
}

// collectFrom is how many clients make a lane large enough to collect after:
// a collection costs some milliseconds, a lane of a million clients hundreds of
// megabytes.
const collectFrom = 1 << 18

// releasedEvents is how many events the released lanes processed.
func (st *streamedLanes) releasedEvents() int64 {
	if st == nil {
		return 0
	}
	var n int64
	for _, e := range st.events {
		n += e
	}
	return n
}

// adopt puts the lanes the event budget stopped while they ran outside
// s.lanes (runAlone) into s.lanes, for finish; called once no lane runs.
func (st *streamedLanes) adopt(s *Simulation) {
	if st == nil {
		return
	}
	for _, l := range st.adopted {
		s.lanes[l.index] = l
	}
	st.adopted = nil
}
