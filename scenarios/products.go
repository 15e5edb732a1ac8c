package scenarios

// Product lanes' sections, in the products' own words: what sets the lane's
// policy becomes the lane's override of that limit (as a variant's limits do),
// the rest the lane's product settings.

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// nginxSettings are the settings of an nginx section, and its zones' policies as
// overrides of lane's limits.
func (b *builder) nginxSettings(path string, c *sim.Config, lane int, n *nginxSpec) *sim.NginxSettings {
	s := &sim.NginxSettings{Default: sim.NginxDelay{Delay: n.Delay, NoDelay: n.NoDelay}}
	zones := n.Zones
	if len(zones) == 0 {
		if n.Rate != "" || n.Burst != nil {
			b.nginxPolicy(path, c, lane, 0, n.Rate, n.Burst)
		}
		return s
	}
	if n.Rate != "" || n.Burst != nil || n.Delay != 0 || n.NoDelay {
		b.addf(path+".zones", "give either zones or rate, burst, delay and nodelay, not both")
	}
	for i, z := range zones {
		zpath := fmt.Sprintf("%s.zones[%d]", path, i)
		s.Zones = append(s.Zones, sim.NginxDelay{Delay: z.Delay, NoDelay: z.NoDelay})
		if z.Rate != "" || z.Burst != nil {
			b.nginxPolicy(zpath, c, lane, i, z.Rate, z.Burst)
		}
	}
	return s
}

// nginxPolicy makes rate and burst, written at path, lane's override of limit i:
// rate=Nr/s is N per 1s, Nr/m N per 1m, and burst=B is burst B+1 (the most
// admitted at once: nginx admits burst+1 at once); a rate without a burst is
// nginx's burst=0, a burst without a rate keeps the limit's rate.
func (b *builder) nginxPolicy(path string, c *sim.Config, lane, i int, rate string, burst *int64) {
	if i >= len(c.Limits) {
		b.addf(path, "the chain has %d limit(s), so this zone has none to set", len(c.Limits))
		return
	}
	p := c.Limits[i].Policy
	if rate != "" {
		n, window, err := parseNginxRate(rate)
		if err != nil {
			b.addf(path+".rate", "%v", err)
			return
		}
		p = algorithms.Policy{Limit: n, Window: window, Burst: 1}
	}
	if burst != nil {
		if *burst >= math.MaxInt64/2 {
			b.addf(path+".burst", "%d is more than any run can use", *burst)
			return
		}
		p.Burst = *burst + 1
	}
	b.overridePaths = append(b.overridePaths, path)
	c.Overrides = append(c.Overrides, laneOverride(c, lane, i, p))
}

// parseNginxRate reads limit_req_zone's rate= as nginx does
// (algorithms.ParseNginxRate): N per second for "Nr/s" or a bare "N", N per
// minute for "Nr/m".
func parseNginxRate(s string) (n int64, window time.Duration, err error) {
	if _, err := algorithms.ParseNginxRate(s); err != nil {
		return 0, 0, err
	}
	num, window := s, time.Second
	if m, ok := strings.CutSuffix(s, "r/m"); ok {
		num, window = m, time.Minute
	} else {
		num = strings.TrimSuffix(s, "r/s")
	}
	n, err = strconv.ParseInt(num, 10, 64)
	return n, window, err
}

// nginxToFile writes an nginx lane's settings (its policies are among the overrides).
func nginxToFile(s *sim.NginxSettings) *nginxSpec {
	n := &nginxSpec{Delay: s.Default.Delay, NoDelay: s.Default.NoDelay}
	for _, z := range s.Zones {
		n.Zones = append(n.Zones, nginxZoneSpec{Delay: z.Delay, NoDelay: z.NoDelay})
	}
	return n
}
