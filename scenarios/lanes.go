package scenarios

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// The lanes a file runs: an algorithm's name, or a variant of one (laneSpec),
// the overrides that give a lane its own policy, and the lanes' own settings.

// overrides turns the overrides section into the config's, each naming its lane
// by the name c's lanes have, and puts their paths before the variants' in
// b.overridePaths.
func (b *builder) overrides(specs []overrideSpec, c *sim.Config) []sim.LaneOverride {
	var out []sim.LaneOverride
	var paths []string
	defer func() { b.overridePaths = append(paths, b.overridePaths...) }()
	names := c.LaneNames()
	for i, o := range specs {
		path := fmt.Sprintf("overrides[%d]", i)
		if o.Lane == "" {
			continue // already reported
		}
		lane := slices.Index(names, o.Lane)
		if lane < 0 {
			msg := fmt.Sprintf("no lane is named %s (the lanes: %s)", o.Lane, strings.Join(names, ", "))
			if m := closest(o.Lane, names); m != "" {
				msg += fmt.Sprintf("; did you mean %q?", m)
			}
			b.addf(path+".lane", "%s", msg)
			continue
		}
		var window time.Duration // none to default from when the index names no limit: sim reports it
		if o.LimitIndex < len(c.Limits) {
			window = c.Limits[o.LimitIndex].Policy.Window
		}
		paths = append(paths, path)
		out = append(out, laneOverride(c, lane, o.LimitIndex, algorithms.Policy{
			Limit: o.Limit, Window: durOr(o.Window, window), Burst: o.Burst}))
	}
	return out
}

// laneOverride gives lane (an index of c.Lanes) policy p for limit i, naming
// the lane by kind when it is named after its kind and by its name otherwise.
func laneOverride(c *sim.Config, lane, i int, p algorithms.Policy) sim.LaneOverride {
	o := sim.LaneOverride{Lane: c.LanesRun()[lane], Limit: i, Policy: p}
	if name := c.LaneName(lane); name != o.Lane.String() {
		o.Name = name
	}
	return o
}

// lanes sets c's lanes, their variants and the variants' own policies (as
// overrides, after those of the overrides section) from the file's lanes.
func (b *builder) lanes(specs []laneSpec, c *sim.Config) {
	if len(specs) == 0 && b.has("lanes") && !b.reported("lanes") {
		c.Lanes = []sim.LaneKind{} // written empty: sim refuses it
	}
	names := map[string]int{}
	for i, ls := range specs {
		k, known := sim.ParseLane(ls.Algorithm) // an unknown one is reported; LaneDefault stands in for it
		if known {
			b.checkLane(fmt.Sprintf("lanes[%d]", i), ls, names)
		}
		names[cmp.Or(ls.Name, ls.Algorithm)] = i
		c.Lanes = append(c.Lanes, k)
		c.Variants = append(c.Variants, variantOf(ls))
	}
	for i, ls := range specs {
		for j, l := range ls.Limits {
			b.variantLimit(fmt.Sprintf("lanes[%d].limits[%d]", i, j), c, i, j, l)
		}
		b.products(c, i, ls)
	}
	if !slices.ContainsFunc(c.Variants, func(v sim.Variant) bool { return v != (sim.Variant{}) }) {
		c.Variants = nil
	}
}

// checkLane reports a name of lane ls taken by one of the lanes named so far,
// with the file's way out (sim's own message, at the same path, is left out);
// sim checks the name's form and the settings the lane reads.
func (b *builder) checkLane(path string, ls laneSpec, names map[string]int) {
	name := cmp.Or(ls.Name, ls.Algorithm)
	if j, dup := names[name]; dup {
		b.addf(path, "%s is also lanes[%d]; to run an algorithm twice give one a name of its own: {name: %s_2, algorithm: %s}",
			name, j, ls.Algorithm, ls.Algorithm)
	}
}

