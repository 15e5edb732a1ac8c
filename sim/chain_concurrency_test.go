package sim

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"testing/quick"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// concWorld is one client sending every 50ms for 500ms (10 requests) to a
// backend that takes 100ms each, through a loose global rate and a per-user
// concurrency limit of n.
func concWorld(n int64, shadow bool) Config {
	return Config{Duration: 500 * time.Millisecond, Seed: 1, Lanes: []LaneKind{LaneTokenBucket, LaneFixedWindow},
		Limits: []Limit{
			{Name: "rate", Key: KeyGlobal, Policy: algorithms.Policy{Limit: 1000, Window: time.Second}},
			{Name: "conc", Key: KeyUser, Concurrency: n, Shadow: shadow},
		},
		Clients: []ClientGroup{{Name: "c", Count: 1, Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 20, Per: time.Second}}}}},
		Backend: &Backend{Capacity: 100, Service: Service{Mean: 100 * time.Millisecond}},
	}
}

// With one place, the request at 0 holds it until its answer at 100ms: the
// one at 50ms is refused, the one at 100ms finds it free again (the answer
// was due first), and so on: five of ten admitted, five refused by conc.
// Two places admit all ten, as at most two are ever in flight.
func TestConcurrencyLimitReleasesOnAnswer(t *testing.T) {
	for _, tt := range []struct {
		n                 int64
		admitted, refused int64
		most              int64
	}{{1, 5, 5, 1}, {2, 10, 0, 2}} {
		for _, l := range mustRun(t, concWorld(tt.n, false), Options{}).Lanes {
			if l.Admitted != tt.admitted || l.Refused != tt.refused || l.RefusedBy[1].Count != tt.refused {
				t.Errorf("n=%d %s: admitted %d, refused %d (by conc %d); want %d and %d", tt.n, l.Name, l.Admitted, l.Refused, l.RefusedBy[1].Count, tt.admitted, tt.refused)
			}
			if len(l.InFlight) != 1 || l.InFlight[0] != (LimitCount{Limit: "conc", Count: tt.most}) {
				t.Errorf("n=%d %s: in flight %v, want conc at most %d", tt.n, l.Name, l.InFlight, tt.most)
			}
		}
	}
}

// A shadow concurrency limit counts the five it would refuse and lets all ten
// through; its would-be refusals take no place, so it counts the same five.
func TestConcurrencyLimitShadow(t *testing.T) {
	for _, l := range mustRun(t, concWorld(1, true), Options{}).Lanes {
		if l.Admitted != 10 || l.Refused != 0 || l.ShadowRefusedBy[1].Count != 5 {
			t.Errorf("%s: admitted %d, refused %d, shadow-refused by conc %d; want 10, 0, 5", l.Name, l.Admitted, l.Refused, l.ShadowRefusedBy[1].Count)
		}
	}
}

// Without a backend a request is answered the instant it is released, so a
// burst of ten at one instant never has two in flight: none is refused.
func TestConcurrencyLimitWithoutBackend(t *testing.T) {
	c := concWorld(1, false)
	c.Backend = nil
	c.Clients[0].Arrivals = []Arrival{{Kind: ArrivalBurst, Count: 10}}
	for _, l := range mustRun(t, c, Options{}).Lanes {
		if l.Admitted != 10 || l.Refused != 0 {
			t.Errorf("%s: admitted %d, refused %d; want 10 and 0", l.Name, l.Admitted, l.Refused)
		}
	}
}

// inFlightSink rebuilds from the trace how many requests of each key are in
// flight (admitted, now or late, and not yet answered) in each lane, and
// records the most.
type inFlightSink struct {
	now  map[[2]string]int64
	most map[string]int64 // lane → most of any key
}

func (s *inFlightSink) Record(r *TraceRecord) error {
	k := [2]string{r.LaneName, r.Key}
	switch r.Event {
	case TraceAdmit, TraceDelay:
		s.now[k]++
		s.most[r.LaneName] = max(s.most[r.LaneName], s.now[k])
	case TraceSuccess, TraceShed:
		s.now[k]--
	}
	return nil
}

// concTraffic is random traffic for the property test.
type concTraffic struct {
	N                     uint8
	Clients, Rate, Shared uint8
	Service, Queue, Cap   uint8
	Retry, Leaky          bool
	Seed                  uint64
}

func (tr concTraffic) config() Config {
	n := 1 + int64(tr.N%5)
	c := Config{Duration: 2 * time.Second, Seed: tr.Seed,
		Lanes: []LaneKind{LaneTokenBucket, LaneSlidingLog},
		Limits: []Limit{
			{Name: "rate", Key: KeyUser, Policy: algorithms.Policy{Limit: 20 + int64(tr.Rate%50), Window: time.Second}},
			{Name: "conc", Key: KeyUser, Concurrency: n},
		},
		Backend: &Backend{Capacity: 1 + int(tr.Cap%8), QueueSize: int(tr.Queue % 10),
			Service: Service{Kind: ServiceExponential, Mean: time.Duration(1+int(tr.Service%200)) * time.Millisecond}},
	}
	if tr.Leaky {
		c.Lanes = append(c.Lanes, LaneLeakyBucket)
	}
	users := "{g}-{i}"
	if tr.Shared%2 == 0 {
		users = "{g}" // the whole group is one user
	}
	g := ClientGroup{Name: "c", Count: 1 + int(tr.Clients%6), Identity: Identity{User: users},
		Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 5 + int64(tr.Rate%100), Per: time.Second}}}}
	if tr.Retry {
		g.Retry = Retry{Kind: RetryFixed, Delay: 7 * time.Millisecond, MaxAttempts: 4}
	}
	c.Clients = []ClientGroup{g}
	return c
}

