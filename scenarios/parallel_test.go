package scenarios

import (
	"context"
	"encoding/json"
	"runtime"
	"testing"

	"github.com/rlsim/rlsim/sim"
)

// TestLanesInParallelMatchOneAfterTheOther runs every built-in with its lanes
// one after the other (GOMAXPROCS 1) and at once (GOMAXPROCS 4, more workers
// than this machine may have cores, so they interleave), and wants the same
// result, byte for byte as JSON; then runs each lane alone and wants its result
// unchanged: a lane never depends on which other lanes run.
func TestLanesInParallelMatchOneAfterTheOther(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, b := range Builtins() {
		s, err := LoadBuiltin(b.Name)
		if err != nil {
			t.Fatal(err)
		}
		if s.Config == nil {
			continue // a contention study has no lanes
		}
		t.Run(b.Name, func(t *testing.T) {
			runtime.GOMAXPROCS(1)
			seq := runJSON(t, *s.Config)
			runtime.GOMAXPROCS(4)
			par := runJSON(t, *s.Config)
			if string(seq.all) != string(par.all) {
				t.Fatalf("lanes at once differ from one after the other:\n%s\nwant\n%s", par.all, seq.all)
			}
			for k, lane := range par.lanes {
				alone := runJSON(t, onlyLane(par.cfg, k))
				if string(alone.lanes[0]) != string(lane) {
					t.Errorf("lane %s alone:\n%s\nwant, beside the others,\n%s", par.cfg.LaneName(k), alone.lanes[0], lane)
				}
			}
		})
	}
}

type runOutput struct {
	cfg   sim.Config // with defaults
	all   []byte     // the whole result
	lanes [][]byte   // each lane's result
}

func runJSON(t *testing.T, cfg sim.Config) runOutput {
	t.Helper()
	s, err := sim.New(cfg, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.RunToEnd(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := runOutput{cfg: s.Config()}
	if out.all, err = json.Marshal(r); err != nil {
		t.Fatal(err)
	}
	for _, l := range r.Lanes {
		b, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		out.lanes = append(out.lanes, b)
	}
	return out
}

// onlyLane is cfg with lane k alone, keeping its variant and overrides.
func onlyLane(cfg sim.Config, k int) sim.Config {
	name := cfg.LaneName(k)
	c := cfg
	c.Lanes = []sim.LaneKind{cfg.Lanes[k]}
	c.Variants = nil
	if k < len(cfg.Variants) {
		c.Variants = []sim.Variant{cfg.Variants[k]}
	}
	c.Overrides = nil
	for _, o := range cfg.Overrides {
		if o.Name == name || (o.Name == "" && o.Lane == cfg.Lanes[k]) {
			c.Overrides = append(c.Overrides, o)
		}
	}
	return c
}
