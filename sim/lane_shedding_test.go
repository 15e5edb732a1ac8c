package sim

import (
	"context"
	"reflect"
	"testing"
	"testing/quick"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// shedWorld has a loose global rate in front of backend b and groups bursts:
// each {criticality, at, count} a group of one client.
func shedWorld(b *Backend, duration time.Duration, bursts ...struct {
	c     Criticality
	at    time.Duration
	count int
}) Config {
	cfg := Config{Duration: duration, Drain: 40 * time.Second, Seed: 1, Lanes: []LaneKind{LaneTokenBucket, LaneAIMD},
		Limits:  []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 1_000_000, Window: time.Second}}},
		Backend: b, AIMD: AIMDSettings{Initial: 1000, Max: 1000}}
	for i, x := range bursts {
		cfg.Clients = append(cfg.Clients, ClientGroup{Name: "g" + itoa(i), Count: 1, Criticality: x.c,
			Arrivals: []Arrival{{Kind: ArrivalBurst, At: x.at, Count: x.count}}})
	}
	return cfg
}

type burst = struct {
	c     Criticality
	at    time.Duration
	count int
}

func wantCriticality(t *testing.T, what string, l LaneResult, want []CriticalityResult) {
	t.Helper()
	if len(l.Criticality) != len(want) {
		t.Fatalf("%s %s: %d criticalities %+v, want %+v", what, l.Name, len(l.Criticality), l.Criticality, want)
	}
	for i := range want {
		if l.Criticality[i] != want[i] {
			t.Errorf("%s %s: %v, want %+v", what, l.Name, l.Criticality[i], want[i])
		}
	}
}

// Ten workers busy for 1s, a fifth kept: the first 8 of 20 sheddable requests
// at 0 are served, the other 12 shed (8 in flight is 1 − 0.2 of 10); of 5
// critical ones at 100ms, 2 take the kept workers and 3 find the backend full
// (shed by it, not by the shedder).
func TestFleetUsageKeepsTheReserve(t *testing.T) {
	b := &Backend{Capacity: 10, Service: Service{Mean: time.Second},
		Shedding: &Shedding{FleetUsage: &FleetUsage{Reserve: 0.2}}}
	cfg := shedWorld(b, time.Second, burst{Sheddable, 0, 20}, burst{Critical, 100 * time.Millisecond, 5})
	for _, l := range mustRun(t, cfg, Options{}).Lanes {
		wantCriticality(t, "fleet usage", l, []CriticalityResult{
			{Criticality: Critical, Offered: 5, Served: 2, Shed: 3},
			{Criticality: Sheddable, Offered: 20, Served: 8, Shed: 12, ShedByShedders: 12},
		})
		if len(l.ShedBy) != 1 || l.ShedBy[0] != (LimitCount{"fleet_usage", 12}) {
			t.Errorf("%s: shed by %v, want fleet_usage 12", l.Name, l.ShedBy)
		}
	}
	// Without the shedder the sheddable burst takes every worker.
	cfg.Backend = &Backend{Capacity: 10, Service: Service{Mean: time.Second}}
	cfg.Clients[1].Criticality = Critical
	for _, l := range mustRun(t, cfg, Options{}).Lanes {
		wantCriticality(t, "no shedder", l, []CriticalityResult{
			{Criticality: Critical, Offered: 5, Served: 0, Shed: 5},
			{Criticality: Sheddable, Offered: 20, Served: 10, Shed: 10},
		})
	}
}

// Ten workers busy for 10s from 0, threshold 0.9: the 10th sheddable request
// at 0 finds 9 busy and is shed, as are the 11th and 12th; sheddable_plus at
// 10ms still passes (one criticality shed); at 1.5s, overloaded for 1.5s,
// two criticalities are shed, so sheddable_plus is; critical passes at 1.6s
// but not at 2.5s (three shed); critical_plus never is.
func TestUtilisationShedsTheLeastCriticalFirst(t *testing.T) {
	b := &Backend{Capacity: 10, QueueSize: 100, Service: Service{Mean: 10 * time.Second},
		Shedding: &Shedding{Utilisation: &UtilisationShedding{Threshold: 0.9}}}
	ms := time.Millisecond
	cfg := shedWorld(b, 3*time.Second, burst{Sheddable, 0, 12}, burst{SheddablePlus, 10 * ms, 3}, burst{SheddablePlus, 1500 * ms, 2},
		burst{Critical, 1600 * ms, 1}, burst{Critical, 2500 * ms, 1}, burst{CriticalPlus, 2500 * ms, 1})
	for _, l := range mustRun(t, cfg, Options{}).Lanes {
		wantCriticality(t, "utilisation", l, []CriticalityResult{
			{Criticality: CriticalPlus, Offered: 1, Served: 1},
			{Criticality: Critical, Offered: 2, Served: 1, Shed: 1, ShedByShedders: 1},
			{Criticality: SheddablePlus, Offered: 5, Served: 3, Shed: 2, ShedByShedders: 2},
			{Criticality: Sheddable, Offered: 12, Served: 9, Shed: 3, ShedByShedders: 3},
		})
	}
}

