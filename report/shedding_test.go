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

// Ten workers busy for 1s and a fifth kept: of 20 sheddable requests at 0 the
// first 8 are served and 12 shed by fleet_usage (8 in flight is 1 − 0.2 of
// 10); of 5 critical ones at 100ms, 2 take the kept workers and the backend,
// full, sheds 3.
const shedScenario = `duration: 1s
lanes: [token_bucket, fixed_window]
limits:
  - limit: 1000
clients:
  - name: batch
    criticality: sheddable
    arrivals:
      - kind: burst
        count: 20
  - name: api
    arrivals:
      - kind: burst
        at: 100ms
        count: 5
backend:
  capacity: 10
  service:
    mean: 1s
  shedding:
    fleet_usage:
      reserve: 0.2
`

func shedRun(t *testing.T) Run {
	t.Helper()
	s, err := scenarios.Parse("s.yaml", []byte(shedScenario))
	if err != nil {
		t.Fatal(err)
	}
	r, err := sim.Run(context.Background(), *s.Config, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return Run{Scenario: s, Result: &r}
}

func TestSheddingFinding(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteTable(&buf, []Run{shedRun(t)}); err != nil {
		t.Fatal(err)
	}
	want := "under token bucket and fixed window, the load shedders shed 12 attempts with 503 (fleet_usage 12); " +
		"by criticality: critical 2 of 5 served, 3 shed, 0 refused; sheddable 8 of 20 served, 12 shed, 0 refused"
	if out := strings.Join(strings.Fields(buf.String()), " "); !strings.Contains(out, want) {
		t.Errorf("the table does not say %q:\n%s", want, buf.String())
	}
}

func TestSheddingInTheJSON(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteJSON(&buf, []Run{shedRun(t)}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Runs []struct {
			Lanes []struct {
				ShedBy      []jsonLimitCount  `json:"shed_by"`
				Criticality []jsonCriticality `json:"criticality"`
			} `json:"lanes"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	want := []jsonCriticality{{"critical", 5, 2, 0, 3, 0}, {"sheddable", 20, 8, 0, 12, 12}}
	for _, l := range doc.Runs[0].Lanes {
		if len(l.ShedBy) != 1 || l.ShedBy[0] != (jsonLimitCount{"fleet_usage", 12}) {
			t.Errorf("shed_by %v, want fleet_usage 12", l.ShedBy)
		}
		if len(l.Criticality) != 2 || l.Criticality[0] != want[0] || l.Criticality[1] != want[1] {
			t.Errorf("criticality %+v, want %+v", l.Criticality, want)
		}
	}
}

// A lane's page says what its shedders shed and who was served, by
// criticality, and the most in flight of a concurrency limit: the figures of
// the scenarios above.
func TestSheddingOnTheLanePage(t *testing.T) {
	run := shedRun(t)
	v := laneVerdict(*run.Result, run.Result.Lanes[0])
	for _, want := range []string{"The load shedders shed fleet_usage 12.", "Served by criticality: critical 2 of 5, sheddable 8 of 20."} {
		if !strings.Contains(v.Text, want) {
			t.Errorf("the page says %q, not %q", v.Text, want)
		}
	}
	run = concRun(t)
	if v := laneVerdict(*run.Result, run.Result.Lanes[0]); !strings.Contains(v.Text, "Most of one key in flight at once: one-at-a-time 1.") {
		t.Errorf("the page says %q, not the most in flight", v.Text)
	}
}
