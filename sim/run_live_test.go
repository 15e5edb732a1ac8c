package sim

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// liveWorld is users sending at a constant rate through a per-user limit and a
// global one, with a backend, so every lane has something to decide.
func liveWorld(users Arrival) Config {
	return Config{
		Duration: 4 * time.Second, Seed: 7,
		Limits: []Limit{
			{Name: "per-user", Key: KeyUser, Policy: algorithms.Policy{Limit: 4, Window: time.Second, Burst: 4}},
			{Name: "global", Key: KeyGlobal, Policy: algorithms.Policy{Limit: 20, Window: time.Second, Burst: 20}},
		},
		Clients: []ClientGroup{
			{Name: "users", Count: 5, Arrivals: []Arrival{users}},
		},
		Backend: &Backend{Capacity: 4, QueueSize: 8, Service: Service{Mean: 30 * time.Millisecond}},
	}
}

// playLive runs cfg to at, applies live to the simulation, then runs it to the end.
func playLive(t *testing.T, cfg Config, at time.Duration, live func(*Simulation) error) Result {
	t.Helper()
	s, err := New(cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RunUntil(at); err != nil {
		t.Fatal(err)
	}
	if err := live(s); err != nil {
		t.Fatal(err)
	}
	r, err := s.RunToEnd(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// sameOutcomes compares every lane's outcomes; the hash of the order of
// verdicts too, except in lanes named in tieOrder (see the caller).
func sameOutcomes(t *testing.T, got, want Result, tieOrder ...LaneKind) {
	t.Helper()
	for i := range want.Lanes {
		g, w := &got.Lanes[i], &want.Lanes[i]
		if g.Attempts != w.Attempts || g.Unique != w.Unique || g.Admitted != w.Admitted || g.Refused != w.Refused ||
			g.Delayed != w.Delayed || g.Shed != w.Shed || g.Dropped != w.Dropped || g.Succeeded != w.Succeeded ||
			g.Peak != w.Peak || (g.Verdicts != w.Verdicts && !slices.Contains(tieOrder, w.Lane)) {
			t.Errorf("%v: live attempts %d unique %d admitted %d refused %d delayed %d shed %d peak %d; "+
				"written in the scenario %d %d %d %d %d %d %d", w.Lane,
				g.Attempts, g.Unique, g.Admitted, g.Refused, g.Delayed, g.Shed, g.Peak.Count,
				w.Attempts, w.Unique, w.Admitted, w.Refused, w.Delayed, w.Shed, w.Peak.Count)
		}
	}
}

// A burst injected at Now decides, in every lane, exactly as the same burst
// written into the scenario as one more arrival component of that client.
func TestInjectEqualsAWrittenBurst(t *testing.T) {
	steady := Arrival{Kind: ArrivalConstant, Rate: Rate{Count: 5, Per: time.Second}}
	for _, tc := range []struct {
		name   string
		at     time.Duration
		n      int
		spread time.Duration
	}{
		{"spread", 1050 * time.Millisecond, 30, 300 * time.Millisecond},
		{"all at once", 2070 * time.Millisecond, 12, 0},
		{"one", 3*time.Second + 1, 1, time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			written := liveWorld(steady)
			written.Clients[0].Count = 1
			written.Clients = append(written.Clients, ClientGroup{Name: "more", Count: 2, Arrivals: []Arrival{steady}})
			live := written
			written.Clients = append([]ClientGroup(nil), written.Clients...)
			written.Clients[0].Arrivals = []Arrival{steady, {Kind: ArrivalBurst, At: tc.at, Count: tc.n, Spread: tc.spread}}
			got := playLive(t, live, tc.at, func(s *Simulation) error { return s.Inject(0, tc.n, tc.spread) })
			sameOutcomes(t, got, mustRun(t, written, Options{}))
			if got.Lanes[0].Unique != mustRun(t, live, Options{}).Lanes[0].Unique+int64(tc.n) {
				t.Errorf("the burst added %d unique requests, want %d", got.Lanes[0].Unique-mustRun(t, live, Options{}).Lanes[0].Unique, tc.n)
			}
		})
	}
}

// A constant rate changed at Now decides, in every lane, exactly as the scenario
// that switches rates at the next pending arrival, written as two components;
// and the caller's Config keeps its rate.
func TestChangeRateEqualsTwoWrittenRates(t *testing.T) {
	for _, tc := range []struct {
		name     string
		from, to Rate
		at, next time.Duration // the change and the pending arrival it starts from
	}{
		{"faster", Rate{Count: 10, Per: time.Second}, Rate{Count: 30, Per: time.Second}, 1050 * time.Millisecond, 1100 * time.Millisecond},
		{"slower", Rate{Count: 10, Per: time.Second}, Rate{Count: 2, Per: time.Second}, 2 * time.Second, 2100 * time.Millisecond},
		{"uneven", Rate{Count: 3, Per: time.Second}, Rate{Count: 7, Per: time.Second}, 500 * time.Millisecond, 666666666},
	} {
		t.Run(tc.name, func(t *testing.T) {
			live := liveWorld(Arrival{Kind: ArrivalConstant, Rate: tc.from})
			written := liveWorld(Arrival{Kind: ArrivalConstant, Rate: tc.from, Stop: tc.next})
			written.Clients[0].Arrivals = append(written.Clients[0].Arrivals, Arrival{Kind: ArrivalConstant, Start: tc.next, Rate: tc.to})
			got := playLive(t, live, tc.at, func(s *Simulation) error { return s.ChangeRate(0, tc.to) })
			// The written twin schedules its second rate's arrivals at the start, so at
			// an instant where one ties with a leaky queue's release it comes first,
			// while the live change's come in the order they were scheduled: the same
			// decisions, told in another order.
			sameOutcomes(t, got, mustRun(t, written, Options{}), LaneLeakyBucket)
			if live.Clients[0].Arrivals[0].Rate != tc.from {
				t.Errorf("the caller's config now has rate %v", live.Clients[0].Arrivals[0].Rate)
			}
		})
	}
}

// A Poisson rate changed at Now changes what every lane sees alike.
func TestChangeRatePoisson(t *testing.T) {
	cfg := liveWorld(Arrival{Kind: ArrivalPoisson, Rate: Rate{Count: 2, Per: time.Second}})
	before := mustRun(t, cfg, Options{})
	got := playLive(t, cfg, time.Second, func(s *Simulation) error { return s.ChangeRate(0, Rate{Count: 40, Per: time.Second}) })
	for _, l := range got.Lanes {
		if l.Unique != got.Lanes[0].Unique {
			t.Errorf("%v saw %d requests, %v %d: lanes no longer see the same arrivals", l.Lane, l.Unique, got.Lanes[0].Lane, got.Lanes[0].Unique)
		}
	}
	if got.Lanes[0].Unique < 4*before.Lanes[0].Unique {
		t.Errorf("20× the rate for 3 of 4 seconds sent %d requests, at the old rate %d", got.Lanes[0].Unique, before.Lanes[0].Unique)
	}
}

func TestLiveChangesRefuseBadInput(t *testing.T) {
	cfg := liveWorld(Arrival{Kind: ArrivalConstant, Rate: Rate{Count: 1, Per: time.Second}})
	for _, tc := range []struct {
		name   string
		change func(*Simulation) error
		fields []string
	}{
		{"inject", func(s *Simulation) error { return s.Inject(5, 0, time.Hour) }, []string{"inject.client", "inject.count", "inject.spread"}},
		{"inject too many", func(s *Simulation) error { return s.Inject(0, MaxInject+1, 0) }, []string{"inject.count"}},
		{"rate", func(s *Simulation) error { return s.ChangeRate(1, Rate{Count: 0, Per: time.Second}) }, []string{"rate.group", "rate"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := New(cfg, Options{})
			if err != nil {
				t.Fatal(err)
			}
			err = tc.change(s)
			var fe FieldErrors
			if !errors.As(err, &fe) || len(fe) != len(tc.fields) {
				t.Fatalf("got %v, want errors on %v", err, tc.fields)
			}
			for i, f := range tc.fields {
				if fe[i].Field != f {
					t.Errorf("error %d names %q, want %q", i, fe[i].Field, f)
				}
			}
			if s.Events() != 0 || s.Result().Lanes[0].Unique != 0 {
				t.Error("a refused change changed the simulation")
			}
		})
	}
}