// variantOf is what sets lane ls apart from other lanes of its algorithm: its
// name, unless it is the algorithm's, and its own settings.
func variantOf(ls laneSpec) sim.Variant {
	v := sim.Variant{Name: ls.Name}
	if v.Name == ls.Algorithm {
		v.Name = ""
	}
	v.AIMD, v.Throttle, v.Vegas = aimdSettings(ls.AIMD), throttleSettings(ls.Throttle), vegasSettings(ls.Vegas)
	v.Gradient2 = gradient2Settings(ls.Gradient2)
	if ls.Partitions != nil {
		parts := partitions(*ls.Partitions)
		if parts == nil {
			parts = []sim.ConcurrencyPartition{}
		}
		v.Partitions = &parts
	}
	v.Options = laneOptions(ls)
	return v
}

// laneOptions are the lane options o writes.
func laneOptions(o laneSpec) sim.LaneOptions {
	lo := sim.LaneOptions{Penalty: o.Penalty, Ban: durOr(o.Ban, 0), Clock: durOr(o.Clock, 0), Wait: durOr(o.Wait, 0),
		Status: o.Status, Keys: o.Keys, AlignFirst: o.Align == "first", AlignCalendar: o.Align == "calendar", Stepwise: o.Refill == "stepwise"}
	lo.WhenFull, _ = sim.ParseTableFull(o.WhenFull) // an unknown name is reported; "" is evict_idle
	if o.WhenFull == "" {
		lo.WhenFull = defaultWhenFull(o.Algorithm, o.Keys)
	}
	if o.Start != nil && *o.Start >= 0 { // -1 is full, the default
		n := int64(*o.Start)
		lo.Start = &n
	}
	return lo
}

// defaultWhenFull is what a full table of keys keys does when a lane of
// algorithm says nothing: an nginx zone evicts its least recently used key
// whatever it counted (nginx 1.22.1 ngx_http_limit_req_lookup, lines 492–505:
// expire(ctx, 0) frees the oldest entry by force), and so does Traefik's
// source table (v3.7.9 pkg/middlewares/ratelimiter/ttlmap/ttlmap.go, Set and
// freeSpace: the entry closest to expiry, the least recently used); every
// other lane evict_idle.
func defaultWhenFull(algorithm string, keys int) sim.TableFull {
	if (algorithm == "nginx" || algorithm == "traefik") && keys > 0 {
		return sim.TableEvict
	}
	return sim.TableEvictIdle
}

// laneOptionsToFile writes lane options o into spec.
func laneOptionsToFile(o sim.LaneOptions, spec *laneSpec) {
	spec.Penalty, spec.Ban, spec.Clock, spec.Wait, spec.Status = o.Penalty, optDur(o.Ban), optDur(o.Clock), optDur(o.Wait), o.Status
	spec.Keys = o.Keys
	if o.WhenFull != defaultWhenFull(spec.Algorithm, o.Keys) {
		spec.WhenFull = o.WhenFull.String()
	}
	if o.Start != nil {
		l := Level(*o.Start)
		spec.Start = &l
	}
	if o.AlignFirst {
		spec.Align = "first"
	}
	if o.AlignCalendar {
		spec.Align = "calendar"
	}
	if o.Stepwise {
		spec.Refill = "stepwise"
	}
}

// variantLimit makes l, written at path, lane's override of limit i of the
// chain: each field it leaves out keeps the chain's.
func (b *builder) variantLimit(path string, c *sim.Config, lane, i int, l variantLimitSpec) {
	if i >= len(c.Limits) {
		b.addf(path, "the chain has %d limit(s), so this entry has none to change", len(c.Limits))
		return
	}
	if c.Limits[i].Concurrency != 0 && l == (variantLimitSpec{}) {
		return // {} keeps a concurrency limit as it is, the same in every lane
	}
	if l.places() && l.Limit == 0 && l.Window == nil && l.Burst == nil {
		return // its placement alone (laneSetups): the chain's policy
	}
	p := c.Limits[i].Policy
	if l.Limit != 0 {
		p.Limit = l.Limit
	}
	p.Window = durOr(l.Window, p.Window)
	if l.Burst != nil {
		p.Burst = *l.Burst
	}
	b.overridePaths = append(b.overridePaths, path)
	c.Overrides = append(c.Overrides, laneOverride(c, lane, i, p))
}

