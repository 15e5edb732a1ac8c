package tui

import (
	"fmt"
	"io"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// crowd is 100,000 Poisson clients at twice a global limit, through every lane.
func crowd() []Scenario {
	return []Scenario{{Name: "crowd", Config: sim.Config{
		Duration: time.Minute, Seed: 1,
		Limits: []sim.Limit{{Key: sim.KeyGlobal, Policy: algorithms.Policy{Limit: 5000, Window: time.Second, Burst: 5000}}},
		Clients: []sim.ClientGroup{{Count: 100_000,
			Arrivals: []sim.Arrival{{Kind: sim.ArrivalPoisson, Rate: sim.Rate{Count: 1, Per: 10 * time.Second}}},
			Retry:    sim.Retry{Kind: sim.RetryExponential, Base: 100 * time.Millisecond, Cap: 5 * time.Second, Jitter: sim.JitterFull, MaxAttempts: 3}}},
		Backend: &sim.Backend{Capacity: 500, QueueSize: 1000, Service: sim.Service{Kind: sim.ServiceExponential, Mean: 50 * time.Millisecond}},
	}}}
}

// colourModel is a model in a width×height terminal with 256 colours, the
// costlier case to draw.
func colourModel(b *testing.B, list []Scenario, width, height int) *Model {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI256)
	m, err := New(list, Options{Renderer: r})
	if err != nil {
		b.Fatal(err)
	}
	m.Update(tea.WindowSizeMsg{Width: width, Height: height})
	return m
}

// BenchmarkView draws one frame of a scenario with 100,000 clients, 5s in.
func BenchmarkView(b *testing.B) {
	for _, size := range []struct{ w, h int }{{80, 24}, {240, 60}} {
		b.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(b *testing.B) {
			m := colourModel(b, crowd(), size.w, size.h)
			m.advance(5 * time.Second)
			b.ReportAllocs()
			for b.Loop() {
				_ = m.View()
			}
		})
	}
}

// BenchmarkTick advances the 100,000-client scenario one frame at 1× (a 30th of
// a second of virtual time, every lane) and takes its snapshot.
func BenchmarkTick(b *testing.B) {
	m := colourModel(b, crowd(), 120, 40)
	m.advance(5 * time.Second)
	b.ReportAllocs()
	for b.Loop() {
		if m.finished {
			b.StopTimer()
			m = colourModel(b, crowd(), 120, 40)
			m.advance(5 * time.Second)
			b.StartTimer()
		}
		m.Update(tickMsg{m.gen})
	}
}

// BenchmarkBurst fires a burst 5s into the 100,000-client scenario: the
// simulation is rebuilt and replayed to the present.
func BenchmarkBurst(b *testing.B) {
	m := colourModel(b, crowd(), 120, 40)
	m.advance(5 * time.Second)
	b.ReportAllocs()
	for b.Loop() {
		m.bursts = m.bursts[:0]
		m.fireBurst()
	}
}
