package sim

import "time"

// maxPhases bounds the phases a run records: a store that flaps every
// second for a day would otherwise record a phase per flap. The last one
// recorded says so (TopologyResult.PhasesCut).
const maxPhases = 256

// phase records p at the lane's time, unless the run has recorded as many
// as it keeps.
func (f *fleet) phase(kind PhaseKind, replica, shard int, limit string) {
	f.phaseAt(f.lane.eng.Now(), kind, replica, shard, limit)
}

// phaseAt records p at at (at most the lane's time: the phases are put in
// time order at the end, topologyResult).
func (f *fleet) phaseAt(at time.Duration, kind PhaseKind, replica, shard int, limit string) {
	if len(f.result.Phases) >= maxPhases {
		f.result.PhasesCut = true
		return
	}
	f.result.Phases = append(f.result.Phases, Phase{At: at, Kind: kind, Replica: replica, Shard: shard, Limit: limit})
}

// storeQuiet is how long the store (a shard) must answer every call for a
// stretch of failed calls to end: a saturated store answers some calls
// between its timeouts and refusals, and a stretch that ended at each of
// them would flap, a phase per call.
const storeQuiet = time.Second

// storeStretch is a stretch of failed calls to the store, or to one shard.
type storeStretch struct {
	open     bool
	named    uint8         // the failure kinds already named in the stretch (bit per storeFailure)
	lastFail time.Duration // the stretch's latest failed call
	firstOK  time.Duration // the first answered call since, -1 if none
}

// callOutcome records the phases a store call's outcome at the lane's time
// starts: a stretch of failures starts at the first failed call after the
// store answered every call for storeQuiet (or at the first ever), each kind
// of failure (timeouts, refusals) is named at its first call in the stretch,
// and the stretch ends, store_answering at the first answered call since its
// last failure, once the store has answered every call for storeQuiet. With
// several shards each shard's calls make stretches of their own (client c's
// shard, named in the phase): a hot shard failing does not flap with the idle
// ones answering.
func (f *fleet) callOutcome(failure storeFailure, c int32) {
	st, shard := &f.stretch, -1
	if n := f.shardCount(); n > 1 {
		if f.shardStretch == nil {
			f.shardStretch = make([]storeStretch, n)
		}
		shard = f.shardOf(c)
		st = &f.shardStretch[shard]
	}
	now := f.lane.eng.Now()
	if failure == storeAnswered {
		if !st.open {
			return
		}
		if st.firstOK < 0 {
			st.firstOK = now
		}
		if now-st.lastFail >= storeQuiet {
			st.open = false
			f.phaseAt(st.firstOK, PhaseStoreAnswering, -1, shard, "")
		}
		return
	}
	if !st.open {
		*st = storeStretch{open: true}
		f.failStretch++
	}
	st.lastFail, st.firstOK = now, -1
	if bit := uint8(1) << failure; st.named&bit == 0 {
		st.named |= bit
		kind := map[storeFailure]PhaseKind{storeRefused: PhaseStoreRefusing, storeTimedOut: PhaseStoreTimeouts}[failure]
		f.phase(kind, -1, shard, "")
	}
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
