package report

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// traceLog keeps every trace record of a run.
type traceLog []sim.TraceRecord

func (t *traceLog) Record(r *sim.TraceRecord) error { *t = append(*t, *r); return nil }

// runYAML runs a scenario written inline, with its trace.
func runYAML(t *testing.T, src string) (Run, traceLog) {
	t.Helper()
	s, err := scenarios.Parse("topology.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var log traceLog
	r, err := sim.Run(context.Background(), *s.Config, sim.Options{Trace: &log})
	if err != nil {
		t.Fatal(err)
	}
	return Run{Scenario: s, Result: &r}, log
}

// The scenarios of the topology tests: lanes whose admissions the trace times
// exactly (no leaky queue, no client gate), so peaks can be recounted from it.
const (
	localFleet = `
duration: 20s
lanes: [fixed_window, sliding_log, token_bucket, gcra]
limits:
  - name: per-user
    key: user
    limit: 10
    window: 1s
topology:
  replicas: 2
  autoscaler:
    - at: 10s
      count: 8
clients:
  - name: scraper
    arrivals:
      - kind: constant
        rate: 200/s
`
	storeOutage = `
duration: 30s
lanes: [fixed_window, sliding_log, token_bucket, gcra]
limits:
  - name: login
    key: ip
    limit: 5
    window: 1s
    state: shared
    on_store_error: %s
topology:
  replicas: 4
  store:
    outages:
      - from: 10s
        to: 20s
clients:
  - name: users
    count: 20
    identity:
      ip: 10.0.0.{i}
    arrivals:
      - kind: poisson
        rate: 1/2s
  - name: attacker
    identity:
      ip: 6.6.6.6
    arrivals:
      - kind: constant
        rate: 100/s
`
	racyStore = `
duration: 10s
lanes: [fixed_window, sliding_log, token_bucket, gcra]
limits:
  - name: search
    key: global
    limit: 50
    window: 1s
    state: shared
topology:
  replicas: 8
  store:
    latency:
      mean: 20ms
    atomic: false
clients:
  - name: users
    count: 40
    arrivals:
      - kind: poisson
        rate: 5/s
`
	syncedFleet = `
duration: 10s
lanes: [fixed_window, sliding_log, token_bucket, gcra]
limits:
  - name: api
    key: global
    limit: 100
    window: 1s
    state: synced
    sync_interval: %s
topology:
  replicas: 4
clients:
  - name: users
    count: 40
    arrivals:
      - kind: poisson
        rate: 5/s
`
)

// admitsOf is, per lane, the times of its admissions of key (all keys when "").
func admitsOf(log traceLog, key string) map[sim.LaneKind][]time.Duration {
	out := map[sim.LaneKind][]time.Duration{}
	for _, r := range log {
		if r.Event == sim.TraceAdmit && (key == "" || r.Key == key) {
			out[r.Lane] = append(out[r.Lane], r.At)
		}
	}
	return out
}

// mostInWindow is the most of times (sorted) in any [t, t+w).
func mostInWindow(times []time.Duration, w time.Duration) int64 {
	var best int64
	j := 0
	for i := range times {
		for j < len(times) && times[j] < times[i]+w {
			j++
		}
		best = max(best, int64(j-i))
	}
	return best
}

// laneNamed is the lanes a finding names after "under ", up to the first comma
// that ends the list.
func lanesNamed(r sim.Result, f string) []sim.LaneResult {
	var out []sim.LaneResult
	head, _, _ := strings.Cut(strings.TrimPrefix(f, "under "), ", with")
	head, _, _ = strings.Cut(head, ", while")
	for _, l := range r.Lanes {
		if strings.Contains(head, fleetLaneName(l)) {
			out = append(out, l)
		}
	}
	return out
}

func findingsWith(o Run, part string) []string {
	var out []string
	for _, f := range o.Findings() {
		if strings.Contains(f, part) {
			out = append(out, f)
		}
	}
	return out
}

func atoi(t *testing.T, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// "with 8 local replicas ... the fleet admitted N× the limit: C in the window
// from t=S (key K)": C is recounted from the trace, the fleet had 8 replicas
// then, and no replica went over the figure the sentence gives.
func TestLocalReplicasFinding(t *testing.T) {
	o, log := runYAML(t, localFleet)
	re := regexp.MustCompile(`with (\d+) local replicas each counting it alone the fleet admitted ([\d.]+)× the per-user limit of 10: (\d+) in the 1s window from t=(\S+) \(key (\S+)\)`)
	fs := findingsWith(o, "local replicas")
	if len(fs) == 0 {
		t.Fatalf("no finding on local replicas in %q", o.Findings())
	}
	seen := 0
	for _, f := range fs {
		m := re.FindStringSubmatch(f)
		if m == nil {
			t.Fatalf("finding %q does not read as expected", f)
		}
		times := admitsOf(log, m[5])
		for _, l := range lanesNamed(*o.Result, f) {
			seen++
			got := mostInWindow(times[l.Lane], time.Second)
			if want := atoi(t, m[3]); got != want {
				t.Errorf("%s: the trace has at most %d admitted in a window, the finding says %d: %q", l.Lane.Title(), got, want, f)
			}
			if got <= 10 {
				t.Errorf("%s: the finding says the fleet went over the limit, the trace has %d", l.Lane.Title(), got)
			}
			lt := l.Topology.Limits[0]
			if n := replicasDuring(o.topology(), lt.Fleet.Start, lt.Fleet.End); strconv.Itoa(n) != m[1] {
				t.Errorf("%s: %d replicas in the peak's window, the finding says %s", l.Lane.Title(), n, m[1])
			}
			if strings.Contains(f, "no single replica admitted more than") && lt.Replica.Count >= got {
				t.Errorf("%s: the busiest replica's %d is not below the fleet's %d", l.Lane.Title(), lt.Replica.Count, got)
			}
		}
	}
	if seen != len(o.Result.Lanes) {
		t.Errorf("the findings name %d lanes, want all %d", seen, len(o.Result.Lanes))
	}
}

// The autoscaler's step is told, and after it the fleet admits more in a
// window than it did before: the limit loosened.
func TestAutoscalerFinding(t *testing.T) {
	o, log := runYAML(t, localFleet)
	want := "at t=10s the autoscaler grew the fleet from 2 to 8 replicas, each enforcing the whole of per-user on its own: the fleet may now admit 8 times what one replica may, not 2"
	if fs := findingsWith(o, "autoscaler"); len(fs) != 1 || fs[0] != want {
		t.Fatalf("autoscaler findings %q, want %q", fs, want)
	}
	for lane, times := range admitsOf(log, "") {
		var before, after []time.Duration
		for _, at := range times {
			if at < 10*time.Second {
				before = append(before, at)
			} else {
				after = append(after, at)
			}
		}
		b, a := mostInWindow(before, time.Second), mostInWindow(after, time.Second)
		if a < 3*b {
			t.Errorf("%s: at most %d in a window before the step, %d after: the limit did not loosen as said", lane.Title(), b, a)
		}
	}
}

// "while the store was unavailable (down 10s), login failed open: attacker made
// A attempts and B got through": A and B are recounted from the trace, as the
// attempts decided in the outage and those admitted; failing closed admits none
// and failing to a local limit admits at most the fallback on each replica.
func TestOutageFinding(t *testing.T) {
	for _, tc := range []struct {
		mode, how string
		most      func(decided int64) int64 // the most that may get through
	}{
		{"open", "failed open", func(d int64) int64 { return d }},
		{"closed", "failed closed", func(int64) int64 { return 0 }},
		{"local", "fell back to 2 per 1s on each replica", func(d int64) int64 { return 4 * 2 * 10 * 2 }},
		// Divided over the replicas: the fleet's 8 a second, 2 on each of 4.
		{"divided", "fell back to 8 per 1s divided over the replicas", func(d int64) int64 { return 8 * 10 * 2 }},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			mode := tc.mode
			switch mode {
			case "local":
				mode += "\n    fallback:\n      limit: 2"
			case "divided":
				mode = "local\n    fallback:\n      limit: 8\n      divided: true"
			}
			o, log := runYAML(t, fmt.Sprintf(storeOutage, mode))
			fs := findingsWith(o, "while the store was unavailable (down 10s), login "+tc.how+": ")
			if len(fs) == 0 {
				t.Fatalf("no outage finding in %q", o.Findings())
			}
			type counts struct{ decided, through int64 }
			recount := map[sim.LaneKind]map[string]*counts{}
			for _, r := range log {
				if r.At < 10*time.Second || r.At >= 20*time.Second || r.Event == sim.TraceSuccess {
					continue
				}
				if recount[r.Lane] == nil {
					recount[r.Lane] = map[string]*counts{"users": {}, "attacker": {}}
				}
				c := recount[r.Lane][r.Class]
				c.decided++
				if r.Event == sim.TraceAdmit {
					c.through++
				}
			}
			re := regexp.MustCompile(`(\w+) made (\d+) attempts and (\d+) got through`)
			named := 0
			for _, f := range fs {
				for _, l := range lanesNamed(*o.Result, strings.SplitN(f, ", while", 2)[0]) {
					named++
					for _, m := range re.FindAllStringSubmatch(f, -1) {
						c := recount[l.Lane][m[1]]
						if c.decided != atoi(t, m[2]) || c.through != atoi(t, m[3]) {
							t.Errorf("%s %s: the trace has %d attempts, %d through; the finding %q", l.Lane.Title(), m[1], c.decided, c.through, f)
						}
						if c.through > tc.most(c.decided) {
							t.Errorf("%s %s: %d got through failing %s, at most %d may", l.Lane.Title(), m[1], c.through, tc.mode, tc.most(c.decided))
						}
					}
				}
			}
			if named != len(o.Result.Lanes) {
				t.Errorf("the findings name %d lanes, want %d", named, len(o.Result.Lanes))
			}
		})
	}
}

