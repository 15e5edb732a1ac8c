package sim

import (
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
