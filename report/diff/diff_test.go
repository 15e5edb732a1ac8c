package diff

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/quick"
	"time"

	"github.com/rlsim/rlsim/scenarios"
)

func side(t *testing.T, arg string) *Side {
	t.Helper()
	s, err := LoadSide(arg, "auto")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The hand-derived case. Every client has its own ip and sends at a
// constant rate from t=0 (k/rate), for 10s: 200 light clients at 4/s (40
// requests), one medium at 6/s (60) and two heavy at 8/s (80). The lane is
// the fixed window, windows of 1s aligned to t=0, admitting while
// count+1 ≤ limit, refused requests not counted (DESIGN §1). Each window
// holds 4, 6 and 8 of their requests. At 10/s nobody is refused. At 5/s a
// window refuses 6−5 = 1 of medium's and 8−5 = 3 of each heavy's: 10 and 30
// over the 10 windows, 70 in all, 3 keys newly refused. The p99 of the 203
// keys' requests is the ⌈0.99×203⌉ = 201st smallest: 200 at 40, then 60,
// so 60: medium (60) is at most it, the heavy ones (80) are not. The peak:
// any 1s window holds 8 of a heavy key's arrivals, all admitted at 10/s; at
// 5/s each aligned window admits its first 5 (at +0, +125ms, ... +500ms),
// and a window straddling two aligned ones holds the last of one and at
// most the first 4 of the next: 5.
func TestTighteningRefusesTheKeysAboveTheNewLimit(t *testing.T) {
	r, err := Scenario(context.Background(), side(t, "testdata/current.yaml"), side(t, "testdata/proposed.yaml"),
		ScenarioOptions{Scenario: "testdata/current.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Pairs) != 1 {
		t.Fatalf("%d pairs, want 1", len(r.Pairs))
	}
	p := r.Pairs[0]
	got := []int64{p.RefusedCurrent, p.RefusedProposed, p.RefusedDelta, p.NewlyRefused, p.NewlyAdmitted,
		int64(p.NewlyRefusedKeys), int64(p.NewlyAdmittedKeys), p.P99, int64(p.NewlyRefusedKeysBelowP99),
		p.PeakCurrent, p.PeakProposed, p.PeakDelta, p.StoreCallsDelta}
	want := []int64{0, 70, 70, 70, 0, 3, 0, 60, 1, 8, 5, -3, 0}
	if !slices.Equal(got, want) {
		t.Errorf("refused, proposed, delta, newly refused, newly admitted, keys newly refused, keys newly admitted, p99, below p99, peaks, peak delta, store calls delta\n got %v\nwant %v", got, want)
	}
	wantClasses := []ClassDiff{
		{Class: "heavy", RefusedProposed: 60, NewlyRefused: 60, NewlyRefusedKeys: 2},
		{Class: "light"},
		{Class: "medium", RefusedProposed: 10, NewlyRefused: 10, NewlyRefusedKeys: 1},
	}
	if !slices.Equal(p.Classes, wantClasses) {
		t.Errorf("classes %+v, want %+v", p.Classes, wantClasses)
	}
	wantTop := []KeyDiff{
		{Key: "ip:heavy-0", Classes: "heavy", Requests: 80, RefusedProposed: 30},
		{Key: "ip:heavy-1", Classes: "heavy", Requests: 80, RefusedProposed: 30},
		{Key: "ip:medium-0", Classes: "medium", Requests: 60, RefusedProposed: 10, BelowP99: true},
	}
	if !slices.Equal(p.TopRefused, wantTop) {
		t.Errorf("top newly refused %+v, want %+v", p.TopRefused, wantTop)
	}
	if len(p.TopAdmitted) != 0 {
		t.Errorf("top newly admitted %+v, want none", p.TopAdmitted)
	}

	// Loosening is the same change the other way round.
	back, err := Scenario(context.Background(), side(t, "testdata/proposed.yaml"), side(t, "testdata/current.yaml"),
		ScenarioOptions{Scenario: "testdata/current.yaml", Top: 1})
	if err != nil {
		t.Fatal(err)
	}
	b := back.Pairs[0]
	if b.NewlyAdmitted != 70 || b.NewlyAdmittedKeys != 3 || b.NewlyRefused != 0 || b.RefusedDelta != -70 || len(b.TopAdmitted) != 1 ||
		b.TopAdmitted[0].Key != "ip:heavy-0" || b.TopAdmitted[0].Requests != 80 {
		t.Errorf("loosened: newly admitted %d (%d keys), newly refused %d, delta %d, top admitted %+v; want 70 (3 keys), 0, -70, [ip:heavy-0 at 80]",
			b.NewlyAdmitted, b.NewlyAdmittedKeys, b.NewlyRefused, b.RefusedDelta, b.TopAdmitted)
	}
}

// writeLog writes a combined-format log from 10:00:00: per second s of 10,
// 197 light ips send 4 requests, one medium ip 6 and two heavy ips 8.
func writeLog(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	line := func(ip string, s int) {
		fmt.Fprintf(&b, "%s - - [02/Dec/2026:10:00:%02d +0000] \"GET /api HTTP/1.1\" 200 5 \"-\" \"t\"\n", ip, s)
	}
	for s := range 10 {
		for i := range 197 {
			for range 4 {
				line(fmt.Sprintf("10.1.%d.%d", i/200, i%200+1), s)
			}
		}
		for range 6 {
			line("10.2.0.1", s)
		}
		for _, ip := range []string{"10.3.0.1", "10.3.0.2"} {
			for range 8 {
				line(ip, s)
			}
		}
	}
	path := filepath.Join(t.TempDir(), "access.log")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The same change on a log: the sides' limits through replay's fixed window
// (windows of 1s aligned to the hour of the first line, 10:00:00). Each
// second the medium ip sends 6 (1 refused at 5/s) and the heavy ones 8 (3
// each): 10 + 2×30 = 70 newly refused, 3 keys, as in the scenario. A key's
// requests are now its peak per window: 4, 6 and 8; the p99 of the 200
// keys' peaks is the ⌈0.99×200⌉ = 198th smallest: 197 at 4, then 6. The
// peak sent in a window is 8 on both sides.
func TestTighteningOnALog(t *testing.T) {
	log := writeLog(t)
	r, _, err := Log(context.Background(), side(t, "testdata/current.yaml"), side(t, "testdata/proposed.yaml"),
		LogOptions{Logs: []string{log}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Requests != 10*(197*4+6+16) {
		t.Errorf("%d requests replayed, want %d", r.Requests, 10*(197*4+6+16))
	}
	if len(r.Pairs) != 1 {
		t.Fatalf("%d pairs, want 1", len(r.Pairs))
	}
	p := r.Pairs[0]
	got := []int64{p.RefusedCurrent, p.RefusedProposed, p.NewlyRefused, p.NewlyAdmitted, int64(p.NewlyRefusedKeys),
		p.P99, int64(p.NewlyRefusedKeysBelowP99), p.PeakCurrent, p.PeakProposed}
	want := []int64{0, 70, 70, 0, 3, 6, 1, 8, 8}
	if !slices.Equal(got, want) {
		t.Errorf("refused, proposed, newly refused, newly admitted, keys newly refused, p99, below p99, peaks\n got %v\nwant %v", got, want)
	}
	wantTop := []KeyDiff{
		{Key: "10.3.0.1", Requests: 8, RefusedProposed: 30},
		{Key: "10.3.0.2", Requests: 8, RefusedProposed: 30},
		{Key: "10.2.0.1", Requests: 6, RefusedProposed: 10, BelowP99: true},
	}
	if !slices.Equal(p.TopRefused, wantTop) {
		t.Errorf("top %+v, want %+v", p.TopRefused, wantTop)
	}
	if p.Current != "fixed_window" || p.Limit != "ip" {
		t.Errorf("pair %s, limit %s; want fixed_window, ip", p.Current, p.Limit)
	}
}

// The same inputs give the same bytes, text and JSON, run after run.
func TestSameInputsSameBytes(t *testing.T) {
	log := writeLog(t)
	var outs []string
	for range 2 {
		r, err := Scenario(context.Background(), side(t, "testdata/current.yaml"), side(t, "testdata/proposed.yaml"),
			ScenarioOptions{Scenario: "testdata/current.yaml", FailOn: []FailOn{mustFailOn(t, "newly_refused_keys > 0")}})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := WriteText(&b, r); err != nil {
			t.Fatal(err)
		}
		if err := WriteJSON(&b, r); err != nil {
			t.Fatal(err)
		}
		b.Write(JUnit(r))
		lr, _, err := Log(context.Background(), side(t, "testdata/current.yaml"), side(t, "testdata/proposed.yaml"),
			LogOptions{Logs: []string{log}, Top: 2})
		if err != nil {
			t.Fatal(err)
		}
		if err := WriteText(&b, lr); err != nil {
			t.Fatal(err)
		}
		if err := WriteJSON(&b, lr); err != nil {
			t.Fatal(err)
		}
		outs = append(outs, b.String())
	}
	if outs[0] != outs[1] {
		t.Errorf("two runs differ:\n%s\n---\n%s", outs[0], outs[1])
	}
}

func mustFailOn(t *testing.T, s string) FailOn {
	t.Helper()
	f, err := ParseFailOn(s, "scenario")
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestParseFailOn(t *testing.T) {
	for _, c := range []struct {
		in, mode string
		want     FailOn
		err      string
	}{
		{in: "newly_refused_keys_below_p99 > 0", mode: "log", want: FailOn{Text: "newly_refused_keys_below_p99 > 0", Metric: "newly_refused_keys_below_p99", Op: ">", Value: 0}},
		{in: " refused_delta<=-3 ", mode: "scenario", want: FailOn{Text: "refused_delta<=-3", Metric: "refused_delta", Op: "<=", Value: -3}},
		{in: "refused_rate > 5%", mode: "scenario", want: FailOn{Text: "refused_rate > 5%", Metric: "refused_rate", Op: ">", Value: 0.05, check: true}},
		{in: "p99_time_to_success >= 250ms", mode: "scenario", want: FailOn{Text: "p99_time_to_success >= 250ms", Metric: "p99_time_to_success", Op: ">=", Value: float64(250 * time.Millisecond), check: true}},
		{in: "refused_rate > 5%", mode: "log", err: "a scenario's metric"},
		{in: "newly_refused > 1.5", mode: "log", err: "whole number"},
		{in: "newly_refusd > 1", mode: "log", err: `unknown metric "newly_refusd"`},
		{in: "newly_refused >> 1", mode: "log", err: "want METRIC OP VALUE"},
		{in: "newly_refused", mode: "log", err: "want METRIC OP VALUE"},
		{in: "refused_rate > 150%", mode: "scenario", err: "not a rate"},
	} {
		got, err := ParseFailOn(c.in, c.mode)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("ParseFailOn(%q, %s) = %v, want an error with %q", c.in, c.mode, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("ParseFailOn(%q, %s): %v", c.in, c.mode, err)
		case c.err == "" && got != c.want:
			t.Errorf("ParseFailOn(%q, %s) = %+v, want %+v", c.in, c.mode, got, c.want)
		}
	}
}

// A --fail-on fails when it holds on any pair, and says the values that met it.
func TestFailOnHoldsOnAnyPair(t *testing.T) {
	r := &Report{Pairs: []Pair{{Current: "gcra", Proposed: "gcra", NewlyRefusedKeys: 0}, {Current: "a", Proposed: "b", NewlyRefusedKeys: 2}}}
	r.evaluate([]FailOn{mustFailOn(t, "newly_refused_keys > 1"), mustFailOn(t, "newly_refused_keys > 2"), mustFailOn(t, "newly_refused_keys == 0")})
	if r.Failed != 2 || !r.FailOn[0].Failed || r.FailOn[1].Failed || !r.FailOn[2].Failed {
		t.Fatalf("failed %d: %+v; want the first and third", r.Failed, r.FailOn)
	}
	if got, want := r.FailOn[0].Message(), "newly_refused_keys > 1: 2 (lane a → b)"; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
}

func TestPairNames(t *testing.T) {
	for _, c := range []struct {
		cur, prop []string
		pick      string
		want      [][2]string
		unpaired  []string
		err       string
	}{
		{cur: []string{"nginx"}, prop: []string{"gcra"}, want: [][2]string{{"nginx", "gcra"}}},
		{cur: []string{"gcra", "token_bucket"}, prop: []string{"token_bucket", "sliding_log"}, want: [][2]string{{"token_bucket", "token_bucket"}},
			unpaired: []string{"current lane gcra", "proposed lane sliding_log"}},
		{cur: []string{"gcra", "token_bucket"}, prop: []string{"gcra", "token_bucket"}, pick: "gcra=token_bucket", want: [][2]string{{"gcra", "token_bucket"}}},
		{cur: []string{"gcra", "token_bucket"}, prop: []string{"gcra"}, pick: "token_bucket", err: "the proposed side has no lane token_bucket"},
		{cur: []string{"a", "b"}, prop: []string{"c", "d"}, err: "no lane of the same name"},
	} {
		got, unpaired, err := pairNames(c.cur, c.prop, c.pick, "lane")
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("pairNames(%v, %v, %q): %v, want %q", c.cur, c.prop, c.pick, err, c.err)
			}
		case err != nil || !slices.Equal(got, c.want) || !slices.Equal(unpaired, c.unpaired):
			t.Errorf("pairNames(%v, %v, %q) = %v, %v, %v; want %v, %v", c.cur, c.prop, c.pick, got, unpaired, err, c.want, c.unpaired)
		}
	}
}

// Invariants of compare on arbitrary counts: the rises less the falls are
// the change in refusals, the change in keys refused is the keys newly
// refused less those newly admitted, the keys below the p99 are some of the
// newly refused, and swapping the sides swaps refused and admitted.
func TestCompareInvariants(t *testing.T) {
	build := func(seed []uint16) keyFigures {
		figs := keyFigures{}
		for i, v := range seed {
			u := unit{key: fmt.Sprintf("k%d", v%7), class: fmt.Sprintf("c%d", (v/7)%3)}
			f := figs[u]
			f.requests += int64(v%13) + 1
			f.refused += int64(i%3) * int64(v%5)
			figs[u] = f
		}
		return figs
	}
	prop := func(a, b []uint16) bool {
		cur, pro := build(a), build(b)
		var p, q Pair
		compare(&p, cur, pro, p99(pro), 3)
		compare(&q, pro, cur, p99(cur), 3)
		var classRise int64
		for _, c := range p.Classes {
			classRise += c.NewlyRefused - c.NewlyAdmitted
		}
		return p.NewlyRefused-p.NewlyAdmitted == p.RefusedDelta &&
			classRise == p.RefusedDelta &&
			p.KeysRefusedProposed-p.KeysRefusedCurrent == p.NewlyRefusedKeys-p.NewlyAdmittedKeys &&
			p.NewlyRefusedKeysBelowP99 <= p.NewlyRefusedKeys &&
			p.NewlyRefused == q.NewlyAdmitted && p.NewlyRefusedKeys == q.NewlyAdmittedKeys &&
			len(p.TopRefused) <= 3 && len(p.TopRefused) == len(q.TopAdmitted)
	}
	if err := quick.Check(prop, nil); err != nil {
		t.Error(err)
	}
}

// The JUnit XML is well formed: one testcase per --fail-on, a failure on
// the one that held, with the value measured.
func TestJUnitIsWellFormed(t *testing.T) {
	r := &Report{Current: Label{Arg: "old.conf"}, Proposed: Label{Arg: "new.conf"}, On: "a.log",
		Pairs: []Pair{{Current: "gcra", Proposed: "gcra", Limit: "perip", NewlyRefusedKeysBelowP99: 2, PeakDelta: -1}}}
	r.evaluate([]FailOn{mustFailOn(t, "newly_refused_keys_below_p99 > 0"), mustFailOn(t, "peak_delta > 0")})
	var doc struct {
		XMLName  xml.Name `xml:"testsuites"`
		Name     string   `xml:"name,attr"`
		Tests    int      `xml:"tests,attr"`
		Failures int      `xml:"failures,attr"`
		Suites   []struct {
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(JUnit(r), &doc); err != nil {
		t.Fatalf("not XML: %v\n%s", err, JUnit(r))
	}
	if doc.Name != JUnitSuites || doc.Tests != 2 || doc.Failures != 1 || len(doc.Suites) != 1 || len(doc.Suites[0].Cases) != 2 {
		t.Fatalf("testsuites %q: %d tests, %d failures, %d suites; want %q, 2, 1, 1\n%s", doc.Name, doc.Tests, doc.Failures, len(doc.Suites), JUnitSuites, JUnit(r))
	}
	c := doc.Suites[0].Cases
	if c[0].Name != "newly_refused_keys_below_p99 > 0" || c[0].Failure == nil ||
		c[0].Failure.Message != "newly_refused_keys_below_p99 > 0: 2 (lane gcra, limit perip)" {
		t.Errorf("first testcase %q, failure %+v; want newly_refused_keys_below_p99 > 0 failed with 2 (lane gcra, limit perip)", c[0].Name, c[0].Failure)
	}
	if c[1].Name != "peak_delta > 0" || c[1].Failure != nil {
		t.Errorf("second testcase %q, failure %+v; want peak_delta > 0, passed", c[1].Name, c[1].Failure)
	}
}

// WriteJUnit replaces its own report and nothing else.
func TestWriteJUnitReplacesOnlyItsOwn(t *testing.T) {
	dir := t.TempDir()
	r := &Report{Pairs: []Pair{{Current: "gcra", Proposed: "gcra"}}}
	r.evaluate([]FailOn{mustFailOn(t, "newly_refused > 0")})
	path := filepath.Join(dir, "report.xml")
	if err := WriteJUnit(path, r); err != nil {
		t.Fatal(err)
	}
	if err := WriteJUnit(path, r); err != nil {
		t.Errorf("replacing its own report: %v", err)
	}
	for name, content := range map[string]string{
		"other.xml": `<?xml version="1.0"?><testsuites name="pytest"><testsuite/></testsuites>`,
		"notes.txt": "my notes\n",
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(content), 0o644)
		err := WriteJUnit(p, r)
		if err == nil || !strings.Contains(err.Error(), "not a JUnit report rlsim diff wrote") {
			t.Errorf("WriteJUnit over %s: %v, want a refusal", name, err)
		}
		if b, _ := os.ReadFile(p); string(b) != content {
			t.Errorf("%s was changed to %q", name, b)
		}
	}
	if err := WriteJUnit(dir, r); err == nil {
		t.Error("WriteJUnit over a directory: no error")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// The JSON document's fields, by name: a rename or removal breaks every
// reader of version 1 (docs/diff.md lists them).
func TestJSONFieldsAreStable(t *testing.T) {
	r, err := Scenario(context.Background(), side(t, "testdata/current.yaml"), side(t, "testdata/proposed.yaml"),
		ScenarioOptions{Scenario: "testdata/current.yaml", FailOn: []FailOn{mustFailOn(t, "refused_rate > 1%")}})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	keys := func(m any) []string {
		var out []string
		for k := range m.(map[string]any) {
			out = append(out, k)
		}
		slices.Sort(out)
		return out
	}
	pair := doc["pairs"].([]any)[0].(map[string]any)
	for _, c := range []struct {
		what string
		got  []string
		want string
	}{
		{"document", keys(doc), "current fail_on failed mode notes on pairs proposed unpaired version"},
		{"side", keys(doc["current"]), "arg kind"},
		{"pair", keys(pair), "classes current_lane keys_refused_current keys_refused_proposed newly_admitted newly_admitted_keys newly_refused newly_refused_keys newly_refused_keys_below_p99 peak_current peak_delta peak_proposed proposed_lane refused_current refused_delta refused_proposed requests_p99 store_calls_current store_calls_delta store_calls_proposed top_newly_admitted top_newly_refused"},
		{"class", keys(pair["classes"].([]any)[0]), "class newly_admitted newly_admitted_keys newly_refused newly_refused_keys refused_current refused_proposed"},
		{"key", keys(pair["top_newly_refused"].([]any)[0]), "below_p99 classes key refused_current refused_proposed requests"},
		{"fail_on", keys(doc["fail_on"].([]any)[0]), "expression failed metric op value values"},
		{"value", keys(doc["fail_on"].([]any)[0].(map[string]any)["values"].([]any)[0]), "got holds shown where"},
	} {
		if got := strings.Join(c.got, " "); got != c.want {
			t.Errorf("%s fields:\n got %s\nwant %s", c.what, got, c.want)
		}
	}
	if doc["version"] != float64(1) || doc["mode"] != "scenario" {
		t.Errorf("version %v, mode %v; want 1, scenario", doc["version"], doc["mode"])
	}
}

// A side's nginx lane decides on the log as nginx 1.22.1 does: burst=N
// admits N+1 at once.
func TestNginxConfigOnALogDecidesAsNginx(t *testing.T) {
	dir := t.TempDir()
	conf := func(name, rate string, burst int) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(fmt.Sprintf("events {}\nhttp {\n  limit_req_zone $binary_remote_addr zone=z:1m rate=%s;\n  server {\n    listen 127.0.0.1:8080;\n    limit_req zone=z burst=%d nodelay;\n    location / { return 200; }\n  }\n}\n", rate, burst)), 0o644)
		return p
	}
	old, tight := side(t, conf("old.conf", "1r/s", 4)), side(t, conf("new.conf", "1r/s", 2))
	log := filepath.Join(dir, "a.log")
	// 5 requests at once from one ip: burst=4 admits all 5; burst=2 admits 3.
	os.WriteFile(log, []byte(strings.Repeat("10.0.0.1 - - [02/Dec/2026:10:00:00 +0000] \"GET /x HTTP/1.1\" 200 1 \"-\" \"t\"\n", 5)), 0o644)
	r, _, err := Log(context.Background(), old, tight, LogOptions{Logs: []string{log}})
	if err != nil {
		t.Fatal(err)
	}
	p := r.Pairs[0]
	if p.Current != "nginx" || p.RefusedCurrent != 0 || p.RefusedProposed != 2 || p.NewlyRefusedKeys != 1 {
		t.Errorf("lane %s: refused %d → %d, %d keys newly refused; want nginx, 0 → 2, 1",
			p.Current, p.RefusedCurrent, p.RefusedProposed, p.NewlyRefusedKeys)
	}
}

// Sides of several lanes are compared lane by lane of the same name; the
// others are listed, not compared; --lane picks one pair, of two names.
func TestLanesPairByName(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("testdata/proposed.yaml")
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, lanes string) *Side {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(strings.Replace(string(src), "lanes: [fixed_window]", "lanes: ["+lanes+"]", 1)), 0o644)
		return side(t, p)
	}
	cur, prop := write("a.yaml", "fixed_window, gcra"), write("b.yaml", "gcra, token_bucket")
	r, err := Scenario(context.Background(), cur, prop, ScenarioOptions{Scenario: "testdata/current.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Pairs) != 1 || r.Pairs[0].Current != "gcra" || r.Pairs[0].RefusedDelta != 0 ||
		!slices.Equal(r.Unpaired, []string{"current lane fixed_window", "proposed lane token_bucket"}) {
		t.Errorf("pairs %+v, unpaired %q; want gcra against itself (no change), fixed_window and token_bucket unpaired", r.Pairs, r.Unpaired)
	}
	r, err = Scenario(context.Background(), cur, prop, ScenarioOptions{Scenario: "testdata/current.yaml", Lane: "fixed_window=token_bucket"})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Pairs) != 1 || r.Pairs[0].Current != "fixed_window" || r.Pairs[0].Proposed != "token_bucket" {
		t.Errorf("--lane fixed_window=token_bucket: pairs %+v", r.Pairs)
	}
}

// Store calls: a synced limit syncs every sync_interval, and each sync is
// one store call per replica (docs/scenarios.md, Topology); the run lasts
// its duration and the drain, 60s + 60s. synced-counting's 8 replicas sync
// 120 times each at 1s (960 calls) and 240 times at 500ms (1920).
func TestStoreCallsDelta(t *testing.T) {
	src, ok := scenarios.BuiltinSource("synced-counting")
	if !ok {
		t.Fatal("no built-in synced-counting")
	}
	dir := t.TempDir()
	write := func(name, interval string) *Side {
		p := filepath.Join(dir, name)
		text := strings.Replace(string(src), "sync_interval: 1s", "sync_interval: "+interval, 1)
		text = strings.Replace(text, "lanes: [fixed_window, sliding_log, token_bucket, gcra]", "lanes: [fixed_window]", 1)
		os.WriteFile(p, []byte(text), 0o644)
		return side(t, p)
	}
	r, err := Scenario(context.Background(), write("a.yaml", "1s"), write("b.yaml", "500ms"), ScenarioOptions{Scenario: "synced-counting"})
	if err != nil {
		t.Fatal(err)
	}
	p := r.Pairs[0]
	if p.StoreCallsCurrent != 960 || p.StoreCallsProposed != 1920 || p.StoreCallsDelta != 960 {
		t.Errorf("store calls %d → %d (%+d), want 960 → 1920 (+960)", p.StoreCallsCurrent, p.StoreCallsProposed, p.StoreCallsDelta)
	}
}

// Product configs on a scenario: docs/examples/diff's nginx configs (10r/s
// burst=20, then 5r/s burst=10) on the hand-derived clients. nginx 1.22.1's
// limit_req refuses when the backlog after the request exceeds (burst+1)
// emission intervals (see replayLimits). At 5r/s (T = 200ms, 11 intervals:
// 2.2s) a heavy key sending every 125ms keeps a backlog, so after k
// admissions the next request at t passes iff 200ms×(k+1) − t ≤ 2.2s: by its
// last request, at 9.875s, 60 of its 80 have passed and 20 are refused. The
// medium key (every 166.67ms) passes request j iff 200(j+1) ≤ 166.67j + 2200,
// j ≤ 60: all 60 of its requests. At 10r/s nothing sent at 8/s is refused.
func TestNginxConfigsOnAScenario(t *testing.T) {
	r, err := Scenario(context.Background(), side(t, "../../docs/examples/diff/old.conf"), side(t, "../../docs/examples/diff/new.conf"),
		ScenarioOptions{Scenario: "testdata/current.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	p := r.Pairs[0]
	if r.Current.Kind != "nginx" || p.Current != "nginx" || p.RefusedCurrent != 0 || p.RefusedProposed != 40 || p.NewlyRefusedKeys != 2 ||
		p.P99 != 60 || p.NewlyRefusedKeysBelowP99 != 0 || len(p.TopRefused) != 2 || p.TopRefused[0].RefusedProposed != 20 || p.TopRefused[1].RefusedProposed != 20 {
		t.Errorf("%s lane %s: refused %d → %d, %d keys newly refused (%d at most the p99 %d), top %+v; want nginx, 0 → 40, 2 (0, p99 60), two heavy keys at 20",
			r.Current.Kind, p.Current, p.RefusedCurrent, p.RefusedProposed, p.NewlyRefusedKeys, p.NewlyRefusedKeysBelowP99, p.P99, p.TopRefused)
	}
}
