package report

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// successCounter counts each lane's and class's successes in the trace.
type successCounter map[string]int64

func (s successCounter) Record(r *sim.TraceRecord) error {
	if r.Event == sim.TraceSuccess {
		s[r.LaneName+"/"+r.Class]++
	}
	return nil
}

// incident-0341's comparison of its contract lane with the as-deployed
// lane, recomputed: each class's requests served from the trace, the
// attempts let through, the store calls and the replicas out from the JSON.
func TestContractFindingIsRecomputedFromTheTraceAndJSON(t *testing.T) {
	s, err := scenarios.LoadBuiltin("incident-0341")
	if err != nil {
		t.Fatal(err)
	}
	served := successCounter{}
	r, err := sim.Run(context.Background(), *s.Config, sim.Options{Trace: served})
	if err != nil {
		t.Fatal(err)
	}
	o := Run{Scenario: s, Result: &r}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, []Run{o}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Runs []struct {
			Lanes []struct {
				Name     string `json:"lane"`
				Topology struct {
					StoreCalls int64 `json:"store_calls"`
					Limits     []struct {
						Outage []struct {
							Admitted int64 `json:"admitted"`
						} `json:"outage_classes"`
					} `json:"limits"`
					Health struct {
						Removals int `json:"removals"`
					} `json:"health"`
				} `json:"topology"`
			} `json:"lanes"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Runs) != 1 || len(doc.Runs[0].Lanes) != 2 {
		t.Fatalf("JSON: %d runs, want 1 of 2 lanes:\n%.400s", len(doc.Runs), buf.String())
	}
	lanes := doc.Runs[0].Lanes
	var finding string
	for _, f := range o.Findings() {
		if strings.HasPrefix(f, "contract beside as-deployed, on the same traffic: ") {
			finding = f
		}
	}
	if finding == "" {
		t.Fatalf("no finding compares the contract with as-deployed:\n%s", strings.Join(o.Findings(), "\n"))
	}
	num := func(s string) int64 { n, _ := strconv.ParseInt(s, 10, 64); return n }
	for _, m := range regexp.MustCompile(`(\w+) served \d+% \((\d+) of \d+ requests\) against \d+% \((\d+)\)`).FindAllStringSubmatch(finding, -1) {
		if got, want := num(m[2]), served["contract/"+m[1]]; got != want {
			t.Errorf("%s served %d under the contract, the trace %d", m[1], got, want)
		}
		if got, want := num(m[3]), served["as-deployed/"+m[1]]; got != want {
			t.Errorf("%s served %d as deployed, the trace %d", m[1], got, want)
		}
	}
	letThrough := func(i int) (n int64) {
		for _, l := range lanes[i].Topology.Limits {
			for _, c := range l.Outage {
				n += c.Admitted
			}
		}
		return n
	}
	for _, c := range []struct {
		re        string
		con, base int64
	}{
		{`(\d+) attempts let through while a store was unavailable against (\d+)`, letThrough(1), letThrough(0)},
		{`(\d+) store calls against (\d+)`, lanes[1].Topology.StoreCalls, lanes[0].Topology.StoreCalls},
		{`out of the rotation (\d+) times against (\d+)`, int64(lanes[1].Topology.Health.Removals), int64(lanes[0].Topology.Health.Removals)},
	} {
		m := regexp.MustCompile(c.re).FindStringSubmatch(finding)
		if m == nil || num(m[1]) != c.con || num(m[2]) != c.base {
			t.Errorf("%q in %q: want %d against %d", c.re, finding, c.con, c.base)
		}
	}
	if served["contract/members"] <= served["as-deployed/members"] || letThrough(1) >= letThrough(0) {
		t.Errorf("the contract served members %d (as deployed %d), let through %d (%d): the finding compares nothing",
			served["contract/members"], served["as-deployed/members"], letThrough(1), letThrough(0))
	}
}

// The named stores example of docs/scenarios.md: in the two-stores lane the
// attack saturates store abuse alone, and the phases name it (every failing
// phase on a shard of abuse, by the lane's shards); the one-store lane's
// phases name the store as before, shard numbers and store names absent.
func TestPhasesNameTheirStore(t *testing.T) {
	doc, err := os.ReadFile("../docs/scenarios.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```yaml\n(description: one store for everything beside a separate store for login.*?)```").FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/scenarios.md has no named stores example")
	}
	o, _ := runYAML(t, string(m[1]))
	two := o.Result.Lanes[1]
	failing := 0
	for _, p := range two.Topology.Phases {
		if p.Kind == sim.PhaseStoreTimeouts || p.Kind == sim.PhaseStoreRefusing {
			failing++
			if p.Shard < 0 || p.Shard >= len(two.Topology.Shards) || two.Topology.Shards[p.Shard].Store != "abuse" {
				t.Errorf("two-stores: %v on shard %d, not abuse's (%+v)", p.Kind, p.Shard, two.Topology.Shards)
			}
		}
	}
	fs := strings.Join(o.Findings(), "\n")
	if failing == 0 || !strings.Contains(fs, "under two-stores, in order: t=") || !strings.Contains(fs, "calls to store abuse timing out") {
		t.Errorf("%d failing phases; findings:\n%s", failing, fs)
	}
	if !strings.Contains(fs, "under one-store, in order: t=") || !strings.Contains(fs, "calls to the store timing out") || strings.Contains(fs, "shard 0") {
		t.Errorf("the one-store lane's phases are not told as before:\n%s", fs)
	}
}
