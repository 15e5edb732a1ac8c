package sim

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/rlsim/rlsim/algorithms"
)

// checkCaps reports every number of c above its cap.
func checkCaps(ck *checker, c Config) {
	ck.atMostTime("duration", c.Duration)
	ck.atMostTime("drain", c.Drain)
	ck.atMostTime("bucket", c.Bucket)
	for i, l := range c.Limits {
		ck.atMostTime(fmt.Sprintf("limits[%d].window", i), l.Policy.Window)
	}
	for i, o := range c.Overrides {
		ck.atMostTime(fmt.Sprintf("overrides[%d].window", i), o.Policy.Window)
	}
	if drain := cmp.Or(c.Drain, c.Duration); c.Duration > 0 && drain > 0 && c.Duration <= MaxTime && drain <= MaxTime && c.Duration+drain > MaxTime {
		field := "drain"
		if c.Drain == 0 {
			field = "duration" // the drain defaults to the duration
		}
		ck.add(field, "duration + drain (by default the duration again) must be at most 100 years (876000h), got %v", c.Duration+drain)
	}
	clients := 0
	for i, g := range c.Clients {
		path := fmt.Sprintf("clients[%d]", i)
		if g.Count > MaxClients {
			ck.add(path+".count", "must be at most %d, got %d", MaxClients, g.Count)
		} else if g.Count > 0 {
			clients += g.Count
		}
		checkGroupTimes(ck, path, g)
	}
	if clients > MaxClients {
		ck.add("clients", "%d clients in all; at most %d", clients, MaxClients)
	}
	if b := c.Backend; b != nil {
		if b.QueueSize > MaxQueue {
			ck.add("backend.queue", "must be at most %d, got %d", MaxQueue, b.QueueSize)
		}
		if len(b.Changes) > MaxChanges {
			ck.add("backend.changes", "at most %d changes, got %d", MaxChanges, len(b.Changes))
		}
		ck.atMostTime("backend.service.mean", b.Service.Mean)
		if q := b.CoDel; q != nil {
			ck.atMostTime("backend.codel.target", q.Target)
			ck.atMostTime("backend.codel.interval", q.Interval)
		}
		for i, ch := range b.Changes {
			ck.atMostTime(fmt.Sprintf("backend.changes[%d].at", i), ch.At)
			ck.atMostTime(fmt.Sprintf("backend.changes[%d].service.mean", i), ch.Service.Mean)
		}
	}
}

func checkGroupTimes(ck *checker, path string, g ClientGroup) {
	for i, a := range g.Arrivals {
		p := fmt.Sprintf("%s.arrivals[%d].", path, i)
		ck.atMostTime(p+"start", a.Start)
		ck.atMostTime(p+"stop", a.Stop)
		ck.atMostTime(p+"at", a.At)
		ck.atMostTime(p+"spread", a.Spread)
		ck.atMostTime(p+"on", a.On)
		ck.atMostTime(p+"off", a.Off)
		ck.atMostTime(p+"idle", a.Idle)
		ck.atMostTime(p+"rate", a.Rate.Per)
	}
	r, p := g.Retry, path+".retry."
	ck.atMostTime(p+"delay", r.Delay)
	ck.atMostTime(p+"base", r.Base)
	ck.atMostTime(p+"cap", r.Cap)
	ck.atMostTime(p+"retry_after_jitter", r.RetryAfterJitter)
	ck.atMostTime(path+".rtt", g.RTT)
	ck.atMostTime(path+".deadline", g.Deadline)
	ck.atMostTime(path+".timeout", g.Timeout)
}

