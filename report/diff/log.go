package diff

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/rlsim/rlsim/importer"
	"github.com/rlsim/rlsim/replay"
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// LogOptions say how to run a diff on access logs.
type LogOptions struct {
	Logs  []string  // the logs; "-" is Stdin, read once for both sides
	Stdin io.Reader // the log named "-"
	// Read is how to read the logs (Format, Fields, LogFormat, Location,
	// Late, Strict), as rlsim replay's flags give it; its limits and lanes
	// are each side's.
	Read   replay.Options
	Lane   string // --lane: "NAME" or "CURRENT=PROPOSED"; "": pair as pairNames does
	Top    int    // keys per top list (default 10)
	FailOn []FailOn
}

// Log replays the logs through each side's limits and lanes in shadow, as
// rlsim replay --scenario does, and compares each pair of lanes and limits
// key by key: a key's requests are its peak in one window of the limit.
// Warnings are replay's (more than 10% bad lines), once.
func Log(ctx context.Context, cur, prop *Side, o LogOptions) (*Report, []string, error) {
	top := o.Top
	if top <= 0 {
		top = 10
	}
	var stdin []byte
	if slices.Contains(o.Logs, "-") {
		var err error
		if stdin, err = io.ReadAll(o.Stdin); err != nil {
			return nil, nil, run.BadInputf("-: %v", err)
		}
	}
	sides := []*Side{cur, prop}
	var limits [][]replay.Limit
	var lanes [][]string
	var configs []*sim.Config
	var errs []error
	notes := []string{}
	for i, s := range sides {
		l, ln, cfg, err := s.replayLimits()
		if err != nil {
			errs = append(errs, sideError(i, s, err))
		}
		limits, lanes, configs = append(limits, l), append(lanes, ln), append(configs, cfg)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, nil, run.BadInput(err)
	}
	lanePairs, unpaired, err := pairNames(lanes[0], lanes[1], o.Lane, "lane")
	if err != nil {
		return nil, nil, run.BadInputf("--lane: %v", err)
	}
	limitPairs, unpairedLimits, err := pairNames(names(limits[0]), names(limits[1]), "", "limit")
	if err != nil {
		return nil, nil, run.BadInput(err)
	}
	var results []*replay.Result
	var warnings []string
	for i, s := range sides {
		opts := o.Read
		opts.Limits, opts.Lanes, opts.Top, opts.Config = limits[i], nil, math.MaxInt32, configs[i] // every refused key
		for _, p := range lanePairs {
			if !slices.Contains(opts.Lanes, p[i]) {
				opts.Lanes = append(opts.Lanes, p[i])
			}
		}
		for _, l := range opts.Limits {
			if err := l.Check(opts.Lanes); err != nil {
				return nil, nil, run.BadInput(sideError(i, s, fmt.Errorf("limit %s: %v", l.Name, err)))
			}
		}
		inputs, _, closeInputs, err := replay.OpenInputs(o.Logs, bytes.NewReader(stdin))
		if err != nil {
			closeInputs()
			return nil, nil, err
		}
		res, err := replay.Replay(ctx, inputs, opts)
		closeInputs()
		if err != nil {
			if errors.Is(err, context.Canceled) {
				return nil, nil, err
			}
			return nil, nil, run.BadInput(err) // the log's: its limits were checked above
		}
		for _, w := range res.Warnings {
			if !slices.Contains(warnings, w) {
				warnings = append(warnings, w)
			}
		}
		results = append(results, res)
	}
	r := &Report{Version: Version, Mode: "log", Current: cur.Label, Proposed: prop.Label, On: strings.Join(o.Logs, " "),
		Requests: results[0].Requests, Unpaired: append(append([]string{}, unpaired...), unpairedLimits...), Notes: notes}
	for _, lp := range lanePairs {
		for _, mp := range limitPairs {
			a := limitResult(results[0], limits[0], mp[0])
			b := limitResult(results[1], limits[1], mp[1])
			la, lb := laneResult(a, lp[0]), laneResult(b, lp[1])
			p := Pair{Current: lp[0], Proposed: lp[1], Limit: mp[0]}
			if mp[0] != mp[1] {
				p.Limit = mp[0] + " → " + mp[1]
			}
			compare(&p, logFigures(la), logFigures(lb), b.PeakP99, top)
			p.PeakCurrent, p.PeakProposed = a.PeakMax, b.PeakMax
			p.PeakDelta = p.PeakProposed - p.PeakCurrent
			p.Classes = []ClassDiff{}
			r.Pairs = append(r.Pairs, p)
		}
	}
	r.evaluate(o.FailOn)
	return r, warnings, nil
}

func names(limits []replay.Limit) []string {
	var out []string
	for _, l := range limits {
		out = append(out, l.Name)
	}
	return out
}

func limitResult(r *replay.Result, limits []replay.Limit, name string) *replay.LimitResult {
	i := slices.IndexFunc(limits, func(l replay.Limit) bool { return l.Name == name })
	return &r.Limits[i]
}

func laneResult(l *replay.LimitResult, lane string) *replay.LaneResult {
	i := slices.IndexFunc(l.Lanes, func(x replay.LaneResult) bool { return x.Lane == lane })
	return &l.Lanes[i]
}

// logFigures are a lane's refused keys, each with its peak per window:
// replay lists every key it refused (Top is unbounded here).
func logFigures(l *replay.LaneResult) keyFigures {
	figs := keyFigures{}
	for _, k := range l.Top {
		figs[unit{key: k.Key}] = figures{requests: k.Peak, refused: k.Refused}
	}
	return figs
}

// replayLimits are the side's limits, the lanes a log replays them through
// and the scenario those lanes are the lanes of, as rlsim replay --scenario
// and --config take them (replay.FromScenario): a product's config as rlsim
// import writes it, its product lanes deciding as in rlsim run.
func (s *Side) replayLimits() (limits []replay.Limit, lanes []string, cfg *sim.Config, err error) {
	if s.scenario != nil {
		cfg = s.scenario.Config
	} else {
		sc, err := scenarios.Parse(s.Arg, importer.Render(s.config.Model))
		if err != nil {
			return nil, nil, nil, err
		}
		cfg = sc.Config
	}
	if limits, lanes, err = replay.FromScenario(cfg); err != nil {
		return nil, nil, nil, err
	}
	if len(lanes) == 0 {
		lanes = replay.DefaultLanes
	}
	return limits, lanes, cfg, nil
}
