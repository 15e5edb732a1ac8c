package sim

import (
	"slices"
	"time"
)

// withDefaults returns a copy of c with every zero field that has a documented
// default filled in. Slices are copied, so the caller's Config is never changed.
func (c Config) withDefaults() Config {
	if c.Drain == 0 {
		c.Drain = c.Duration
	}
	if len(c.Lanes) == 0 {
		c.Lanes = DefaultLanes()
	}
	c.Lanes = append([]LaneKind(nil), c.Lanes...)
	c.Limits = append([]Limit(nil), c.Limits...)
	for i := range c.Limits {
		if c.Limits[i].Name == "" {
			c.Limits[i].Name = c.Limits[i].Key.String()
		}
		if !c.Limits[i].isRate() {
			c.Limits[i].NoHeaders = true // a place in flight is no quota a header states
		}
	}
	c.Rules = slices.Clone(c.Rules)
	slices.SortStableFunc(c.Rules, func(a, b RuleChange) int { return cmpDuration(a.At, b.At) })
	if c.Bucket == 0 {
		c.Bucket = defaultBucket(c.Duration, c.Limits)
	}
	c.Clients = append([]ClientGroup(nil), c.Clients...)
	for i := range c.Clients {
		g := &c.Clients[i]
		if g.Name == "" {
			g.Name = "clients"
		}
		if g.Cost == 0 {
			g.Cost = 1
		}
	}
	for _, l := range laneTable {
		if l.defaults != nil {
			l.defaults(&c)
		}
	}
	c.Topology = c.Topology.WithHealthDefaults()
	if slices.ContainsFunc(c.Variants, func(v Variant) bool { return v.Topology != nil }) {
		c.Variants = slices.Clone(c.Variants) // the caller's are not changed
		for i := range c.Variants {
			c.Variants[i].Topology = c.Variants[i].Topology.WithHealthDefaults()
		}
	}
	return c
}

// End is when a run of c stops at the latest.
func (c Config) End() time.Duration {
	c = c.withDefaults()
	return c.Duration + c.Drain
}

// defaultBucket is about a 200th of the duration (at least 1ms), adjusted so that
// a whole number of buckets makes the first limit's window, or a whole number of
// windows one bucket. A rate drawn over whole buckets then counts exactly one
// window, and can never show more than the most admitted in any window.
func defaultBucket(d time.Duration, limits []Limit) time.Duration {
	target := max(time.Millisecond, (d / 200).Round(time.Millisecond))
	if len(limits) == 0 || limits[0].Policy.Window <= 0 {
		return target
	}
	w := limits[0].Policy.Window
	if target >= w {
		return w * ((target + w/2) / w)
	}
	n := max(1, int64((w+target/2)/target))
	for delta := int64(0); ; delta++ {
		if k := n - delta; k >= 1 && int64(w)%k == 0 {
			return w / time.Duration(k)
		}
		if k := n + delta; int64(w)%k == 0 && w/time.Duration(k) >= time.Millisecond {
			return w / time.Duration(k)
		}
	}
}