// A read-then-write store over-admits; the finding's count is the trace's.
func TestRacyFinding(t *testing.T) {
	o, log := runYAML(t, racyStore)
	fs := findingsWith(o, "read-then-write")
	if len(fs) == 0 {
		t.Fatalf("no finding on the racy store in %q", o.Findings())
	}
	re := regexp.MustCompile(`search was over-admitted across the fleet: (\d+) in the 1s window .*, [\d.]+× its limit of 50, (\d+) more than one exact limiter admitted in any window on the same attempts \((\d+)\)`)
	times := admitsOf(log, "")
	p := o.Result.Limits[0].Policy
	for _, f := range fs {
		m := re.FindStringSubmatch(f)
		if m == nil {
			t.Fatalf("finding %q does not read as expected", f)
		}
		for _, l := range lanesNamed(*o.Result, f) {
			got := mostInWindow(times[l.Lane], time.Second)
			// Constant round trips of 20ms: the store decided each attempt 30ms before its answer was back.
			exact := mostInWindow(exactAdmits(t, log, l.Lane, p, -30*time.Millisecond), time.Second)
			if got != atoi(t, m[1]) || exact != atoi(t, m[3]) || got-exact != atoi(t, m[2]) {
				t.Errorf("%s: the trace has at most %d in a window, an exact limiter %d; the finding %q", l.Lane.Title(), got, exact, f)
			}
		}
	}
	// The same fleet with an atomic store: no such finding.
	atomic, _ := runYAML(t, strings.Replace(racyStore, "atomic: false", "atomic: true", 1))
	if fs := findingsWith(atomic, "read-then-write"); len(fs) > 0 {
		t.Errorf("an atomic store is said to be read-then-write: %q", fs)
	}
}

