package replay

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/quick"
	"time"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// synthLine is one request of a synthetic log.
type synthLine struct {
	at     time.Time
	ip     string
	path   string
	status int
}

// synthLog is the test's log of known processes over ten minutes from
// 2026-03-01 09:00 UTC (documentation addresses):
//   - 20 keys Poisson at 1/s, each request to its own path;
//   - 5 keys on/off: 50 requests 200ms apart (10s on at 5/s), then 50s off,
//     ten cycles, key k starting at k×2s;
//   - 3 keys constant at one per 2s to one path; every 4th request is refused
//     (429) and repeated 1s later, admitted.
//
// It returns the lines in time order and each key's request times.
func synthLog(seed uint64) ([]synthLine, map[string][]time.Time) {
	rng := rand.New(rand.NewPCG(seed, 2))
	start := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	end := start.Add(10 * time.Minute)
	var out []synthLine
	for k := range 20 {
		ip := fmt.Sprintf("198.51.100.%d", k+1)
		for at := start.Add(time.Duration(rng.ExpFloat64() * 1e9)); at.Before(end); at = at.Add(time.Duration(rng.ExpFloat64() * 1e9)) {
			out = append(out, synthLine{at.Truncate(time.Millisecond), ip, fmt.Sprintf("/items/%d", rng.IntN(1e9)), 200})
		}
	}
	for k := range 5 {
		ip := fmt.Sprintf("203.0.113.%d", k+1)
		for c := range 10 {
			for j := range 50 {
				at := start.Add(time.Duration(k)*2*time.Second + time.Duration(c)*time.Minute + time.Duration(j)*200*time.Millisecond)
				out = append(out, synthLine{at, ip, "/feed", 200})
			}
		}
	}
	for k := range 3 {
		ip := fmt.Sprintf("192.0.2.%d", k+1)
		for j := 0; ; j++ {
			at := start.Add(time.Duration(k)*300*time.Millisecond + time.Duration(j)*2*time.Second)
			if !at.Before(end) {
				break
			}
			if j%4 == 3 {
				out = append(out, synthLine{at, ip, "/api/orders", 429}, synthLine{at.Add(time.Second), ip, "/api/orders", 200})
				continue
			}
			out = append(out, synthLine{at, ip, "/api/orders", 200})
		}
	}
	slices.SortStableFunc(out, func(a, b synthLine) int { return a.at.Compare(b.at) })
	times := map[string][]time.Time{}
	for _, l := range out {
		times[l.ip] = append(times[l.ip], l.at)
	}
	return out, times
}

// jsonText writes the lines as JSON lines with a millisecond time and a status.
func jsonText(lines []synthLine) []byte {
	var b bytes.Buffer
	for _, l := range lines {
		fmt.Fprintf(&b, `{"time":"%s","ip":"%s","method":"GET","path":"%s","status":%d}`+"\n",
			l.at.Format("2006-01-02T15:04:05.000Z07:00"), l.ip, l.path, l.status)
	}
	return b.Bytes()
}

