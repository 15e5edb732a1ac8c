package scenarios

import (
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// A divided fallback reads into sim's Config as the fallback policy with
// LocalLimit divided, and writes back as written.
func TestParseDividedFallback(t *testing.T) {
	s, err := Parse("f.yaml", []byte(`limits:
  - limit: 50
    state: shared
    on_store_error: local
    fallback:
      limit: 40
      window: 2s
      divided: true
topology:
  replicas: 4
`+okClient))
	if err != nil {
		t.Fatal(err)
	}
	l := s.Config.Limits[0]
	if l.Fallback.Limit != 40 || l.Fallback.Window != 2*time.Second || l.LocalLimit != sim.LocalDivided {
		t.Errorf("limit %+v, want fallback 40 per 2s divided", l)
	}
	if w := Warnings(s); len(w) != 0 {
		t.Errorf("Warnings = %v, want none (40 over 4 leaves every replica 10)", w)
	}
	assertRoundTrip(t, s)
}

// validate warns of a divided limit or fallback with fewer per window than
// replicas, on the line of the field that divides it, stating what the fleet
// and a replica then enforce.
func TestWarningsDividedBelowTheReplicas(t *testing.T) {
	s, err := Parse("f.yaml", []byte(`limits:
  - name: login
    limit: 5
    window: 15m
    local_limit: divided
  - name: api
    limit: 100
    burst: 3
    state: shared
    on_store_error: local
    fallback:
      limit: 40
      burst: 3
      divided: true
  - name: search
    limit: 7
    local_limit: divided
topology:
  replicas: 4
  autoscaler:
    - at: 10s
      count: 8
`+okClient))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"f.yaml:5: limits[0].local_limit: warning: 5 per 15m divided over 8 replicas leaves 3 of them a share of nothing (they refuse every request) and 5 a share of 1: the fleet admits at most 5 per 15m, a key routed to one replica 1 or none",
		"f.yaml:14: limits[1].fallback.divided: warning: a burst of 3 divided over 8 replicas leaves 5 of them no burst: in the token bucket, GCRA and leaky bucket lanes they refuse every request",
		"f.yaml:17: limits[2].local_limit: warning: 7 per 1s divided over 8 replicas leaves 1 of them a share of nothing (they refuse every request) and 7 a share of 1: the fleet admits at most 7 per 1s, a key routed to one replica 1 or none",
	}
	if got := Warnings(s).Error(); got != strings.Join(want, "\n") {
		t.Errorf("Warnings:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}

// divided on a fallback is reported where it means nothing.
func TestDividedFallbackErrors(t *testing.T) {
	_, err := Parse("f.yaml", []byte(`limits:
  - limit: 5
    state: shared
    on_store_error: closed
    fallback:
      limit: 2
      divided: true
topology:
  replicas: 4
`+okClient))
	if want := "f.yaml:5: limits[0].fallback: is only used with on_store_error local"; err == nil || err.Error() != want {
		t.Errorf("Parse: %v, want %s", err, want)
	}
}
