package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// healthSite is sim's hand-derived case (topo_health_test.go) as a file:
// two replicas, one client on /api at 10 per second from 50ms on, a health
// limit failing closed, the store down in [20s, 50s), probes every 5s.
const healthSite = `
duration: 60s
lanes: [token_bucket, gcra]
limits:
  - name: api
    limit: 100
    endpoint: /api
  - name: health
    limit: 1000
    endpoint: /health
    state: shared
    on_store_error: closed
topology:
  replicas: 2
  health:
    interval: 5s
    unhealthy_after: 2
    healthy_after: 3
  store:
    outages:
      - from: 20s
        to: 50s
clients:
  - name: users
    identity:
      endpoint: /api
    arrivals:
      - kind: constant
        start: 50ms
        rate: 10/s
`

// By hand (see sim's test): probes at 20s … 45s fail, 6 rounds of 2 of the
// 25 rounds to 120s; both replicas out from 25s to 60s; the 350 arrivals at
// 25.05s … 59.95s find none. Both lanes alike, so one sentence names both.
func TestHealthFinding(t *testing.T) {
	o, _ := runYAML(t, healthSite)
	want := "under token bucket and GCRA, 12 of 50 health checks of /health failed and took replicas out of the rotation 2 times (after 2 failures in a row, back after 3 passes): replica 0 for 35s, replica 1 for 35s; for 35s no replica was in it and the load balancer answered 503 to 350 attempts"
	if got := findingsWith(o, "health checks"); len(got) != 1 || got[0] != want {
		t.Errorf("findings %q\nwant %q", got, want)
	}
	if got := findingsWith(o, "shed"); len(got) != 2 || got[0] != "token bucket shed 350 attempts with 503 (all of them by the load balancer, with no replica in its rotation)" {
		t.Errorf("shedding findings %q", got)
	}
	// With a backend of capacity 0 from 10s to 15s (50 arrivals shed by it), the load balancer's are some of them.
	o, _ = runYAML(t, healthSite+"backend:\n  capacity: 4\n  service:\n    mean: 1ms\n  changes:\n    - at: 10s\n      capacity: 0\n    - at: 15s\n      capacity: 4\n")
	if got := findingsWith(o, "shed"); len(got) != 2 || !strings.HasPrefix(got[0], "token bucket shed 400 attempts with 503 (350 of them by the load balancer, with no replica in its rotation)") {
		t.Errorf("shedding findings with a backend %q", got)
	}
	// One replica: 25 probes, 6 failing; out once, from 25s to 60s.
	o, _ = runYAML(t, strings.Replace(healthSite, "replicas: 2", "replicas: 1", 1))
	want = "under token bucket and GCRA, 6 of 25 health checks of /health failed and took replicas out of the rotation once (after 2 failures in a row, back after 3 passes): replica 0 for 35s; for 35s no replica was in it and the load balancer answered 503 to 350 attempts"
	if got := findingsWith(o, "health checks"); len(got) != 1 || got[0] != want {
		t.Errorf("findings %q\nwant %q", got, want)
	}
	// The probes pass whatever the store does once the limit fails open: nothing to say.
	o, _ = runYAML(t, strings.Replace(healthSite, "on_store_error: closed", "on_store_error: open", 1))
	if got := findingsWith(o, "health checks"); len(got) != 0 {
		t.Errorf("failing open: findings %q, want none", got)
	}
	// Out after 10 failures in a row: the 6 failures never take a replica out.
	o, _ = runYAML(t, strings.Replace(healthSite, "unhealthy_after: 2", "unhealthy_after: 10", 1))
	want = "under token bucket and GCRA, 12 of 50 health checks of /health failed, never 10 in a row: no replica left the rotation"
	if got := findingsWith(o, "health checks"); len(got) != 1 || got[0] != want {
		t.Errorf("findings %q\nwant %q", got, want)
	}
}

