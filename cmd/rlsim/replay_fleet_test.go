package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fleetScenario has product lanes (one that delays) behind a topology of
// three replicas, each counting alone.
const fleetScenario = `duration: 10s
limits:
  - {name: per-ip, key: ip, limit: 5, window: 1s}
topology: {replicas: 3}
lanes:
  - {name: edge, algorithm: nginx, nginx: {rate: 5r/s, burst: 4}}
  - kong
  - gcra
clients:
  - {name: c, arrivals: [{kind: constant, rate: 20/s}]}
`

// TestReplayScenarioFleetAndProducts: --scenario with product lanes and a
// topology replays through the lanes, with their sections, and the fleet:
// the text shows the delays (nginx queues) and the fleet table; --replicas
// 1 replaces the scenario's fleet by one limiter.
func TestReplayScenarioFleetAndProducts(t *testing.T) {
	dir := t.TempDir()
	sc := filepath.Join(dir, "fleet.yaml")
	if err := os.WriteFile(sc, []byte(fleetScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := execute(t, "replay", sampleLog, "--scenario", sc)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, w := range []string{"would delay", "edge ", "kong ", "through 3 replicas (round_robin)", "fleet max", "admitted beyond limit"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	code, out, errOut = execute(t, "replay", sampleLog, "--scenario", sc, "--replicas", "1")
	if code != 0 || strings.Contains(out, "through") {
		t.Errorf("--replicas 1: exit %d, %s%s; want one limiter, no fleet table", code, out, errOut)
	}
}

// TestReplayFleetFlagErrors: the fleet's and --config's flags name
// themselves, all at once, exit 2.
func TestReplayFleetFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"--limit", "key=ip limit=1/1s", "--replicas", "1001", "--routing", "sticky", "--state", "synced"},
			[]string{"--replicas: want a whole number from 1 to 1000", `--routing: unknown "sticky"`, `--state: unknown "synced"`}},
		{[]string{"--limit", "key=ip limit=1/1s", "--replicas", "0"}, []string{"--replicas: want a whole number from 1 to 1000"}},
		{[]string{"--limit", "key=ip limit=1/1s", "--state", "shared"}, []string{"--state: needs --replicas above 1"}},
		{[]string{"--limit", "key=ip limit=1/1s", "--replicas", "3", "--hash-key", "user"}, []string{"--hash-key: needs --routing hash"}},
		{[]string{"--config", "no-such.conf"}, []string{"--config"}},
		{[]string{"--config", "a.conf", "--scenario", "demo"}, []string{"give --scenario or --config, not both"}},
		{[]string{"--limit", "key=ip limit=1/1s", "--from", "nginx"}, []string{"--from: needs --config"}},
	} {
		code, out, errOut := execute(t, append([]string{"replay", sampleLog}, tc.args...)...)
		if code != exitBadInput || out != "" {
			t.Errorf("%v: exit %d, stdout %q; want 2 and nothing", tc.args, code, out)
		}
		for _, w := range tc.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("%v: stderr %q lacks %q", tc.args, errOut, w)
			}
		}
	}
}

// TestReplayDocsFleetExamples: every command in docs/replay.md's "Product
// lanes and configs" and "Through a fleet" prints what the page shows (a
// command written "$ ... FLAGS" is the one before with FLAGS added, its
// output the end of what it prints).
func TestReplayDocsFleetExamples(t *testing.T) {
	data, err := os.ReadFile("../../docs/replay.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	from, to := strings.Index(s, "## Product lanes and configs"), strings.Index(s, "## A scenario from a log")
	if from < 0 || to < from {
		t.Fatal("docs/replay.md lacks the sections")
	}
	var last []string
	n := 0
	for _, block := range strings.Split(s[from:to], "```")[1:] {
		if !strings.HasPrefix(block, "\n$ ") {
			continue
		}
		for _, ex := range strings.Split(block[1:], "$ ")[1:] {
			cmd, out, _ := strings.Cut(strings.ReplaceAll(ex, "\\\n", ""), "\n")
			args := strings.Fields(strings.ReplaceAll(cmd, "'", ""))
			tail := args[0] == "..."
			if tail {
				args = append(slices.Clone(last), args[1:]...)
			} else {
				args = args[1:]
				last = args
			}
			var run []string
			for i := 0; i < len(args); i++ {
				a := strings.ReplaceAll(args[i], "replay/testdata", "../../replay/testdata")
				if a == "--limit" { // its value, unquoted above, is one argument
					a, i = "--limit", i+1
					run = append(run, a, args[i]+" "+args[i+1])
					i++
					continue
				}
				run = append(run, a)
			}
			code, got, errOut := execute(t, run...)
			n++
			if code != 0 || (!tail && got != out) || (tail && !strings.HasSuffix(got, out)) {
				t.Errorf("%s: exit %d, %s\n%s\nwant\n%s", cmd, code, errOut, got, out)
			}
		}
	}
	if n < 7 {
		t.Errorf("ran %d examples, want 7", n)
	}
}
