package sim

import "slices"

// Which switches a world reaches. Most switches are read by every run; the
// others only behind a feature of the world: a lane with a topology, a
// concurrency limiter, a client gate, a limit that delays, lanes that share
// requests, a burst of one, two lanes, many clients, a store call. Flipped
// in a world without that feature, such a switch is never read: the run is
// the fastest setting's run again, which the harness already holds to the
// general path, and decides nothing. checkFastPaths flips a switch only in
// the worlds that reach it, and counts those (diffOutcome.flipped), so each
// test can require its switches flipped where they are read.

// reachWorld is a world built as New builds it with the fastest setting,
// every lane at once: what the reach predicates read.
type reachWorld struct {
	cfg   *Config // with defaults
	lanes []*lane
}

func (w *reachWorld) anyLane(f func(l *lane) bool) bool { return slices.ContainsFunc(w.lanes, f) }

// hasTopology reports whether some lane runs behind a topology: a fleet, or
// one limiter standing for it (topo_onelimiter.go).
func (w *reachWorld) hasTopology() bool {
	for i := range w.cfg.Lanes {
		if w.cfg.laneConfig(i).Topology != nil {
			return true
		}
	}
	return false
}

// switchReach is, for each switch read only behind a feature of the world,
// whether the world has it. Each predicate is the condition under which
// sim's code reads the flag, or wider (the read sites are named); a switch
// not listed is read by every world.
var switchReach = map[string]func(w *reachWorld) bool{
	// fast_delays.go, delaysInKernel: a limit that delays, on a lane with no fleet.
	"delay_kernel_off": func(w *reachWorld) bool {
		return w.anyLane(func(l *lane) bool { return l.direct.delays() && l.fleet == nil })
	},
	// fast_kernel.go, kernelFits: l.conc != nil && !l.concInKernel().
	"conc_kernel_off": func(w *reachWorld) bool { return w.anyLane(func(l *lane) bool { return l.conc != nil }) },
	// fast_kernel.go, kernelFits: l.gate != nil && !l.gateInKernel().
	"throttle_kernel_off": func(w *reachWorld) bool { return w.anyLane(func(l *lane) bool { return l.gate != nil }) },
	// fast_kernel.go, batchable: asked by setKernel of a lane that fits the
	// kernel, and deciding only with one key of the unit cost.
	"batch_off": func(w *reachWorld) bool {
		return w.anyLane(func(l *lane) bool { return l.kern.fits && l.kern.batched })
	},
	// run_shared.go, sharingLanes and runShared: nil in every other world.
	"shared_off":    (*reachWorld).shares,
	"shared_always": (*reachWorld).shares,
	"given_off":     (*reachWorld).shares,
	// traffic_superpose.go, oneShot: false for any group but a burst of one.
	"one_shot_off": func(w *reachWorld) bool {
		return w.anyLane(func(l *lane) bool {
			return slices.ContainsFunc(l.pop.groups, func(g ClientGroup) bool { return oneShot(&g) })
		})
	},
	// run_parallel.go, workers: one worker for one lane either way.
	"parallel_off": func(w *reachWorld) bool { return len(w.cfg.Lanes) > 1 },
	// measure_fairness.go, maxMinFair: its parties are the clients, or the
	// first limit's keys.
	"counted_fair_off": func(w *reachWorld) bool {
		return w.anyLane(func(l *lane) bool { return l.pop.clients() >= radixFrom || l.pop.keys[0].len() >= radixFrom })
	},
	// fast_tallies.go, tallyFits: asked by the kernel only.
	"tally_off": func(w *reachWorld) bool { return w.anyLane(func(l *lane) bool { return l.kern.fits }) },
	// The fleet's and the one limiter's switches (topo_*.go).
	"one_limiter_off":  (*reachWorld).hasTopology,
	"fleet_kernel_off": (*reachWorld).hasTopology,
	"twin_verdict_off": (*reachWorld).hasTopology,
	"twin_answer_off":  (*reachWorld).hasTopology,
	"same_peaks_off":   (*reachWorld).hasTopology,
	"sync_line_off":    (*reachWorld).hasTopology,
	// topo_fleet.go and topo_moments.go, untimedWindow: a fleet's windows and
	// its exact twins'.
	"inline_add_off": (*reachWorld).hasTopology,
	// topo_kernel.go, twinAdmitted: a fleet lane in the kernel that batches.
	"twin_batch_off": func(w *reachWorld) bool {
		return w.anyLane(func(l *lane) bool { return l.fleet != nil && l.kern.fits && l.kern.batched })
	},
	// Only a store call takes these (topo_store*.go).
	"store_line_off":         func(w *reachWorld) bool { return callsAStore(w.cfg) },
	"store_quick_off":        func(w *reachWorld) bool { return callsAStore(w.cfg) },
	"store_runs_off":         func(w *reachWorld) bool { return callsAStore(w.cfg) },
	"store_kernel_off":       func(w *reachWorld) bool { return callsAStore(w.cfg) },
	"store_decide_first_off": func(w *reachWorld) bool { return callsAStore(w.cfg) },
	// world_columns.go, ColumnRing.count: only a run counting columns
	// (Options.Columns), which the harness's runs are not.
	"hot_column_off": func(*reachWorld) bool { return false },
}