// Synced counting: the overshoot said is the trace's, and the store calls are
// one per replica per sync.
func TestSyncedFinding(t *testing.T) {
	re := regexp.MustCompile(`api, synced every (\S+) for (\d+) store calls, (?:overshot by (\d+): (\d+) in .* one exact limiter admitted at most (\d+) in any window on the same attempts \(limit 100\)|held exactly: at most (\d+) in .*on the same attempts \((\d+)\))`)
	for _, every := range []string{"100ms", "1s"} {
		interval, _ := time.ParseDuration(every)
		o, log := runYAML(t, fmt.Sprintf(syncedFleet, every))
		times := admitsOf(log, "")
		fs := findingsWith(o, "synced every")
		if len(fs) == 0 {
			t.Fatalf("%s: no synced finding in %q", every, o.Findings())
		}
		for _, f := range fs {
			m := re.FindStringSubmatch(f)
			if m == nil || m[1] != every {
				t.Fatalf("finding %q does not read as expected", f)
			}
			for _, l := range lanesNamed(*o.Result, strings.SplitN(f, ", api", 2)[0]) {
				got := mostInWindow(times[l.Lane], time.Second)
				// A synced limit decides at the attempt: the trace's instant.
				exact := mostInWindow(exactAdmits(t, log, l.Lane, o.Result.Limits[0].Policy, 0), time.Second)
				switch {
				case m[3] != "" && (got != atoi(t, m[4]) || exact != atoi(t, m[5]) || got-exact != atoi(t, m[3]) || got <= exact):
					t.Errorf("%s: the trace has %d in a window, an exact limiter %d; the finding %q", l.Lane.Title(), got, exact, f)
				case m[6] != "" && (got != atoi(t, m[6]) || exact != atoi(t, m[7]) || got > exact):
					t.Errorf("%s: the trace has %d in a window, an exact limiter %d; the finding %q", l.Lane.Title(), got, exact, f)
				}
				// Each of the 4 replicas calls the store at every sync, from
				// one interval on to the end of the drain (as long as the traffic).
				if syncs := int64(20 * time.Second / interval); atoi(t, m[2]) != 4*syncs {
					t.Errorf("%s: %s store calls, want 4 replicas × %d syncs every %s", l.Lane.Title(), m[2], syncs, every)
				}
			}
		}
	}
}

