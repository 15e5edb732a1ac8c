package sim

import (
	"fmt"
	"reflect"
)

// MaxLanes is the most lanes a Config may run: each lane replays the whole
// population, so the run's cost grows with their number.
const MaxLanes = 64

// MaxLaneName is the longest name a lane may have, in bytes: it must fit a
// table's lane column and a plot's legend.
const MaxLaneName = 32

// LaneName is the name of lane i of c (LanesRun()[i]): its variant's, or its
// kind's.
func (c *Config) LaneName(i int) string {
	if i < len(c.Variants) && c.Variants[i].Name != "" {
		return c.Variants[i].Name
	}
	return c.LanesRun()[i].String()
}

// LaneNames are the names of the lanes c runs, in order (DefaultLanes when c
// names none).
func (c Config) LaneNames() []string {
	c.Lanes = c.LanesRun()
	names := make([]string, len(c.Lanes))
	for i := range names {
		names[i] = c.LaneName(i)
	}
	return names
}

// LanesRun are the kinds of the lanes c runs, in order: c.Lanes, or
// DefaultLanes when c names none.
func (c Config) LanesRun() []LaneKind {
	if len(c.Lanes) == 0 {
		return DefaultLanes()
	}
	return c.Lanes
}

// LaneTitle is how people see a lane of kind k named name: the kind's title for
// a lane named after its kind ("token bucket"), the name itself for a variant
// ("tb_burst_20").
func LaneTitle(k LaneKind, name string) string {
	if name == "" || name == k.String() {
		return k.Title()
	}
	return name
}

// LaneShort is LaneTitle for narrow terminals: a kind's short title, or the
// variant's name.
func LaneShort(k LaneKind, name string) string {
	if name == "" || name == k.String() {
		return k.Info().Short
	}
	return name
}

// laneIndex is the index in c.Lanes of the lane named name, or -1.
func (c *Config) laneIndex(name string) int {
	for i := range c.Lanes {
		if c.LaneName(i) == name {
			return i
		}
	}
	return -1
}

// overrideName is the name of the lane o applies to.
func (o LaneOverride) overrideName() string {
	if o.Name != "" {
		return o.Name
	}
	return o.Lane.String()
}

// laneConfig is c as lane i applies it: c itself, or, when the lane's variant
// has settings of its own, a copy with them in place of c's.
func (c *Config) laneConfig(i int) *Config {
	if i >= len(c.Variants) {
		return c
	}
	v := c.Variants[i]
	if v.AIMD == nil && v.Throttle == nil && v.Vegas == nil && v.Gradient2 == nil && v.Partitions == nil && v.Options.None() && v.Product == (ProductSettings{}) &&
		!v.ownSetup() {
		return c
	}
	lc := *c
	if v.Topology != nil {
		lc.Topology = v.Topology
	}
	if v.Placements != nil && len(*v.Placements) == len(c.Limits) {
		lc.Limits = make([]Limit, len(c.Limits))
		for j, l := range c.Limits {
			lc.Limits[j] = l.placed((*v.Placements)[j])
		}
	}
	lc.AIMD = overlay(c.AIMD, v.AIMD)
	lc.Throttle = overlay(c.Throttle, v.Throttle)
	lc.Vegas = overlay(c.Vegas, v.Vegas)
	lc.Gradient2 = overlay(c.Gradient2, v.Gradient2)
	if v.Partitions != nil {
		lc.ConcurrencyPartitions = *v.Partitions
	}
	lc.options, lc.product = v.Options, v.Product
	return &lc
}

// ownSetup reports whether v runs a fleet or placements of its own.
func (v Variant) ownSetup() bool { return v.Topology != nil || v.Placements != nil }