// One worker for 1s, queue_age 500ms: at 600ms the request queued at 0 has
// waited 600ms, so a sheddable request is shed and a critical one queued.
func TestUtilisationWatchesTheQueueAge(t *testing.T) {
	b := &Backend{Capacity: 1, QueueSize: 10, Service: Service{Mean: time.Second}, RetryAfter: 3 * time.Second,
		Shedding: &Shedding{Utilisation: &UtilisationShedding{QueueAge: 500 * time.Millisecond}}}
	ms := time.Millisecond
	cfg := shedWorld(b, time.Second, burst{Sheddable, 0, 2}, burst{Sheddable, 600 * ms, 1}, burst{Critical, 600 * ms, 1})
	for _, l := range mustRun(t, cfg, Options{}).Lanes {
		wantCriticality(t, "queue age", l, []CriticalityResult{
			{Criticality: Critical, Offered: 1, Served: 1},
			{Criticality: Sheddable, Offered: 3, Served: 2, Shed: 1, ShedByShedders: 1},
		})
		if l.RetryAfter.Given != 1 {
			t.Errorf("%s: %d answers carried a Retry-After, want the shed one", l.Name, l.RetryAfter.Given)
		}
	}
}

// shedOrderSink checks, per lane and instant, that once a shedder shed an
// attempt of some criticality no attempt less critical passes the shedders
// later in that instant. An attempt passes when its admission (TraceAdmit)
// is not followed by a shed of a shedder for the same attempt.
type shedOrderSink struct {
	crit    map[string]Criticality // class → criticality
	at      map[string]time.Duration
	worst   map[string]int // lane → the most critical rank shed at this instant, or 4
	pending map[string]*TraceRecord
	bad     string
	sheds   int
}

func (s *shedOrderSink) settle(lane string) {
	if p := s.pending[lane]; p != nil {
		if rank := s.crit[p.Class].rank(); rank > s.worst[lane] && s.bad == "" {
			s.bad = "at " + p.At.String() + " in " + lane + ": " + p.Class + " passed after a more critical attempt was shed"
		}
		s.pending[lane] = nil
	}
}

func (s *shedOrderSink) Record(r *TraceRecord) error {
	lane := r.LaneName
	if t, ok := s.at[lane]; !ok || t != r.At {
		s.settle(lane)
		s.at[lane], s.worst[lane] = r.At, len(criticalities)
	}
	switch {
	case r.Event == TraceShed && r.Shedder != "":
		if p := s.pending[lane]; p != nil && p.Client == r.Client && p.Request == r.Request && p.Attempt == r.Attempt {
			s.pending[lane] = nil
		}
		s.sheds++
		s.worst[lane] = min(s.worst[lane], s.crit[r.Class].rank())
	case r.Event == TraceAdmit:
		s.settle(lane)
		rec := *r
		s.pending[lane] = &rec
	default:
		s.settle(lane)
	}
	return nil
}

// shedTraffic is random traffic for the shedders' property.
type shedTraffic struct {
	Crit             [4]uint8
	Rate             [4]uint8
	Cap, Queue, Serv uint8
	Reserve, Thresh  uint8
	QueueAge, Step   uint8
	Retry, Grid      bool
	Seed             uint64
}

func (tr shedTraffic) config() Config {
	sh := &Shedding{}
	if tr.Reserve%3 != 0 {
		sh.FleetUsage = &FleetUsage{Reserve: float64(1+tr.Reserve%9) / 10, Keep: Criticality(tr.Reserve % 4)}
	}
	if tr.Thresh%3 != 0 || sh.FleetUsage == nil {
		sh.Utilisation = &UtilisationShedding{Threshold: float64(1+tr.Thresh%10) / 10,
			QueueAge: time.Duration(tr.QueueAge%4) * 20 * time.Millisecond, Escalate: time.Duration(1+tr.Step%5) * 100 * time.Millisecond}
	}
	cfg := Config{Duration: 2 * time.Second, Seed: tr.Seed, Lanes: []LaneKind{LaneTokenBucket},
		Limits: []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 1_000_000, Window: time.Second}}},
		Backend: &Backend{Capacity: 1 + int(tr.Cap%10), QueueSize: int(tr.Queue % 20), Shedding: sh,
			Service: Service{Kind: ServiceExponential, Mean: time.Duration(10+int(tr.Serv)) * time.Millisecond}}}
	if tr.Grid {
		cfg.Backend.Service = Service{Mean: time.Duration(1+tr.Serv%10) * 10 * time.Millisecond}
	}
	for i := range 4 {
		g := ClientGroup{Name: "g" + itoa(i), Count: 1 + i, Criticality: Criticality(tr.Crit[i] % 4),
			Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 1 + int64(tr.Rate[i]%60), Per: time.Second}}}}
		if tr.Grid { // on a 10ms grid, as the service times: answers and arrivals meet at one instant
			g.Arrivals[0] = Arrival{Kind: ArrivalConstant, Rate: Rate{Count: 10 * (1 + int64(tr.Rate[i]%8)), Per: time.Second}}
		}
		if i == 3 { // a burst: many attempts at one instant
			g.Arrivals = append(g.Arrivals, Arrival{Kind: ArrivalBurst, At: time.Second, Count: 1 + int(tr.Rate[i]%30)})
		}
		if tr.Retry {
			g.Retry = Retry{Kind: RetryFixed, Delay: 5 * time.Millisecond, MaxAttempts: 3}
		}
		cfg.Clients = append(cfg.Clients, g)
	}
	return cfg
}

