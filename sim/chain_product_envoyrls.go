package sim

// envoyproxy/ratelimit's near_limit statistic in an envoy_ratelimit lane's
// tables (the lane reads them at the end: lane_nearlimit.go).

import (
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// nearLimitCounter is a rule whose states count near_limit hits.
type nearLimitCounter[S any] interface {
	NearLimitHits(s *S) int64
}

// nearLimiter is a table that can say the near_limit hits its keys counted.
type nearLimiter interface {
	nearLimit() (hits int64, ok bool)
}

func (d *dense[S]) nearLimit() (int64, bool) {
	c, ok := d.alg.(nearLimitCounter[S])
	if !ok {
		return 0, false
	}
	n := d.forgotten
	for i := range d.states {
		n += c.NearLimitHits(&d.states[i])
	}
	return n, true
}

// forgetNear keeps the near_limit hits of key, about to be forgotten.
func (d *dense[S]) forgetNear(key int32) {
	if c, ok := d.alg.(nearLimitCounter[S]); ok {
		d.forgotten += c.NearLimitHits(&d.states[key])
	}
}

func (k *boundedKeys) nearLimit() (int64, bool) {
	if n, ok := k.inner.(nearLimiter); ok {
		return n.nearLimit()
	}
	return 0, false
}

// envoyRLSRule is an envoy_ratelimit lane's rule: algorithms.EnvoyRLS, whose
// states keep the near_limit hits of the windows they have left (the
// algorithm's state holds its current window's only).
type envoyRLSRule struct{ *algorithms.EnvoyRLS }

// envoyRLSCounted is one key of an envoy_ratelimit table: the service's
// state and the near_limit hits of its earlier windows. 32 bytes.
type envoyRLSCounted struct {
	st   algorithms.EnvoyRLSState
	near int64
}

var (
	_ rule[envoyRLSCounted]                = envoyRLSRule{}
	_ algorithms.Admitter[envoyRLSCounted] = envoyRLSRule{}
	_ algorithms.Answerer[envoyRLSCounted] = envoyRLSRule{}
	_ nearLimitCounter[envoyRLSCounted]    = envoyRLSRule{}
)

// kept adds to s the near_limit hits of the window before, if the decision
// just made left it.
func (r envoyRLSRule) kept(s *envoyRLSCounted, before algorithms.EnvoyRLSState) {
	if s.st.Window() != before.Window() {
		s.near += r.EnvoyRLS.NearLimitHits(&before)
	}
}

func (r envoyRLSRule) Decide(s *envoyRLSCounted, now time.Duration, cost int64) algorithms.Decision {
	before := s.st
	d := r.EnvoyRLS.Decide(&s.st, now, cost)
	r.kept(s, before)
	return d
}

func (r envoyRLSRule) Admit(s *envoyRLSCounted, now time.Duration, cost int64) bool {
	before := s.st
	if !r.EnvoyRLS.Admit(&s.st, now, cost) {
		return false // changing nothing
	}
	r.kept(s, before)
	return true
}

// Answer is EnvoyRLS.Answer, keeping the near_limit hits of a window the
// answer left, refused or admitted (a refusal counts its hit too); neither
// changes nothing.
func (r envoyRLSRule) Answer(s *envoyRLSCounted, now time.Duration, cost int64) (time.Duration, bool, bool) {
	before := s.st
	retryAfter, admitted, refused := r.EnvoyRLS.Answer(&s.st, now, cost)
	if admitted || refused {
		r.kept(s, before)
	}
	return retryAfter, admitted, refused
}

func (r envoyRLSRule) Charge(s *envoyRLSCounted, now time.Duration, cost int64) {
	before := s.st
	r.EnvoyRLS.Charge(&s.st, now, cost)
	r.kept(s, before)
}

func (r envoyRLSRule) Idle(s *envoyRLSCounted, now time.Duration) bool {
	return r.EnvoyRLS.Idle(&s.st, now)
}

// NearLimitHits is the key's near_limit hits over the run.
func (r envoyRLSRule) NearLimitHits(s *envoyRLSCounted) int64 {
	return s.near + r.EnvoyRLS.NearLimitHits(&s.st)
}