// On random traffic a concurrency limit never has more than N requests of a
// key in flight, as the trace shows them, and the result's most in flight
// is the trace's.
func TestConcurrencyLimitNeverOverProperty(t *testing.T) {
	f := func(tr concTraffic) bool {
		c := tr.config()
		sink := &inFlightSink{now: map[[2]string]int64{}, most: map[string]int64{}}
		r := mustRun(t, c, Options{Trace: sink})
		for _, l := range r.Lanes {
			n := c.Limits[1].Concurrency
			if sink.most[l.Name] > n || l.InFlight[0].Count != sink.most[l.Name] {
				t.Logf("%+v %s: trace's most in flight %d, result's %d, limit %d", tr, l.Name, sink.most[l.Name], l.InFlight[0].Count, n)
				return false
			}
		}
		return true
	}
	if err := quick.Check(f, &quick.Config{MaxCount: 60}); err != nil {
		t.Error(err)
	}
}

// The same scenario and seed give the same result, with or without a trace.
func TestConcurrencyLimitDeterministic(t *testing.T) {
	c := concTraffic{N: 2, Clients: 4, Rate: 90, Service: 150, Queue: 3, Cap: 2, Retry: true, Leaky: true, Seed: 7}.config()
	a, b := mustRun(t, c, Options{}), mustRun(t, c, Options{})
	sink := &inFlightSink{now: map[[2]string]int64{}, most: map[string]int64{}}
	traced := mustRun(t, c, Options{Trace: sink})
	if !reflect.DeepEqual(a, b) || !reflect.DeepEqual(a.Lanes[0].InFlight, traced.Lanes[0].InFlight) || a.Lanes[0].Refused != traced.Lanes[0].Refused {
		t.Error("two runs of one scenario differ")
	}
	if a.Lanes[0].RefusedBy[1].Count == 0 {
		t.Error("the scenario never meets its concurrency limit: it tests nothing")
	}
}

func TestConcurrencyLimitValidation(t *testing.T) {
	base := concWorld(1, false)
	for _, tt := range []struct {
		name   string
		change func(c *Config)
		field  string
	}{
		{"negative", func(c *Config) { c.Limits[1].Concurrency = -1 }, "limits[1].concurrency"},
		{"huge", func(c *Config) { c.Limits[1].Concurrency = MaxConcurrency + 1 }, "limits[1].concurrency"},
		{"and a rate", func(c *Config) { c.Limits[1].Policy = algorithms.Policy{Limit: 1, Window: time.Second} }, "limits[1].concurrency"},
		{"first", func(c *Config) { c.Limits[0], c.Limits[1] = c.Limits[1], c.Limits[0] }, "limits[0].concurrency"},
		{"topology", func(c *Config) { c.Topology = &Topology{Replicas: []ReplicaStep{{Count: 2}}} }, "limits[1].concurrency"},
		{"override", func(c *Config) {
			c.Overrides = []LaneOverride{{Lane: LaneTokenBucket, Limit: 1, Policy: algorithms.Policy{Limit: 1, Window: time.Second}}}
		}, "overrides[0].limit_index"},
		{"rule push", func(c *Config) {
			c.Rules = []RuleChange{{At: time.Millisecond, Limit: 1, Policy: algorithms.Policy{Limit: 1, Window: time.Second}}}
		}, "rules[0]"},
	} {
		c := base
		c.Limits = append([]Limit(nil), base.Limits...)
		tt.change(&c)
		err := c.Validate()
		if err == nil || !strings.Contains(err.Error(), tt.field+":") {
			t.Errorf("%s: %v, want an error at %s", tt.name, err, tt.field)
		}
	}
	c := base
	c.Rules = []RuleChange{{At: time.Millisecond, Limit: 1, Shadow: true}}
	if err := c.Validate(); err != nil {
		t.Errorf("a rule push making a concurrency limit a shadow: %v", err)
	}
}

// Clients retrying against a full concurrency limit make many attempts: the
// event estimate counts them, within 2× of the real count, at every load.
func TestEstimateCountsConcurrencyRetries(t *testing.T) {
	for _, rate := range []int64{5, 30, 200} {
		for _, retry := range []Retry{{}, {Kind: RetryFixed, Delay: 10 * time.Millisecond}, {Kind: RetryFixed, Delay: 50 * time.Millisecond, MaxAttempts: 3},
			{Kind: RetryExponential, Base: 10 * time.Millisecond, Cap: 200 * time.Millisecond, Jitter: JitterFull}} {
			cfg := Config{Duration: 5 * time.Second, Seed: 2, Lanes: []LaneKind{LaneTokenBucket, LaneGCRA},
				Limits: []Limit{
					{Key: KeyUser, Policy: algorithms.Policy{Limit: 1000, Window: time.Second}},
					{Name: "conc", Key: KeyUser, Concurrency: 2},
				},
				Clients: []ClientGroup{{Count: 3, Retry: retry,
					Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: rate, Per: time.Second}}}}},
				Backend: &Backend{Capacity: 10, Service: Service{Mean: 100 * time.Millisecond}}}
			s, err := New(cfg, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.RunToEnd(context.Background()); err != nil {
				t.Fatal(err)
			}
			est, real := cfg.EstimateEvents(), s.Events()
			if est > 2*real || real > 2*est {
				t.Errorf("%d/s, retry %+v: EstimateEvents() = %d, the run processed %d", rate, retry, est, real)
			}
		}
	}
}
