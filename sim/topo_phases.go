package sim

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
// kind), the first answered call after failed ones. With several shards each
// shard's calls make stretches of their own (client c's shard, named in the
// phase): a hot shard failing does not flap with the idle ones answering.
func (f *fleet) callOutcome(failure storeFailure, c int32) {
	last, shard := &f.lastOutcome, -1
	if n := f.shardCount(); n > 1 {
		if f.shardOutcome == nil {
			f.shardOutcome = make([]storeFailure, n)
		}
		shard = f.shardOf(c)
		last = &f.shardOutcome[shard]
	}
	if failure == *last {
		return
	}
	if failure != storeAnswered {
		f.failStretch++
	}
	*last = failure
	kind := map[storeFailure]PhaseKind{storeAnswered: PhaseStoreAnswering, storeRefused: PhaseStoreRefusing,
		storeTimedOut: PhaseStoreTimeouts}[failure]
	f.phase(kind, -1, shard, "")
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