// laneSettings copies the lanes' own sections of f into c, as they are: sim
// fills their defaults and checks them.
func laneSettings(f *fileSpec, c *sim.Config) {
	if a := aimdSettings(f.AIMD); a != nil {
		c.AIMD = *a
	}
	if t := throttleSettings(f.Throttle); t != nil {
		c.Throttle = *t
	}
	if v := vegasSettings(f.Vegas); v != nil {
		c.Vegas = *v
	}
	if g := gradient2Settings(f.Gradient2); g != nil {
		c.Gradient2 = *g
	}
}

func aimdSettings(a *aimdSpec) *sim.AIMDSettings {
	if a == nil {
		return nil
	}
	return &sim.AIMDSettings{Initial: a.Initial, Min: a.Min, Max: a.Max, Target: durOr(a.Target, 0), Backoff: a.Backoff,
		RetryAfter: durOr(a.RetryAfter, 0)}
}

func throttleSettings(t *throttleSpec) *sim.ThrottleSettings {
	if t == nil {
		return nil
	}
	s := &sim.ThrottleSettings{K: t.K, Period: durOr(t.Period, 0)}
	if t.Server != "" {
		s.Server, _ = sim.ParseLane(t.Server)
	}
	return s
}

func vegasSettings(v *vegasSpec) *sim.VegasSettings {
	if v == nil {
		return nil
	}
	return &sim.VegasSettings{Initial: v.Initial, Max: v.Max, Smoothing: v.Smoothing, ProbeMultiplier: v.ProbeMultiplier,
		RetryAfter: durOr(v.RetryAfter, 0)}
}

func gradient2Settings(g *gradient2Spec) *sim.Gradient2Settings {
	if g == nil {
		return nil
	}
	return &sim.Gradient2Settings{Initial: g.Initial, Min: g.Min, Max: g.Max, Smoothing: g.Smoothing, QueueSize: g.QueueSize,
		LongWindow: g.LongWindow, RTTTolerance: g.RTTTolerance, RetryAfter: durOr(g.RetryAfter, 0)}
}

func gradient2ToFile(g sim.Gradient2Settings) *gradient2Spec {
	return &gradient2Spec{Initial: g.Initial, Min: g.Min, Max: g.Max, Smoothing: g.Smoothing, QueueSize: g.QueueSize,
		LongWindow: g.LongWindow, RTTTolerance: g.RTTTolerance, RetryAfter: optDur(g.RetryAfter)}
}

// laneSettingsToFile is laneSettings the other way: the sections of c's lanes
// that are set, into f.
func laneSettingsToFile(c *sim.Config, f *fileSpec) {
	if a := c.AIMD; a != (sim.AIMDSettings{}) {
		f.AIMD = aimdToFile(a)
	}
	if t := c.Throttle; t != (sim.ThrottleSettings{}) {
		f.Throttle = throttleToFile(t)
	}
	if v := c.Vegas; v != (sim.VegasSettings{}) {
		f.Vegas = vegasToFile(v)
	}
	if g := c.Gradient2; g != (sim.Gradient2Settings{}) {
		f.Gradient2 = gradient2ToFile(g)
	}
	f.Partitions = partitionsToFile(c.ConcurrencyPartitions)
}

func aimdToFile(a sim.AIMDSettings) *aimdSpec {
	return &aimdSpec{Initial: a.Initial, Min: a.Min, Max: a.Max, Target: optDur(a.Target), Backoff: a.Backoff,
		RetryAfter: optDur(a.RetryAfter)}
}

func throttleToFile(t sim.ThrottleSettings) *throttleSpec {
	s := &throttleSpec{K: t.K, Period: optDur(t.Period)}
	if t.Server != sim.LaneDefault {
		s.Server = t.Server.String()
	}
	return s
}

func vegasToFile(v sim.VegasSettings) *vegasSpec {
	return &vegasSpec{Initial: v.Initial, Max: v.Max, Smoothing: v.Smoothing, ProbeMultiplier: v.ProbeMultiplier,
		RetryAfter: optDur(v.RetryAfter)}
}