// overlay is base with every non-zero field of over in place of its own.
func overlay[T any](base T, over *T) T {
	if over == nil {
		return base
	}
	b, o := reflect.ValueOf(&base).Elem(), reflect.ValueOf(over).Elem()
	for i := range o.NumField() {
		if !o.Field(i).IsZero() {
			b.Field(i).Set(o.Field(i))
		}
	}
	return base
}

// checkLanes reports lanes that share a name, badly formed names, variants
// without a lane, and settings of a variant its kind does not read or that are
// out of range, the latter under the variant's path.
func checkLanes(ck *checker, c *Config) {
	if len(c.Lanes) > MaxLanes {
		ck.add("lanes", "%d lanes; at most %d", len(c.Lanes), MaxLanes)
	}
	if len(c.Variants) > len(c.Lanes) {
		ck.add("variants", "%d variants for %d lanes: name the lanes the variants describe", len(c.Variants), len(c.Lanes))
		return
	}
	seen := map[string]int{}
	for i, k := range c.Lanes {
		path := fmt.Sprintf("lanes[%d]", i)
		name := c.LaneName(i)
		if i < len(c.Variants) && c.Variants[i].Name != "" {
			if problem := LaneNameProblem(k, name); problem != "" {
				ck.add(fmt.Sprintf("variants[%d].name", i), "%s", problem)
			}
		}
		if j, dup := seen[name]; dup {
			ck.add(path, "%s is also lanes[%d]: give each lane its own name", name, j)
		}
		seen[name] = i
		if i < len(c.Variants) && k.known() {
			checkVariantSettings(ck, fmt.Sprintf("variants[%d]", i), c, i)
			checkOptions(ck, fmt.Sprintf("variants[%d]", i), c, i)
		}
	}
}

// LaneNameProblem says what is wrong with name as the name of a lane of kind k,
// or "" when nothing is.
func LaneNameProblem(k LaneKind, name string) string {
	if len(name) > MaxLaneName {
		return fmt.Sprintf("%d bytes long; at most %d", len(name), MaxLaneName)
	}
	for i, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' && i > 0 || (r == '_' || r == '-') && i > 0) {
			return fmt.Sprintf("%q: a lane's name is lower case letters, digits, '_' and '-', starting with a letter", name)
		}
	}
	if other, ok := ParseLane(name); ok && other != k {
		return fmt.Sprintf("%s names another algorithm; a %v lane needs a name of its own", name, k)
	}
	return ""
}

// checkVariantSettings reports settings of variant i its lane's kind does not
// read, and checks those it does as the kind's row checks the Config's, under the
// variant's path.
func checkVariantSettings(ck *checker, path string, c *Config, i int) {
	v, info := c.Variants[i], c.Lanes[i].Info()
	own := false // the variant has settings of its kind
	for _, s := range []struct {
		name string
		set  bool
	}{{"aimd", v.AIMD != nil}, {"throttle", v.Throttle != nil}, {"vegas", v.Vegas != nil}, {"gradient2", v.Gradient2 != nil}, {"nginx", v.Product.Nginx != nil},
		{"envoy_local", v.Product.EnvoyLocal != nil}, {"envoy_ratelimit", v.Product.EnvoyRateLimit != nil}, {"kong", v.Product.Kong != nil},
		{"kong_advanced", v.Product.KongAdvanced != nil}, {"aws_waf", v.Product.AWSWAF != nil}, {"cloudflare", v.Product.Cloudflare != nil},
		{"haproxy", v.Product.HAProxy != nil}, {"aws_quota", v.Product.AWSQuota != nil}} {
		if s.set && s.name != info.Settings {
			ck.add(path+"."+s.name, "a lane of %s has no %s settings", info.Name, s.name)
		}
		own = own || s.set && s.name == info.Settings
	}
	checkVariantPartitions(ck, path, c, i)
	if info.check == nil || !own {
		return
	}
	var sub checker
	info.check(&sub, c.laneConfig(i))
	for _, e := range sub.errs {
		ck.add(path+"."+e.Field, "%s", e.Problem)
	}
}
