package sim

import "time"

// withDefaults returns a copy of c with every zero field that has a documented
// default filled in. Slices are copied, so the caller's Config is never changed.
func (c Config) withDefaults() Config {
	if c.Drain == 0 {
		c.Drain = c.Duration
	}
	if len(c.Lanes) == 0 {
		c.Lanes = AllLanes
	}
	c.Lanes = append([]LaneKind(nil), c.Lanes...)
	c.Limits = append([]Limit(nil), c.Limits...)
	for i := range c.Limits {
		if c.Limits[i].Name == "" {
			c.Limits[i].Name = c.Limits[i].Key.String()
		}
	}
	if c.Bucket == 0 {
		c.Bucket = max(time.Millisecond, (c.Duration / 200).Round(time.Millisecond))
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
	c.AIMD = c.AIMD.withDefaults(c.Backend)
	if c.Throttle.K == 0 {
		c.Throttle.K = 2
	}
	if c.Throttle.Period == 0 {
		c.Throttle.Period = 2 * time.Minute
	}
	if c.Throttle.Server == LaneDefault {
		c.Throttle.Server = LaneTokenBucket
	}
	return c
}

func (a AIMDSettings) withDefaults(b *Backend) AIMDSettings {
	if a.Initial == 0 {
		a.Initial = 10
	}
	if a.Min == 0 {
		a.Min = 1
	}
	if a.Max == 0 {
		a.Max = 1000
	}
	if a.Target == 0 {
		a.Target = 100 * time.Millisecond
		if b != nil && b.Service.Mean > 0 {
			a.Target = 2 * b.Service.Mean
		}
	}
	if a.Backoff == 0 {
		a.Backoff = 0.9
	}
	return a
}

// End is when a run of c stops at the latest.
func (c Config) End() time.Duration {
	c = c.withDefaults()
	return c.Duration + c.Drain
}
