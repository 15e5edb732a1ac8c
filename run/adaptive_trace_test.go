package run

import (
	"context"
	"encoding/csv"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// traceRows runs the built-in scenario name with a CSV trace and returns the
// result and the trace's rows as column → value maps.
func traceRows(t *testing.T, name string, sets ...string) (sim.Result, []map[string]string) {
	t.Helper()
	ss, err := ParseSets(sets)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := Load(name, ss...)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "t.csv")
	tr, err := CreateTrace(path)
	if err != nil {
		t.Fatal(err)
	}
	o, err := Scenario(context.Background(), sc, Options{Trace: tr})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Commit(); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	all, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var rows []map[string]string
	for _, rec := range all[1:] {
		m := map[string]string{}
		for i, col := range all[0] {
			m[col] = rec[i]
		}
		rows = append(rows, m)
	}
	return *o.Result, rows
}

// TestTraceNamesTheReplicaOfEveryAttempt: with a topology every record of an
// attempt that reached a replica (all but a client's own drop) names it, within
// the fleet; without one, none does.
func TestTraceNamesTheReplicaOfEveryAttempt(t *testing.T) {
	short := map[string][]string{ // 3 seconds of each, its events moved into them
		"multi-replica-trap": nil,
		"store-outage":       {"topology.store.outages[0].from=1s", "topology.store.outages[0].to=2s"},
		"autoscaler-attack":  {"topology.autoscaler[0].at=1s", "clients[1].arrivals[0].start=500ms"},
		"synced-counting":    nil,
		"racy-store":         nil,
	}
	for name, sets := range short {
		t.Run(name, func(t *testing.T) {
			res, rows := traceRows(t, name, append(sets, "duration=3s")...)
			if len(rows) == 0 {
				t.Fatal("empty trace")
			}
			fleet := 0
			for _, s := range res.Topology.Replicas {
				fleet = max(fleet, s.Count)
			}
			seen := map[string]bool{}
			for i, r := range rows {
				if r["event"] == "drop" {
					continue
				}
				if n, err := strconv.Atoi(r["replica"]); err != nil || n < 0 || n >= fleet {
					t.Fatalf("row %d (%s %s): replica %q, want one of the %d", i+2, r["lane"], r["event"], r["replica"], fleet)
				}
				seen[r["replica"]] = true
			}
			if len(seen) < 2 {
				t.Errorf("the trace names %d replicas of %d", len(seen), fleet)
			}
		})
	}
	_, rows := traceRows(t, "demo")
	for i, r := range rows {
		if r["replica"] != "" {
			t.Fatalf("row %d: replica %q without a topology, want empty", i+2, r["replica"])
		}
	}
}

// TestAdaptiveStateIsTheTraces recomputes each adaptive lane's JSON state from
// the trace: AIMD's and Vegas's limit at each bucket's end, its lowest and the
// most in flight; the throttle's mean and highest drop probability over the
// send decisions. And AIMD, on downstream-slowdown, cuts its limit.
func TestAdaptiveStateIsTheTraces(t *testing.T) {
	res, rows := traceRows(t, "downstream-slowdown", "lanes=[token_bucket, aimd, vegas, gradient2, client_throttle]",
		"aimd.initial=12", "vegas.initial=15", "gradient2.initial=17")
	byLane := map[string][]map[string]string{}
	for _, r := range rows {
		byLane[r["lane"]] = append(byLane[r["lane"]], r)
	}
	num := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		return v
	}
	checked := map[sim.LaneKind]bool{}
	for _, l := range res.Lanes {
		lrows := byLane[l.Name]
		switch l.Lane {
		case sim.LaneAIMD, sim.LaneVegas, sim.LaneGradient2:
		case sim.LaneClientThrottle:
		default:
			if l.Adaptive != nil {
				t.Errorf("%s: adaptive state, want none", l.Name)
			}
			for _, r := range lrows {
				if r["concurrency_limit"] != "" || r["in_flight"] != "" || r["drop_probability"] != "" {
					t.Fatalf("%s: adaptive columns %v, want empty", l.Name, r)
				}
			}
			continue
		}
		if l.Adaptive == nil || len(l.Adaptive.Points) != len(l.Series) {
			t.Fatalf("%s: adaptive state %v, want one point per series bucket (%d)", l.Name, l.Adaptive, len(l.Series))
		}
		checked[l.Lane] = true
		want := make([]sim.AdaptivePoint, len(l.Series))
		bucket := func(r map[string]string) int { return int(time.Duration(num(r["at_ns"])) / res.Bucket) }
		if l.Lane == sim.LaneClientThrottle {
			sum := make([]float64, len(want))
			for _, r := range lrows {
				switch r["event"] {
				case "drop", "admit", "delay", "refuse":
					p, i := num(r["drop_probability"]), bucket(r)
					want[i].Decisions++
					sum[i] += p
					want[i].DropProbabilityMax = max(want[i].DropProbabilityMax, p)
				default:
					if r["drop_probability"] != "" {
						t.Fatalf("%s %s: drop_probability %q, want empty", l.Name, r["event"], r["drop_probability"])
					}
				}
			}
			for i, got := range l.Adaptive.Points {
				if want[i].Decisions > 0 {
					want[i].DropProbability = sum[i] / float64(want[i].Decisions)
				}
				if got.Decisions != want[i].Decisions || math.Abs(got.DropProbability-want[i].DropProbability) > 1e-12 || got.DropProbabilityMax != want[i].DropProbabilityMax {
					t.Fatalf("%s bucket %d: JSON %+v, trace %+v", l.Name, i, got, want[i])
				}
			}
			continue
		}
		limit := map[sim.LaneKind]float64{sim.LaneAIMD: 12, sim.LaneVegas: 15, sim.LaneGradient2: 17}[l.Lane] // as set
		in, next := 0, 0
		for i := range want {
			want[i] = sim.AdaptivePoint{Limit: limit, LimitMin: limit, InFlightMax: in}
			for ; next < len(lrows) && bucket(lrows[next]) == i; next++ {
				limit, in = num(lrows[next]["concurrency_limit"]), int(num(lrows[next]["in_flight"]))
				want[i].Limit, want[i].LimitMin, want[i].InFlightMax = limit, min(want[i].LimitMin, limit), max(want[i].InFlightMax, in)
			}
			got := l.Adaptive.Points[i]
			if got.Limit != want[i].Limit || got.LimitMin != want[i].LimitMin || got.InFlightMax != want[i].InFlightMax {
				t.Fatalf("%s bucket %d: JSON limit %v (lowest %v), in flight %d; trace %v (lowest %v), %d", l.Name, i,
					got.Limit, got.LimitMin, got.InFlightMax, want[i].Limit, want[i].LimitMin, want[i].InFlightMax)
			}
		}
		if l.Lane == sim.LaneAIMD && !cutIts(l.Adaptive.Points) {
			t.Errorf("%s: the limit never fell below the one before; the scenario says AIMD cuts it", l.Name)
		}
	}
	if len(checked) != 4 {
		t.Errorf("checked %v, want aimd, vegas, gradient2 and client_throttle", checked)
	}
}

