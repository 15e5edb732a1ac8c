package sim

import (
	"context"
	"runtime"
)

// Lanes whose every event is a new request answered at once (the kernel's
// world) see the same requests in the same order: their arrivals are drawn
// alike (common random numbers) and nothing they decide changes them. So Run
// draws them once: one lane, the leader, runs as usual and records each
// request it handles in a block; the others, its followers, handle the
// block's requests in turn, block after block, without drawing arrivals or
// keeping a heap. The sliding-log cross-check, fed the same requests, gives
// the same verdicts in each lane whose first limit is the same: the leader
// records its verdicts in the block too, and such a follower reads them and
// keeps no log (its tracker only finds the most admitted in a window). A
// follower's result is what it would have measured on its own
// (TestSharedRequests).

// maxSharedKeys is the most keys of the first limit for which Run keeps the
// lanes that share requests alive at once (they run in lockstep); with more,
// each lane runs on its own and only the lanes running at once hold memory.
const maxSharedKeys = 1 << 16

// sharingLanes is, for a Run of cfg, the lanes that may share requests: at
// least two lanes whose one limit sim calls directly and whose verdict alone
// decides an admission, never delayed (their registry rows say so:
// laneFast.shares), in a world that fits the kernel from start to end (no
// trace, rule push, topology or backend) and is small enough to hold them all
// at once. Under an event budget the group takes each block's events
// for all its lanes at once, and parts when the budget cannot cover one
// (runApart). Each
// lane is checked again once built (canFollow). Nil when none, and when
// every lane has a core of its own: lanes that share run on one core, which
// saves processor time but, with cores to spare, not wall time.
func sharingLanes(cfg *Config, opt Options, pop *population) []int {
	if sharedOff || opt.Trace != nil || opt.Columns != nil || len(cfg.Rules) > 0 || cfg.Topology != nil || cfg.Backend != nil ||
		len(cfg.Limits) != 1 || cfg.Limits[0].Shadow || cfg.Limits[0].Concurrency > 0 || pop.keys[0].len() > maxSharedKeys || pop.clients() >= collectFrom ||
		(len(cfg.Lanes) <= runtime.GOMAXPROCS(0) && !sharedAlways) {
		return nil
	}
	var lanes []int
	for i, k := range cfg.Lanes {
		if k.Info().fast.shares() && cfg.laneConfig(i).options.None() {
			lanes = append(lanes, i)
		}
	}
	if len(lanes) < 2 {
		return nil
	}
	return lanes
}

// canFollow reports whether built lane l handles only new requests, in the
// kernel, from start to end, deciding on a limit sim calls directly.
func (l *lane) canFollow() bool {
	return l.kern.fits && l.quick != nil && l.direct.known() && l.trace == nil
}

// runShared runs lanes (sharingLanes) to end, the first leading the others,
// and keeps their results as release does. A lane that turns out not to fit
// runs on its own.
func (s *Simulation) runShared(ctx context.Context, lanes []int, meter *progressMeter) error {
	st, end := s.streamed, s.End()
	leader, err := st.build(ctx, s, lanes[0], s.lanes[lanes[0]])
	if err != nil {
		return err
	}
	var followers []*lane
	var index []int
	for _, i := range lanes[1:] {
		// A follower is never put in s.lanes, which other lanes' goroutines read.
		f, err := newLane(ctx, i, s.cfg.laneConfig(i), st.pop, nil, nil)
		if err != nil {
			return err
		}
		if !f.canFollow() || !leader.canFollow() {
			if err := s.runAlone(ctx, i, f, meter); err != nil {
				return err
			}
			continue
		}
		if f.m.peak.SameCheck(leader.m.peak) && !givenOff {
			f.m.peak.StopChecking() // it takes the leader's cross-check (follow)
		}
		followers, index = append(followers, f), append(index, i)
	}
	block := &requestBlock{} // with no followers, nothing is recorded in it
	if len(followers) > 0 {
		block = newRequestBlock()
		leader.kern.record = block
		defer func() { leader.kern.record = nil }()
	}
	for {
		// Every lane of the group handles the block: its events come out of the
		// budget for all of them at once, or the group parts (runApart).
		want := requestBlockSize * (1 + len(followers))
		if got := s.pool.take(want); got < want {
			s.pool.give(got)
			leader.kern.record = nil
			return s.runApart(ctx, leader, lanes[0], followers, index, meter)
		}
		block.reset()
		n := leader.runUntil(end, requestBlockSize)
		if len(followers) > 0 && (n != len(block.at) || n != len(block.allowed)) {
			panic("sim.Simulation.runShared: the leader handled an event outside the kernel")
		}
		s.pool.give(want - n*(1+len(followers)))
		for j, f := range followers {
			f.follow(block)
			meter.lane(index[j], f.eng.Now(), f.events)
		}
		meter.lane(lanes[0], leader.eng.Now(), leader.events)
		if n < requestBlockSize {
			break
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	for j, f := range followers {
		f.eng.Clear() // its own arrivals, never drawn: the leader's were
		st.results[index[j]], st.events[index[j]] = f.result(), f.events
		meter.lane(index[j], end, f.events)
	}
	meter.lane(lanes[0], end, leader.events)
	st.release(s, lanes[0])
	return nil
}

// runApart runs the lanes of a group that shared requests each on its own to
// the end, when what is left of the event budget cannot cover the group's next
// block: the leader goes on from where it is; each follower, which drew no
// arrivals of its own, starts again from the beginning, its events so far given
// back to the budget. So the run spends the budget exactly as it would have
// without sharing. A lane the budget stops is kept (adopted) for finish.
func (s *Simulation) runApart(ctx context.Context, leader *lane, first int, followers []*lane, index []int, meter *progressMeter) error {
	st := s.streamed
	for j, f := range followers {
		s.pool.give(int(f.events))
		meter.lane(index[j], 0, 0)
	}
	if err := s.runAlone(ctx, first, leader, meter); err != nil {
		return err
	}
	for j := range followers {
		f, err := newLane(ctx, index[j], s.cfg.laneConfig(index[j]), st.pop, nil, nil)
		if err != nil {
			return err
		}
		if err := s.runAlone(ctx, index[j], f, meter); err != nil {
			return err
		}
	}
	return nil
}

// runAlone runs lane l (lane i of the run, built outside s.lanes unless it
// is a leader) on its own to the end, taking its events from the budget, and
// keeps its result; a lane the budget stops is adopted for finish.
func (s *Simulation) runAlone(ctx context.Context, i int, l *lane, meter *progressMeter) error {
	st, end := s.streamed, s.End()
	err := runLane(l, end, &s.pool, progressEvery, func() error {
		meter.lane(i, l.eng.Now(), l.events)
		return ctx.Err()
	})
	if err != nil {
		return err
	}
	if !l.done() {
		if s.lanes[i] != l {
			st.adopted = append(st.adopted, l)
		}
		return nil
	}
	meter.lane(i, end, l.events)
	if s.lanes[i] == l {
		st.release(s, i)
	} else {
		st.results[i], st.events[i] = l.result(), l.events
	}
	return nil
}
