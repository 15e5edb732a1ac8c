package sim

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim/engine"
)

// The 100-client model of issue 14: 100 Poisson clients, each sending 10 a
// second on average, through one global token bucket of 500 a second (bursts
// of 500), no retries: about 1,000 arrivals a second, none refused in the mean.
// BenchmarkPoisson100 runs it through rlsim; BenchmarkPoisson100HeapLoop is the
// same model as a hand-written Go loop over a binary heap of pending arrivals,
// one per client, with the same random streams, the yardstick rlsim is held to.
const (
	baselineClients = 100
	baselineMean    = 100 * time.Millisecond // between one client's arrivals
	baselineLimit   = 500                    // per second, and the burst
)

func poisson100(d time.Duration) Config {
	return Config{
		Duration: d, Lanes: []LaneKind{LaneTokenBucket},
		Limits: []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: baselineLimit, Window: time.Second}}},
		Clients: []ClientGroup{{Count: baselineClients,
			Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 1, Per: baselineMean}}}}},
	}
}

func BenchmarkPoisson100(b *testing.B) {
	benchmarkEvents(b, poisson100(100_000*time.Second))
}

// heapLoop is the hand-written model: a min-heap of (time, client) arrivals,
// ties broken by client, a token bucket in integer nanoseconds of credit.
type heapLoop struct {
	at       []time.Duration // pending arrival per heap slot
	who      []int32         // its client
	rnd      []engine.Stream // per client
	credit   time.Duration   // the bucket's tokens as time: one token per interval
	last     time.Duration
	admitted int64
	refused  int64
}

const baselineInterval = time.Second / baselineLimit

func newHeapLoop(seed uint64) *heapLoop {
	h := &heapLoop{credit: baselineLimit * baselineInterval}
	for c := range baselineClients {
		h.rnd = append(h.rnd, engine.NewStream(seed, labelArrival, uint64(c), 0))
		h.push(h.rnd[c].Exp(baselineMean), int32(c))
	}
	return h
}

func (h *heapLoop) less(i, j int) bool {
	return h.at[i] < h.at[j] || h.at[i] == h.at[j] && h.who[i] < h.who[j]
}

func (h *heapLoop) swap(i, j int) {
	h.at[i], h.at[j] = h.at[j], h.at[i]
	h.who[i], h.who[j] = h.who[j], h.who[i]
}

func (h *heapLoop) push(at time.Duration, c int32) {
	h.at, h.who = append(h.at, at), append(h.who, c)
	for i := len(h.at) - 1; i > 0; {
		p := (i - 1) / 2
		if !h.less(i, p) {
			break
		}
		h.swap(i, p)
		i = p
	}
}

// step handles the earliest arrival and replaces it with the client's next.
func (h *heapLoop) step() {
	now, c := h.at[0], h.who[0]
	h.credit = min(h.credit+now-h.last, baselineLimit*baselineInterval)
	h.last = now
	if h.credit >= baselineInterval {
		h.credit -= baselineInterval
		h.admitted++
	} else {
		h.refused++
	}
	h.at[0] = now + h.rnd[c].Exp(baselineMean)
	for i, n := 0, len(h.at); ; {
		l := 2*i + 1
		if l >= n {
			break
		}
		if r := l + 1; r < n && h.less(r, l) {
			l = r
		}
		if !h.less(l, i) {
			break
		}
		h.swap(i, l)
		i = l
	}
}

func BenchmarkPoisson100HeapLoop(b *testing.B) {
	h := newHeapLoop(1)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	for range b.N {
		h.step()
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/event")
	reportCPU(b, cpu, int64(b.N))
	if h.admitted+h.refused != int64(b.N) {
		b.Fatalf("%d admitted + %d refused, want %d events", h.admitted, h.refused, b.N)
	}
}