// shares reports whether Run may share requests between lanes of the world
// (with sharing forced, as the fastest setting forces it).
func (w *reachWorld) shares() bool {
	return len(w.lanes) > 0 && sharingLanes(w.cfg, Options{}, w.lanes[0].pop) != nil
}

// reachedSwitches is the set of switches cfg reaches: every switch when the
// world cannot be built.
func reachedSwitches(cfg Config) map[string]bool {
	reached := map[string]bool{}
	diffSets()[0].with(func() {
		s, err := New(cfg, Options{})
		for _, sw := range fastPathSwitches {
			reach, ok := switchReach[sw.name]
			reached[sw.name] = err != nil || !ok || reach(&reachWorld{cfg: &s.cfg, lanes: s.lanes})
		}
	})
	return reached
}

// countFlips adds to flips, by switch, the worlds out flipped it in.
func countFlips(flips map[string]int, out diffOutcome) {
	for _, name := range out.flipped {
		flips[name]++
	}
}

// diffCorpusFlips is the fewest worlds of the corpus each switch must be
// flipped in: a switch flipped in none, its reach drawn too narrow or its
// feature no longer generated, would be held to nothing.
const diffCorpusFlips = 3

// heldElsewhere are the switches no world of the corpus reaches, each with
// the test that holds its fast path instead.
var heldElsewhere = map[string]string{
	"counted_fair_off": "TestCountedFairSwitchChangesNoFigure", // 256 clients and more
	"twin_batch_off":   "TestFleetFastPathsAreTheGeneralPath",  // a batched fleet in the kernel: its one-key unit-cost worlds
	"hot_column_off":   "FuzzColumnRingHotColumn",              // columns, counted only with Options.Columns (and TestColumnsAsTraced)
}

// requireFlips fails t for every switch of fastPathSwitches (but those
// heldElsewhere) flipped in fewer than least of the worlds counted in flips.
func requireFlips(t interface{ Errorf(string, ...any) }, flips map[string]int, least int) {
	for _, sw := range fastPathSwitches {
		if _, ok := heldElsewhere[sw.name]; ok {
			continue
		}
		if n := flips[sw.name]; n < least {
			t.Errorf("switch %s flipped in %d worlds that reach it, want at least %d: the harness holds it to nothing", sw.name, n, least)
		}
	}
}

// requireFlipped fails t for each of names flipped in no world counted in
// flips: the worlds of a test drawn for those switches' paths.
func requireFlipped(t interface{ Errorf(string, ...any) }, flips map[string]int, names ...string) {
	for _, name := range names {
		if flips[name] == 0 {
			t.Errorf("switch %s flipped in no world: the worlds no longer reach it", name)
		}
	}
}
