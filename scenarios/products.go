package scenarios

// Product lanes' sections, in the products' own words: what sets the lane's
// policy becomes the lane's override of that limit (as a variant's limits do),
// the rest the lane's product settings.

import (
	"cmp"
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

// productPolicy makes the policy set writes over the first limit's, at path,
// lane's override of that limit (as a variant's limits do).
func (b *builder) productPolicy(path string, c *sim.Config, lane int, set func(p *algorithms.Policy)) {
	if len(c.Limits) == 0 {
		b.addf(path, "the chain has no limit for this section to set")
		return
	}
	p := c.Limits[0].Policy
	set(&p)
	b.overridePaths = append(b.overridePaths, path)
	c.Overrides = append(c.Overrides, laneOverride(c, lane, 0, p))
}

// products sets lane's product settings, and the policy its section writes,
// from ls's product section, if it has one.
func (b *builder) products(c *sim.Config, lane int, ls laneSpec) {
	path := fmt.Sprintf("lanes[%d]", lane)
	for _, sec := range []struct {
		name string
		set  bool
	}{{"nginx", ls.Nginx != nil}, {"haproxy", ls.HAProxy != nil}, {"envoy_local", ls.EnvoyLocal != nil},
		{"envoy_ratelimit", ls.EnvoyRateLimit != nil}, {"kong", ls.Kong != nil}, {"kong_advanced", ls.KongAdvanced != nil},
		{"traefik", ls.Traefik != nil}, {"aws_apigw", ls.AWSAPIGateway != nil}, {"aws_quota", ls.AWSQuota != nil}, {"aws_waf", ls.AWSWAF != nil},
		{"cloudflare", ls.Cloudflare != nil}} {
		if sec.set && sec.name != ls.Algorithm {
			b.addf(path+"."+sec.name, "a lane of %s has no %s section: it is a %s lane's (algorithm: %s)", ls.Algorithm, sec.name, sec.name, sec.name)
			return
		}
	}
	v := &c.Variants[lane].Product
	if ls.Nginx != nil {
		v.Nginx = b.nginxSettings(path+".nginx", c, lane, ls.Nginx)
	}
	if h := ls.HAProxy; h != nil {
		if h.Period != nil || h.Limit != 0 {
			b.productPolicy(path+".haproxy", c, lane, func(p *algorithms.Policy) {
				p.Window, p.Limit, p.Burst = durOr(h.Period, p.Window), cmp.Or(h.Limit, p.Limit), 0
			})
		}
		v.HAProxy = &sim.HAProxySettings{Expire: durOr(h.Expire, 0)}
	}
	if e := ls.EnvoyLocal; e != nil {
		s := &sim.EnvoyLocalSettings{Stepwise: e.Refill == "stepwise"}
		if e.MaxTokens != 0 || e.TokensPerFill != 0 || e.FillInterval != nil {
			s.AsWritten = true
			b.productPolicy(path+".envoy_local", c, lane, func(p *algorithms.Policy) {
				p.Limit, p.Window, p.Burst = cmp.Or(e.TokensPerFill, p.Limit), durOr(e.FillInterval, p.Window), cmp.Or(e.MaxTokens, p.Burst)
			})
		}
		if e.Start != nil && *e.Start >= 0 {
			n := int64(*e.Start)
			s.Start = &n
		}
		v.EnvoyLocal = s
	}
	if e := ls.EnvoyRateLimit; e != nil {
		if e.Unit != "" || e.RequestsPerUnit != 0 {
			b.productPolicy(path+".envoy_ratelimit", c, lane, func(p *algorithms.Policy) {
				if e.Unit != "" {
					p.Window = envoyUnits[e.Unit]
				}
				p.Limit, p.Burst = cmp.Or(e.RequestsPerUnit, p.Limit), 0
			})
		}
		v.EnvoyRateLimit = &sim.EnvoyRateLimitSettings{ShadowMode: e.ShadowMode, Unlimited: e.Unlimited, LocalCache: e.LocalCache,
			NearLimitRatio: float32(e.NearLimitRatio), FailureModeDeny: e.FailureModeDeny}
	}
	if k := ls.Kong; k != nil {
		b.kong(path+".kong", c, lane, k)
	}
	if k := ls.KongAdvanced; k != nil {
		if k.Limit != 0 || k.WindowSize != 0 {
			b.productPolicy(path+".kong_advanced", c, lane, func(p *algorithms.Policy) {
				if k.WindowSize != 0 {
					p.Window = time.Duration(min(k.WindowSize, int64(sim.MaxTime/time.Second))) * time.Second
				}
				p.Limit, p.Burst = cmp.Or(k.Limit, p.Limit), 0
			})
		}
		v.KongAdvanced = &sim.KongAdvancedSettings{Fixed: k.WindowType == "fixed", DisablePenalty: k.DisablePenalty}
	}
	if t := ls.Traefik; t != nil && (t.Average != 0 || t.Period != nil || t.Burst != nil) {
		b.productPolicy(path+".traefik", c, lane, func(p *algorithms.Policy) {
			if t.Average != 0 {
				p.Limit, p.Window, p.Burst = t.Average, durOr(t.Period, time.Second), 1
			} else {
				p.Window = durOr(t.Period, p.Window)
			}
			if t.Burst != nil {
				p.Burst = max(*t.Burst, 1)
			}
		})
	}
	if a := ls.AWSAPIGateway; a != nil && (a.RateLimit != 0 || a.BurstLimit != 0) {
		b.awsAPIGateway(path+".aws_apigw", c, lane, a)
	}
	if q := ls.AWSQuota; q != nil && (q.Limit != 0 || q.Period != "") {
		b.productPolicy(path+".aws_quota", c, lane, func(p *algorithms.Policy) {
			if q.Period != "" {
				p.Window = quotaPeriods[q.Period]
			}
			p.Limit, p.Burst = cmp.Or(q.Limit, p.Limit), 0
		})
	}
	if q := ls.AWSQuota; q != nil && q.Offset != 0 { // checked against the limit where the rule is built
		v.AWSQuota = &sim.AWSQuotaSettings{Offset: q.Offset}
	}
	if w := ls.AWSWAF; w != nil {
		if w.Limit != 0 || w.EvaluationWindow != nil {
			b.productPolicy(path+".aws_waf", c, lane, func(p *algorithms.Policy) {
				p.Limit, p.Window, p.Burst = cmp.Or(w.Limit, p.Limit), durOr(w.EvaluationWindow, p.Window), 0
			})
		}
		v.AWSWAF = &sim.AWSWAFSettings{EvaluationInterval: durOr(w.EvaluationInterval, 0)}
	}
	if f := ls.Cloudflare; f != nil {
		if f.RequestsPerPeriod != 0 || f.Period != nil {
			b.productPolicy(path+".cloudflare", c, lane, func(p *algorithms.Policy) {
				p.Limit, p.Window, p.Burst = cmp.Or(f.RequestsPerPeriod, p.Limit), durOr(f.Period, p.Window), 0
			})
		}
		v.Cloudflare = &sim.CloudflareSettings{MitigationTimeout: durOr(f.MitigationTimeout, 0), ExcludeBlocked: f.ExcludeBlocked}
	}
}

// quotaPeriods are a usage plan quota's periods as the windows an aws_quota
// lane reads (a month is a calendar month; its window, 30 days, is for the
// peak and the verdict).
var quotaPeriods = map[string]time.Duration{"day": 24 * time.Hour, "week": 7 * 24 * time.Hour, "month": 30 * 24 * time.Hour}

// envoyUnits are envoyproxy/ratelimit's units as windows (its dividers:
// a month is 30 days, a year 365).
var envoyUnits = map[string]time.Duration{
	"second": time.Second, "minute": time.Minute, "hour": time.Hour, "day": 24 * time.Hour,
	"week": 7 * 24 * time.Hour, "month": 30 * 24 * time.Hour, "year": 365 * 24 * time.Hour,
}

// kong sets a kong lane's periods: the shortest of second to day is the
// lane's policy, every period is checked (month and year, calendar units, only
// beside a shorter one).
func (b *builder) kong(path string, c *sim.Config, lane int, k *kongSpec) {
	s := &sim.KongSettings{Second: k.Second, Minute: k.Minute, Hour: k.Hour, Day: k.Day, Month: k.Month, Year: k.Year,
		Redis: k.Policy == "redis"}
	c.Variants[lane].Product.Kong = s
	for _, per := range []struct {
		n      int64
		window time.Duration
	}{{k.Second, time.Second}, {k.Minute, time.Minute}, {k.Hour, time.Hour}, {k.Day, 24 * time.Hour}} {
		if per.n != 0 {
			b.productPolicy(path, c, lane, func(p *algorithms.Policy) { p.Limit, p.Window, p.Burst = per.n, per.window, 0 })
			return
		}
	}
	if k.Month != 0 || k.Year != 0 {
		b.addf(path, "give month and year beside a period of a day or shorter: the lane's limit is its shortest period (months are not one length)")
	}
}

// awsAPIGateway makes a throttle's rate (to a thousandth of a request per
// second) and burst the lane's policy: rate r is ⌊1000r⌉/g per 1000/g seconds,
// g their largest common divisor.
func (b *builder) awsAPIGateway(path string, c *sim.Config, lane int, a *awsAPIGatewaySpec) {
	var limit int64
	var window time.Duration
	if a.RateLimit != 0 {
		milli := math.Round(a.RateLimit * 1000)
		if milli < 1 || milli > 1e15 || math.Abs(milli-a.RateLimit*1000) > 1e-6*milli {
			b.addf(path+".rate_limit", "%v is not a whole number of thousandths of a request per second from 0.001", a.RateLimit)
			return
		}
		g := gcd(int64(milli), 1000)
		limit, window = int64(milli)/g, time.Duration(1000/g)*time.Second
	}
	b.productPolicy(path, c, lane, func(p *algorithms.Policy) {
		if limit != 0 {
			p.Limit, p.Window = limit, window
		}
		p.Burst = cmp.Or(a.BurstLimit, p.Burst)
	})
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// productsToFile writes a lane's product settings into its section (its
// policy is among the overrides).
func productsToFile(p sim.ProductSettings, ls *laneSpec) {
	if p.Nginx != nil {
		ls.Nginx = nginxToFile(p.Nginx)
	}
	if s := p.HAProxy; s != nil {
		ls.HAProxy = &haproxySpec{Expire: optDur(s.Expire)}
	}
	if s := p.EnvoyLocal; s != nil {
		e := &envoyLocalSpec{}
		if s.Stepwise {
			e.Refill = "stepwise"
		}
		if s.Start != nil {
			l := Level(*s.Start)
			e.Start = &l
		}
		ls.EnvoyLocal = e
	}
	if s := p.EnvoyRateLimit; s != nil {
		ls.EnvoyRateLimit = &envoyRateLimitSpec{ShadowMode: s.ShadowMode, Unlimited: s.Unlimited, LocalCache: s.LocalCache,
			FailureModeDeny: s.FailureModeDeny}
		if s.NearLimitRatio != 0 { // its shortest decimal, which reads back as the same float32
			ls.EnvoyRateLimit.NearLimitRatio, _ = strconv.ParseFloat(strconv.FormatFloat(float64(s.NearLimitRatio), 'g', -1, 32), 64)
		}
	}
	if s := p.Kong; s != nil {
		k := &kongSpec{Second: s.Second, Minute: s.Minute, Hour: s.Hour, Day: s.Day, Month: s.Month, Year: s.Year}
		if s.Redis {
			k.Policy = "redis"
		}
		ls.Kong = k
	}
	if s := p.KongAdvanced; s != nil {
		k := &kongAdvancedSpec{DisablePenalty: s.DisablePenalty}
		if s.Fixed {
			k.WindowType = "fixed"
		}
		ls.KongAdvanced = k
	}
	if s := p.AWSWAF; s != nil {
		ls.AWSWAF = &awsWAFSpec{EvaluationInterval: optDur(s.EvaluationInterval)}
	}
	if s := p.AWSQuota; s != nil {
		ls.AWSQuota = &awsQuotaSpec{Offset: s.Offset}
	}
	if s := p.Cloudflare; s != nil {
		ls.Cloudflare = &cloudflareSpec{MitigationTimeout: optDur(s.MitigationTimeout), ExcludeBlocked: s.ExcludeBlocked}
	}
}

// hasProduct reports whether l has a product section.
func (l laneSpec) hasProduct() bool {
	return l.Nginx != nil || l.HAProxy != nil || l.EnvoyLocal != nil || l.EnvoyRateLimit != nil || l.Kong != nil ||
		l.KongAdvanced != nil || l.Traefik != nil || l.AWSAPIGateway != nil || l.AWSQuota != nil || l.AWSWAF != nil || l.Cloudflare != nil
}

// absorbPolicies writes into the product sections of lanes (lanesToFile's)
// the policies their lanes' overrides set and the product can say, in its
// words, and reports the overrides so written: the sections set them again
// when the file is read.
func absorbPolicies(c *sim.Config, lanes []laneSpec) map[int]bool {
	absorbed := map[int]bool{}
	for i := range lanes {
		ls := &lanes[i]
		if !ls.hasProduct() || !sectionCanSayPolicy(c.Variants[i].Product) {
			continue
		}
		name := c.LaneName(i)
		for j, o := range c.Overrides {
			if o.Name == name || o.Name == "" && o.Lane.String() == name {
				if first := overrideOf(c, name, o.Limit); first == j && absorb(ls, o.Limit, o.Policy) {
					absorbed[j] = true
				}
			}
		}
	}
	return absorbed
}

// sectionCanSayPolicy reports whether a policy written into the product
// section of a lane with settings p reads back as the same lane: not for an
// envoy_local lane whose parameters are the policy divided (a section's fields
// make them as written: 30 per 2s stepwise is not 15 per 1s), nor for a kong
// lane whose section gave no period (a period written there is kept in its
// settings).
func sectionCanSayPolicy(p sim.ProductSettings) bool {
	if e := p.EnvoyLocal; e != nil && !e.AsWritten {
		return false
	}
	if k := p.Kong; k != nil && k.Second == 0 && k.Minute == 0 && k.Hour == 0 && k.Day == 0 {
		return false
	}
	return true
}

// overrideOf is the index of the override of lane name's limit i that sim
// applies (the first), or -1.
func overrideOf(c *sim.Config, name string, i int) int {
	for j, o := range c.Overrides {
		if (o.Name == name || o.Name == "" && o.Lane.String() == name) && o.Limit == i {
			return j
		}
	}
	return -1
}

// absorb writes policy p of limit i into ls's product section, in the
// product's words, and reports whether it could (the section then sets p).
func absorb(ls *laneSpec, i int, p algorithms.Policy) bool {
	burst := p.EffectiveBurst()
	switch {
	case ls.Nginx != nil:
		return absorbNginx(ls.Nginx, i, p)
	case i != 0:
		return false
	case ls.HAProxy != nil && (p.Burst == 0 || p.Burst == p.Limit):
		ls.HAProxy.Period, ls.HAProxy.Limit = dur(p.Window), p.Limit
	case ls.EnvoyLocal != nil:
		ls.EnvoyLocal.MaxTokens, ls.EnvoyLocal.TokensPerFill, ls.EnvoyLocal.FillInterval = burst, p.Limit, dur(p.Window)
	case ls.EnvoyRateLimit != nil && (p.Burst == 0 || p.Burst == p.Limit):
		for unit, w := range envoyUnits {
			if w == p.Window {
				ls.EnvoyRateLimit.Unit, ls.EnvoyRateLimit.RequestsPerUnit = unit, p.Limit
				return true
			}
		}
		return false
	case ls.Kong != nil && (p.Burst == 0 || p.Burst == p.Limit):
		return absorbKong(ls.Kong, p)
	case ls.KongAdvanced != nil && p.Window%time.Second == 0 && (p.Burst == 0 || p.Burst == p.Limit):
		ls.KongAdvanced.Limit, ls.KongAdvanced.WindowSize = p.Limit, int64(p.Window/time.Second)
	case ls.Traefik != nil:
		b := burst
		ls.Traefik.Average, ls.Traefik.Period, ls.Traefik.Burst = p.Limit, dur(p.Window), &b
	case ls.AWSAPIGateway != nil && float64(p.Limit)*1000/p.Window.Seconds() == math.Round(float64(p.Limit)*1000/p.Window.Seconds()):
		ls.AWSAPIGateway.RateLimit, ls.AWSAPIGateway.BurstLimit = float64(p.Limit)/p.Window.Seconds(), burst
	case ls.AWSQuota != nil && (p.Burst == 0 || p.Burst == p.Limit):
		for name, w := range quotaPeriods {
			if w == p.Window {
				ls.AWSQuota.Limit, ls.AWSQuota.Period = p.Limit, name
				return true
			}
		}
		return false
	case ls.AWSWAF != nil && (p.Burst == 0 || p.Burst == p.Limit):
		ls.AWSWAF.Limit, ls.AWSWAF.EvaluationWindow = p.Limit, dur(p.Window)
	case ls.Cloudflare != nil && (p.Burst == 0 || p.Burst == p.Limit):
		ls.Cloudflare.RequestsPerPeriod, ls.Cloudflare.Period = p.Limit, dur(p.Window)
	default:
		return false
	}
	return true
}

// absorbNginx writes p as limit i's rate= and burst= (zone i, or the flat
// fields for the first limit of a section without zones).
func absorbNginx(n *nginxSpec, i int, p algorithms.Policy) bool {
	var unit string
	switch p.Window {
	case time.Second:
		unit = "r/s"
	case time.Minute:
		unit = "r/m"
	default:
		return false
	}
	rate, burst := fmt.Sprintf("%d%s", p.Limit, unit), p.EffectiveBurst()-1
	if len(n.Zones) == 0 && i == 0 {
		n.Rate, n.Burst = rate, &burst
		return true
	}
	if i >= len(n.Zones) {
		return false
	}
	n.Zones[i].Rate, n.Zones[i].Burst = rate, &burst
	return true
}

// absorbKong writes p as the kong section's period of p's window, which must
// be the shortest the section gives.
func absorbKong(k *kongSpec, p algorithms.Policy) bool {
	periods := []struct {
		n      *int64
		window time.Duration
	}{{&k.Second, time.Second}, {&k.Minute, time.Minute}, {&k.Hour, time.Hour}, {&k.Day, 24 * time.Hour}}
	for _, per := range periods {
		if per.window == p.Window {
			*per.n = p.Limit
			return true
		}
		if *per.n != 0 {
			return false // a shorter period would be the lane's policy
		}
	}
	return false
}
