package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// traceLog collects one lane's first attempts as JSON lines and every lane's
// verdicts, per key in time order.
type traceLog struct {
	order    string // the lane whose records make the log
	log      bytes.Buffer
	verdicts map[string]map[string][]algorithms.Verdict // lane → key → verdicts
}

func (t *traceLog) Record(r *sim.TraceRecord) error {
	var v algorithms.Verdict
	switch r.Event {
	case sim.TraceAdmit:
		v = algorithms.Admit
	case sim.TraceDelay:
		v = algorithms.Delay
	case sim.TraceRefuse:
		v = algorithms.Refuse
	default:
		return nil
	}
	if r.Attempt != 1 {
		return fmt.Errorf("attempt %d: the scenario retries", r.Attempt)
	}
	if t.verdicts[r.LaneName] == nil {
		t.verdicts[r.LaneName] = map[string][]algorithms.Verdict{}
	}
	t.verdicts[r.LaneName][r.Key] = append(t.verdicts[r.LaneName][r.Key], v)
	if r.LaneName == t.order {
		at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(r.At)
		line, _ := json.Marshal(map[string]string{"time": at.Format(time.RFC3339Nano), "user": r.Key})
		t.log.Write(append(line, '\n'))
	}
	return nil
}

// TestReplayMatchesSimulation writes a log from an rlsim trace of built-ins
// (open-loop: retries off) and replays it: every lane decides every request of
// every key as the simulation's lane did.
func TestReplayMatchesSimulation(t *testing.T) {
	for _, name := range []string{"nat-per-user", "nat-per-ip", "boundary-burst"} {
		t.Run(name, func(t *testing.T) {
			s, err := scenarios.LoadBuiltin(name)
			if err != nil {
				t.Fatal(err)
			}
			cfg := *s.Config
			cfg.Clients = slices.Clone(cfg.Clients)
			for i := range cfg.Clients {
				cfg.Clients[i].Retry = sim.Retry{}
			}
			tl := &traceLog{order: "gcra", verdicts: map[string]map[string][]algorithms.Verdict{}}
			if _, err := sim.Run(context.Background(), cfg, sim.Options{Trace: tl}); err != nil {
				t.Fatal(err)
			}
			p := cfg.Limits[0].Policy
			lim := Limit{Name: "l", Key: KeySpec{{Kind: "field", Field: "user"}}, Policy: p}
			res, err := Replay(context.Background(), []Input{{Name: name, R: bytes.NewReader(tl.log.Bytes())}},
				Options{Limits: []Limit{lim}, Format: "json", Verdicts: true})
			if err != nil {
				t.Fatal(err)
			}
			var lines []map[string]string
			for _, l := range bytes.Split(bytes.TrimSpace(tl.log.Bytes()), []byte("\n")) {
				var m map[string]string
				json.Unmarshal(l, &m)
				lines = append(lines, m)
			}
			compared := 0
			for _, lane := range res.Limits[0].Lanes {
				want, ok := tl.verdicts[lane.Lane]
				if !ok {
					t.Errorf("lane %s: not in the simulation's trace", lane.Lane)
					continue
				}
				got := map[string][]algorithms.Verdict{}
				for i, v := range lane.Verdicts {
					k := lines[i]["user"]
					got[k] = append(got[k], algorithms.Verdict(v))
				}
				for k, w := range want {
					if !slices.Equal(got[k], w) {
						t.Errorf("%s: key %q: replay %v, simulation %v", lane.Lane, k, got[k], w)
					}
				}
				compared++
			}
			if compared != len(LaneNames) || len(lines) == 0 {
				t.Errorf("compared %d lanes over %d requests, want %d lanes", compared, len(lines), len(LaneNames))
			}
		})
	}
}

func TestFromScenario(t *testing.T) {
	s, err := scenarios.LoadBuiltin("nat-per-user")
	if err != nil {
		t.Fatal(err)
	}
	limits, lanes, err := FromScenario(s.Config)
	if err != nil || len(limits) != 1 {
		t.Fatalf("%v, %d limits", err, len(limits))
	}
	if got := limits[0].String(); got != "name=per-user key=user limit=5/1s burst=5" {
		t.Errorf("limit %s", got)
	}
	for _, l := range lanes {
		if !slices.Contains(LaneNames, l) {
			t.Errorf("lane %s cannot be replayed", l)
		}
	}
	cfg := *s.Config
	cfg.Lanes = []sim.LaneKind{sim.LaneAIMD}
	if _, _, err := FromScenario(&cfg); err == nil {
		t.Error("an AIMD-only scenario: no error")
	}
}

// A concurrency limit counts requests in flight, which a log cannot tell:
// replay refuses it, naming the field.
func TestFromScenarioRefusesAConcurrencyLimit(t *testing.T) {
	s, err := scenarios.LoadBuiltin("nat-per-user")
	if err != nil {
		t.Fatal(err)
	}
	cfg := *s.Config
	cfg.Limits = append(slices.Clone(cfg.Limits), sim.Limit{Name: "in-flight", Key: sim.KeyUser, Concurrency: 2})
	if _, _, err := FromScenario(&cfg); err == nil || !strings.Contains(err.Error(), "limits[1].concurrency") {
		t.Errorf("a concurrency limit: %v, want an error at limits[1].concurrency", err)
	}
}
