package scenarios

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/contention"
	"github.com/rlsim/rlsim/sim"
)

// TestParseRefusesWhatItOnceAccepted lists inputs that once parsed silently.
func TestParseRefusesWhatItOnceAccepted(t *testing.T) {
	const clients = "clients:\n  - arrivals:\n      - kind: burst\n        count: 1\n"
	tests := []struct {
		name, src, want string
	}{
		{"second document", clients + "---\nduration: 2s\n", "f.yaml:5: a second YAML document (after ---): a scenario file holds one"},
		{"empty second document", clients + "---\n", "f.yaml:5: a second YAML document"},
		{"custom tag", "description: !custom hi\n" + clients, "f.yaml:1: description: YAML tags like !custom are not part of the scenario format"},
		{"binary tag", "description: !!binary aGk=\n" + clients, "f.yaml:1: description: YAML tags like !!binary are not part of the scenario format"},
		{"str tag", "duration: !!str 2s\n" + clients, "f.yaml:1: duration: YAML tags like !!str are not part of the scenario format"},
		{"no lanes", "lanes: []\n" + clients, "f.yaml:1: lanes: at least one lane is needed (leave lanes out for all eight)"},
		{"negative period", "clients:\n  - arrivals:\n      - kind: constant\n        rate: 10/-1s\n", `f.yaml:4: clients[0].arrivals[0].rate: "10/-1s" is not a rate (period must be positive)`},
		{"a lane twice", "lanes: [gcra, gcra]\n" + clients, "f.yaml:1: lanes[1]: gcra is also lanes[0]; to run an algorithm twice give one a name of its own: {name: gcra_2, algorithm: gcra}"},
		{"cost above an override's burst", "overrides:\n  - lane: gcra\n    limit: 10\n    burst: 2\nclients:\n  - cost: 3\n    arrivals:\n      - kind: burst\n        count: 1\n",
			"f.yaml:4: overrides[0].burst: 2 is below the cost 3 of clients[0]"},
		{"contention runs", "contention:\n  clients: [10]\n  runs: 1000000000\n", "f.yaml:3: contention.runs: must be at most 1000000, got 1000000000"},
		{"contention hop", "contention:\n  clients: [10]\n  hop: 2h\n", "f.yaml:3: contention.hop: must be at most 1h0m0s, got 2h0m0s"},
		{"a duration past 100 years", "duration: 2500000h\n" + clients, `f.yaml:1: duration: "2500000h" is more than 100 years (876000h), the longest a scenario may state`},
		{"a rate period past 100 years", "clients:\n  - arrivals:\n      - kind: constant\n        rate: 1/900000h\n", `f.yaml:4: clients[0].arrivals[0].rate: "1/900000h" has a period of more than 100 years`},
		{"duration and drain past 100 years", "duration: 525600h\ndrain: 438000h\n" + clients, "f.yaml:2: drain: duration + drain (by default the duration again) must be at most 100 years (876000h), got 963600h0m0s"},
		{"a required field left empty", "clients:\n  - arrivals:\n      - kind: burst\n        count: 1\nbackend:\n  service:\n    mean:\n", "f.yaml:7: backend.service.mean: is empty, and it is required (mean service time)"},
		{"huge limit", "limits:\n  - limit: 2000000000\n" + clients, "f.yaml:2: limits[0]: sliding log: limit 2000000000 is above"},
		{"negative limit_index", "overrides:\n  - lane: gcra\n    limit_index: -1\n    limit: 10\n" + clients, "f.yaml:3: overrides[0].limit_index: must not be negative, got -1"},
		{"limit_index past int32", "overrides:\n  - lane: gcra\n    limit_index: -9223372036854775808\n    limit: 10\n" + clients, "f.yaml:3: overrides[0].limit_index: must not be negative"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("f.yaml", []byte(tc.src))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Parse = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestParseRefusesAnOversizedFile(t *testing.T) {
	data := bytes.Repeat([]byte("#"), MaxFileSize+1)
	_, err := Parse("big.yaml", data)
	if err == nil || err.Error() != "big.yaml: larger than 10 MB, the most a scenario file may hold" {
		t.Errorf("Parse = %v", err)
	}
	if _, err := Parse("ok.yaml", append(bytes.Repeat([]byte("#"), MaxFileSize-100), "\nclients: [{arrivals: [{kind: burst, count: 1}]}]\n"...)); err != nil {
		t.Errorf("a file just under the cap: %v", err)
	}
}

// TestDocsStateTheCaps keeps the caps docs/scenarios.md states equal to the ones
// sim and this package enforce.
func TestDocsStateTheCaps(t *testing.T) {
	doc, err := os.ReadFile("../docs/scenarios.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		fmt.Sprintf("at most %d MB, refused before it is parsed", MaxFileSize>>20),
		fmt.Sprintf("at most 100 years (%s)", strings.TrimSuffix(sim.MaxTime.String(), "0m0s")),
		fmt.Sprintf("clients, all groups together: at most %d", sim.MaxClients),
		fmt.Sprintf("(`duration` + `drain`) / `bucket`: at most %d", sim.MaxBuckets),
		fmt.Sprintf("a backend `queue`: at most %d; its `changes`: at most %d", sim.MaxQueue, sim.MaxChanges),
		fmt.Sprintf("at most %d replicas at any time; with several, each limit's replicas × keys at most %d per-replica states; its `autoscaler` steps and its store's `outages`: at most %d each",
			sim.MaxReplicas, sim.MaxReplicaStates, sim.MaxChanges),
		fmt.Sprintf("a synced limit's `sync_interval` at least %v", sim.MinSyncInterval),
		fmt.Sprintf("a `breaker`'s `failures` and `probes` at most %d each; a `lease` at most %d", sim.MaxBreakerCalls, int64(sim.MaxLease)),
		fmt.Sprintf("a store's `changes` at most %d, its `shards` at most %d, its `capacity` at most %d calls per second, its `queue_limit` at most %d",
			sim.MaxChanges, sim.MaxShards, int64(sim.MaxStoreCapacity), sim.MaxStoreQueue),
		fmt.Sprintf("at most %d clients per count, `runs` at most %d", contention.MaxClients, contention.MaxRuns),
		fmt.Sprintf("`hop_stddev` at most %s each", strings.TrimSuffix(contention.MaxTime.String(), "0m0s")),
	} {
		if !strings.Contains(strings.Join(strings.Fields(string(doc)), " "), want) {
			t.Errorf("docs/scenarios.md does not say %q", want)
		}
	}
}
