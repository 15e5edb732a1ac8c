package sim

import (
	"fmt"
	"slices"
	"time"
)

// WithHealthDefaults is t with its health check's zero fields defaulted (a
// copy, when it has one to fill; t itself when it has none). A nil t is nil.
func (t *Topology) WithHealthDefaults() *Topology {
	if t == nil || t.Health == nil {
		return t
	}
	c, h := *t, *t.Health
	if h.Endpoint == "" {
		h.Endpoint = DefaultHealthEndpoint
	}
	if h.Interval == 0 {
		h.Interval = DefaultHealthInterval
	}
	if h.UnhealthyAfter == 0 {
		h.UnhealthyAfter = DefaultHealthUnhealthyAfter
	}
	if h.HealthyAfter == 0 {
		h.HealthyAfter = DefaultHealthHealthyAfter
	}
	c.Health = &h
	return &c
}

// checkHealth reports what is wrong with a health check (defaults applied).
func checkHealth(ck *checker, path string, h *HealthCheck) {
	if h == nil {
		return
	}
	if h.Interval < MinHealthInterval {
		ck.add(path+".interval", "must be at least %v, got %v", MinHealthInterval, h.Interval)
	}
	ck.atMostTime(path+".interval", h.Interval)
	for _, f := range []struct {
		name string
		v    int
	}{{"unhealthy_after", h.UnhealthyAfter}, {"healthy_after", h.HealthyAfter}} {
		if f.v < 1 || f.v > MaxHealthThreshold {
			ck.add(path+"."+f.name, "must be 1 to %d probes, got %d", MaxHealthThreshold, f.v)
		}
	}
}

// checkLoss reports what is wrong with a store's restarts and partitions in
// a fleet of at most most replicas whose limits are limits.
func checkLoss(ck *checker, path string, s Store, most int, limits []Limit) {
	if len(s.Restarts) > MaxChanges {
		ck.add(path+".restarts", "at most %d restarts, got %d", MaxChanges, len(s.Restarts))
	}
	for i, at := range s.Restarts {
		p := fmt.Sprintf("%s.restarts[%d].at", path, i)
		if at < 0 || i > 0 && at < s.Restarts[i-1] {
			ck.add(p, "restarts must be in time order, none negative (%v)", at)
		}
		ck.atMostTime(p, at)
	}
	if len(s.Partitions) > MaxChanges {
		ck.add(path+".partitions", "at most %d partitions, got %d", MaxChanges, len(s.Partitions))
	}
	for i, pt := range s.Partitions {
		checkPartition(ck, fmt.Sprintf("%s.partitions[%d]", path, i), pt, s.Timeout, most)
	}
	if len(s.Partitions) == 0 {
		return
	}
	for i, l := range limits {
		if l.State == StateSynced {
			ck.add(fmt.Sprintf("limits[%d].state", i), "a partition cuts shared limits' calls; a synced limit's syncs are all or nothing, so a topology with partitions has no synced limit")
		}
	}
}

func checkPartition(ck *checker, p string, pt Partition, timeout time.Duration, most int) {
	if pt.From < 0 || pt.To <= pt.From {
		ck.add(p, "to must be after from, neither negative (from %v, to %v)", pt.From, pt.To)
	}
	ck.atMostTime(p+".to", pt.To)
	if len(pt.Replicas) == 0 {
		ck.add(p+".replicas", "name at least one replica")
	}
	for j, r := range pt.Replicas {
		if r < 0 || r >= most {
			ck.add(fmt.Sprintf("%s.replicas[%d]", p, j), "no replica %d: the fleet has replicas 0 to %d", r, most-1)
		} else if slices.Contains(pt.Replicas[:j], r) {
			ck.add(fmt.Sprintf("%s.replicas[%d]", p, j), "replica %d is named twice", r)
		}
	}
	if pt.Hung && timeout <= 0 {
		ck.add(p+".kind", "a hung partition needs a store timeout (its calls are answered by nothing)")
	}
}
