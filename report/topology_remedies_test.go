package report

import (
	"context"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// sourceFindings runs a scenario file's source and returns its findings.
func sourceFindings(t *testing.T, src string) []string {
	t.Helper()
	s, err := scenarios.Parse("test.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	r, err := sim.Run(context.Background(), *s.Config, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return Run{Scenario: s, Result: &r}.Findings()
}

const breakerScenario = `duration: 60s
lanes: [fixed_window]
limits:
  - name: api
    key: ip
    limit: 1000
    state: shared
    on_store_error: open
topology:
  store:
    outages:
      - from: 10s
        to: 40s
%BREAKER%
clients:
  - name: c
    arrivals:
      - kind: constant
        rate: 10/s
`

// The breaker's finding says what it saved, with the figures derived by hand
// (sim's TestBreakerCallsInAnOutageAreWhatItsSettingsImply): one attempt
// every 100ms, the store down from 10s to 40s, open after 3 failures in 1s
// for 5s: 6 openings, 30s open, 294 calls not made; and nothing without one.
func TestBreakerFindingSaysWhatItSaved(t *testing.T) {
	b := "    breaker:\n      failures: 3\n      window: 1s\n      cooldown: 5s\n      probes: 2"
	want := "under fixed window, the circuit breakers (open after 3 failed store calls within 1s, for 5s, then 2 probes) opened 6 times on 1 replica and shard, open 30s in all: they saved 294 store calls, the decisions meanwhile taken at once, unasked, by the fail modes (api open)"
	got := sourceFindings(t, strings.Replace(breakerScenario, "%BREAKER%", b, 1))
	found := false
	for _, f := range got {
		found = found || f == want
	}
	if !found {
		t.Errorf("findings:\n%s\nwant the line\n%s", strings.Join(got, "\n"), want)
	}
	for _, f := range sourceFindings(t, strings.Replace(breakerScenario, "%BREAKER%", "", 1)) {
		if strings.Contains(f, "circuit breaker") {
			t.Errorf("without a breaker: %s", f)
		}
	}
}