// On random traffic, at one instant, once a shedder has shed an attempt of
// some criticality, no less critical attempt gets past the shedders in that
// instant; and the shedders' counts are the trace's.
func TestShedLeastCriticalFirstProperty(t *testing.T) {
	total := 0
	f := func(tr shedTraffic) bool {
		cfg := tr.config()
		s := &shedOrderSink{crit: map[string]Criticality{}, at: map[string]time.Duration{}, worst: map[string]int{}, pending: map[string]*TraceRecord{}}
		for _, g := range cfg.Clients {
			s.crit[g.Name] = g.Criticality
		}
		r := mustRun(t, cfg, Options{Trace: s})
		for lane := range s.pending {
			s.settle(lane)
		}
		var counted int64
		for _, c := range r.Lanes[0].ShedBy {
			counted += c.Count
		}
		total += s.sheds
		if s.bad != "" || counted != int64(s.sheds) {
			t.Logf("%+v: %s; shedders counted %d, the trace %d", tr, s.bad, counted, s.sheds)
			return false
		}
		if err := checkClassCaught(r.Lanes[0]); err != nil {
			t.Logf("%+v: %v", tr, err)
			return false
		}
		return true
	}
	if err := quick.Check(f, &quick.Config{MaxCount: 80}); err != nil {
		t.Error(err)
	}
	if total == 0 {
		t.Error("no shedder ever shed: the property was never tested")
	}
}

// Retrying clients the shedders turn away make many attempts: the event
// estimate counts them within 2× of the real count, light and heavy, as it
// does without shedders. Between (40/s here) it is off by up to 4× with or
// without shedders: the estimate's share refused of a backend overloaded by
// retries that give up is a known gap of its own, not the shedders'.
func TestEstimateCountsShedRetries(t *testing.T) {
	for _, rate := range []int64{5, 200} {
		for _, sh := range []*Shedding{
			{FleetUsage: &FleetUsage{Reserve: 0.3}},
			{Utilisation: &UtilisationShedding{Threshold: 0.8, Escalate: 500 * time.Millisecond}},
			nil,
		} {
			cfg := Config{Duration: 5 * time.Second, Seed: 3, Lanes: []LaneKind{LaneTokenBucket},
				Limits: []Limit{{Key: KeyUser, Policy: algorithms.Policy{Limit: 1000, Window: time.Second}}},
				Clients: []ClientGroup{
					{Name: "batch", Count: 4, Criticality: Sheddable, Retry: Retry{Kind: RetryFixed, Delay: 20 * time.Millisecond, MaxAttempts: 10},
						Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: rate, Per: time.Second}}}},
					{Name: "api", Count: 2, Retry: Retry{Kind: RetryFixed, Delay: 20 * time.Millisecond},
						Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 10, Per: time.Second}}}},
				},
				Backend: &Backend{Capacity: 10, QueueSize: 5, Service: Service{Kind: ServiceExponential, Mean: 100 * time.Millisecond}, Shedding: sh}}
			s, err := New(cfg, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.RunToEnd(context.Background()); err != nil {
				t.Fatal(err)
			}
			est, real := cfg.EstimateEvents(), s.Events()
			if est > 2*real || real > 2*est {
				t.Errorf("%d/s, %+v: EstimateEvents() = %d, the run processed %d", rate, sh, est, real)
			}
		}
	}
}

// The same scenario and seed give the same result, traced or not.
func TestSheddingDeterministic(t *testing.T) {
	cfg := shedTraffic{Crit: [4]uint8{0, 1, 2, 3}, Rate: [4]uint8{50, 40, 30, 20}, Cap: 4, Queue: 5, Serv: 60,
		Reserve: 2, Thresh: 4, QueueAge: 2, Step: 1, Retry: true, Seed: 9}.config()
	a, b := mustRun(t, cfg, Options{}), mustRun(t, cfg, Options{})
	s := &shedOrderSink{crit: map[string]Criticality{}, at: map[string]time.Duration{}, worst: map[string]int{}, pending: map[string]*TraceRecord{}}
	traced := mustRun(t, cfg, Options{Trace: s})
	if !reflect.DeepEqual(a, b) || !reflect.DeepEqual(a.Lanes[0].Criticality, traced.Lanes[0].Criticality) {
		t.Error("two runs of one scenario differ")
	}
	if a.Lanes[0].ShedBy[0].Count == 0 || a.Lanes[0].ShedBy[1].Count == 0 {
		t.Errorf("shed by %v: a shedder never shed, the test tests nothing", a.Lanes[0].ShedBy)
	}
}