// A run in a topology shows its columns, tables, JSON and CSV fields; a run
// without one shows none of them.
func TestTopologyShownOnlyWithTopology(t *testing.T) {
	plain, _ := runYAML(t, strings.Replace(localFleet, "topology:\n  replicas: 2\n  autoscaler:\n    - at: 10s\n      count: 8\n", "", 1))
	topo, _ := runYAML(t, fmt.Sprintf(storeOutage, "open"))
	for _, tc := range []struct {
		name string
		run  Run
		want bool
	}{{"plain", plain, false}, {"topology", topo, true}} {
		t.Run(tc.name, func(t *testing.T) {
			var table, js, cs bytes.Buffer
			if err := WriteTable(&table, []Run{tc.run}); err != nil {
				t.Fatal(err)
			}
			for _, s := range []string{"replicas", "store p99", "limits across the fleet", "while the store was unavailable"} {
				if strings.Contains(table.String(), s) != tc.want {
					t.Errorf("table shows %q: %v, want %v", s, !tc.want, tc.want)
				}
			}
			if err := WriteJSON(&js, []Run{tc.run}); err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Runs []struct {
					Topology *json.RawMessage `json:"topology"`
					Lanes    []struct {
						Topology *jsonTopology `json:"topology"`
					} `json:"lanes"`
				} `json:"runs"`
			}
			if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			if (doc.Runs[0].Topology != nil) != tc.want || (doc.Runs[0].Lanes[0].Topology != nil) != tc.want {
				t.Errorf("JSON has a topology: %v, want %v", doc.Runs[0].Topology != nil, tc.want)
			}
			if err := WriteCSV(&cs, []Run{tc.run}); err != nil {
				t.Fatal(err)
			}
			rows, err := csv.NewReader(&cs).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(strings.Join(rows[0], ","), "store_calls"); got != tc.want {
				t.Errorf("CSV has store_calls: %v, want %v", got, tc.want)
			}
			if tc.want {
				checkCSVTopology(t, rows, tc.run)
			}
			var hp htmlPageData
			tc.run.kind().fillPage(&hp)
			if (len(hp.Tables) == 2) != tc.want || (len(hp.Tables) == 0) == tc.want {
				t.Errorf("the page has %d topology tables, want them: %v", len(hp.Tables), tc.want)
			}
		})
	}
}

// checkCSVTopology holds the CSV's outage columns to the JSON's figures: the
// lane's row sums its classes.
func checkCSVTopology(t *testing.T, rows [][]string, o Run) {
	t.Helper()
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	lane := rows[1]
	lt := o.Result.Lanes[0].Topology.Limits[0]
	if got, want := lane[col["store_down_open"]], strconv.FormatInt(lt.Unavailable.Open, 10); got != want {
		t.Errorf("store_down_open %s, want %s", got, want)
	}
	var sum int64
	for i, c := range lt.Classes {
		row := rows[2+i]
		if got, want := row[col["store_down_admitted"]], strconv.FormatInt(c.Admitted, 10); got != want {
			t.Errorf("class %s store_down_admitted %s, want %s", c.Name, got, want)
		}
		sum += c.Admitted
	}
	if got := lane[col["store_down_admitted"]]; got != strconv.FormatInt(sum, 10) {
		t.Errorf("lane store_down_admitted %s, want the classes' sum %d", got, sum)
	}
}

// The timelines (PNG and HTML) name the outages and the autoscaler's steps
// exactly when the topology has them.
func TestTimelinesMarkTopology(t *testing.T) {
	for _, tc := range []struct {
		name              string
		src               string
		outages, replicas bool
	}{
		{"outage", fmt.Sprintf(storeOutage, "open"), true, false},
		{"autoscaler", localFleet, false, true},
		{"neither", racyStore, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := scenarios.Parse("topology.yaml", []byte(tc.src))
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
			labels := map[string]bool{}
			for _, e := range f.Legend {
				labels[e.Label] = true
			}
			if labels["store down"] != tc.outages || labels["replicas change"] != tc.replicas {
				t.Errorf("PNG legend %v: want store down %v, replicas change %v", labels, tc.outages, tc.replicas)
			}
			if _, err := f.PNG(); err != nil {
				t.Fatal(err)
			}
			var hp htmlPageData
			o.kind().fillPage(&hp)
			tj := hp.Data.Timeline
			if (len(tj.Outages) > 0) != tc.outages || (len(tj.Replicas) > 0) != tc.replicas {
				t.Errorf("HTML timeline outages %v, replicas %v", tj.Outages, tj.Replicas)
			}
			for i, o := range s.Config.Topology.Store.Outages {
				if tj.Outages[i] != (spanJSON{us(o.From), us(o.To)}) {
					t.Errorf("outage %d drawn as %v, want %v", i, tj.Outages[i], o)
				}
			}
		})
	}
}