// lanesToFile writes c's lanes: an algorithm's name alone, or a variant as a
// mapping of its name, algorithm and settings (its policies are among the
// overrides).
func lanesToFile(c *sim.Config) []laneSpec {
	var out []laneSpec
	for i, k := range c.Lanes {
		ls := laneSpec{Algorithm: k.String()}
		if i < len(c.Variants) {
			v := c.Variants[i]
			ls.Name = v.Name
			if v.AIMD != nil {
				ls.AIMD = aimdToFile(*v.AIMD)
			}
			if v.Throttle != nil {
				ls.Throttle = throttleToFile(*v.Throttle)
			}
			if v.Vegas != nil {
				ls.Vegas = vegasToFile(*v.Vegas)
			}
			if v.Gradient2 != nil {
				ls.Gradient2 = gradient2ToFile(*v.Gradient2)
			}
			if v.Partitions != nil {
				parts := partitionsToFile(*v.Partitions)
				if parts == nil {
					parts = []concPartitionSpec{}
				}
				ls.Partitions = &parts
			}
			laneOptionsToFile(v.Options, &ls)
			productsToFile(v.Product, &ls)
			laneSetupToFile(v, &ls)
		}
		out = append(out, ls)
	}
	return out
}

// MarshalYAML writes a lane that is only an algorithm as its name alone.
func (l laneSpec) MarshalYAML() (any, error) {
	if l.Name == "" && len(l.Limits) == 0 && l.Topology == nil && l.AIMD == nil && l.Throttle == nil && l.Vegas == nil && l.Gradient2 == nil && l.Partitions == nil && !l.hasProduct() && laneOptions(l).None() {
		return l.Algorithm, nil
	}
	type long laneSpec // without this method
	return long(l), nil
}

// SelectLanes makes c run the lanes named, in that order: each a lane of c by
// its name (a variant keeps its settings and policies), or else an algorithm,
// run plainly. The overrides of the lanes left out go with them. An unknown
// name is an error naming the lanes it could have been.
func SelectLanes(c *sim.Config, names []string) error {
	have, kinds := c.LaneNames(), c.LanesRun()
	var (
		lanes    []sim.LaneKind
		variants []sim.Variant
		kept     []string
		unknown  []string
	)
	for _, name := range names {
		if i := slices.Index(have, name); i >= 0 {
			lanes = append(lanes, kinds[i])
			v := sim.Variant{}
			if i < len(c.Variants) {
				v = c.Variants[i]
			}
			variants = append(variants, v)
			kept = append(kept, name)
			continue
		}
		k, ok := sim.ParseLane(name)
		if !ok {
			valid := slices.Concat(have, slices.DeleteFunc(sim.LaneNames(), func(n string) bool { return slices.Contains(have, n) }))
			unknown = append(unknown, strings.Replace(unknownName(name, valid), "unknown value", "unknown lane", 1))
			continue
		}
		lanes = append(lanes, k)
		variants = append(variants, sim.Variant{})
		kept = append(kept, name)
	}
	if len(unknown) > 0 {
		return errors.New(strings.Join(unknown, "; "))
	}
	c.Lanes, c.Variants = lanes, variants
	if !slices.ContainsFunc(variants, func(v sim.Variant) bool { return v != (sim.Variant{}) }) {
		c.Variants = nil
	}
	c.Overrides = slices.DeleteFunc(slices.Clone(c.Overrides), func(o sim.LaneOverride) bool {
		name := o.Name
		if name == "" {
			name = o.Lane.String()
		}
		return !slices.Contains(kept, name)
	})
	return nil
}

// partitions are the concurrency partitions specs write.
func partitions(specs []concPartitionSpec) []sim.ConcurrencyPartition {
	var out []sim.ConcurrencyPartition
	for _, p := range specs {
		out = append(out, sim.ConcurrencyPartition{Name: p.Name, Classes: p.Classes, Share: p.Share})
	}
	return out
}

// partitionsToFile is partitions the other way.
func partitionsToFile(parts []sim.ConcurrencyPartition) []concPartitionSpec {
	var out []concPartitionSpec
	for _, p := range parts {
		out = append(out, concPartitionSpec{Name: p.Name, Classes: p.Classes, Share: p.Share})
	}
	return out
}
