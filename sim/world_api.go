package sim

import (
	"fmt"
	"time"
)

// Options are the per-run knobs that are not part of the world.
type Options struct {
	// Trace, when set, receives every attempt and backend outcome as it happens.
	Trace TraceSink
	// Progress, when set, is called now and then by RunToEnd with how far the
	// run has got: from the goroutines running the lanes, one call at a time.
	Progress func(Progress)
	// MaxEvents, when positive, is the event budget: the run stops with a
	// *BudgetError as soon as its lanes together have processed that many
	// events and still have work left.
	MaxEvents int64
	// Columns, when set, counts each lane's attempts per column of virtual
	// time as they happen, as a timeline would bin the trace, with no trace
	// built (lane_columns.go). NewContext and Run size it for the lanes.
	Columns *Columns
	// Cores, when positive, is the most lanes that run at once; 0 runs one
	// on each core GOMAXPROCS gives. What a run measures does not depend on
	// it. A caller running several runs at once, one on each core (a
	// sweep), sets 1: a run's lanes then share no core's caches with
	// another's.
	Cores int
}

// Progress is how far a run has got.
type Progress struct {
	Now    time.Duration // the virtual time reached, averaged over the lanes
	End    time.Duration // when the run ends (Simulation.End)
	Events int64         // the events every lane together has processed
}

// BudgetError stops a run that reached its event budget (Options.MaxEvents,
// contention.Config.MaxEvents) with work left.
type BudgetError struct {
	Budget int64  // the events allowed, all processed
	Where  string // how far the run got, e.g. "in lane gcra at t=3s of 20s"
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("stopped after the budget of %d events, %s", e.Budget, e.Where)
}

// TraceSink receives trace records in virtual-time order per lane. The record is
// reused after the call returns.
type TraceSink interface {
	Record(r *TraceRecord) error
}

// LaneTraceSink is a TraceSink whose lanes' records are independent of each
// other's, so lanes may run at once while tracing. RunToEnd calls ForLanes once,
// before any lane runs, and then each lane i calls Record only on the i-th sink,
// lanes at the same time; the sinks' records are in virtual-time order per lane.
type LaneTraceSink interface {
	TraceSink
	ForLanes(n int) []TraceSink
}

// TraceEvent says what a trace record is about.
type TraceEvent uint8

const (
	TraceAdmit   TraceEvent = iota // limiter admitted the attempt now
	TraceDelay                     // limiter admitted it late, at At+Delay
	TraceRefuse                    // 429 from the limit named in Limit
	TraceDrop                      // dropped client-side by the adaptive throttle
	TraceShed                      // 503: over a concurrency limit, backend queue full or down
	TraceSuccess                   // the backend answered 200 (At = completion)
)

// StoreOutcome is what one store call did (TraceRecord.Store).
type StoreOutcome uint8

const (
	StoreNoCall      StoreOutcome = iota // no store call
	StoreAnswered                        // answered
	StoreTimedOut                        // no answer within the timeout (hung)
	StoreDown                            // refused at once: the store down, or cut off by a partition
	StoreQueueFull                       // refused at once: the shard's queue full
	StoreOutOfMemory                     // refused: the write did not fit the shard's memory (noeviction)
)

// TraceRecord is one line of the trace.
type TraceRecord struct {
	At         time.Duration
	Lane       LaneKind
	LaneName   string // the lane's name (Config.LaneName)
	LaneIndex  int    // the lane's index in Config.Lanes and Result.Lanes
	Event      TraceEvent
	Client     int    // global client index
	Class      string // client group name
	Key        string // the first limit's key of the client
	Request    int64  // the client's request number
	Attempt    int    // 1 for the first attempt
	Cost       int64
	Delay      time.Duration // TraceDelay: wait until release
	RetryAfter time.Duration // TraceRefuse, and TraceShed when set to send one: the Retry-After, exact
	// Limit is, on TraceRefuse, the limit that tripped; on TraceAdmit and
	// TraceDelay, the limit whose quota the RateLimit header reports (nearest
	// exhaustion among those that send headers; "" when none does).
	Limit string
	// Shadow is, on TraceAdmit, TraceDelay and TraceRefuse, the shadow limit
	// (Limit.Shadow) that would have refused the attempt, the first in chain
	// order; "" when none would have.
	Shadow string
	// Shedder is, on TraceShed, the load shedder that shed the attempt
	// (ShedderNames); "" for a shed of the backend or a concurrency lane.
	Shedder string
	Latency time.Duration // TraceSuccess: time in the backend
	// Concurrency is true in a concurrency-limiter lane (AIMD, Vegas, Gradient2), whose
	// ConcurrencyLimit and InFlight are then the limit on requests in flight and
	// the requests in flight just after the record's event. (Concurrency sits by
	// Throttled, in one word.)
	ConcurrencyLimit float64
	InFlight         int
	Concurrency      bool
	// Throttled is true on a send decision (TraceDrop, TraceAdmit, TraceDelay,
	// TraceRefuse) in the client-throttling lane, whose DropProbability is then
	// the drop probability the client's throttle had at its latest send decision
	// (this attempt's, unless the client sent another while it waited on a store).
	Throttled       bool
	DropProbability float64
	// Replica is, with a topology, the replica (from 0) that decided the
	// attempt; -1 without one, or in a lane it does not apply to.
	Replica int
	// Shard is, with a store of several shards, the shard (from 0) that holds
	// the client's keys; -1 otherwise.
	Shard int
	// StoreLatency is, on the first record of an attempt whose decision
	// called the store, the call's latency: round trips, wait and service (the
	// timeout for a timed-out call, 0 for one refused at once); the call was
	// sent at At − StoreLatency. Store is what the call did; StoreNoCall on
	// every other record. (Store sits by Answered: a web session keeps five
	// records a column.)
	StoreLatency time.Duration
	Store        StoreOutcome
	// Answered is true when a rate limit answered the attempt (admit, delay,
	// refuse); Remaining and Reset are then what its RateLimit header says: the
	// quota left and the time until it is whole again, of Limit.
	Answered  bool
	Remaining int64
	Reset     time.Duration
}
