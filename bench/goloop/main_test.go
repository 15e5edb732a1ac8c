package main

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

func TestQueueGivesArrivalsInOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for n := 1; n <= 40; n++ {
		var q queue
		var all []arrival
		for c := range n {
			a := arrival{time.Duration(rng.IntN(5)), int32(c)}
			q.push(a)
			all = append(all, a)
		}
		// Take the top n times, each replaced by a later arrival of its client.
		var got []arrival
		for range 3 * n {
			top := q[0]
			got = append(got, top)
			next := arrival{top.at + time.Duration(1+rng.IntN(5)), top.client}
			all = append(all, next)
			q.replaceTop(next)
		}
		for i := 1; i < len(got); i++ {
			a, b := got[i-1], got[i]
			if b.at < a.at || (b.at == a.at && b.client < a.client) {
				t.Fatalf("n %d: %+v came after %+v", n, b, a)
			}
		}
		if got[0] != slices.MinFunc(all[:n], func(a, b arrival) int {
			if a.at != b.at {
				return int(a.at - b.at)
			}
			return int(a.client - b.client)
		}) {
			t.Fatalf("n %d: the first top %+v is not the earliest pushed", n, got[0])
		}
	}
}

func base() model {
	return model{clients: 10, rate: 100, limit: 500, window: time.Second, burst: 20, duration: 5 * time.Second, seed: 1}
}

func TestSaturatedLimitAdmitsItsRateAndBurst(t *testing.T) {
	m := base() // 1000 requests per second offered to a limit of 500
	events, admitted := m.simulate()
	want := int64(m.duration/(m.window/time.Duration(m.limit))) + m.burst
	if admitted < want-2 || admitted > want {
		t.Errorf("admitted %d, want %d (rate × duration + burst) or just under", admitted, want)
	}
	offered := float64(m.clients) * m.rate * m.duration.Seconds()
	if math.Abs(float64(events)-offered) > 4*math.Sqrt(offered) {
		t.Errorf("events %d, want about %.0f (Poisson)", events, offered)
	}
}

func TestUnderTheLimitAllAdmitted(t *testing.T) {
	m := base()
	m.limit, m.burst = 100000, 1000
	if events, admitted := m.simulate(); events == 0 || admitted != events {
		t.Errorf("far under the limit: %d of %d admitted", admitted, events)
	}
}

func TestBurstOneAdmitsOnePerInterval(t *testing.T) {
	m := base()
	m.burst = 1
	_, admitted := m.simulate()
	// Poisson arrivals waste the intervals nobody asked in: well under the most.
	if most := int64(m.duration/(m.window/time.Duration(m.limit))) + 1; admitted > most || admitted < most/2 {
		t.Errorf("burst 1: admitted %d, want at most %d and over half of it", admitted, most)
	}
	// Under the limit on average, still no two admitted within an interval:
	// idle time earns no credit past the burst.
	m.limit = 1000
	m.rate = 50
	if events, admitted := m.simulate(); admitted >= events*9/10 {
		t.Errorf("burst 1 at half the limit: %d of %d admitted, want about 60%%", admitted, events)
	}
}

func TestSameSeedSameCounts(t *testing.T) {
	m := base()
	e1, a1 := m.simulate()
	e2, a2 := m.simulate()
	m.seed = 2
	e3, _ := m.simulate()
	if e1 != e2 || a1 != a2 {
		t.Errorf("same seed: %d/%d then %d/%d", e1, a1, e2, a2)
	}
	if e3 == e1 {
		t.Errorf("seed 2 gave the same %d events as seed 1", e3)
	}
}

func TestValid(t *testing.T) {
	if !base().valid() {
		t.Fatal("the base model is valid")
	}
	minimal := model{clients: 1, rate: 0.001, limit: 1, window: 1, burst: 1}
	if !minimal.valid() {
		t.Error("the least of each is valid")
	}
	for _, bad := range []func(*model){
		func(m *model) { m.clients = 0 },
		func(m *model) { m.rate = 0 },
		func(m *model) { m.limit = 0 },
		func(m *model) { m.window = 0 },
		func(m *model) { m.burst = 0 },
	} {
		m := base()
		bad(&m)
		if m.valid() {
			t.Errorf("%+v is valid", m)
		}
	}
}