// cutIts reports whether a concurrency limit fell: a bucket's lowest below the
// limit at the end of the bucket before.
func cutIts(pts []sim.AdaptivePoint) bool {
	for i := 1; i < len(pts); i++ {
		if pts[i].LimitMin < pts[i-1].Limit {
			return true
		}
	}
	return false
}

// TestGradient2LaneIsTheAlgorithmOnItsTrace replays the gradient2 lane's trace
// through algorithms.Gradient2 (admit: Acquire; success: Release with the
// latency; a shed of an admitted request: Release with none) and requires the
// limit and the requests in flight the trace printed after every event. On
// downstream-slowdown the slowdown then cuts the limit, and the recovery grows it.
func TestGradient2LaneIsTheAlgorithmOnItsTrace(t *testing.T) {
	_, rows := traceRows(t, "downstream-slowdown", "lanes=[gradient2]", "gradient2.initial=17", "gradient2.min=2")
	g, err := algorithms.NewGradient2(algorithms.Gradient2Config{Initial: 17, Min: 2})
	if err != nil {
		t.Fatal(err)
	}
	lowest, highest := 17.0, 17.0
	for i, r := range rows {
		switch r["event"] {
		case "admit":
			if !g.Acquire(0) {
				t.Fatalf("row %d: the lane admitted with %d in flight at limit %v", i+2, g.InFlight(), g.Limit())
			}
		case "success":
			lat, _ := strconv.ParseInt(r["latency_ns"], 10, 64)
			g.Release(0, time.Duration(lat))
		case "shed":
			if r["concurrency_limit"] != "" && g.InFlight() > 0 && strconv.Itoa(g.InFlight()-1) == r["in_flight"] {
				g.Release(0, 0) // admitted, then shed by the backend's full queue
			}
		}
		limit, _ := strconv.ParseFloat(r["concurrency_limit"], 64)
		if math.Abs(limit-g.Limit()) > 1e-9*g.Limit() || r["in_flight"] != strconv.Itoa(g.InFlight()) {
			t.Fatalf("row %d (%s): the trace says limit %s, %s in flight; the algorithm %v, %d", i+2, r["event"],
				r["concurrency_limit"], r["in_flight"], g.Limit(), g.InFlight())
		}
		lowest, highest = min(lowest, g.Limit()), max(highest, g.Limit())
	}
	if lowest >= 17 || highest <= 17 {
		t.Errorf("the limit ranged over [%v, %v]: want it cut below and grown above its initial 17", lowest, highest)
	}
}

// TestTraceNamesTheShard: on hot-key-shard (4 shards) every record names the
// shard of its client's keys, by the docs' rule (FNV-1a of the key, modulo 4):
// the scraper's on one shard, the members spread over several; a store of
// one shard names none.
func TestTraceNamesTheShard(t *testing.T) {
	_, rows := traceRows(t, "hot-key-shard", "duration=1s")
	members := map[string]bool{}
	for i, r := range rows {
		h := fnv.New64a()
		h.Write([]byte(r["key"]))
		if want := strconv.FormatUint(h.Sum64()%4, 10); r["shard"] != want {
			t.Fatalf("row %d (%s, key %s): shard %q, want %s", i+2, r["class"], r["key"], r["shard"], want)
		}
		if r["class"] == "members" {
			members[r["shard"]] = true
		}
	}
	if len(rows) == 0 || len(members) < 2 {
		t.Errorf("%d rows; members on shards %v, want several", len(rows), members)
	}
	_, rows = traceRows(t, "store-outage", "duration=2s")
	for i, r := range rows {
		if r["shard"] != "" {
			t.Fatalf("row %d: shard %q with a store of one shard, want empty", i+2, r["shard"])
		}
	}
}
