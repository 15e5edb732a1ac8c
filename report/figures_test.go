package report

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/rlsim/rlsim/contention"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

var figDir = flag.String("figdir", "", "also save every figure of the built-in scenarios to this directory, to look at")

// simulate runs a built-in scenario with a Timeline collecting its ticks.
func simulate(t testing.TB, name string) Run {
	t.Helper()
	s, err := scenarios.LoadBuiltin(name)
	if err != nil {
		t.Fatal(err)
	}
	run := Run{Scenario: s}
	if s.Contention != nil {
		c, err := contention.Run(context.Background(), *s.Contention)
		if err != nil {
			t.Fatal(err)
		}
		run.Contention = &c
		return run
	}
	run.Timeline = NewTimeline(*s.Config)
	r, err := sim.Run(context.Background(), *s.Config, sim.Options{Trace: run.Timeline})
	if err != nil {
		t.Fatal(err)
	}
	run.Result = &r
	return run
}

func TestFiguresRender(t *testing.T) {
	names := []string{"demo", "downstream-slowdown", "backoff-contention"}
	if *figDir != "" {
		names = nil
		for _, b := range scenarios.Builtins() {
			names = append(names, b.Name)
		}
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			run := simulate(t, name)
			figs := Figures(run)
			if len(figs) == 0 {
				t.Fatal("no figure")
			}
			for _, f := range figs {
				b, err := f.PNG()
				if err != nil || len(b) < 1000 {
					t.Fatalf("%s: %d bytes, %v", f.Name, len(b), err)
				}
				if *figDir != "" {
					os.WriteFile(filepath.Join(*figDir, name+"-"+f.Name+".png"), b, 0o644)
				}
			}
		})
	}
}

var htmlOut = flag.String("htmlout", "", "also write the HTML report of a few built-in scenarios to this file, to look at")

func TestWriteHTMLLook(t *testing.T) {
	if *htmlOut == "" {
		t.Skip("-htmlout not set")
	}
	var pages []Page
	for _, name := range []string{"demo", "downstream-slowdown", "nat-per-ip", "backoff-contention"} {
		p, err := NewPage(simulate(t, name), "rlsim run "+name)
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, p)
	}
	f, err := os.Create(*htmlOut)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := WriteHTML(f, pages); err != nil {
		t.Fatal(err)
	}
}
