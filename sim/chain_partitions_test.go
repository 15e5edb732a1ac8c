package sim

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"testing/quick"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// fixedPartitioned is a partitioned AIMD whose limit cannot move (min = max =
// limit): live 90%, batch 10%, and a third group in no partition.
func fixedPartitioned(t *testing.T, limit float64) *partitionedLimiter {
	t.Helper()
	a, err := algorithms.NewAIMD(algorithms.AIMDConfig{Initial: limit, Min: limit, Max: limit, Target: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	c := &Config{Clients: []ClientGroup{{Name: "live"}, {Name: "batch"}, {Name: "other"}},
		ConcurrencyPartitions: []ConcurrencyPartition{{Name: "live", Classes: []string{"live"}, Share: 0.9},
			{Name: "batch", Classes: []string{"batch"}, Share: 0.1}}}
	return newPartitioned(c, a)
}

// Worked by hand from AbstractPartitionedLimiter.acquire with a limit of 10:
// live's limit is ⌈9⌉ = 9, batch's ⌈1⌉ = 1, the unknown partition's max(1, 0) = 1.
// Batch idle, live takes all 10 (under the limit nobody's share is looked at);
// the 11th live request is refused (the limit is full and live holds 10 ≥ 9);
// a batch request is still admitted (batch holds 0 < 1): 11 in flight, past the
// limit, as in the library; a second batch request is refused, and so is a
// second request of a group in no partition after its first.
func TestPartitionsAsTheLibraryAdmits(t *testing.T) {
	p := fixedPartitioned(t, 10)
	const live, batch, other = 0, 1, 2
	for i := range 10 {
		if !p.acquire(0, live) {
			t.Fatalf("live request %d refused under the limit", i+1)
		}
	}
	steps := []struct {
		group int
		want  bool
	}{{live, false}, {batch, true}, {batch, false}, {other, true}, {other, false}}
	for i, s := range steps {
		if got := p.acquire(0, s.group); got != s.want {
			t.Fatalf("step %d (group %d, %d in flight): admitted %v, want %v", i, s.group, p.count.InFlight(), got, s.want)
		}
	}
	if p.count.InFlight() != 12 || p.busy[0] != 10 || p.busy[1] != 1 || p.busy[2] != 1 {
		t.Fatalf("in flight %d, partitions %v; want 12, [10 1 1]", p.count.InFlight(), p.busy)
	}
	// Live releases two: 10 in flight, still full; live holds 8 < 9, so live
	// is admitted once more and then refused.
	p.release(0, time.Millisecond, live)
	p.release(0, time.Millisecond, live)
	if !p.acquire(0, live) || p.acquire(0, live) {
		t.Fatalf("live at 8 of its 9 with the limit full: want one more admitted, then refused")
	}
	// What each partition did: live 11 in, 2 refused, at most 10 at once.
	want := []PartitionResult{
		{Name: "live", Classes: []string{"live"}, Share: 0.9, Admitted: 11, Refused: 2, MostInFlight: 10, Guaranteed: [2]int{9, 9}},
		{Name: "batch", Classes: []string{"batch"}, Share: 0.1, Admitted: 1, Refused: 1, MostInFlight: 1, Guaranteed: [2]int{1, 1}},
		{Name: "unknown", Classes: []string{"other"}, Admitted: 1, Refused: 1, MostInFlight: 1, Guaranteed: [2]int{1, 1}},
	}
	if got := p.result(); !reflect.DeepEqual(got, want) {
		t.Errorf("result\n%+v, want\n%+v", got, want)
	}
}

// On arbitrary sequences of acquires and releases, a request is refused only
// when the limit is full and its partition holds its own limit or more: a
// partition under its guaranteed share is never refused, and under the limit
// nobody is.
func TestPartitionsNeverRefuseWithinTheShareProperty(t *testing.T) {
	prop := func(ops []uint8, limit8 uint8) bool {
		p := fixedPartitioned(t, float64(limit8%30)+1)
		held := [3]int{}
		for _, op := range ops {
			g := int(op % 3)
			if op&0x80 != 0 && held[g] > 0 {
				p.release(0, time.Millisecond, g)
				held[g]--
				continue
			}
			full := p.count.InFlight() >= int(p.limiter.Limit())
			within := p.busy[p.partOf[g]] < p.limitOf(p.partOf[g])
			got := p.acquire(0, g)
			if got != (!full || within) {
				return false
			}
			if got {
				held[g]++
			}
			if p.count.InFlight() != held[0]+held[1]+held[2] {
				return false
			}
		}
		return true
	}
	if err := quick.Check(prop, nil); err != nil {
		t.Fatal(err)
	}
}

func TestPartitionsAreChecked(t *testing.T) {
	c := mixedWorld()
	c.ConcurrencyPartitions = []ConcurrencyPartition{
		{Name: "a", Classes: []string{c.Clients[0].Name}, Share: 0.7},
		{Name: "a", Classes: []string{"nobody", c.Clients[0].Name}, Share: 0.5},
		{Name: "", Share: 2},
	}
	err := c.Validate()
	for _, want := range []string{`partitions[1].name: "a" names two partitions`, `partitions[1].classes[0]: "nobody" is no client group's name`,
		`partitions[1].classes[1]: "` + c.Clients[0].Name + `" is already in partition "a"`, "partitions[2].name:", "partitions[2].share: must be within [0, 1], got 2",
		"partitions[2].classes: a partition needs at least one class", "partitions: the shares sum to 1.2"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("want %q among the problems: %v", want, err)
		}
	}
	c.Clients = append(c.Clients, ClientGroup{Name: "third", Count: 1, Arrivals: c.Clients[1].Arrivals})
	c.ConcurrencyPartitions = []ConcurrencyPartition{{Name: "x", Classes: []string{"burst"}, Share: 0.1},
		{Name: "y", Classes: []string{"steady"}, Share: 0.2}, {Name: "z", Classes: []string{"third"}, Share: 0.7}}
	if err := c.Validate(); err != nil {
		t.Errorf("0.1 + 0.2 + 0.7 is 1 (within floating point): %v", err)
	}
}

// partitionCount is one partition's figures recounted from a trace.
type partitionCount struct {
	admitted, refused int64
	busy, most        int
	guaranteed        [2]int
}

// partitionRecount recounts, from the trace of one concurrency lane, what
// each partition (of) did: an admit takes a place, a success or a 503 after
// an admit gives it back, a 503 without one is the limit's refusal; the
// places guaranteed are recomputed from the limit each record carries.
type partitionRecount struct {
	lane   int
	of     map[string]int // class → partition
	share  []float64
	counts []partitionCount
	in     map[[3]int64]bool // attempts admitted and not yet answered
}

func (p *partitionRecount) Record(r *TraceRecord) error {
	if r.LaneIndex != p.lane {
		return nil
	}
	i := p.of[r.Class]
	c := &p.counts[i]
	k := [3]int64{int64(r.Client), r.Request, int64(r.Attempt)}
	guaranteed := int(math.Max(1, math.Ceil(float64(int(r.ConcurrencyLimit))*p.share[i])))
	arrived := func() {
		if c.admitted+c.refused == 0 {
			c.guaranteed = [2]int{guaranteed, guaranteed}
		}
		c.guaranteed = [2]int{min(c.guaranteed[0], guaranteed), max(c.guaranteed[1], guaranteed)}
	}
	switch {
	case r.Event == TraceAdmit:
		arrived()
		c.admitted++
		c.busy++
		c.most = max(c.most, c.busy)
		p.in[k] = true
	case (r.Event == TraceSuccess || r.Event == TraceShed) && p.in[k]:
		c.busy--
		delete(p.in, k)
	case r.Event == TraceShed && r.Shedder == "":
		arrived()
		c.refused++
	}
	return nil
}

// Each partition's figures in the result are those recounted from the trace,
// in an AIMD lane whose limit moves (so the places guaranteed do), with a
// class in no partition, on three seeds.
func TestPartitionResultsRecountFromTheTrace(t *testing.T) {
	poisson := func(n int64) []Arrival {
		return []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: n, Per: time.Second}}}
	}
	for seed := uint64(1); seed <= 3; seed++ {
		cfg := Config{Duration: 3 * time.Second, Seed: seed, Lanes: []LaneKind{LaneAIMD}, Limits: hourly,
			AIMD: AIMDSettings{Initial: 10, Min: 4, Max: 30, Target: 60 * time.Millisecond},
			Clients: []ClientGroup{{Name: "live", Count: 10, Arrivals: poisson(10)}, {Name: "batch", Count: 3, Arrivals: poisson(100)},
				{Name: "other", Count: 1, Arrivals: poisson(20)}},
			ConcurrencyPartitions: []ConcurrencyPartition{{Name: "live", Classes: []string{"live"}, Share: 0.8},
				{Name: "batch", Classes: []string{"batch"}, Share: 0.2}},
			Backend: &Backend{Capacity: 20, QueueSize: 5, Service: Service{Mean: 50 * time.Millisecond, Kind: ServiceExponential}}}
		rc := &partitionRecount{of: map[string]int{"live": 0, "batch": 1, "other": 2}, share: []float64{0.8, 0.2, 0},
			counts: make([]partitionCount, 3), in: map[[3]int64]bool{}}
		l := mustRun(t, cfg, Options{Trace: rc}).Lanes[0]
		if len(l.Partitions) != 3 || l.Partitions[2].Name != "unknown" || l.Partitions[2].Classes[0] != "other" {
			t.Fatalf("seed %d: partitions %+v, want live, batch and unknown (other)", seed, l.Partitions)
		}
		var refused int64
		for i, p := range l.Partitions {
			c := rc.counts[i]
			if p.Admitted != c.admitted || p.Refused != c.refused || p.MostInFlight != c.most || p.Guaranteed != c.guaranteed {
				t.Errorf("seed %d: %s admitted %d refused %d most %d guaranteed %v; the trace: %d, %d, %d, %v",
					seed, p.Name, p.Admitted, p.Refused, p.MostInFlight, p.Guaranteed, c.admitted, c.refused, c.most, c.guaranteed)
			}
			refused += p.Refused
		}
		var byLane int64
		for _, cl := range l.Classes {
			byLane += cl.ShedByLane
		}
		if refused != byLane || refused == 0 || l.Partitions[0].Guaranteed[0] == l.Partitions[0].Guaranteed[1] {
			t.Errorf("seed %d: partitions refused %d, the lane shed %d itself; live guaranteed %v; want equal, some, and a limit that moved",
				seed, refused, byLane, l.Partitions[0].Guaranteed)
		}
	}
}