func derive(t *testing.T, log []byte, groups int) *Derived {
	t.Helper()
	d, err := Derive(context.Background(), []Input{{Name: "synth.jsonl", R: bytes.NewReader(log)}}, DeriveOptions{Groups: groups, Names: []string{"synth.jsonl"}})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestDeriveGroups(t *testing.T) {
	lines, _ := synthLog(1)
	d := derive(t, jsonText(lines), 5)
	t.Logf("\n%s", d.YAML)
	if len(d.Groups) != 3 {
		t.Fatalf("groups = %d, want 3 (poisson, on_off, constant with retries)", len(d.Groups))
	}
	byKind := map[string]Group{}
	for _, g := range d.Groups {
		byKind[g.Kind] = g
	}
	// Poisson at 1/s over 600s: each key's rate is within about 1/sqrt(600),
	// 4%, of 1/s (one sd), the median of 20 closer still: 10% is over 5 sd.
	if g := byKind["poisson"]; len(g.Keys) != 20 || math.Abs(g.RateSec-1) > 0.10 || g.Retry != "none" {
		t.Errorf("poisson group: %d keys at %.3f/s retry %s, want 20 at 1/s ±10%%, none", len(g.Keys), g.RateSec, g.Retry)
	}
	// On/off: whole periods of 50 requests 200ms apart, 60s a cycle: exactly
	// 5/s for 10s on (9.8s plus one gap), 50s off (50.2s minus one gap), to the ms.
	if g := byKind["on_off"]; len(g.Keys) != 5 || g.Rate != (sim.Rate{Count: 500, Per: 100 * time.Second}) ||
		g.On != 10*time.Second || g.Off != 50*time.Second {
		t.Errorf("on_off group: %d keys at %v on %v off %v, want 5 at 500/100s on 10s off 50s", len(g.Keys), g.Rate, g.On, g.Off)
	}
	// Constant: first attempts exactly 2s apart (0.5/s), each 429 repeated 1s later.
	if g := byKind["constant"]; len(g.Keys) != 3 || g.Rate != (sim.Rate{Count: 500, Per: 1000 * time.Second}) ||
		g.Retry != "fixed" || g.Delay != time.Second || !g.On429 || g.On503 || g.RepeatedShare != 1 {
		t.Errorf("constant group: %d keys at %v retry %s %v on429 %v on503 %v share %v, want 3 at 500/1000s fixed 1s [429] 1",
			len(g.Keys), g.Rate, g.Retry, g.Delay, g.On429, g.On503, g.RepeatedShare)
	}
	sc, err := scenarios.Parse("derived.yaml", d.YAML)
	if err != nil {
		t.Fatalf("the scenario printed does not parse: %v", err)
	}
	if got := sc.Config.Start; !got.Equal(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)) {
		t.Errorf("start = %v, want the log's first request 2026-03-01T09:00:00Z", got)
	}
	if sc.Config.Duration < 599*time.Second || sc.Config.Duration > 600*time.Second {
		t.Errorf("duration = %v, want the log's span, 599s to 600s", sc.Config.Duration)
	}
	// And it runs as it is, every lane.
	if _, err := sim.Run(context.Background(), *sc.Config, sim.Options{MaxEvents: 10_000_000}); err != nil {
		t.Fatalf("the scenario does not run: %v", err)
	}
}

// TestDeriveFitRecomputed recomputes the fit from the test's own record of the
// log (each key's times as written) and its own run of the printed scenario.
func TestDeriveFitRecomputed(t *testing.T) {
	lines, times := synthLog(3)
	d := derive(t, jsonText(lines), 5)
	var logRates []float64
	for _, ts := range times {
		logRates = append(logRates, float64(len(ts)-1)/ts[len(ts)-1].Sub(ts[0]).Seconds())
	}
	sc, err := scenarios.Parse("derived.yaml", d.YAML)
	if err != nil {
		t.Fatal(err)
	}
	cfg := *sc.Config
	tb, _ := sim.ParseLane("token_bucket")
	cfg.Lanes = []sim.LaneKind{tb}
	perClient := map[int][]time.Duration{}
	sink := traceFunc(func(r *sim.TraceRecord) {
		if r.Event != sim.TraceSuccess {
			perClient[r.Client] = append(perClient[r.Client], r.At)
		}
	})
	if _, err := sim.Run(context.Background(), cfg, sim.Options{Trace: sink}); err != nil {
		t.Fatal(err)
	}
	var simRates []float64
	clients := 0
	for _, g := range cfg.Clients {
		clients += g.Count
	}
	for c := range clients {
		ts := perClient[c]
		switch len(ts) {
		case 0:
			simRates = append(simRates, 0)
		case 1:
			simRates = append(simRates, 1/cfg.Duration.Seconds())
		default:
			simRates = append(simRates, float64(len(ts)-1)/(ts[len(ts)-1]-ts[0]).Seconds())
		}
	}
	slices.Sort(logRates)
	slices.Sort(simRates)
	worst := 0.0
	for i, q := range []float64{0.10, 0.50, 0.90, 0.99} {
		rank := func(v []float64) float64 { return v[int(math.Ceil(q*float64(len(v))))-1] }
		l, s := rank(logRates), rank(simRates)
		rel := math.Abs(s-l) / l
		worst = math.Max(worst, rel)
		if math.Abs(d.Fit.Log[i]-l) > 1e-9*l || math.Abs(d.Fit.Sim[i]-s) > 1e-9*l || math.Abs(d.Fit.RelErr[i]-rel) > 1e-9 {
			t.Errorf("p%v: fit says log %v sim %v err %v, recomputed %v %v %v", q*100, d.Fit.Log[i], d.Fit.Sim[i], d.Fit.RelErr[i], l, s, rel)
		}
	}
	want := fmt.Sprintf("# fit: per-key rate quantiles within %.1f%% (", 100*worst)
	if !bytes.Contains(d.YAML, []byte(want)) {
		t.Errorf("the scenario does not say %q:\n%s", want, d.YAML)
	}
	t.Logf("fit: %s", d.Fit.Line())
	// The fit is a measure, but on this log it must be a good one: rates of
	// 28 keys, the Poisson ones within a few % of each other by chance.
	if worst > 0.25 {
		t.Errorf("fit %.1f%%, want within 25%% on a log of the scenario's own processes", 100*worst)
	}
}

