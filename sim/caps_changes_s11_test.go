package sim

import (
	"strings"
	"testing"
	"time"
)

// TestEveryListCappedAtMaxChanges: each scheduled list Validate caps at
// MaxChanges (the backend's changes, a store's changes, outages, restarts
// and partitions, the autoscaler's steps) validates with exactly MaxChanges
// entries and is refused, naming the list, with one more.
func TestEveryListCappedAtMaxChanges(t *testing.T) {
	at := func(i int) time.Duration { return time.Duration(2*i) * time.Nanosecond }
	withStore := func(c *Config) *Store {
		c.Topology = &Topology{Replicas: []ReplicaStep{{Count: 2}}}
		c.Limits[0].State = StateShared
		return &c.Topology.Store
	}
	for _, tc := range []struct {
		path string
		set  func(c *Config, n int)
	}{
		{"backend.changes", func(c *Config, n int) { c.Backend.Changes = changesApart(n) }},
		{"topology.store.changes", func(c *Config, n int) {
			s := withStore(c)
			for i := range n {
				s.Changes = append(s.Changes, StoreChange{At: at(i)})
			}
		}},
		{"topology.store.outages", func(c *Config, n int) {
			s := withStore(c)
			for i := range n {
				s.Outages = append(s.Outages, Outage{From: at(i), To: at(i) + 1})
			}
		}},
		{"topology.store.restarts", func(c *Config, n int) {
			s := withStore(c)
			for i := range n {
				s.Restarts = append(s.Restarts, at(i)+1)
			}
		}},
		{"topology.store.partitions", func(c *Config, n int) {
			s := withStore(c)
			for i := range n {
				s.Partitions = append(s.Partitions, Partition{From: at(i), To: at(i) + 1, Replicas: []int{0}})
			}
		}},
		{"topology.replicas", func(c *Config, n int) {
			c.Topology = &Topology{Replicas: []ReplicaStep{{Count: 2}}}
			for i := range n {
				c.Topology.Replicas = append(c.Topology.Replicas, ReplicaStep{At: at(i) + 1, Count: 2 + i%2})
			}
		}},
	} {
		for _, n := range []int{MaxChanges, MaxChanges + 1} {
			c := auditConfig()
			tc.set(&c, n)
			var named []string
			if err := c.Validate(); err != nil {
				for _, line := range strings.Split(err.Error(), "\n") {
					if strings.HasPrefix(line, tc.path+":") || strings.HasPrefix(strings.TrimSpace(line), tc.path+":") {
						named = append(named, line)
					}
				}
			}
			if refused := len(named) > 0; refused != (n > MaxChanges) {
				t.Errorf("%s with %d entries: refused %v (%v), want refused only past %d", tc.path, n, refused, c.Validate(), MaxChanges)
			}
		}
	}
}
