package sim

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// TestLaneFastPaths holds each registry row's declared fast paths (LaneInfo.fast)
// to what its limiter's table does: a rate limiter declares them, or fastNone;
// no other lane declares any. So a new algorithm cannot be missing from a fast
// path it could take, nor take one it cannot.
func TestLaneFastPaths(t *testing.T) {
	for _, info := range Lanes() {
		p := policyFor(info.Kind, algorithms.Policy{Limit: 3, Window: time.Second})
		if info.Class != RateLimiter {
			if info.fast != 0 {
				t.Errorf("lane %s (no per-key limiter) declares fast paths %b, want none", info.Name, info.fast)
			}
			continue
		}
		if info.fast == 0 || (info.fast&fastNone != 0 && info.fast != fastNone) {
			t.Errorf("lane %s declares fast paths %b: want fastNone, or some of fastDirect, fastAdmits, fastAnswers", info.Name, info.fast)
			continue
		}
		d, err := newDecider(plainRule(info.Kind), p, 1)
		if err != nil {
			t.Fatal(err)
		}
		direct := directPathOf(d)
		if got, want := direct.known(), info.fast&fastDirect != 0; got != want {
			t.Errorf("lane %s: directPathOf(its table).known() = %v, but it declares fastDirect %v", info.Name, got, want)
		}
		q, _ := d.(admitter)
		if got, want := q != nil && q.admits(), info.fast&fastAdmits != 0; got != want {
			t.Errorf("lane %s: its table admits by verdict alone: %v, but it declares fastAdmits %v", info.Name, got, want)
		}
		if !direct.known() {
			continue
		}
		// Run the one key out of quota, at 0 and again a sixth of the window
		// later (AWS WAF counts at 0 but first evaluates 10s on); then the
		// direct path's answer tells the refusal and its Retry-After exactly
		// when the algorithm is an Answerer.
		var dec algorithms.Decision
		probe := p.Window / 6
		for _, at := range []time.Duration{0, probe} {
			for range 2 * p.Limit {
				direct.decide(&dec, q, 0, at, 1)
			}
		}
		retryAfter, admitted, refused := direct.answer(0, probe, 1)
		if admitted {
			t.Errorf("lane %s: the direct path admitted a request over the quota", info.Name)
		}
		if got, want := refused && retryAfter > 0, info.fast&fastAnswers != 0; got != want {
			t.Errorf("lane %s: the direct path answers a refusal with its Retry-After: %v, but it declares fastAnswers %v", info.Name, got, want)
		}
	}
}

// TestSharingLanesReadTheRegistry checks that the lanes that may share
// requests are exactly those whose row declares it (laneFast.shares).
func TestSharingLanesReadTheRegistry(t *testing.T) {
	sharedAlways = true
	defer func() { sharedAlways = false }()
	for _, info := range Lanes() {
		cfg := Config{Duration: time.Second, Limits: []Limit{{Policy: algorithms.Policy{Limit: 5, Window: time.Second}}},
			Lanes:   []LaneKind{info.Kind, info.Kind},
			Clients: []ClientGroup{{Name: "c", Count: 1, Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 10, Per: time.Second}}}}}}
		cfg.Variants = []Variant{{}, {Name: "again"}}
		cfg = cfg.withDefaults()
		pop, err := newPopulation(t.Context(), cfg.Clients, cfg.Limits)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := sharingLanes(&cfg, Options{}, pop) != nil, info.fast.shares(); got != want {
			t.Errorf("lane %s twice: sharingLanes gives a group %v, want %v", info.Name, got, want)
		}
	}
}

// policyFor is p, or, for a product lane whose product cannot say p (AWS
// WAF's evaluation windows, Cloudflare's periods, a quota's days), the first
// of 10 per minute and 10 per day it accepts.
func policyFor(kind LaneKind, p algorithms.Policy) algorithms.Policy {
	if kind.Info().Product == "" {
		return p
	}
	for _, q := range []algorithms.Policy{p, {Limit: 10, Window: time.Minute}, {Limit: 10, Window: 24 * time.Hour}} {
		if _, err := newDecider(plainRule(kind), q, 0); err == nil {
			return q
		}
	}
	return p
}
