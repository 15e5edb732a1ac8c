package scenarios

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// A health check, restarts and partitions in error are each reported at
// their line and field, all at once.
func TestParseHealthAndLossErrors(t *testing.T) {
	y := `limits:
  - limit: 5
    state: shared
topology:
  replicas: 2
  health:
    interval: 1us
    unhealthy_after: 0
    healthy_after: 1001
  store:
    restarts:
      - at: 5s
      - at: 1s
    partitions:
      - from: 1s
        to: 2s
        replicas: [0, 2]
        kind: hang
      - from: 1s
        to: 2s
        replicas: [1]
        kind: hung
` + okClient
	want := []string{
		`f.yaml:8: topology.health.unhealthy_after: must be positive, got 0`,
		`f.yaml:18: topology.store.partitions[0].kind: unknown value "hang" (want refused, hung); did you mean "hung"?`,
	}
	_, err := Parse("f.yaml", []byte(y))
	if err == nil || err.Error() != strings.Join(want, "\n") {
		t.Errorf("errors:\n%v\nwant:\n%s", err, strings.Join(want, "\n"))
	}
	y = strings.Replace(strings.Replace(y, "unhealthy_after: 0", "unhealthy_after: 2", 1), "kind: hang", "kind: refused", 1)
	want = []string{
		`f.yaml:7: topology.health.interval: must be at least 1ms, got 1µs`,
		`f.yaml:9: topology.health.healthy_after: must be 1 to 1000 probes, got 1001`,
		`f.yaml:13: topology.store.restarts[1].at: restarts must be in time order, none negative (1s)`,
		`f.yaml:17: topology.store.partitions[0].replicas[1]: no replica 2: the fleet has replicas 0 to 1`,
		`f.yaml:22: topology.store.partitions[1].kind: a hung partition needs a store timeout (its calls are answered by nothing)`,
	}
	_, err = Parse("f.yaml", []byte(y))
	if err == nil || err.Error() != strings.Join(want, "\n") {
		t.Errorf("errors:\n%v\nwant:\n%s", err, strings.Join(want, "\n"))
	}
}

// A health check, restarts, flushing outages and partitions read into sim's
// Config as written, defaults filled by sim.
func TestParseHealthAndLoss(t *testing.T) {
	y := `limits:
  - limit: 5
    state: shared
    endpoint: /health
topology:
  replicas: 3
  health:
    interval: 2s
    healthy_after: 2
  store:
    timeout: 10ms
    restarts:
      - at: 30s
    outages:
      - from: 1s
        to: 2s
        flush: true
    partitions:
      - from: 3s
        to: 4s
        replicas: [0, 2]
        kind: hung
` + okClient
	s, err := Parse("f.yaml", []byte(y))
	if err != nil {
		t.Fatal(err)
	}
	top := s.Config.Topology
	if want := (sim.HealthCheck{Interval: 2 * time.Second, HealthyAfter: 2}); top.Health == nil || *top.Health != want {
		t.Errorf("health %+v, want %+v", top.Health, want)
	}
	st := top.Store
	if !reflect.DeepEqual(st.Restarts, []time.Duration{30 * time.Second}) ||
		!reflect.DeepEqual(st.Outages, []sim.Outage{{From: time.Second, To: 2 * time.Second, Flush: true}}) ||
		!reflect.DeepEqual(st.Partitions, []sim.Partition{{From: 3 * time.Second, To: 4 * time.Second, Replicas: []int{0, 2}, Hung: true}}) {
		t.Errorf("store %+v", st)
	}
	assertRoundTrip(t, s)
}
