package sim

import "time"

// PhaseKind names a moment in a topology's run that changes what the fleet
// does: the store slowing past its timeout, a limit failing open or closed, a
// breaker opening, a replica leaving the rotation. The findings tell a run's
// phases in time order; the timeline draws them as bands.
type PhaseKind uint8

const (
	// PhaseStoreTimeouts is the first call of a stretch of failed calls that
	// timed out (the store's latency passed the timeout), PhaseStoreRefusing
	// one that was refused (the store down); PhaseStoreAnswering the first
	// answered call after a stretch of failed ones. Each is at the instant the
	// call was sent.
	PhaseStoreTimeouts PhaseKind = iota
	PhaseStoreRefusing
	PhaseStoreAnswering
	// PhaseFailOpen, PhaseFailClosed and PhaseFailLocal are a limit's first
	// decision by its fail mode in a stretch of store errors (Limit names it).
	PhaseFailOpen
	PhaseFailClosed
	PhaseFailLocal
)

var phaseEnum = enum[PhaseKind]{"PhaseKind", []string{
	PhaseStoreTimeouts:  "store_timeouts",
	PhaseStoreRefusing:  "store_refusing",
	PhaseStoreAnswering: "store_answering",
	PhaseFailOpen:       "fail_open",
	PhaseFailClosed:     "fail_closed",
	PhaseFailLocal:      "fail_local",
}}

func (k PhaseKind) String() string { return phaseEnum.name(k) }

// Phase is one moment of a topology's run (TopologyResult.Phases), in time
// order. Replica, Shard and Limit say where it happened; -1 and "" mean
// the whole fleet, every shard, no one limit.
type Phase struct {
	At      time.Duration
	Kind    PhaseKind
	Replica int
	Shard   int
	Limit   string
}

// maxPhases bounds the phases a run records: a store that flaps every
// second for a day would otherwise record a phase per flap. The last one
// recorded says so (TopologyResult.PhasesCut).
const maxPhases = 256

// phase records p at the lane's time, unless the run has recorded as many
// as it keeps.
func (f *fleet) phase(kind PhaseKind, replica, shard int, limit string) {
	if len(f.result.Phases) >= maxPhases {
		f.result.PhasesCut = true
		return
	}
	f.result.Phases = append(f.result.Phases, Phase{At: f.lane.eng.Now(), Kind: kind, Replica: replica, Shard: shard, Limit: limit})
}

// callOutcome records the phase a store call's outcome starts, if it starts
// one: the first failed call after answered ones (or a failure of another
// kind), the first answered call after failed ones.
func (f *fleet) callOutcome(failure storeFailure) {
	if failure == f.lastOutcome {
		return
	}
	if failure != storeAnswered {
		f.failStretch++
	}
	f.lastOutcome = failure
	kind := map[storeFailure]PhaseKind{storeAnswered: PhaseStoreAnswering, storeRefused: PhaseStoreRefusing,
		storeTimedOut: PhaseStoreTimeouts}[failure]
	f.phase(kind, -1, -1, "")
}

// failMode records a limit's first decision by its fail mode in the current
// stretch of store errors.
func (sl *sharedLimit) failModePhase() {
	if sl.stretch == sl.f.failStretch {
		return
	}
	sl.stretch = sl.f.failStretch
	kind := map[FailMode]PhaseKind{FailOpen: PhaseFailOpen, FailClosed: PhaseFailClosed, FailLocal: PhaseFailLocal}[sl.mode]
	sl.f.phase(kind, int(sl.f.ctx.replica), -1, sl.f.lane.cfg.Limits[sl.index].Name)
}
