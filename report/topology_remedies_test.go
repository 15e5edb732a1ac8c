package report

import (
	"context"
	"slices"
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
	want := "under fixed window, the circuit breakers (open after 3 failed store calls within 1s, for 5s, then 2 probes) opened 6 times, on 1 replica × shard breaker, open 30s in all: they saved 294 store calls, the decisions meanwhile taken at once, unasked, by the fail modes (api open)"
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

const cacheScenario = `duration: 10s
lanes: [fixed_window]
limits:
  - name: api
    key: ip
    limit: 5
    window: 1s
    state: shared
%CHANGES%topology:
  store:
    refusal_cache: true
clients:
  - name: c
    arrivals:
      - kind: constant
        rate: 20/s
`

// The cache's finding, with figures derived by hand (sim's
// TestRefusalCacheSavesWhatTheWindowImplies and ...CostAfterARulePush): 20
// attempts a second against 5 per second: 140 refused from the cache, of 200
// calls 140 saved (70%), none the store would have admitted; after a rule
// push to 100 at 475ms, 10 of the first window's 14 the store would have.
func TestCacheFindingSaysWhatItSavedAndCost(t *testing.T) {
	want := "under fixed window, the replicas' refusal caches refused 140 attempts without calling the store, saving 140 store calls (70% of the 200 made and saved): none of which the store would have admitted"
	got := sourceFindings(t, strings.Replace(cacheScenario, "%CHANGES%", "", 1))
	if !slices.Contains(got, want) {
		t.Errorf("findings:\n%s\nwant the line\n%s", strings.Join(got, "\n"), want)
	}
	// After the push every later window has 100: the cache refuses in the first
	// window only, 14 attempts, 10 of them (71%) after the push; of the 200
	// attempts, 186 call the store.
	push := "    changes:\n      - at: 475ms\n        limit: 100\n"
	want = "under fixed window, the replicas' refusal caches refused 14 attempts without calling the store, saving 14 store calls (7% of the 200 made and saved): 10 of which (71%) the store would have admitted, its state as it was at the attempt"
	got = sourceFindings(t, strings.Replace(cacheScenario, "%CHANGES%", push, 1))
	if !slices.Contains(got, want) {
		t.Errorf("findings:\n%s\nwant the line\n%s", strings.Join(got, "\n"), want)
	}
}

const leaseScenario = `duration: 10s
lanes: [fixed_window]
limits:
  - name: api
    key: ip
    limit: 10
    window: 1s
    state: shared
topology:
  store:
    lease: 4
clients:
  - name: c
    arrivals:
      - kind: constant
        rate: %RATE%/s
`

// The lease finding, with figures derived by hand (sim's
// TestLeaseCallsWhatTheLeaseImplies and TestLeaseLeftoversExpire): at 20 a
// second against 10, 70 decisions on leases beside 130 calls, 100 leased,
// none expired; at 5 a second 30 beside 20, 80 leased, 30 expired. One
// replica admits no more than the exact limiter: overshoot 0, bound 1 × 4.
func TestLeaseFindingSaysWhatItSavedAndCost(t *testing.T) {
	for rate, want := range map[string]string{
		"20": "under fixed window, with leases of 4 units the replicas took 70 decisions on leased units without a store call, beside 130 store calls; of 100 units leased 0 expired unspent; the fleet overshot one exact limiter api by 0 in its busiest window (at most 1 replica × 4 = 4)",
		"5":  "under fixed window, with leases of 4 units the replicas took 30 decisions on leased units without a store call, beside 20 store calls; of 80 units leased 30 expired unspent; the fleet overshot one exact limiter api by 0 in its busiest window (at most 1 replica × 4 = 4)",
	} {
		got := sourceFindings(t, strings.Replace(leaseScenario, "%RATE%", rate, 1))
		if !slices.Contains(got, want) {
			t.Errorf("rate %s: findings:\n%s\nwant the line\n%s", rate, strings.Join(got, "\n"), want)
		}
	}
}
