package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// Every command is tested for each exit status it can return (rlsim --help:
// 0 done, 1 a finished run whose check failed, 2 bad input, 3 could not
// finish). The table below holds, per command of the tree, an invocation per
// status; a status a command cannot return says why, and one tested elsewhere
// names the test. A command the table does not hold, or a status it does not
// account for, fails the test, so a new command or a new way to end is
// covered the day it is added. On 2 and 3 standard output must hold nothing:
// nothing half-written for a program to read as a result.
//
// The signal statuses are tested on the real binary, not here:
// TestRealBinary/"signals stop a run and leave nothing" (binary_test.go,
// checkSignals: rlsim run stopped by SIGINT, SIGTERM and SIGHUP exits 130,
// 143 and 129, leaving nothing), TestRealBinary/"tui stops on SIGTERM and
// restores the terminal" (143), TestReplayInterrupted (replay_signal_test.go),
// TestTuiSetupStopsWhenInterrupted (tui_test.go); every command stops with 130
// at its first look at a cancelled context in TestEveryNumberFlagRefusesOrMeans
// (flags_test.go, executeCancelled), and TestEveryDocumentedExitStatusIsGiven
// (exit_gaps_test.go) holds each kind of end to the status the help gives it.

// statusCase is one invocation and the exit status it must end with.
type statusCase struct {
	status int
	args   []string
	lost   bool   // standard output fails every write, as >/dev/full does
	json   bool   // on status 2, standard output is one whole JSON document (a machine-readable verdict)
	why    string // what the case is, when the arguments do not say it
}

// statusNotHere is a status a command does not return, or returns only where
// another test can reach it, and why.
type statusNotHere map[int]string

// lostOutput is a standard output that fails every write.
type lostOutput struct{ tried int }

var errLostOutput = errors.New("no space left on device")

func (w *lostOutput) Write(p []byte) (int, error) {
	w.tried += len(p)
	return 0, errLostOutput
}

