package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/replay"
)

const sampleLog = "../../replay/testdata/sample.log"

// TestReplayBadInput: every flag problem at once, exit 2, no stack trace.
func TestReplayBadInput(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"no limit", []string{"replay", sampleLog}, []string{"--limit: at least one is needed"}},
		{"all at once", []string{"replay", sampleLog, "--limit", "key=ipp limit=1", "--format", "xml", "--late", "-1s", "--tz", "Mars/Base", "--lane", "aimd"},
			[]string{`--limit "key=ipp limit=1": key: unknown key part "ipp"`, `limit: "1": want N/WINDOW`, `--format: unknown "xml"`,
				"--late: must not be negative", `--tz: unknown zone "Mars/Base"`, `--lane: "aimd" is not a lane a log can replay`}},
		{"missing file", []string{"replay", "no-such.log", "--limit", "key=ip limit=1/1s"}, []string{"no-such.log:"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errOut := execute(t, tt.args...)
			if code != exitBadInput || strings.Contains(errOut, "goroutine") {
				t.Fatalf("exit %d, stderr %q; want 2 and no trace", code, errOut)
			}
			for _, w := range tt.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr %q lacks %q", errOut, w)
				}
			}
		})
	}
}

// TestReplayOutputs: JSON names the top key; --out writes the three files and
// the same JSON.
func TestReplayOutputs(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "rep")
	code, out, errOut := execute(t, "replay", sampleLog, "--limit", "key=ip limit=100/1m burst=20", "--format", "json", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res struct {
		Requests int64
		Limits   []struct {
			Lanes []struct {
				Lane string
				Top  []struct{ Key string }
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Requests != 3000 || res.Limits[0].Lanes[0].Top[0].Key != "203.0.113.66" {
		t.Errorf("requests %d, top %+v; want 3000 and 203.0.113.66", res.Requests, res.Limits[0].Lanes[0].Top)
	}
	for _, name := range []string{"replay.txt", "replay.json", "replay.csv"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || len(data) == 0 {
			t.Errorf("%s: %v", name, err)
		}
		if name == "replay.json" && string(data) != out {
			t.Errorf("replay.json differs from what --format json printed")
		}
	}
}

// TestReplayWhere: --find picks by every --where, which the JSON's own rows
// confirm; bad --where flags are named, all at once, exit 2.
func TestReplayWhere(t *testing.T) {
	code, out, errOut := execute(t, "replay", sampleLog, "--limit", "key=ip limit=100/1m burst=20",
		"--vary", "limits[0].limit=10..100/30", "--find", "min limits[0].limit", "--where", "keys_refused <= 1", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res struct {
		Sweep []struct {
			Value       int64
			Lane        string
			KeysRefused int `json:"keys_refused"`
		}
		Smallest map[string]int64
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{}
	for _, p := range res.Sweep {
		if _, ok := want[p.Lane]; !ok {
			want[p.Lane] = 0
		}
		if p.KeysRefused <= 1 && (want[p.Lane] == 0 || p.Value < want[p.Lane]) {
			want[p.Lane] = p.Value
		}
	}
	if len(want) != 6 || len(res.Smallest) != 6 {
		t.Fatalf("smallest %v from rows %v, want six lanes", res.Smallest, want)
	}
	for lane, v := range want {
		if res.Smallest[lane] != v {
			t.Errorf("%s: smallest %d, want %d (the rows: %+v)", lane, res.Smallest[lane], v, res.Sweep)
		}
	}
	code, _, errOut = execute(t, "replay", sampleLog, "--limit", "key=ip limit=100/1m",
		"--where", "keys_refused <= 0", "--where", "lane aimd legit <= 5%")
	for _, w := range []string{"--where: needs --vary and --find", "--where lane aimd legit <= 5%: aimd is not a lane replayed",
		`--where lane aimd legit <= 5%: unknown metric "legit"`} {
		if code != exitBadInput || !strings.Contains(errOut, w) {
			t.Errorf("exit %d, stderr %q; want 2 and %q", code, errOut, w)
		}
	}
}

// TestReplayNumbers: every numeric flag of replay, and every number of a
// --limit, --vary or --where, given NaN, infinities, numbers past float64
// and int64, zero and negative values, is either refused before any log is
// opened (exit 2, the flag named; the log here does not exist) or replays
// the sample log. Before, --legit-below NaN and --where 'refused <= NaN'
// were taken, and a --limit whose arithmetic overflows was refused only when
// the replay began, naming no flag.
func TestReplayNumbers(t *testing.T) {
	base := []string{"--limit", "key=ip limit=100/1m burst=20"}
	vary := []string{"--vary", "limits[0].limit=10,20", "--find", "min limits[0].limit"}
	refused := []struct {
		flag string
		args []string
	}{}
	for _, v := range []string{"NaN", "nan", "+Inf", "-Inf", "inf", "1e400", "-1e400", "0", "-0", "-1", "1.0000001", "1e308"} {
		refused = append(refused, struct {
			flag string
			args []string
		}{"--legit-below", append([]string{"--legit-below", v}, base...)})
	}
	for _, v := range []string{"NaN", "Infs", "-1s", "-2562047h", "2562048h", "1e400s"} {
		refused = append(refused, struct {
			flag string
			args []string
		}{"--late", append([]string{"--late", v}, base...)})
	}
	for _, v := range []string{"NaN", "0", "-1", "1e9", "9223372036854775808"} {
		refused = append(refused, struct {
			flag string
			args []string
		}{"--top", append([]string{"--top", v}, base...)})
	}
	for _, v := range []string{"limit=NaN/1m", "limit=Inf/1m", "limit=1e400/1m", "limit=9223372036854775808/1m", "limit=0/1m", "limit=-1/1m",
		"limit=100/NaN", "limit=100/Infs", "limit=100/0s", "limit=100/-1s", "limit=100/876001h", "limit=100/2562047h47m16.854775807s",
		"limit=9223372036854775807/1ns", "limit=2000000000/1m", "limit=100/1m burst=0", "limit=100/1m burst=-1", "limit=100/1m burst=NaN",
		"limit=100/1m burst=1e400", "limit=100/1m burst=9223372036854775807", "limit=100/1m burst=1000000000000", "limit=1/876000h"} {
		refused = append(refused, struct {
			flag string
			args []string
		}{"--limit", []string{"--limit", "key=ip " + v}})
	}
	for _, v := range []string{"limits[0].limit=NaN", "limits[0].limit=0", "limits[0].limit=-5", "limits[0].limit=1e400",
		"limits[0].limit=9223372036854775807", "limits[0].burst=9223372036854775807", "limits[0].limit=2000000000"} {
		refused = append(refused, struct {
			flag string
			args []string
		}{"--vary", append([]string{"--vary", v, "--find", "min " + v[:strings.Index(v, "=")]}, base...)})
	}
	for _, v := range []string{"refused <= NaN", "refused <= nan", "refused <= Inf", "refused <= +Inf", "refused >= -Inf", "refused <= 1e400",
		"refused <= -1", "refused_share <= NaN%", "refused_share <= Inf%", "refused_share <= 101%", "refused_share <= 1.5", "keys_refused <= 5%"} {
		refused = append(refused, struct {
			flag string
			args []string
		}{"--where", append(append([]string{"--where", v}, base...), vary...)})
	}
	for _, tt := range refused {
		t.Run("refused/"+strings.Join(tt.args, " "), func(t *testing.T) {
			code, _, errOut := execute(t, append([]string{"replay", "no-such.log"}, tt.args...)...)
			if code != exitBadInput || !strings.Contains(errOut, tt.flag) || strings.Contains(errOut, "no-such.log") || strings.Contains(errOut, "goroutine") {
				t.Errorf("exit %d, stderr %q; want 2 naming %s, before the log is opened", code, errOut, tt.flag)
			}
		})
	}
	accepted := [][]string{
		{"--legit-below", "1"}, {"--legit-below", "5e-324"}, {"--late", "2562047h47m16.854775807s"},
		{"--top", "9223372036854775807"}, {"--limit", "key=ip limit=100/876000h burst=20"},
		{"--limit", "key=ip limit=1073741824/1m burst=1"},
		{"--vary", "limits[0].burst=1,1000000", "--find", "min limits[0].burst", "--where", "refused <= 1e308", "--where", "refused_share <= 100%"},
	}
	for _, args := range accepted {
		t.Run("accepted/"+strings.Join(args, " "), func(t *testing.T) {
			if !slices.Contains(args, "--limit") {
				args = append(args, base...)
			}
			code, out, errOut := execute(t, append([]string{"replay", sampleLog}, args...)...)
			if code != 0 || !strings.Contains(out, "replayed 3000 requests") {
				t.Errorf("exit %d, stderr %q; want 0 and the sample replayed", code, errOut)
			}
		})
	}
}

// TestReplayLateZero: --late 0 places no line behind the latest (it was read
// as the default, 5s, before): the sample's lines up to 2s behind are too late.
func TestReplayLateZero(t *testing.T) {
	code, out, errOut := execute(t, "replay", sampleLog, "--limit", "key=ip limit=100/1m burst=20", "--late", "0s")
	if code != 0 || !strings.Contains(out, " more than 0s late)") || strings.Contains(out, " 0 more than 0s late)") {
		t.Errorf("exit %d, stderr %q, stdout %q; want 0 and some lines more than 0s late", code, errOut, out)
	}
}

// TestReplayScenarioEndpoint: a scenario's login-only limit counts only the
// sample's /login lines (716 of 3000), as --limit endpoint=/login does; before,
// it counted all 3000 ("would refuse 2003").
func TestReplayScenarioEndpoint(t *testing.T) {
	scen := filepath.Join(t.TempDir(), "login.yaml")
	yaml := "duration: 10s\nlimits:\n  - {name: login, key: ip, limit: 5, window: 1m, endpoint: login}\nclients:\n  - {name: c, identity: {endpoint: login}, arrivals: [{kind: constant, rate: 1/s}]}\n"
	if err := os.WriteFile(scen, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	refused := func(args ...string) map[string]int64 {
		t.Helper()
		code, out, errOut := execute(t, append([]string{"replay", sampleLog, "--format", "json"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		var res replay.Result
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		m := map[string]int64{}
		for _, l := range res.Limits[0].Lanes {
			m[l.Lane] = l.Refused
		}
		return m
	}
	fromScenario := refused("--scenario", scen)
	fromLimit := refused("--limit", "name=login key=ip limit=5/1m endpoint=/login")
	if len(fromScenario) != len(replay.DefaultLanes) {
		t.Fatalf("lanes %v", fromScenario)
	}
	for lane, n := range fromScenario {
		if n > 716-5 || n == 0 || n != fromLimit[lane] {
			t.Errorf("%s: --scenario would refuse %d, --limit endpoint=/login %d; want the same, some, and fewer than the 716 /login lines", lane, n, fromLimit[lane])
		}
	}
}

// TestReplayScenarioFieldRefused: a scenario limit field replay cannot honour
// is exit 2 naming it, not ignored.
func TestReplayScenarioFieldRefused(t *testing.T) {
	scen := filepath.Join(t.TempDir(), "push.yaml")
	yaml := "duration: 10s\nlimits:\n  - {key: ip, limit: 5, window: 1m, changes: [{at: 5s, limit: 1}]}\nclients:\n  - {name: c, arrivals: [{kind: constant, rate: 1/s}]}\n"
	if err := os.WriteFile(scen, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := execute(t, "replay", sampleLog, "--scenario", scen)
	if code != exitBadInput || !strings.Contains(errOut, "limits[0].changes") {
		t.Errorf("exit %d, stderr %q; want 2 naming limits[0].changes", code, errOut)
	}
}

// TestReplayNothingParsed: a log none of whose lines parses (Envoy's default
// format) is exit 2 naming the format detected, the formats read and the
// first bad lines; a log with more than 10% bad lines warns on stderr.
func TestReplayNothingParsed(t *testing.T) {
	dir := t.TempDir()
	envoy := filepath.Join(dir, "envoy.log")
	lines := `[2026-03-01T09:00:00.000Z] "GET /login HTTP/1.1" 200 - 0 5000 3 2 "-" "curl/8.5" "5f3c" "api.example" "10.0.0.7:8080"` + "\n"
	if err := os.WriteFile(envoy, []byte(strings.Repeat(lines, 3)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := execute(t, "replay", envoy, "--limit", "key=ip limit=1/1s")
	for _, w := range []string{"Envoy's default access-log format", "formats read: combined", "csv", envoy + ":1:", envoy + ":3:"} {
		if !strings.Contains(errOut, w) {
			t.Errorf("stderr %q lacks %q", errOut, w)
		}
	}
	if code != exitBadInput || out != "" {
		t.Errorf("exit %d, stdout %q; want 2 and nothing", code, out)
	}
	mixed := filepath.Join(dir, "mixed.log")
	data, err := os.ReadFile(sampleLog)
	if err != nil {
		t.Fatal(err)
	}
	good := strings.SplitAfter(string(data), "\n")[:80]
	if err := os.WriteFile(mixed, []byte(strings.Join(good, "")+strings.Repeat(lines, 20)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = execute(t, "replay", mixed, "--limit", "key=ip limit=1/1s")
	if code != 0 || !strings.Contains(errOut, "warning: 20 of 100 lines (20.0%) did not parse") || !strings.Contains(out, "warning: 20 of 100") {
		t.Errorf("exit %d, stderr %q, stdout %q; want 0 and the warning in both", code, errOut, out)
	}
}
