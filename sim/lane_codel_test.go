package sim

import (
	"math/rand/v2"
	"slices"
	"testing"
	"testing/quick"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

var generous = []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 1_000_000, Window: time.Second}}}

// served lists the requests of client 0 in the order the backend finished them.
func served(log *traceLog) []int64 {
	var got []int64
	for _, r := range log.recs {
		if r.Event == TraceSuccess {
			got = append(got, r.Request)
		}
	}
	return got
}

// Five requests at 0 on one server: the first is served at once, the four
// waiting newest first under LIFO, oldest first under FIFO.
func TestLIFOServesNewestFirst(t *testing.T) {
	for _, tt := range []struct {
		d    QueueDiscipline
		want []int64
	}{{QueueFIFO, []int64{1, 2, 3, 4, 5}}, {QueueLIFO, []int64{1, 5, 4, 3, 2}}} {
		cfg := Config{Duration: time.Second, Lanes: []LaneKind{LaneTokenBucket}, Limits: generous,
			Clients: []ClientGroup{{Count: 1, Arrivals: []Arrival{{Kind: ArrivalBurst, Count: 5}}}},
			Backend: &Backend{Capacity: 1, QueueSize: 10, Discipline: tt.d, Service: Service{Mean: 10 * time.Millisecond}}}
		var log traceLog
		mustRun(t, cfg, Options{Trace: &log})
		if got := served(&log); !slices.Equal(got, tt.want) {
			t.Errorf("%v: served %v, want %v", tt.d, got, tt.want)
		}
	}
}

// On random traffic into one server of constant service time under LIFO, the
// request a server takes from the queue entered it no earlier than any other
// still waiting: newest first among those waiting.
func TestLIFOPropertyNewestAmongWaiting(t *testing.T) {
	f := func(seed uint64) bool {
		rnd := rand.New(rand.NewPCG(seed, 2))
		service := time.Duration(5+rnd.IntN(20)) * time.Millisecond
		cfg := Config{Duration: 2 * time.Second, Seed: seed, Lanes: []LaneKind{LaneTokenBucket}, Limits: generous,
			Clients: []ClientGroup{{Count: 1 + rnd.IntN(5), Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: int64(20 + rnd.IntN(200)), Per: time.Second}}}}},
			Backend: &Backend{Capacity: 1, QueueSize: 1000, Discipline: QueueLIFO, Service: Service{Mean: service}}}
		var log traceLog
		mustRun(t, cfg, Options{Trace: &log})
		type req struct {
			c int
			n int64
		}
		entered := map[req]time.Duration{}
		start := map[req]time.Duration{}
		for _, r := range log.recs {
			k := req{r.Client, r.Request}
			switch r.Event {
			case TraceAdmit:
				entered[k] = r.At
			case TraceSuccess:
				start[k] = r.At - service
			case TraceShed: // the queue was full: it never waited
				delete(entered, k)
			}
		}
		for x, sx := range start {
			if sx == entered[x] {
				continue // served at once, never waited
			}
			for y, ey := range entered {
				sy, done := start[y]
				waiting := ey <= sx && (!done || sy > sx) && y != x
				if waiting && ey > entered[x] {
					t.Logf("seed %d: %v (entered %v) taken at %v while %v (entered %v) waited", seed, x, entered[x], sx, y, ey)
					return false
				}
			}
		}
		return len(start) > 0
	}
	if err := quick.Check(f, &quick.Config{MaxCount: 25}); err != nil {
		t.Error(err)
	}
}

// Thirty requests at 0 on one server of 10ms with CoDel (target 5ms, interval
// 100ms), by RFC 8289 §5 worked by hand: a server takes the next at every
// 10ms; the wait is over target from the first (10ms), so at 110ms, an interval
// later, CoDel drops request 12 and serves 13 and sets drop_next 110+100/√1 =
// 210ms, where it drops request 23 (count 2, next 210+100/√2 ≈ 280.7ms); at
// 270ms request 30 leaves the queue empty and dropping stops. Two dropped with
// 503, 28 served.
func TestCoDelDropsByItsControlLaw(t *testing.T) {
	cfg := Config{Duration: time.Second, Lanes: []LaneKind{LaneTokenBucket}, Limits: generous,
		Clients: []ClientGroup{{Count: 1, Arrivals: []Arrival{{Kind: ArrivalBurst, Count: 30}}}},
		Backend: &Backend{Capacity: 1, QueueSize: 100, Service: Service{Mean: 10 * time.Millisecond},
			CoDel: &CoDel{Target: 5 * time.Millisecond, Interval: 100 * time.Millisecond}}}
	var log traceLog
	l := mustRun(t, cfg, Options{Trace: &log}).Lanes[0]
	var shed []int64
	var at []time.Duration
	for _, r := range log.recs {
		if r.Event == TraceShed {
			shed, at = append(shed, r.Request), append(at, r.At)
		}
	}
	if !slices.Equal(shed, []int64{12, 23}) || !slices.Equal(at, []time.Duration{110 * time.Millisecond, 210 * time.Millisecond}) {
		t.Errorf("CoDel dropped %v at %v, want [12 23] at [110ms 210ms]", shed, at)
	}
	if l.Backend.Dropped != 2 || l.Shed != 2 || l.Backend.Served != 28 {
		t.Errorf("dropped %d shed %d served %d, want 2, 2, 28", l.Backend.Dropped, l.Shed, l.Backend.Served)
	}
}

// A queue whose waits stay below target is never dropped from.
func TestCoDelKeepsAShortQueue(t *testing.T) {
	cfg := Config{Duration: time.Second, Lanes: []LaneKind{LaneTokenBucket}, Limits: generous,
		Clients: []ClientGroup{{Count: 1, Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 100, Per: time.Second}}}}},
		Backend: &Backend{Capacity: 1, QueueSize: 100, Service: Service{Mean: 9 * time.Millisecond}, CoDel: &CoDel{}}}
	if l := mustRun(t, cfg, Options{}).Lanes[0]; l.Backend.Dropped != 0 || l.Backend.Served != 100 {
		t.Errorf("dropped %d served %d, want 0 and 100", l.Backend.Dropped, l.Backend.Served)
	}
}

// RFC 8289 never drops what would leave the queue empty ("bytes() <=
// MAXPACKET"): three requests at 0 on one server of 100ms; at 100ms request 2
// waited 100ms, over target, so CoDel starts its interval (to 200ms); at 200ms
// request 3 waited 200ms but is the last: served, not dropped.
func TestCoDelNeverDropsTheLastWaiting(t *testing.T) {
	cfg := Config{Duration: time.Second, Lanes: []LaneKind{LaneTokenBucket}, Limits: generous,
		Clients: []ClientGroup{{Count: 1, Arrivals: []Arrival{{Kind: ArrivalBurst, Count: 3}}}},
		Backend: &Backend{Capacity: 1, QueueSize: 10, Service: Service{Mean: 100 * time.Millisecond}, CoDel: &CoDel{}}}
	if l := mustRun(t, cfg, Options{}).Lanes[0]; l.Backend.Dropped != 0 || l.Backend.Served != 3 {
		t.Errorf("dropped %d served %d, want 0 and 3", l.Backend.Dropped, l.Backend.Served)
	}
}
