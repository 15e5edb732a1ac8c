package report

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// TestAdaptiveStateIsPlottedAndInTheJSON runs downstream-slowdown with a rate
// lane and the three adaptive ones: results.json has each adaptive lane's state
// (and none for the rate lane), the figure plots those very values, and AIMD's
// cut, which the scenario is about, shows in both.
func TestAdaptiveStateIsPlottedAndInTheJSON(t *testing.T) {
	set, err := scenarios.ParseSet("lanes=[token_bucket, aimd, vegas, client_throttle]")
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenarios.LoadBuiltin("downstream-slowdown", set)
	if err != nil {
		t.Fatal(err)
	}
	r, err := sim.Run(context.Background(), *s.Config, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	run := Run{Scenario: s, Result: &r}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, []Run{run}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Runs []struct {
			Lanes []struct {
				Lane     string        `json:"lane"`
				Adaptive *jsonAdaptive `json:"adaptive"`
			} `json:"lanes"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Runs) != 1 || len(doc.Runs[0].Lanes) != 4 {
		t.Fatalf("results.json: %d runs, want 1 of 4 lanes:\n%.400s", len(doc.Runs), buf.String())
	}
	for i, jl := range doc.Runs[0].Lanes {
		l := r.Lanes[i]
		if l.Lane == sim.LaneTokenBucket {
			if jl.Adaptive != nil {
				t.Errorf("%s: adaptive %+v, want it left out", jl.Lane, jl.Adaptive)
			}
			continue
		}
		if jl.Adaptive == nil {
			t.Fatalf("%s: no adaptive state in results.json", jl.Lane)
		}
		first, second := adaptiveLines(l)
		if l.Lane == sim.LaneClientThrottle {
			pts := jl.Adaptive.Throttle
			if len(pts) != len(l.Series) {
				t.Fatalf("%s: %d JSON points, %d series buckets", jl.Lane, len(pts), len(l.Series))
			}
			var dropped bool
			k := 0
			for _, p := range pts {
				if p.Decisions == 0 {
					if p.DropProbability != 0 || p.DropProbabilityMax != 0 {
						t.Fatalf("%s: %+v: a probability without a decision", jl.Lane, p)
					}
					continue
				}
				if k >= len(first) {
					t.Fatalf("%s: %d points plotted, fewer than the JSON's buckets with decisions", jl.Lane, len(first))
				}
				if p.DropProbability != first[k].Y || p.DropProbabilityMax != second[k].Y || p.StartS != first[k].X {
					t.Fatalf("%s point %d: JSON %+v, plotted %v and %v", jl.Lane, k, p, first[k], second[k])
				}
				dropped = dropped || p.DropProbability > 0
				k++
			}
			if k != len(first) {
				t.Errorf("%s: %d points plotted, want the %d buckets with decisions", jl.Lane, len(first), k)
			}
			if !dropped {
				t.Errorf("%s: the drop probability never rose on a run with retries against a slowed backend", jl.Lane)
			}
			continue
		}
		pts := jl.Adaptive.Concurrency
		if len(pts) != len(first) || len(pts) != len(l.Series) {
			t.Fatalf("%s: %d JSON points, %d plotted, %d series buckets", jl.Lane, len(pts), len(first), len(l.Series))
		}
		cut := false
		for k, p := range pts {
			if p.LimitMin != first[k].Y || float64(p.InFlightMax) != second[k].Y || p.StartS != first[k].X {
				t.Fatalf("%s point %d: JSON %+v, plotted %v and %v", jl.Lane, k, p, first[k], second[k])
			}
			if p.LimitMin > p.Limit {
				t.Errorf("%s point %d: %+v: the limit is below its lowest", jl.Lane, k, p)
			}
			cut = cut || k > 0 && p.LimitMin < pts[k-1].Limit
		}
		if l.Lane == sim.LaneAIMD && !cut {
			t.Errorf("%s: the limit never fell, yet the backend slowed to a fifth", jl.Lane)
		}
	}
	var names []string
	for _, f := range Figures(run) {
		names = append(names, f.Name)
	}
	if names[len(names)-1] != "adaptive" {
		t.Errorf("figures %v, want the adaptive one last", names)
	}
	b, err := AdaptiveFigure(r).PNG()
	if err != nil || len(b) < 1000 {
		t.Fatalf("adaptive figure: %d bytes, %v", len(b), err)
	}
	if *figDir != "" {
		if err := os.WriteFile(filepath.Join(*figDir, "downstream-slowdown-adaptive.png"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
