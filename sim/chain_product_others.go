package sim

// The product lanes other than nginx's: each reads the limit's policy through
// the product's own translation (algorithms.<Product>ParamsOf) and adds the
// lane's product settings. docs/products.md gives each product's source.

import (
	"fmt"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

func newEnvoyLocalRule(p algorithms.Policy, r laneRule) (*algorithms.EnvoyLocal, error) {
	s := r.product().EnvoyLocal
	if s == nil {
		s = &EnvoyLocalSettings{}
	}
	var x algorithms.EnvoyLocalParams
	if s.AsWritten {
		x = algorithms.EnvoyLocalParams{MaxTokens: p.EffectiveBurst(), TokensPerFill: p.Limit, FillInterval: p.Window}
	} else {
		var err error
		if x, err = algorithms.EnvoyLocalParamsOf(p); err != nil {
			return nil, err
		}
	}
	if s.Stepwise {
		x.Refill = algorithms.EnvoyStepwise
	}
	if s.Start != nil {
		x.Start, x.StartTokens = algorithms.EnvoyStartTokens, *s.Start
	}
	return algorithms.NewEnvoyLocal(x)
}

func newEnvoyRateLimitRule(p algorithms.Policy, r laneRule) (envoyRLSRule, error) {
	x, err := algorithms.EnvoyRLSParamsOf(p)
	if err != nil {
		return envoyRLSRule{}, err
	}
	x.Epoch = r.epoch()
	if s := r.product().EnvoyRateLimit; s != nil {
		x.ShadowMode, x.Unlimited, x.LocalCache, x.NearLimitRatio = s.ShadowMode, s.Unlimited, s.LocalCache, s.NearLimitRatio
	}
	e, err := algorithms.NewEnvoyRLS(x)
	return envoyRLSRule{e}, err
}

// checkEnvoyRateLimit checks an envoy_ratelimit lane's settings: the near
// limit ratio is a ratio of the limit, in (0, 1] (envoyproxy/ratelimit reads
// NEAR_LIMIT_RATIO as a float32 and floors limit × ratio), and the filter's
// failure_mode_deny is rlsim's on_store_error of the shared limits, so a
// lane that states it must agree with each of them.
func checkEnvoyRateLimit(ck *checker, c *Config) {
	s := c.product.EnvoyRateLimit
	if s == nil {
		return
	}
	if r := s.NearLimitRatio; r != 0 && !(r > 0 && r <= 1) {
		ck.add("envoy_ratelimit.near_limit_ratio", "%v is not a ratio of the limit in (0, 1]", r)
	}
	if s.FailureModeDeny == nil {
		return
	}
	want, name := FailOpen, "open"
	if *s.FailureModeDeny {
		want, name = FailClosed, "closed"
	}
	shared := false
	for i, l := range c.Limits {
		if c.Topology == nil || l.State != StateShared {
			continue
		}
		shared = true
		if l.OnStoreError != want {
			ck.add("envoy_ratelimit.failure_mode_deny", "%v says a request the service cannot answer is %s, but limits[%d] (%s) has on_store_error: %v; failure_mode_deny is the shared limits' on_store_error (true: closed, false: open)",
				*s.FailureModeDeny, map[bool]string{true: "refused", false: "let through"}[*s.FailureModeDeny], i, l.Name, l.OnStoreError)
		}
	}
	if !shared {
		ck.add("envoy_ratelimit.failure_mode_deny", "says what Envoy does when the service cannot answer (on_store_error: %s), but no limit is in a store: give a topology and state: shared", name)
	}
}

func newKongRule(p algorithms.Policy, r laneRule) (*algorithms.Kong, error) {
	x, err := algorithms.KongParamsOf(p)
	if err != nil {
		return nil, err
	}
	x.Epoch = r.epoch()
	if s := r.product().Kong; s != nil {
		for _, f := range []struct {
			to   *int64
			from int64
		}{{&x.Second, s.Second}, {&x.Minute, s.Minute}, {&x.Hour, s.Hour}, {&x.Day, s.Day}, {&x.Month, s.Month}, {&x.Year, s.Year}} {
			if *f.to == 0 {
				*f.to = f.from
			}
		}
		if s.Redis {
			x.Policy = algorithms.KongRedis
		}
	}
	return algorithms.NewKong(x)
}

func newKongAdvancedRule(p algorithms.Policy, r laneRule) (*algorithms.KongAdvanced, error) {
	x, err := algorithms.KongAdvancedParamsOf(p)
	if err != nil {
		return nil, err
	}
	x.Epoch = r.epoch()
	if s := r.product().KongAdvanced; s != nil {
		if s.Fixed {
			x.WindowType = algorithms.KongFixed
		}
		x.DisablePenalty = s.DisablePenalty
	}
	return algorithms.NewKongAdvanced(x)
}

func newTraefikRule(p algorithms.Policy, _ laneRule) (*algorithms.Traefik, error) {
	x, err := algorithms.TraefikParamsOf(p)
	if err != nil {
		return nil, err
	}
	return algorithms.NewTraefik(x)
}

func newAWSAPIGatewayRule(p algorithms.Policy, _ laneRule) (*algorithms.AWSThrottle, error) {
	x, err := algorithms.AWSThrottleParamsOf(p)
	if err != nil {
		return nil, err
	}
	return algorithms.NewAWSThrottle(x)
}

func newAWSWAFRule(p algorithms.Policy, r laneRule) (*algorithms.AWSWAF, error) {
	x, err := algorithms.AWSWAFParamsOf(p)
	if err != nil {
		return nil, err
	}
	if s := r.product().AWSWAF; s != nil && s.EvaluationInterval != 0 {
		x.EvaluationInterval = s.EvaluationInterval
	}
	return algorithms.NewAWSWAF(x)
}

func newCloudflareRule(p algorithms.Policy, r laneRule) (*algorithms.Cloudflare, error) {
	x, err := algorithms.CloudflareParamsOf(p)
	if err != nil {
		return nil, err
	}
	x.Epoch = r.epoch()
	if s := r.product().Cloudflare; s != nil {
		x.MitigationTimeout, x.ExcludeBlocked = int64(s.MitigationTimeout/time.Second), s.ExcludeBlocked
	}
	return algorithms.NewCloudflare(x)
}

// checkProduct reports nothing of its own: a product lane's settings are
// checked where its rule is built for each limit (config_bounds), which names
// the product's own problem.
func checkProduct(*checker, *Config) {}

func newHAProxyRule(p algorithms.Policy, r laneRule) (*algorithms.HAProxy, error) {
	x, err := algorithms.HAProxyTableOf(p)
	if err != nil {
		return nil, err
	}
	if s := r.product().HAProxy; s != nil && s.Expire != 0 {
		x.Expire = s.Expire
	}
	return algorithms.NewHAProxy(x)
}

// epoch is the wall-clock instant of the run's t=0 for the products whose
// windows follow the clock or the calendar: the scenario's Start, else
// 1970-01-01 00:00 UTC, a Thursday, so clock-aligned windows start at t=0 and a
// week's quota period on the first Sunday.
func (r laneRule) epoch() time.Time {
	if r.lane == nil || r.lane.Start.IsZero() {
		return time.Unix(0, 0).UTC()
	}
	return r.lane.Start
}

// awsQuotaPeriods are the windows that stand for a usage plan quota's
// periods: a day, a week, and a calendar month (30 days as a window, for the
// peak and the verdict; the quota itself resets on the 1st of each month).
var awsQuotaPeriods = map[time.Duration]algorithms.AWSQuotaPeriod{
	24 * time.Hour: algorithms.AWSQuotaDay, 7 * 24 * time.Hour: algorithms.AWSQuotaWeek, 30 * 24 * time.Hour: algorithms.AWSQuotaMonth,
}

func newAWSQuotaRule(p algorithms.Policy, r laneRule) (*algorithms.AWSQuota, error) {
	period, ok := awsQuotaPeriods[p.Window]
	if !ok {
		return nil, fmt.Errorf("aws usage plan quota: window %v is no quota period: 24h (DAY), 168h (WEEK) or 720h (MONTH, reset on the 1st)", p.Window)
	}
	if p.Burst != 0 && p.Burst != p.Limit {
		return nil, fmt.Errorf("aws usage plan quota: burst %d: a quota has no burst but its limit %d", p.Burst, p.Limit)
	}
	x := algorithms.AWSQuotaParams{Limit: p.Limit, Period: period, Epoch: r.epoch()}
	if s := r.product().AWSQuota; s != nil {
		if s.Offset < 0 || s.Offset >= p.Limit {
			return nil, fmt.Errorf("aws usage plan quota: offset %d must be at least 0 and below the limit %d", s.Offset, p.Limit)
		}
		x.Offset = s.Offset
	}
	return algorithms.NewAWSQuota(x)
}