// checkBuild builds, once, every limiter a run of c builds, with the same
// constructors New uses, so a Config that validates is one New accepts: each
// lane's chain with its overrides, the sliding log that measures the first limit,
// and every concurrency limiter and client gate of the registry. A cost no burst of a lane could ever admit is
// reported here too.
func checkBuild(ck *checker, c Config) {
	c = c.withDefaults()
	reported := map[string]bool{}
	report := func(path string, err error) {
		if !reported[path] {
			reported[path] = true
			ck.add(path, "%v", err)
		}
	}
	if _, err := algorithms.NewSlidingLog(c.Limits[0].Policy); err != nil {
		report("limits[0]", err)
	}
	for li := range c.Lanes {
		kind, ok := c.laneConfig(li).chainKind(c.Lanes[li])
		if !ok {
			continue
		}
		for i := range c.Limits {
			if !c.Limits[i].isRate() {
				continue // the same table in every lane, checked by checkConcurrencyLimit
			}
			p := c.policy(li, i)
			path := fmt.Sprintf("limits[%d]", i)
			if j := c.override(li, i); j >= 0 {
				path = fmt.Sprintf("overrides[%d]", j)
				checkCosts(ck, path, c.LaneName(li), p, c.Clients)
				if i == 0 { // the lane's own cross-check, an exact sliding log of its first limit
					if _, err := algorithms.NewSlidingLog(p); err != nil {
						report(path, err)
					}
				}
			}
			if _, err := newDecider(c.laneConfig(li).ruleOf(kind, i), p, 0); err != nil {
				if kind.Info().Product != "" && !strings.HasPrefix(path, "overrides") {
					// The chain's policy is fine; the lane's product cannot say it.
					report(fmt.Sprintf("variants[%d]", li), fmt.Errorf("%s of the chain (%d per %v): %w", path, p.Limit, p.Window, err))
					continue
				}
				report(path, err)
			}
			// A fallback is built only when the store fails: build it here too,
			// so that what validate accepts, run can start.
			lc := c.laneConfig(li)
			if l := lc.Limits[i]; lc.Topology != nil && l.State == StateShared && l.OnStoreError == FailLocal {
				if _, err := newDecider(lc.ruleOf(kind, i), l.Fallback, 0); err != nil {
					report(fallbackPath(c, li, i), err)
				}
			}
		}
	}
	if span := c.Duration + c.Drain; c.Bucket > 0 && (span+c.Bucket-1)/c.Bucket > MaxBuckets {
		ck.add("bucket", "%v makes %d time-series buckets over %v; at most %d (use a bucket of at least %v)",
			c.Bucket, (span+c.Bucket-1)/c.Bucket, span, MaxBuckets, (span+MaxBuckets-1)/MaxBuckets)
	}
	for _, l := range laneTable {
		if err := buildSettings(l, &c); err != nil {
			ck.add(l.Settings, "%v", err)
		}
	}
	for li, k := range c.Lanes {
		if lc := c.laneConfig(li); lc != &c {
			if err := buildSettings(k.Info(), lc); err != nil {
				ck.add(fmt.Sprintf("variants[%d].%s", li, k.Info().Settings), "%v", err)
			}
		}
	}
}

// buildSettings builds the concurrency limiter or client gate of lane l from
// c's settings, to see that they are accepted.
func buildSettings(l LaneInfo, c *Config) (err error) {
	switch {
	case l.concurrency != nil:
		_, err = l.concurrency(c)
	case l.gate != nil:
		_, err = l.gate(c, 0)
	}
	return err
}

// override is the index of the override giving lane (an index of Lanes) its
// policy for limit i, or -1.
func (c *Config) override(lane, i int) int {
	name := c.LaneName(lane)
	for j, o := range c.Overrides {
		if o.overrideName() == name && o.Limit == i {
			return j
		}
	}
	return -1
}

// checkCosts reports the first client group whose cost is above p's burst: in
// that lane no request of theirs could ever be admitted.
func checkCosts(ck *checker, path string, lane string, p algorithms.Policy, groups []ClientGroup) {
	for j, g := range groups {
		if b := p.EffectiveBurst(); g.Cost > b {
			ck.add(path+".burst", "%d is below the cost %d of clients[%d]: no request of theirs could ever be admitted in lane %v", b, g.Cost, j, lane)
			return
		}
	}
}

// policy is the policy lane (an index of Lanes) applies to limit i of the chain.
func (c *Config) policy(lane, i int) algorithms.Policy {
	if j := c.override(lane, i); j >= 0 {
		return c.Overrides[j].Policy
	}
	return c.Limits[i].Policy
}

// fallbackPath is the path of limit i's fallback as lane li places it: the
// lane's own placement's, or the chain's.
func fallbackPath(c Config, li, i int) string {
	if li < len(c.Variants) && c.Variants[li].Placements != nil {
		return fmt.Sprintf("variants[%d].limits[%d].fallback", li, i)
	}
	return fmt.Sprintf("limits[%d].fallback", i)
}
