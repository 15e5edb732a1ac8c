package report

import (
	"bytes"
	"context"
	"testing"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// The store over time, the replica rows and the load balancer's 503s come out
// byte-identical from two runs of one scenario and seed: the JSON and the
// store and timeline PNGs, for hot-key-shard cut to 1s (shards, a queue,
// timeouts) and the health site (replicas out, no healthy replica); another
// seed's JSON differs.
func TestViewsDeterministic(t *testing.T) {
	hot, err := scenarios.LoadBuiltin("hot-key-shard")
	if err != nil {
		t.Fatal(err)
	}
	render := func(seed uint64, pngs bool) []byte {
		var out bytes.Buffer
		var runs []Run
		for _, src := range []*scenarios.Scenario{hot, nil} {
			s := src
			if s == nil {
				if s, err = scenarios.Parse("health.yaml", []byte(healthSite)); err != nil {
					t.Fatal(err)
				}
			}
			cfg := *s.Config
			cfg.Seed = seed
			if src != nil {
				cfg.Duration, cfg.Drain = 1e9, 1e9
			}
			tl := NewTimeline(cfg)
			res, err := sim.Run(context.Background(), cfg, sim.Options{Trace: tl})
			if err != nil {
				t.Fatal(err)
			}
			run := Run{Scenario: s, Result: &res, Timeline: tl}
			for _, f := range Figures(run) {
				if !pngs || f.Name != "store" && f.Name != "timeline" {
					continue
				}
				png, err := f.PNG()
				if err != nil {
					t.Fatal(err)
				}
				out.Write(png)
			}
			runs = append(runs, run)
		}
		if err := WriteJSON(&out, runs); err != nil {
			t.Fatal(err)
		}
		return out.Bytes()
	}
	a, b := render(7, true), render(7, true)
	c := render(8, false)
	if !bytes.Equal(a, b) {
		t.Error("two runs of one scenario and seed gave different output")
	}
	if bytes.Contains(a, c) {
		t.Error("another seed gave the same output")
	}
	for _, k := range []string{`"p99_latency_s"`, `"shed_no_healthy"`, `"shard": 3`, `"memory_bytes"`, `"timed_out": 1`} {
		if !bytes.Contains(a, []byte(k)) {
			t.Errorf("the output has no %s: the test does not exercise it", k)
		}
	}
}