// The outputs of a built-in in a topology, as golden files: the table with its
// topology tables and findings, and the CSV with its topology columns.
func TestTopologyOutputGolden(t *testing.T) {
	s, err := scenarios.LoadBuiltin("store-outage")
	if err != nil {
		t.Fatal(err)
	}
	r, err := sim.Run(context.Background(), *s.Config, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	runs := []Run{{Scenario: s, Result: &r}}
	for _, tc := range []struct {
		golden string
		write  func(*bytes.Buffer) error
	}{
		{"run_topology_table.golden", func(b *bytes.Buffer) error { return WriteTable(b, runs) }},
		{"run_topology_table_80.golden", func(b *bytes.Buffer) error { return WriteTableFit(b, runs, 80) }},
		{"run_topology_csv.golden", func(b *bytes.Buffer) error { return WriteCSV(b, runs) }},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.write(&b); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, tc.golden, b.Bytes())
		})
	}
}

// A lane's verdict tells its topology in the result's own figures, and a lane
// without one says nothing of replicas.
func TestFleetVerdict(t *testing.T) {
	o, _ := runYAML(t, fmt.Sprintf(storeOutage, "open"))
	r := *o.Result
	for _, l := range r.Lanes {
		v := laneVerdict(r, l).Text
		lt := l.Topology.Limits[0]
		want := fmt.Sprintf("Across up to 4 replicas: at most %d in one window on one replica, %d across the fleet (login).", lt.Replica.Count, lt.Fleet.Count)
		if !strings.Contains(v, want) {
			t.Errorf("%s: verdict %q lacks %q", l.Lane.Title(), v, want)
		}
		if want := fmt.Sprintf("%d decisions met a failed store call.", l.Topology.StoreErrors); l.Topology.StoreErrors == 0 || !strings.Contains(v, want) {
			t.Errorf("%s: verdict %q lacks %q", l.Lane.Title(), v, want)
		}
	}
	plain := *sample().Result
	if v := laneVerdict(plain, plain.Lanes[0]).Text; strings.Contains(v, "replica") {
		t.Errorf("a lane without a topology speaks of replicas: %q", v)
	}
}

// The peak plot marks the busiest replica's most exactly when the run has a topology.
func TestPeakFigureMarksReplicas(t *testing.T) {
	topo, _ := runYAML(t, localFleet)
	for _, tc := range []struct {
		name string
		r    sim.Result
		want bool
	}{{"topology", *topo.Result, true}, {"plain", *sample().Result, false}} {
		f := PeakFigure(tc.r)
		got := false
		for _, e := range f.Legend {
			got = got || e.Label == "busiest replica"
		}
		if got != tc.want || strings.Contains(f.Caption, "busiest replica") != tc.want {
			t.Errorf("%s: the peak plot marks the busiest replica: %v, want %v", tc.name, got, tc.want)
		}
		if _, err := f.PNG(); err != nil {
			t.Fatal(err)
		}
	}
}

// A CSV of a run with a topology and one without has the topology's columns,
// empty in the rows of the run without.
func TestCSVMixesRunsWithAndWithoutTopology(t *testing.T) {
	topo, _ := runYAML(t, fmt.Sprintf(storeOutage, "open"))
	var b bytes.Buffer
	if err := WriteCSV(&b, []Run{sample(), topo}); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := -1
	for i, h := range rows[0] {
		if h == "replicas" {
			col = i
		}
	}
	if col < 0 {
		t.Fatalf("no replicas column in %v", rows[0])
	}
	for _, row := range rows[1:] {
		lane := row[3] == ""
		switch {
		case row[0] == "sample" && row[col] != "":
			t.Errorf("a row without a topology has replicas %q", row[col])
		case row[0] != "sample" && lane && row[col] != "4":
			t.Errorf("a lane row of the topology run has replicas %q, want 4", row[col])
		}
	}
}
