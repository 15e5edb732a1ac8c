package sim

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// A token bucket lane's options at each bound checkOptions holds: the key
// table's size and what a full one does, and a start level against every
// burst the lane may apply (its limits' and the rule pushes').
func TestEdgesOfLaneOptions(t *testing.T) {
	world := func() Config {
		c := auditConfig()
		c.Lanes = []LaneKind{LaneTokenBucket}
		c.Variants = []Variant{{}}
		return c
	}
	opt := func(o LaneOptions) func(*Config) { return func(c *Config) { c.Variants[0].Options = o } }
	level := func(n int64) *int64 { return &n }
	push := func(c *Config, limit int64) {
		c.Rules = []RuleChange{{At: 500 * time.Millisecond, Policy: algorithms.Policy{Limit: limit, Window: time.Second}}}
	}
	checkEdges(t, world, []edgeCase{
		{"keys 1", opt(LaneOptions{Keys: 1}), ""},
		{"keys -1", opt(LaneOptions{Keys: -1}), "variants[0].keys"},
		{"keys with a topology", func(c *Config) {
			c.Variants[0].Options = LaneOptions{Keys: 5}
			c.Topology = &Topology{Replicas: []ReplicaStep{{Count: 2}}}
		}, "variants[0].keys"},
		{"keys and evict", opt(LaneOptions{Keys: 5, WhenFull: TableEvict}), ""},
		{"evict without keys", opt(LaneOptions{WhenFull: TableEvict}), "variants[0].when_full"},
		{"refuse without keys", opt(LaneOptions{WhenFull: TableRefuse}), "variants[0].when_full"},
		{"an unknown when_full", opt(LaneOptions{Keys: 5, WhenFull: 99}), "variants[0].when_full"},
		{"start at the limit's burst", opt(LaneOptions{Start: level(10)}), ""},
		{"start over the limit's burst", opt(LaneOptions{Start: level(11)}), "variants[0].start"},
		{"start at a pushed rule's burst", func(c *Config) {
			c.Variants[0].Options = LaneOptions{Start: level(4)}
			push(c, 4)
		}, ""},
		{"start over a pushed rule's burst", func(c *Config) {
			c.Variants[0].Options = LaneOptions{Start: level(5)}
			push(c, 4)
		}, "variants[0].start"},
		{"start over the burst of a push that only shadows", func(c *Config) {
			c.Variants[0].Options = LaneOptions{Start: level(5)}
			c.Rules = []RuleChange{{At: time.Millisecond, Shadow: true}}
		}, ""},
	})
}

// Only a concurrency lane has partitions of its own, at most
// MaxConcurrencyPartitions of them.
func TestEdgesOfALanesPartitions(t *testing.T) {
	parts := func(n int) *[]ConcurrencyPartition {
		p := make([]ConcurrencyPartition, n)
		for i := range p {
			p[i] = ConcurrencyPartition{Name: fmt.Sprintf("p%d", i), Classes: []string{fmt.Sprintf("c%d", i)}, Share: 1 / float64(n)}
		}
		return &p
	}
	world := func() Config { // a client group per partition, c0 … c64
		c := auditConfig()
		c.Lanes = []LaneKind{LaneAIMD}
		c.Variants = []Variant{{}}
		g := c.Clients[0]
		c.Clients = nil
		for i := range MaxConcurrencyPartitions + 1 {
			g.Name = fmt.Sprintf("c%d", i)
			c.Clients = append(c.Clients, g)
		}
		return c
	}
	checkEdges(t, world, []edgeCase{
		{"no partitions", func(c *Config) { c.Variants[0].Partitions = parts(0) }, ""},
		{"the most partitions", func(c *Config) { c.Variants[0].Partitions = parts(MaxConcurrencyPartitions) }, ""},
		{"one partition too many", func(c *Config) { c.Variants[0].Partitions = parts(MaxConcurrencyPartitions + 1) }, "variants[0].partitions"},
		{"partitions of a rate lane", func(c *Config) {
			c.Lanes = []LaneKind{LaneFixedWindow}
			c.Variants[0].Partitions = parts(1)
		}, "variants[0].partitions"},
	})
}

// Named stores: at most MaxStores, each named once, by a name of 1 to
// MaxLaneName bytes of the allowed letters.
func TestEdgesOfNamedStores(t *testing.T) {
	named := func(names ...string) func(*Config) {
		return func(c *Config) {
			for _, n := range names {
				c.Topology.Stores = append(c.Topology.Stores, NamedStore{Name: n})
			}
		}
	}
	many := func(n int) func(*Config) {
		names := make([]string, n)
		for i := range names {
			names[i] = fmt.Sprintf("s%d", i)
		}
		return named(names...)
	}
	world := func() Config { return lossWorld(LaneFixedWindow) }
	checkEdges(t, world, []edgeCase{
		{"the most stores", many(MaxStores), ""},
		{"one store too many", many(MaxStores + 1), "topology.stores"},
		{"a name given twice", named("a", "b", "a"), "topology.stores[2].name"},
		{"an empty name", named(""), "topology.stores[0].name"},
		{"a name of the most bytes", named("a" + strings.Repeat("b", MaxLaneName-1)), ""},
		{"a name a byte too long", named("a" + strings.Repeat("b", MaxLaneName)), "topology.stores[0].name"},
		{"a name starting with a digit", named("1a"), "topology.stores[0].name"},
		{"a name with digits, _ and - after a letter", named("a1_b-2"), ""},
		{"a name in capitals", named("Abuse"), "topology.stores[0].name"},
	})
}

// A lane's own placements need the run's topology and one placement per
// limit of the chain.
func TestEdgesOfALanesPlacements(t *testing.T) {
	place := func(n int) *[]Placement {
		p := make([]Placement, n)
		for i := range p {
			p[i] = Placement{State: StateShared, OnStoreError: FailClosed}
		}
		return &p
	}
	world := func() Config {
		c := lossWorld(LaneFixedWindow)
		c.Variants = []Variant{{}}
		return c
	}
	checkEdges(t, world, []edgeCase{
		{"one placement per limit", func(c *Config) { c.Variants[0].Placements = place(1) }, ""},
		{"two placements for one limit", func(c *Config) { c.Variants[0].Placements = place(2) }, "variants[0].limits"},
		{"no placement for one limit", func(c *Config) { c.Variants[0].Placements = place(0) }, "variants[0].limits"},
		{"placements without a topology", func(c *Config) {
			c.Variants[0].Placements = place(1)
			c.Topology = nil
			c.Limits[0].State, c.Limits[0].OnStoreError = StateLocal, FailOpen
		}, "variants[0]"},
	})
}
