package web

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// limitingYAML has a chain with a concurrency limit, load shedders and
// criticalities in a token bucket lane, and a partitioned AIMD lane.
const limitingYAML = `description: limiting
duration: 2s
lanes: [token_bucket, {name: parted, algorithm: aimd, partitions: [{name: live, classes: [live], share: 0.8}]}]
limits:
  - {name: rate, key: user, limit: 50}
  - {name: in-flight, key: user, concurrency: 3}
aimd: {initial: 8, min: 4, max: 16}
clients:
  - {name: live, count: 4, criticality: critical_plus, arrivals: [{kind: poisson, rate: 20/s}]}
  - {name: batch, count: 4, criticality: sheddable, arrivals: [{kind: poisson, rate: 40/s}]}
backend: {capacity: 8, queue: 4, service: {mean: 100ms, distribution: exponential}, shedding: {fleet_usage: {reserve: 0.25}}}
`

// Played to its end, each lane's row says under its figures the most of
// one key in flight, who was served by criticality and what each partition
// did, as rlsim run measures them.
func TestBrowserShowsConcurrencyCriticalityAndPartitions(t *testing.T) {
	t.Parallel()
	sc, err := scenarios.Parse("limiting.yaml", []byte(limitingYAML))
	if err != nil {
		t.Fatal(err)
	}
	p := openPage(t, Options{First: sc})
	p.ctl(t, fastest)
	p.run(t, chromedp.Click("#play"))
	p.waitFor(t, `document.body.dataset.finished === "true"`)
	out, err := run.Scenario(context.Background(), sc, run.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range out.Result.Lanes {
		want := strings.Join(sim.LimitingPhrases(*sc.Config, l.InFlight, l.Criticality, l.Partitions), " · ")
		got := eval[string](t, p, fmt.Sprintf(`document.querySelector('.lane[data-lane=%q] .limiting').textContent`, l.Name))
		if got != want || want == "" {
			t.Errorf("%s: the page says %q, rlsim run measured %q", l.Name, got, want)
		}
	}
	if strings.Count(eval[string](t, p, `document.querySelector('.lane[data-lane=parted] .limiting').textContent`), " in, ") != 2 {
		t.Error("the partitioned lane does not show live and unknown")
	}
	if path := os.Getenv("RLSIM_LIMITING_SCREENSHOT"); path != "" {
		p.screenshot(t, path)
	}
}
