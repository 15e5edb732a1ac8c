package sim

import "time"

// ProductSettings are a product lane's own settings, in the product's words:
// at most one is set, the one of the lane's product.
type ProductSettings struct {
	Nginx          *NginxSettings
	EnvoyLocal     *EnvoyLocalSettings
	EnvoyRateLimit *EnvoyRateLimitSettings
	Kong           *KongSettings
	KongAdvanced   *KongAdvancedSettings
	AWSWAF         *AWSWAFSettings
	Cloudflare     *CloudflareSettings
	HAProxy        *HAProxySettings
	AWSQuota       *AWSQuotaSettings
}

// NginxSettings are an nginx lane's limit_req settings other than the rate and
// burst, which are the limit's policy (nginxZone): per limit_req directive,
// that is per limit of the chain.
type NginxSettings struct {
	// Zones[i] is limit i's delay= or nodelay; a limit beyond Zones takes
	// Default.
	Zones []NginxDelay
	// Default is the delay= or nodelay of every limit without a zone of its own.
	Default NginxDelay
}

// NginxDelay is a limit_req directive's delay=N or nodelay: neither (the zero
// value) delays every excess request, as nginx does by default.
type NginxDelay struct {
	Delay   int64
	NoDelay bool
}

// of is the delay settings of limit i.
func (s *NginxSettings) of(i int) NginxDelay {
	if s == nil {
		return NginxDelay{}
	}
	if i < len(s.Zones) {
		return s.Zones[i]
	}
	return s.Default
}

// EnvoyLocalSettings are an Envoy local rate limit lane's token bucket
// settings other than max_tokens, tokens_per_fill and fill_interval, which
// are the limit's policy (burst, limit, window).
type EnvoyLocalSettings struct {
	// Stepwise refills tokens_per_fill every fill_interval, as Envoy 1.31
	// and earlier did; false refills continuously, as current Envoy does.
	Stepwise bool
	// AsWritten takes tokens_per_fill = limit and fill_interval = window as
	// written; false divides both by their largest common factor that keeps
	// fill_interval at least 50ms (the finest exact fill, which a stepwise
	// bucket needs to serve its rate).
	AsWritten bool
	// Start, when set, is a new bucket's tokens; nil starts it full.
	Start *int64
}

// EnvoyRateLimitSettings are an envoyproxy/ratelimit lane's descriptor
// settings other than its unit and requests_per_unit (the limit's policy).
type EnvoyRateLimitSettings struct {
	ShadowMode bool // shadow_mode: counted, never refused
	Unlimited  bool // unlimited: never counted, never refused
	LocalCache bool // LOCAL_CACHE_SIZE_IN_BYTES > 0: over-limit keys answered from a local cache
	// NearLimitRatio is NEAR_LIMIT_RATIO, in (0, 1]; zero is the service's
	// default, 0.8. It changes no verdict, only LaneResult.NearLimit.
	NearLimitRatio float32
	// FailureModeDeny, when set, is the Envoy filter's failure_mode_deny:
	// what the filter does when the service cannot answer, which in rlsim is
	// the shared limits' on_store_error (true: closed, false: open); it must
	// agree with every shared limit's.
	FailureModeDeny *bool
}

// KongSettings are a Kong rate-limiting lane's settings other than the one
// period its limit's policy gives: more periods (requests per period, 0 for
// none) checked at once, and the counting policy.
type KongSettings struct {
	Second, Minute, Hour, Day, Month, Year int64
	// Redis counts every request, refused ones too, as the redis policy's
	// INCR does; false counts admitted requests only (local and cluster).
	Redis bool
}

// KongAdvancedSettings are a Kong rate-limiting-advanced lane's settings
// other than limit and window_size (the limit's policy).
type KongAdvancedSettings struct {
	Fixed          bool // window_type fixed; false: sliding (the default)
	DisablePenalty bool // disable_penalty: refused requests do not count
}

// AWSWAFSettings are an AWS WAF rate-based rule lane's settings other than its
// limit and evaluation window (the limit's policy).
type AWSWAFSettings struct {
	// EvaluationInterval is how often WAF checks each key's rate; zero is 10s.
	EvaluationInterval time.Duration
}

// CloudflareSettings are a Cloudflare rate limiting rule lane's settings
// other than requests_per_period and period (the limit's policy).
type CloudflareSettings struct {
	// MitigationTimeout is how long a key that tripped is blocked; zero
	// throttles: requests over the rate are refused, the others pass.
	MitigationTimeout time.Duration
	// ExcludeBlocked keeps blocked requests out of the count.
	ExcludeBlocked bool
}

// AWSQuotaSettings are an API Gateway usage plan quota lane's settings other
// than its limit and period (the limit's policy).
type AWSQuotaSettings struct {
	// Offset is QuotaSettings' offset: "the number of requests subtracted from
	// the given limit in the initial time period" (the period holding the
	// run's start); 0 ≤ Offset < the limit.
	Offset int64
}

// HAProxySettings are an HAProxy stick-table lane's settings other than the
// rate's period and the deny threshold (the limit's policy).
type HAProxySettings struct {
	// Expire is the stick table's expire; zero is twice the period, the
	// shortest that never forgets a count the rate still reads.
	Expire time.Duration
}
