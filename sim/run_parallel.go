package sim

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Lanes never share mutable state while they run (each has its own clock,
// clients, limiters, metrics and random streams; the population and the Config
// are read-only between calls), so they run on as many cores as GOMAXPROCS
// gives. What they do share is handled here: the event budget (an eventPool),
// progress (reported under a lock from per-lane counters) and the trace sink
// (written in lane order, see RunUntil and RunToEnd).

// workers is how many lanes run at once: one per available core, at most
// Options.Cores.
func (s *Simulation) workers() int {
	if parallelOff {
		return 1
	}
	cores := runtime.GOMAXPROCS(0)
	if s.opt.Cores > 0 {
		cores = min(cores, s.opt.Cores)
	}
	return max(1, min(cores, len(s.lanes)))
}

// eachLane calls f for every lane, up to s.workers() at once when parallel,
// taking them up in laneOrder, and returns the first error in lane order, so
// the error does not depend on scheduling. One after the other, it goes in lane
// order and stops at the first error.
func (s *Simulation) eachLane(parallel bool, f func(i int, l *lane) error) error {
	errs := make([]error, len(s.lanes))
	if n := s.workers(); n == 1 || !parallel {
		for i, l := range s.lanes {
			if errs[i] = f(i, l); errs[i] != nil {
				break
			}
		}
	} else {
		var shared []int
		if s.streamed != nil {
			shared = s.streamed.shared
		}
		order := s.cfg.laneOrder(shared...)
		var next atomic.Int64
		var wg sync.WaitGroup
		for range n {
			wg.Go(func() {
				for k := int(next.Add(1) - 1); k < len(order); k = int(next.Add(1) - 1) {
					i := order[k]
					errs[i] = f(i, s.lanes[i])
				}
			})
		}
		wg.Wait()
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// eventPool is the event budget left to the lanes together (Options.MaxEvents),
// taken in chunks by lanes running at once. Unlimited when the budget is not
// positive. Safe for concurrent use.
type eventPool struct {
	left      atomic.Int64
	unlimited bool
}

// reset leaves budget less spent in the pool; unlimited if budget is not positive.
func (p *eventPool) reset(budget, spent int64) {
	p.unlimited = budget <= 0
	p.left.Store(max(budget-spent, 0))
}

// take reserves up to n events and returns how many it reserved.
func (p *eventPool) take(n int) int {
	if p.unlimited {
		return n
	}
	for {
		left := p.left.Load()
		got := min(int64(n), left)
		if p.left.CompareAndSwap(left, left-got) {
			return int(got)
		}
	}
}

// give returns n reserved events that were not processed.
func (p *eventPool) give(n int) {
	if !p.unlimited && n > 0 {
		p.left.Add(int64(n))
	}
}

// runLane processes lane l's events up to t, taking its events from pool in
// chunks of every, and calls after (when not nil) after each full chunk; it
// stops with after's error. A lane that finds the pool empty stops early with
// work left; RunUntil and RunToEnd then hand it what other lanes gave back.
func runLane(l *lane, t time.Duration, pool *eventPool, every int, after func() error) error {
	for {
		q := pool.take(every)
		n := l.runUntil(t, q)
		pool.give(q - n)
		if l.err != nil {
			return l.err
		}
		if n < q || q == 0 {
			return nil
		}
		if after != nil {
			if err := after(); err != nil {
				return err
			}
		}
	}
}

// progressMeter reports the run's progress from lanes running at once: the
// virtual time reached, averaged over the lanes, and the events processed.
type progressMeter struct {
	mu     sync.Mutex
	report func(Progress)
	now    []time.Duration // per lane
	events []int64         // per lane
	end    time.Duration
}

func (s *Simulation) newProgressMeter() *progressMeter {
	if s.opt.Progress == nil {
		return nil
	}
	return &progressMeter{report: s.opt.Progress, now: make([]time.Duration, len(s.lanes)), events: make([]int64, len(s.lanes)), end: s.End()}
}

// lane records that lane i reached now having processed events, and reports.
func (m *progressMeter) lane(i int, now time.Duration, events int64) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.now[i], m.events[i] = now, events
	var sum time.Duration
	var n int64
	for j := range m.now {
		sum += m.now[j]
		n += m.events[j]
	}
	m.report(Progress{Now: sum / time.Duration(len(m.now)), End: m.end, Events: n})
}

// runUntilParallel is RunUntil's step of every lane to t, the lanes at once,
// their trace records buffered and written in lane order.
func (s *Simulation) runUntilParallel(t time.Duration, pool *eventPool) error {
	buffers := s.bufferTraces()
	err := s.eachLane(true, func(_ int, l *lane) error { return runLane(l, t, pool, 1<<30, nil) })
	if ferr := s.flushTraces(buffers); ferr != nil {
		return ferr
	}
	return err
}

// traceBuffer holds one lane's trace records during a RunUntil step.
type traceBuffer struct {
	recs []TraceRecord
}

func (b *traceBuffer) Record(r *TraceRecord) error {
	b.recs = append(b.recs, *r)
	return nil
}

// bufferTraces points every lane's trace at a buffer of its own, so lanes can
// run at once; nil without a trace sink.
func (s *Simulation) bufferTraces() []*traceBuffer {
	if s.opt.Trace == nil || s.workers() == 1 {
		return nil
	}
	bufs := make([]*traceBuffer, len(s.lanes))
	for i, l := range s.lanes {
		bufs[i] = &traceBuffer{}
		l.trace = bufs[i]
	}
	return bufs
}

// flushTraces writes the buffered records to the trace sink, lane after lane,
// points the lanes back at it and returns its first error.
func (s *Simulation) flushTraces(bufs []*traceBuffer) error {
	var first error
	for i, b := range bufs {
		s.lanes[i].trace = s.opt.Trace
		for j := range b.recs {
			if first != nil {
				break
			}
			first = s.opt.Trace.Record(&b.recs[j])
		}
	}
	return first
}

// splitTrace points each lane at its own sink when the trace sink is a
// LaneTraceSink, and reports whether it is.
func (s *Simulation) splitTrace() bool {
	split, ok := s.opt.Trace.(LaneTraceSink)
	if !ok {
		return false
	}
	sinks := split.ForLanes(len(s.lanes))
	for i, sink := range sinks {
		if s.lanes[i] != nil {
			s.lanes[i].trace = sink
		}
	}
	if s.streamed != nil {
		s.streamed.sinks = sinks
	}
	return true
}

// joinTrace points every lane back at the trace sink.
func (s *Simulation) joinTrace() {
	for _, l := range s.lanes {
		if l != nil {
			l.trace = s.opt.Trace
		}
	}
	if s.streamed != nil {
		s.streamed.sinks = nil
	}
}