// The JSON carries the health check as run (defaults filled) and what it did.
func TestHealthJSON(t *testing.T) {
	o, _ := runYAML(t, strings.Replace(healthSite, "    healthy_after: 3\n", "", 1))
	var b bytes.Buffer
	if err := WriteJSON(&b, []Run{o}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Runs []struct {
			Topology struct {
				Health jsonHealthSpec `json:"health"`
			} `json:"topology"`
			Lanes []struct {
				Topology struct {
					Health jsonHealth  `json:"health"`
					Phases []jsonPhase `json:"phases"`
				} `json:"topology"`
			} `json:"lanes"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	run := doc.Runs[0]
	if want := (jsonHealthSpec{"/health", 5, 2, sim.DefaultHealthHealthyAfter}); run.Topology.Health != want {
		t.Errorf("health spec %+v, want %+v", run.Topology.Health, want)
	}
	// healthy_after 1: back at 50s, the first pass; out 25s each, none in for 25s,
	// 250 arrivals (25.05s … 49.95s) answered 503.
	h := run.Lanes[0].Topology.Health
	if h.Probes != 50 || h.Failed != 12 || h.Removals != 2 || fmt.Sprint(h.OutS) != "[25 25]" || h.NoHealthy != 250 || h.NoHealthyS != 25 {
		t.Errorf("health %+v", h)
	}
	var kinds []string
	for _, p := range run.Lanes[0].Topology.Phases {
		kinds = append(kinds, fmt.Sprintf("%s@%g/%d", p.Kind, p.At, p.Replica))
	}
	want := "store_refusing@20/-1 fail_closed@20/0 replica_out@25/0 replica_out@25/1 no_healthy_replica@25/-1 store_answering@50/-1 replica_in@50/0 replica_in@50/1"
	if strings.Join(kinds, " ") != want {
		t.Errorf("phases %s\nwant %s", strings.Join(kinds, " "), want)
	}
}

// A restart, and an outage that flushes, are told with the limits they emptied.
func TestRestartFinding(t *testing.T) {
	src := strings.Replace(healthSite, "        to: 50s\n", "        to: 50s\n        flush: true\n    restarts:\n      - at: 10s\n", 1)
	o, _ := runYAML(t, src)
	want := "the store restarted empty at t=10s and t=20s: health forgot what it had counted and started afresh"
	if got := findingsWith(o, "restarted"); len(got) != 1 || got[0] != want {
		t.Errorf("findings %q\nwant %q", got, want)
	}
	if got := o.Result.Lanes[0].Topology.Restarts; got != 2 {
		t.Errorf("restarts %d, want 2", got)
	}
}

// Partitions are counted once where they overlap.
func TestPartitionTime(t *testing.T) {
	s := time.Second
	topo := &sim.Topology{Store: sim.Store{Partitions: []sim.Partition{{From: 5 * s, To: 9 * s}, {From: 1 * s, To: 3 * s}, {From: 2 * s, To: 4 * s}, {From: 6 * s, To: 7 * s}, {From: 20 * s, To: 40 * s}}}}
	// [1,4) and [5,9) before 30s, and [20,30): 3 + 4 + 10.
	if got := partitionTime(topo, 30*s); got != 17*s {
		t.Errorf("partitionTime = %v, want 17s", got)
	}
}

// The timeline shades, in each lane's row, the time no replica was in the
// rotation (25s to 60s, by hand): in the PNG's legend and the HTML's data;
// without a health check, neither.
func TestTimelineMarksNoHealthyReplica(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		down bool
	}{
		{"health", healthSite, true},
		{"fails open", strings.Replace(healthSite, "on_store_error: closed", "on_store_error: open", 1), false},
	} {
		s, err := scenarios.Parse("health.yaml", []byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		tl := NewTimeline(*s.Config)
		r, err := sim.Run(context.Background(), *s.Config, sim.Options{Trace: tl})
		if err != nil {
			t.Fatal(err)
		}
		o := Run{Scenario: s, Result: &r, Timeline: tl}
		f := Figures(o)[0]
		labelled := false
		for _, e := range f.Legend {
			labelled = labelled || e.Label == "no healthy replica"
		}
		if labelled != tc.down || strings.Contains(f.Caption, "no replica in the load balancer's rotation") != tc.down {
			t.Errorf("%s: PNG legend names it %v, want %v", tc.name, labelled, tc.down)
		}
		if _, err := f.PNG(); err != nil {
			t.Fatal(err)
		}
		var hp htmlPageData
		o.kind().fillPage(&hp)
		tj := hp.Data.Timeline
		if tj.NoHealthy != tc.down {
			t.Errorf("%s: HTML no_healthy %v, want %v", tc.name, tj.NoHealthy, tc.down)
		}
		for i, l := range tj.Lanes {
			want := []spanJSON(nil)
			if tc.down {
				want = []spanJSON{{us(25 * time.Second), us(60 * time.Second)}}
			}
			if fmt.Sprint(l.Down) != fmt.Sprint(want) {
				t.Errorf("%s: lane %d down %v, want %v", tc.name, i, l.Down, want)
			}
		}
	}
}

// By hand (as sim's partition test): two replicas round robin, replica 0 cut
// off the store in [10s, 20s); the 50 arrivals routed to it then fail closed.
func TestPartitionFinding(t *testing.T) {
	src := `
duration: 60s
lanes: [token_bucket]
limits:
  - name: g
    limit: 1000
    state: shared
    on_store_error: closed
topology:
  replicas: 2
  store:
    partitions:
      - from: 10s
        to: 20s
        replicas: [0]
clients:
  - name: users
    arrivals:
      - kind: constant
        start: 50ms
        rate: 10/s
`
	o, _ := runYAML(t, src)
	want := "under token bucket, while the store was unavailable (cut off from some replicas 10s), g failed closed: users made 50 attempts and 0 got through"
	if got := findingsWith(o, "unavailable"); len(got) != 1 || got[0] != want {
		t.Errorf("findings %q\nwant %q", got, want)
	}
}
