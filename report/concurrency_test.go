package report

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// One client sends every 50ms for 500ms to a backend that takes 100ms: with
// one place per user, the requests at 0, 100, ..., 400ms find it free (each
// answer is due before the next arrival) and the five between are refused.
const concScenario = `duration: 500ms
lanes: [token_bucket, fixed_window, aimd]
limits:
  - name: rate
    limit: 1000
  - name: one-at-a-time
    key: user
    concurrency: 1
clients:
  - name: app
    arrivals:
      - kind: constant
        rate: 20/s
backend:
  capacity: 100
  service:
    mean: 100ms
`

func concRun(t *testing.T) Run {
	t.Helper()
	s, err := scenarios.Parse("c.yaml", []byte(concScenario))
	if err != nil {
		t.Fatal(err)
	}
	r, err := sim.Run(context.Background(), *s.Config, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return Run{Scenario: s, Result: &r}
}

func TestConcurrencyLimitInTheTableAndFindings(t *testing.T) {
	run := concRun(t)
	var buf bytes.Buffer
	if err := WriteTable(&buf, []Run{run}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"limit rate 1000 per 1s by global, then one-at-a-time 1 at once by user",
		"under token bucket and fixed window, the concurrency limit one-at-a-time refused 5 attempts, each when all 1 places of its key (user) were in flight (the most in flight at once: 1)",
	} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("the table does not say %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "AIMD concurrency, the concurrency limit") {
		t.Errorf("AIMD applies no chain, yet a finding names it:\n%s", out)
	}
}

func TestConcurrencyLimitInTheJSON(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteJSON(&buf, []Run{concRun(t)}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Runs []struct {
			Limits []jsonLimit `json:"limits"`
			Lanes  []struct {
				Lane     string           `json:"lane"`
				InFlight []jsonLimitCount `json:"in_flight"`
			} `json:"lanes"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if l := doc.Runs[0].Limits[1]; l.Concurrency != 1 || l.Limit != 0 || l.WindowS != 0 {
		t.Errorf("limits[1] in the JSON = %+v, want concurrency 1 and no rate", l)
	}
	for _, l := range doc.Runs[0].Lanes {
		want := []jsonLimitCount{{"one-at-a-time", 1}}
		if l.Lane == "aimd" {
			want = nil
		}
		if len(l.InFlight) != len(want) || len(want) > 0 && l.InFlight[0] != want[0] {
			t.Errorf("%s: in_flight %v, want %v", l.Lane, l.InFlight, want)
		}
	}
}