type traceFunc func(r *sim.TraceRecord)

func (f traceFunc) Record(r *sim.TraceRecord) error { f(r); return nil }

func TestDeriveDeterministic(t *testing.T) {
	lines, _ := synthLog(5)
	log := jsonText(lines)
	a, b := derive(t, log, 5), derive(t, log, 5)
	if !bytes.Equal(a.YAML, b.YAML) {
		t.Errorf("two derivations of one log differ:\n%s\n---\n%s", a.YAML, b.YAML)
	}
}

func TestDeriveGroupsAtMost(t *testing.T) {
	lines, _ := synthLog(7)
	for _, n := range []int{1, 2} {
		d := derive(t, jsonText(lines), n)
		if len(d.Groups) != n {
			t.Errorf("--groups %d: %d groups", n, len(d.Groups))
		}
		keys := 0
		for _, g := range d.Groups {
			keys += len(g.Keys)
		}
		if keys != 28 {
			t.Errorf("--groups %d: %d keys in the groups, want all 28", n, keys)
		}
	}
}

// TestDeriveSplitsRates: keys of one kind at rates 8x apart make two groups.
func TestDeriveSplitsRates(t *testing.T) {
	start := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	var lines []synthLine
	for k := range 6 {
		gap := 2 * time.Second
		if k >= 4 {
			gap = 250 * time.Millisecond
		}
		for at := start.Add(time.Duration(k) * time.Millisecond); at.Before(start.Add(5 * time.Minute)); at = at.Add(gap) {
			lines = append(lines, synthLine{at, fmt.Sprintf("198.51.100.%d", k+1), "/x", 200})
		}
	}
	slices.SortStableFunc(lines, func(a, b synthLine) int { return a.at.Compare(b.at) })
	d := derive(t, jsonText(lines), 5)
	if len(d.Groups) != 2 || len(d.Groups[0].Keys) != 4 || len(d.Groups[1].Keys) != 2 ||
		d.Groups[0].Rate != (sim.Rate{Count: 500, Per: 1000 * time.Second}) || d.Groups[1].Rate != (sim.Rate{Count: 400, Per: 100 * time.Second}) {
		for _, g := range d.Groups {
			t.Logf("%s: %d keys %v", g.Name, len(g.Keys), g.Rate)
		}
		t.Errorf("want two constant groups: 4 keys at 500/1000s, 2 at 400/100s")
	}
}

func TestDeriveBudget(t *testing.T) {
	lines, _ := synthLog(1)
	_, err := Derive(context.Background(), []Input{{Name: "x", R: bytes.NewReader(jsonText(lines))}}, DeriveOptions{MaxEvents: 1000})
	if err == nil || !strings.Contains(err.Error(), "--max-events") {
		t.Fatalf("err = %v, want the budget refused naming --max-events", err)
	}
}

func TestStatusOf(t *testing.T) {
	for _, c := range []struct {
		format, line string
		want         int16
	}{
		{"combined", `198.51.100.7 - - [01/Mar/2026:09:00:00 -0700] "GET /a HTTP/1.1" 429 512 "-" "curl/8.5"`, 429},
		{"combined", `198.51.100.7 - - [01/Mar/2026:09:00:00 -0700] "GET /a HTTP/1.1" - 512`, 0},
		{"json", `{"time":"2026-03-01T09:00:00Z","ip":"1.2.3.4","status":503}`, 503},
		{"haproxy", `10.0.1.2:33318 [06/Feb/2009:12:14:15.001] http-in~ api/srv2 0/0/1/12/13 429 120 - - ---- 2/2/1/1/0 0/0 "POST /api/orders HTTP/1.1"`, 429},
		{"envoy", `[2016-04-15T20:17:00.310Z] "POST /api/v1/locations HTTP/2" 503 - 154 0 226 100 "10.0.35.28" "nsq2http" "cc21" "locations" "tcp://10.0.2.1:80"`, 503},
	} {
		p, err := newParser(c.format, DefaultFields, time.UTC, nil, []byte(c.line))
		if err != nil {
			t.Fatal(err)
		}
		var r Record
		if err := p.parse([]byte(c.line), &r); err != nil {
			t.Fatalf("%s: %v", c.format, err)
		}
		if got := statusOf(&r, []byte(c.line)); got != c.want {
			t.Errorf("%s: status %d, want %d", c.format, got, c.want)
		}
	}
}

