package scenarios

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// stripeCatch is, per class and catcher (a limit's name for a 429, a
// shedder's for a 503, "503" for another 503), the first and last instants
// it caught an attempt of the class, and how many.
type stripeCatch map[[2]string]*struct {
	first, last time.Duration
	n           int64
}

// stripeSink records the catches, and the most requests of greedy in flight at once.
type stripeSink struct {
	catch        stripeCatch
	greedy, most int
}

func (s *stripeSink) Record(r *sim.TraceRecord) error {
	if r.Class == "greedy" {
		switch r.Event {
		case sim.TraceAdmit:
			s.greedy++
			s.most = max(s.most, s.greedy)
		case sim.TraceSuccess, sim.TraceShed:
			s.greedy--
		}
	}
	return s.catch.Record(r)
}

func (s stripeCatch) Record(r *sim.TraceRecord) error {
	var by string
	switch {
	case r.Event == sim.TraceRefuse:
		by = r.Limit
	case r.Event == sim.TraceShed && r.Shedder != "":
		by = r.Shedder
	case r.Event == sim.TraceShed:
		by = "503"
	default:
		return nil
	}
	k := [2]string{r.Class, by}
	c := s[k]
	if c == nil {
		c = &struct {
			first, last time.Duration
			n           int64
		}{first: r.At}
		s[k] = c
	}
	c.last, c.n = r.At, c.n+1
	return nil
}

// The claims of stripe-four-limiters, each from the numbers of its file, on
// three seeds; and one seed's run twice is the same.
func TestStripeFourLimiters(t *testing.T) {
	s, err := LoadBuiltin("stripe-four-limiters")
	if err != nil {
		t.Fatal(err)
	}
	var first sim.Result
	for seed := uint64(1); seed <= 3; seed++ {
		c := *s.Config
		c.Seed = seed
		sink := &stripeSink{catch: stripeCatch{}}
		r, err := sim.Run(context.Background(), c, sim.Options{Trace: sink})
		if err != nil {
			t.Fatal(err)
		}
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) { stripeClaims(t, &c, r, sink.catch) })
		// greedy, one request every 10ms of 50ms each: at most 5 in flight.
		if sink.most != 5 {
			t.Errorf("seed %d: greedy had %d in flight at once, want 5", seed, sink.most)
		}
		if seed == 1 {
			first = r
		}
	}
	again, err := sim.Run(context.Background(), *s.Config, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(first.Lanes[0].Classes, again.Lanes[0].Classes) || first.Lanes[0].Verdicts != again.Lanes[0].Verdicts {
		t.Error("two runs of one seed differ")
	}
}