// statusTable is every command with its cases, and the statuses it cannot
// return here.
func statusTable(t *testing.T) (map[string][]statusCase, map[string]statusNotHere) {
	dir := t.TempDir()
	tiny := filepath.Join("testdata", "numbers", "tiny.yaml")
	accessLog := filepath.Join("testdata", "numbers", "access.log")
	nginxConf := filepath.Join("..", "..", "importer", "testdata", "nginx", "minimal.conf")
	problems := filepath.Join("..", "..", "importer", "testdata", "nginx", "problems.conf")
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("clients: [{arrivals: [{kind: constnt, rate: 1/s}]}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	diffOld := filepath.Join("..", "..", "docs", "examples", "diff", "old.conf")
	diffNew := filepath.Join("..", "..", "docs", "examples", "diff", "new.conf")
	diffLog := filepath.Join("..", "..", "docs", "examples", "diff", "sample.log")
	replayPartial := filepath.Join(dir, "rpart.json")
	code, out, errOut := execute(t, "replay", accessLog, "--limit", "key=ip limit=10/1s", "--shard", "0/1")
	if code != 0 {
		t.Fatalf("a replay partial to merge: exit %d, %s", code, errOut)
	}
	if err := os.WriteFile(replayPartial, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	partial := filepath.Join(dir, "part.json")
	code, out, errOut = execute(t, "sweep", tiny, "--vary", "limits[0].limit=4,6", "--shard", "0/1")
	if code != 0 {
		t.Fatalf("a partial to merge: exit %d, %s", code, errOut)
	}
	if err := os.WriteFile(partial, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	// A report folder that cannot be made: /proc takes no new directory.
	unmakeable := "/proc/rlsim-status-test"
	// A port nothing listens on, and one already taken.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	nobody := l.Addr().String()
	l.Close()
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { busy.Close() })
	failing := `checks=[{metric: peak_ratio, op: "<=", value: 1}]` // tiny admits 1.6× its limit
	vary := []string{"--vary", "limits[0].limit=4,6"}
	sweep := append([]string{tiny}, vary...)
	replay := []string{accessLog, "--limit", "key=ip limit=10/1s"}
	completion := func() []statusCase {
		return []statusCase{{status: 0}, {status: 2, args: []string{"x"}}, {status: 3, lost: true}}
	}
	cases := map[string][]statusCase{
		"rlsim": {
			{status: 0, args: []string{"--version"}},
			{status: 2, args: []string{"nosuchcommand"}},
			{status: 3, args: []string{"--help"}, lost: true},
		},
		// A scenario on standard input ("rlsim run -") is TestScenarioFromStdin's
		// (stdin_test.go), "--trace -" alone TestTraceToStdout's.
		"run": {
			{status: 0, args: []string{tiny}},
			{status: 0, args: []string{"--limit", "key=ip limit=10/1s", "--traffic", "1 constant 5/s", "--print-scenario"}},
			{status: 1, args: []string{tiny, "--set", failing}, why: "a failed check"},
			{status: 1, args: []string{tiny, "--seeds", "2", "--set", failing}, why: "a failed check on the means over seeds"},
			{status: 2, args: []string{tiny, "--format", "xml"}},
			{status: 2, args: []string{bad}},
			{status: 2, args: []string{"--limit", "key=ip", "--traffic", "1 constant 1/s"}},
			{status: 2, args: []string{tiny, "--config", problems, "--strict"}},
			{status: 3, args: []string{tiny}, lost: true},
			{status: 3, args: []string{tiny, "--format", "json"}, lost: true},
			{status: 3, args: []string{tiny, "--out", unmakeable}},
			{status: 3, args: []string{tiny, "--trace", "-", "--out", unmakeable}, why: "the trace on stdout, the report folder not made"},
		},
		"validate": {
			{status: 0, args: []string{tiny}},
			{status: 2, args: []string{bad}},
			{status: 2, args: []string{bad, "-o", "json"}, json: true},
			{status: 2, args: []string{tiny, "--config", problems, "--strict"}},
			{status: 3, args: []string{tiny}, lost: true},
			{status: 3, args: []string{tiny, "-o", "json"}, lost: true},
		},
		"scenarios": {
			{status: 0},
			{status: 0, args: []string{"-o", "json"}},
			{status: 2, args: []string{"x"}},
			{status: 3, lost: true},
		},
		"scenarios show": {
			{status: 0, args: []string{"demo"}},
			{status: 2, args: []string{"nosuch"}},
			{status: 2},
			{status: 3, args: []string{"demo"}, lost: true},
		},
		"schema": {
			{status: 0},
			{status: 2, args: []string{"x"}},
			{status: 3, lost: true},
		},
		"version": {
			{status: 0},
			{status: 0, args: []string{"-o", "json"}},
			{status: 2, args: []string{"-o", "xml"}},
			{status: 3, lost: true},
		},
		"tui": {
			{status: 2, args: []string{tiny}, why: "its output is not a terminal"},
			{status: 2, args: []string{tiny, "x"}},
			{status: 2, args: []string{tiny, "--lanes", "nosuch"}},
		},
		"serve": {
			{status: 2, args: []string{"--addr", "127.0.0.1:99999"}},
			{status: 2, args: []string{"--addr", busy.Addr().String()}, why: "the address is taken"},
			{status: 2, args: []string{"a", "b"}},
			{status: 3, args: []string{"--addr", "127.0.0.1:0"}, lost: true, why: "its address cannot be told, so it stops"},
		},
		"conform": {
			{status: 0, args: []string{"--print-script", "gcra"}},
			{status: 2},
			{status: 2, args: []string{tiny, "--redis", nobody, "--clock", "nosuch"}},
			{status: 3, args: []string{tiny, "--redis", nobody}, why: "Redis cannot be reached"},
			{status: 3, args: []string{"--print-script", "gcra"}, lost: true},
		},
		"sweep": {
			{status: 0, args: sweep},
			{status: 0, args: append(slices.Clone(sweep), "--find", "min limits[0].limit", "--where", "refused_rate <= 0%"),
				why: "a --where no point meets is an answer, not a failed check"},
			{status: 2, args: []string{tiny}},
			{status: 2, args: []string{tiny, "--vary", "limits[0].nosuch=1,2"}},
			{status: 3, args: sweep, lost: true},
			{status: 3, args: append(slices.Clone(sweep), "--out", unmakeable)},
		},
		"sweep merge": {
			{status: 0, args: []string{partial}},
			{status: 2, args: []string{tiny}},
			{status: 2},
			{status: 3, args: []string{partial}, lost: true},
			{status: 3, args: []string{partial, "--out", unmakeable}},
		},
		"replay": {
			{status: 0, args: replay},
			{status: 0, args: append(slices.Clone(replay), "--lane", "sliding_window_counter", "--vary", "limits[0].limit=1",
				"--find", "min limits[0].limit", "--where", "refused <= 0"), why: "a --where no value meets is an answer, not a failed check"},
			{status: 2, args: []string{accessLog}},
			{status: 2, args: []string{accessLog, "--limit", "key=nosuch limit=1/1s"}},
			{status: 2, args: []string{dir, "--limit", "key=ip limit=1/1s"}, why: "a folder is not a log"},
			{status: 3, args: replay, lost: true},
			{status: 3, args: append(slices.Clone(replay), "-o", "json", "--out", unmakeable)},
		},
		"diff": {
			{status: 0, args: []string{diffOld, diffNew, "--log", diffLog}},
			{status: 1, args: []string{diffOld, diffNew, "--log", diffLog, "--fail-on", "newly_refused_keys_below_p99 > 0"}, why: "a --fail-on that holds"},
			{status: 2, args: []string{diffOld, diffNew, "--log", diffLog, "--fail-on", "nosuch > 0"}},
			{status: 2, args: []string{diffOld}},
			{status: 3, args: []string{diffOld, diffNew, "--log", diffLog}, lost: true},
		},
		"replay merge": {
			{status: 0, args: []string{replayPartial}},
			{status: 2, args: []string{tiny}, why: "not a partial"},
			{status: 2},
			{status: 3, args: []string{replayPartial}, lost: true},
		},
		"import": {
			{status: 0, args: []string{nginxConf}},
			{status: 0, args: []string{problems}, why: "its problems are warnings"},
			{status: 2, args: []string{problems, "--strict"}},
			{status: 2, args: []string{nginxConf, "--from", "kong"}},
			{status: 2},
			{status: 3, args: []string{nginxConf}, lost: true},
		},
		"completion": {
			{status: 0},
			{status: 2, args: []string{"--nosuch"}},
			{status: 2, args: []string{"nosh"}, why: "no such shell"},
			{status: 3, lost: true},
		},
		"completion bash":       completion(),
		"completion zsh":        completion(),
		"completion fish":       completion(),
		"completion powershell": completion(),
		"help": {
			{status: 0, args: []string{"run"}},
			{status: 2, args: []string{"--nosuch"}},
			{status: 2, args: []string{"nosuch"}, why: "no such command"},
			{status: 3, args: []string{"run"}, lost: true},
		},
	}
	noCheck := "it has no checks: 1 is a finished run whose check failed"
	notHere := map[string]statusNotHere{
		"rlsim":          {1: noCheck},
		"validate":       {1: "it runs nothing, so no check is measured"},
		"scenarios":      {1: noCheck},
		"scenarios show": {1: noCheck},
		"schema":         {1: noCheck},
		"version":        {1: noCheck},
		"tui": {
			0: "needs a terminal: TestTuiInTmux (tui_test.go) plays it to its end in tmux",
			1: noCheck,
			3: "its only output is the terminal it checks first (status 2 when it is not one)",
		},
		"serve": {
			0: "TestServeServesAndStops (serve_test.go) serves the page and stops cleanly",
			1: noCheck,
		},
		"conform": {1: "differences need a limiter to differ from: TestConformHTTPDiffers (conform_http_test.go, a gateway " +
			"refusing every 7th request) and TestConformExitStatuses (conform_test.go, a script on a real Redis answering nonsense)"},
		"sweep":        {1: "a sweep measures and recommends; it gates nothing (see its --where case)"},
		"sweep merge":  {1: "as rlsim sweep"},
		"replay":       {1: "a replay measures and recommends; it gates nothing (see its --where case)"},
		"replay merge": {1: "as rlsim replay"},
		"import":       {1: noCheck},
		"completion":   {1: noCheck},
		"help":         {1: noCheck},
	}
	for _, shell := range []string{"bash", "zsh", "fish", "powershell"} {
		notHere["completion "+shell] = statusNotHere{1: noCheck}
	}
	return cases, notHere
}

// commandPaths is every command of the tree, help and completion included
// (cobra adds them when the root runs), by its path below the root; the root
// itself is "rlsim".
func commandPaths() []string {
	root := NewCmdRoot(io.Discard, nil)
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	paths := []string{"rlsim"}
	walkCommands(root, func(path string, c *cobra.Command) {
		if !c.Hidden {
			paths = append(paths, path)
		}
	})
	return paths
}

func TestEveryCommandIsTestedForEachStatus(t *testing.T) {
	if _, err := os.Stat("/proc/self"); err != nil {
		t.Skip("the unmakeable report folder is under /proc, which this system does not have")
	}
	cases, notHere := statusTable(t)
	paths := commandPaths()
	for _, path := range paths {
		if _, ok := cases[path]; !ok {
			t.Errorf("rlsim %s is not in the table of exit statuses: give it a case for each status it can return", path)
			continue
		}
		for status := 0; status <= 3; status++ {
			given := slices.ContainsFunc(cases[path], func(c statusCase) bool { return c.status == status })
			why, explained := notHere[path][status]
			switch {
			case given && explained:
				t.Errorf("rlsim %s: status %d is both tested here and said not to be (%s)", path, status, why)
			case !given && !explained:
				t.Errorf("rlsim %s: no case ends with status %d, and nothing says why it cannot", path, status)
			}
		}
	}
	for path := range cases {
		if !slices.Contains(paths, path) {
			t.Errorf("the table holds rlsim %s, which is no command", path)
		}
	}
	for _, path := range paths {
		for _, c := range cases[path] {
			args := c.args
			if path != "rlsim" {
				args = append(strings.Fields(path), c.args...)
			}
			name := fmt.Sprintf("%d %s", c.status, strings.Join(args, " "))
			if c.lost {
				name += " >/dev/full"
			}
			t.Run(name, func(t *testing.T) { checkStatus(t, args, c) })
		}
	}
}

// checkStatus runs args as mainRun does and holds it to c.
func checkStatus(t *testing.T, args []string, c statusCase) {
	var out bytes.Buffer
	var stdout io.Writer = &out
	lost := &lostOutput{}
	if c.lost {
		stdout = lost
	}
	var errOut bytes.Buffer
	code := mainRun(append([]string{}, args...), stdout, &errOut)
	if code != c.status {
		t.Fatalf("exit %d, want %d (%s); stderr %q", code, c.status, c.why, errOut.String())
	}
	switch {
	case c.lost:
		if lost.tried == 0 {
			t.Errorf("nothing was written to the lost output, so the case tests nothing")
		}
		if want := "rlsim: writing the output failed: " + errLostOutput.Error() + "\n"; withoutDetection(errOut.String()) != want {
			t.Errorf("stderr %q, want %q alone", errOut.String(), want)
		}
	case c.status >= 2 && c.json:
		var v any
		if err := json.Unmarshal(out.Bytes(), &v); err != nil {
			t.Errorf("stdout is not one whole JSON document: %v\n%s", err, out.String())
		}
	case c.status >= 2 && out.Len() > 0:
		t.Errorf("exit %d, yet stdout holds %q", code, out.String())
	}
	if c.status != 0 && errOut.Len() == 0 {
		t.Errorf("exit %d says nothing on stderr", code)
	}
}

// withoutDetection is stderr without replay's line naming the log format it
// detected, which a lost standard output does not silence.
func withoutDetection(stderr string) string {
	var kept []string
	for _, line := range strings.SplitAfter(stderr, "\n") {
		if !strings.HasPrefix(line, "rlsim replay: read as ") {
			kept = append(kept, line)
		}
	}
	return strings.Join(kept, "")
}
