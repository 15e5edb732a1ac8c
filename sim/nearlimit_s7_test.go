package sim

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

func s7EnvoyRule(t *testing.T) envoyRLSRule {
	t.Helper()
	e, err := algorithms.NewEnvoyRLS(algorithms.EnvoyRLSParams{Unit: "SECOND", RequestsPerUnit: 10})
	if err != nil {
		t.Fatal(err)
	}
	return envoyRLSRule{e}
}

// TestEnvoyRLSAnswerKeepsTheWindowsNearHits: the near_limit statistic of a
// key over a run is the sum over its windows of |(0, count] ∩ (threshold,
// limit]| (envoy_rls.go, NearLimitHits), whatever answers the hits. 10 a
// second, ratio 0.8 (threshold 8): 12 hits in [0, 1s) count 2; a hit of 11
// at 1s, refused (11 > 10), counts 2 of its own in [1s, 2s): 4, whether the
// refusal at 1s is Decide's or Answer's.
func TestEnvoyRLSAnswerKeepsTheWindowsNearHits(t *testing.T) {
	for _, answer := range []bool{false, true} {
		r := s7EnvoyRule(t)
		var s envoyRLSCounted
		for range 12 {
			r.Decide(&s, 0, 1)
		}
		if answer {
			if _, admitted, refused := r.Answer(&s, time.Second, 11); admitted || !refused {
				t.Fatalf("Answer of 11 at 1s: admitted %v, refused %v; want a refusal", admitted, refused)
			}
		} else if d := r.Decide(&s, time.Second, 11); d.Verdict != algorithms.Refuse {
			t.Fatalf("Decide of 11 at 1s: %v, want a refusal", d.Verdict)
		}
		if got := r.NearLimitHits(&s); got != 4 {
			t.Errorf("answer %v: near_limit %d, want 4 (2 in each window)", answer, got)
		}
	}
}