// stripeClaims holds the claims of stripe-four-limiters to one run r of c, and its catches.
func stripeClaims(t *testing.T, c *sim.Config, r sim.Result, catch stripeCatch) {
	// The backend: 100 workers of 50ms, 2,000/s; api and payments 250/s, 12.5 workers.
	b := c.Backend
	if per := float64(b.Capacity) / b.Service.Mean.Seconds(); per != 2000 {
		t.Errorf("the backend serves %v/s, want 2,000", per)
	}
	perSecond := func(g sim.ClientGroup) float64 {
		return float64(g.Count) * float64(g.Arrivals[0].Rate.Count) / g.Arrivals[0].Rate.Per.Seconds()
	}
	steady := perSecond(c.Clients[0]) + perSecond(c.Clients[1])
	if steady != 250 {
		t.Errorf("api and payments send %v/s, want 250", steady)
	}
	tb := r.Lanes[0]
	api, payments, greedy, holder, batch := tb.Classes[0], tb.Classes[1], tb.Classes[2], tb.Classes[3], tb.Classes[4]
	// Each class is caught by its own limiter only, and nothing sheds 503
	// otherwise (the queue of 5,000 never fills).
	own := map[string]string{"api": "utilisation", "greedy": "rate", "holder": "in-flight", "batch": "fleet_usage"}
	for k, n := range catch {
		if own[k[0]] != k[1] {
			t.Errorf("%s caught %d of %s (from %v to %v); want only %q", k[1], n.n, k[0], n.first, n.last, own[k[0]])
		}
	}
	// 0-10s: greedy's 1,000 requests at 100/s, the last at 9.99s: the rate
	// limiter admits 20 + 20 × 9.99 = 219 (floor) and refuses 781, all by 10s;
	// the token bucket admits 20 + 20 × 0.99 = 39 of them in the first second:
	// the 1.95× the table shows.
	if greedy.Attempts != 1000 || greedy.Succeeded != 219 || greedy.RefusedBy[0].Count != 781 {
		t.Errorf("greedy: %d attempts, %d served, %d refused by the rate; want 1,000, 219, 781", greedy.Attempts, greedy.Succeeded, greedy.RefusedBy[0].Count)
	}
	if g := catch[[2]string{"greedy", "rate"}]; g == nil || g.last >= 10*time.Second {
		t.Errorf("greedy refused until %v, want before 10s", g)
	}
	if tb.Peak.Count != 39 || tb.Peak.Key != "user:greedy" {
		t.Errorf("peak %d of %s in a window, want greedy's 39", tb.Peak.Count, tb.Peak.Key)
	}
	// 10-20s: holder, 5/s from 10s to 17s, each request 50 × 50ms = 2.5s:
	// 10 places, each taken again by the first arrival after it is freed.
	h := c.Clients[3]
	service := time.Duration(h.ServiceFactor * float64(b.Service.Mean))
	gap := h.Arrivals[0].Rate.Per / time.Duration(h.Arrivals[0].Rate.Count)
	served, refusedAt := holderByHand(h.Arrivals[0].Start, h.Arrivals[0].Stop, gap, service, 10)
	if service != 2500*time.Millisecond || len(served)+len(refusedAt) != 35 {
		t.Errorf("holder: %d requests of %v, want 35 of 2.5s", len(served)+len(refusedAt), service)
	}
	if holder.Attempts != 35 || holder.RefusedBy[1].Count != int64(len(refusedAt)) || holder.Succeeded != int64(len(served)) || tb.InFlight[0].Count != 10 {
		t.Errorf("holder: %d attempts, %d refused by in-flight, %d served (most in flight %v); want 35, %d, %d (10)", holder.Attempts, holder.RefusedBy[1].Count, holder.Succeeded, tb.InFlight, len(refusedAt), len(served))
	}
	if h := catch[[2]string{"holder", "in-flight"}]; h == nil || h.first != refusedAt[0] || h.last != refusedAt[len(refusedAt)-1] {
		t.Errorf("holder refused from %v, want from %v to %v", h, refusedAt[0], refusedAt[len(refusedAt)-1])
	}
	// 20-30s: batch, 500 users at 4/s, about 20,000 attempts; the fleet usage
	// shedder gives it the 80 workers less the 12.5 of api and payments: about
	// 67.5 × 20/s × 10s = 13,500 served (a freed worker waits for the next
	// batch arrival, so a little less), every 503 of it by fleet usage, all
	// within 20-30s. Every payments request is served, and no api request is
	// shed before 30s.
	if !near(float64(batch.Attempts), 20_000, 0.03) || !near(float64(batch.Succeeded), 13_500, 0.04) || batch.Succeeded > 13_500 {
		t.Errorf("batch: %d attempts, %d served; want about 20,000 and 13,500", batch.Attempts, batch.Succeeded)
	}
	if f := catch[[2]string{"batch", "fleet_usage"}]; f == nil || f.n != batch.Shed || f.first < 20*time.Second || f.last >= 30*time.Second {
		t.Errorf("fleet usage shed %v of batch's %d 503s; want every one, within 20-30s", f, batch.Shed)
	}
	if payments.Succeeded != payments.Unique || payments.Shed+payments.Refused != 0 {
		t.Errorf("payments: %d of %d served, %d shed; want every one served", payments.Succeeded, payments.Unique, payments.Shed)
	}
	// 30-40s: the backend slows to 1s a request: 100/s, under the 250/s of
	// api and payments. The utilisation shedder sheds api (critical) only
	// once the overload has lasted 2 × 250ms, so not before 30.5s; payments
	// (critical_plus) never.
	if per := float64(b.Changes[0].Capacity) / b.Changes[0].Service.Mean.Seconds(); per != 100 || b.Changes[0].At != 30*time.Second {
		t.Errorf("from %v the backend serves %v/s, want 100 from 30s", b.Changes[0].At, per)
	}
	if u := catch[[2]string{"api", "utilisation"}]; u == nil || u.first < 30*time.Second+500*time.Millisecond || u.n != api.Shed {
		t.Errorf("utilisation shed %v of api's %d 503s, want every one, from 30.5s", u, api.Shed)
	}
	for _, cl := range tb.Classes {
		if cl.ShedOther != 0 {
			t.Errorf("%s: %d other 503s, want none", cl.Name, cl.ShedOther)
		}
	}
}

// holderByHand is, for one client sending every gap from start until stop
// (exclusive) requests of service each under a concurrency limit of places
// with a backend that never queues them, when its requests are served and
// refused: a place freed at t is taken by the first arrival at or after t.
func holderByHand(start, stop, gap, service time.Duration, places int) (served, refused []time.Duration) {
	free := make([]time.Duration, places) // when each place is free again
	for t := start; t < stop; t += gap {
		i := slices.IndexFunc(free, func(f time.Duration) bool { return f <= t })
		if i < 0 {
			refused = append(refused, t)
			continue
		}
		free[i] = t + service
		served = append(served, t)
	}
	return served, refused
}