func TestRational(t *testing.T) {
	for _, c := range []struct {
		r    float64
		want sim.Rate
	}{
		{1, sim.Rate{Count: 100, Per: 100 * time.Second}},
		{1.234, sim.Rate{Count: 123, Per: 100 * time.Second}},
		{5, sim.Rate{Count: 500, Per: 100 * time.Second}},
		{0.5, sim.Rate{Count: 500, Per: 1000 * time.Second}},
		{2500, sim.Rate{Count: 250, Per: 100 * time.Millisecond}},
	} {
		if got := rational(c.r); got != c.want {
			t.Errorf("rational(%v) = %v, want %v", c.r, got, c.want)
		}
	}
}

// TestToScenarioSample: replay/testdata/toscenario.jsonl is synthLog(1), and
// docs/replay.md's worked example prints what Derive derives from it.
func TestToScenarioSample(t *testing.T) {
	lines, _ := synthLog(1)
	want := jsonText(lines)
	const path = "testdata/toscenario.jsonl.gz"
	if *update {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		zw.Write(want)
		zw.Close()
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gz, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is not synthLog(1): go test ./replay -run TestToScenarioSample -update", path)
	}
	d, err := Derive(context.Background(), []Input{{Name: "replay/" + path, R: bytes.NewReader(got)}}, DeriveOptions{Names: []string{"replay/" + path}})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../docs/replay.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(doc, d.YAML) {
		t.Errorf("docs/replay.md does not show the scenario derived from %s:\n%s", path, d.YAML)
	}
	if line := "fit: " + d.Fit.Line(); !bytes.Contains(doc, []byte(line)) {
		t.Errorf("docs/replay.md does not show %q", line)
	}
}

// TestDeriveProperties: on arbitrary small logs (keys, times, statuses and
// paths drawn by testing/quick), the scenario derived parses, has at most the
// groups asked for, holds every key once, and its fit is the largest of its
// quantiles' errors.
func TestDeriveProperties(t *testing.T) {
	start := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	prop := func(seed uint64, groups uint8) bool {
		rng := rand.New(rand.NewPCG(seed, 9))
		n := 1 + int(groups)%6
		var lines []synthLine
		keys := map[string]bool{}
		for range 1 + rng.IntN(300) {
			ip := fmt.Sprintf("198.51.100.%d", rng.IntN(12))
			keys[ip] = true
			at := start.Add(time.Duration(rng.Int64N(int64(20 * time.Minute))))
			if rng.IntN(4) == 0 {
				at = start.Add(time.Duration(rng.IntN(3)) * time.Second) // ties
			}
			status := []int{200, 200, 429, 503}[rng.IntN(4)]
			lines = append(lines, synthLine{at.Truncate(time.Millisecond), ip, fmt.Sprintf("/p%d", rng.IntN(3)), status})
		}
		d, err := Derive(context.Background(), []Input{{Name: "q", R: bytes.NewReader(jsonText(lines))}}, DeriveOptions{Groups: n})
		if err != nil {
			t.Logf("seed %d: %v", seed, err)
			return false
		}
		if _, err := scenarios.Parse("q.yaml", d.YAML); err != nil {
			t.Logf("seed %d: %v\n%s", seed, err, d.YAML)
			return false
		}
		seen := 0
		for _, g := range d.Groups {
			seen += len(g.Keys)
		}
		worst := 0.0
		for _, e := range d.Fit.RelErr {
			worst = math.Max(worst, e)
		}
		if len(d.Groups) > n || seen != len(keys) || worst != d.Fit.Error || len(d.Fit.SimRates) != len(keys) {
			t.Logf("seed %d: %d groups of %d, %d keys of %d, fit %v of %v", seed, len(d.Groups), n, seen, len(keys), d.Fit.Error, worst)
			return false
		}
		return true
	}
	if err := quick.Check(prop, &quick.Config{MaxCount: 60}); err != nil {
		t.Error(err)
	}
}
