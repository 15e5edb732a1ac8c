package algorithms

import (
	"testing"
	"time"
)

// productSubjects are the product limiters, each from policy p where it can
// say it (or in its own words at p's limit), as makers of fresh subjects.
func productSubjects(p Policy) []func() subject {
	var out []func() subject
	add := func(mk func() (subject, error)) {
		if _, err := mk(); err == nil {
			out = append(out, func() subject { s, _ := mk(); return s })
		}
	}
	add(func() (subject, error) {
		x, err := TraefikParamsOf(p)
		if err != nil {
			return subject{}, err
		}
		r, err := NewTraefik(x)
		return subjectOf[TraefikState]("traefik", r), err
	})
	add(func() (subject, error) {
		x, err := AWSThrottleParamsOf(p)
		if err != nil {
			return subject{}, err
		}
		r, err := NewAWSThrottle(x)
		return subjectOf[AWSThrottleState]("aws throttle", r), err
	})
	for _, refill := range []EnvoyRefill{EnvoyContinuous, EnvoyStepwise} {
		add(func() (subject, error) {
			x, err := EnvoyLocalParamsOf(p)
			if err != nil {
				return subject{}, err
			}
			x.Refill = refill
			r, err := NewEnvoyLocal(x)
			return subjectOf[EnvoyLocalState]("envoy local "+refill.String(), r), err
		})
	}
	for _, x := range []KongParams{{Second: p.Limit}, {Second: p.Limit, Minute: 7 * p.Limit, Policy: KongRedis}} {
		add(func() (subject, error) {
			r, err := NewKong(x)
			return subjectOf[KongState]("kong", r), err
		})
	}
	for _, x := range []KongAdvancedParams{{Limit: p.Limit, WindowSize: 1}, {Limit: p.Limit, WindowSize: 2, WindowType: KongFixed}} {
		add(func() (subject, error) {
			r, err := NewKongAdvanced(x)
			return subjectOf[KongAdvancedState]("kong advanced", r), err
		})
	}
	add(func() (subject, error) {
		r, err := NewCloudflare(CloudflareParams{RequestsPerPeriod: max(1, p.Limit/3), Period: 10, MitigationTimeout: 60})
		return subjectOf[CloudflareState]("cloudflare", r), err
	})
	add(func() (subject, error) {
		r, err := NewAWSWAF(AWSWAFParams{Limit: max(10, p.Limit), EvaluationWindowSec: 60})
		return subjectOf[AWSWAFState]("aws waf", r), err
	})
	add(func() (subject, error) {
		r, err := NewAWSQuota(AWSQuotaParams{Limit: p.Limit, Offset: p.Limit / 2, Period: AWSQuotaDay})
		return subjectOf[AWSQuotaState]("aws quota", r), err
	})
	add(func() (subject, error) {
		r, err := NewEnvoyRLS(EnvoyRLSParams{Unit: EnvoyRLSSecond, RequestsPerUnit: p.Limit, NearLimitRatio: 0.8})
		return subjectOf[EnvoyRLSState]("envoy ratelimit", r), err
	})
	return out
}

// Every product limiter answers Peek as Decide then decides, changes nothing
// by it, and decides the same after its idle keys are dropped (the simulator's
// key tables drop them).
func TestProductsPeekAndEviction(t *testing.T) {
	quickCheckN(t, 60, func(a arrivals) bool {
		for _, mk := range productSubjects(a.p) {
			if !checkPeekAndEviction(t, mk(), mk, a.reqs) {
				return false
			}
		}
		return true
	})
}

// The products' windows of seconds to days seen by traffic spread over
// minutes and weeks: the same properties, on the same limiters, with every
// request's time scaled by 997 or 997·997 (primes, so windows are crossed at
// every phase).
func TestProductsPeekAndEvictionOverLongSpans(t *testing.T) {
	quickCheckN(t, 40, func(a arrivals) bool {
		scale := time.Duration(997)
		if len(a.reqs)%2 == 1 {
			scale *= 997
		}
		for i := range a.reqs {
			a.reqs[i].at = min(a.reqs[i].at*scale, 100_000*time.Hour)
		}
		for _, mk := range productSubjects(a.p) {
			if !checkPeekAndEviction(t, mk(), mk, a.reqs) {
				return false
			}
		}
		return true
	})
}
