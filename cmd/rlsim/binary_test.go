package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRealBinary builds rlsim once and checks what only the real process shows:
// what it sends to a terminal, how signals end it, and a lost standard output.
func TestRealBinary(t *testing.T) {
	bin := binary(t)
	t.Run("run does not query the terminal", func(t *testing.T) { checkNoTerminalQuery(t, bin) })
	t.Run("signals stop a run and leave nothing", func(t *testing.T) { checkSignals(t, bin) })
	t.Run("a full standard output fails", func(t *testing.T) { checkFullStdout(t, bin) })
	t.Run("tui stops on SIGTERM and restores the terminal", func(t *testing.T) { checkTuiTerminated(t, bin) })
}

// checkNoTerminalQuery runs "rlsim run" in a pseudo-terminal (script, from
// util-linux) and reads every byte it wrote there: no background-colour query
// (ESC ] 11) and no cursor-position request (ESC [ 6 n).
func checkNoTerminalQuery(t *testing.T, bin string) {
	if _, err := exec.LookPath("script"); err != nil {
		t.Skip("script (util-linux) is not installed, so the binary cannot be run in a terminal")
	}
	dir := t.TempDir()
	typescript := filepath.Join(dir, "typescript")
	cmd := exec.Command("script", "--quiet", "--return", "--command", bin+" run boundary-burst", typescript)
	cmd.Dir = dir
	cmd.Env = append(withoutEnv("CI", "TERM"), "TERM=xterm-256color") // termenv asks only on such a terminal
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("script: %v\n%s", err, out)
	}
	b, err := os.ReadFile(typescript)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte("token bucket")) {
		t.Fatalf("the terminal did not show the table:\n%q", b)
	}
	for _, query := range []string{"\x1b]11;", "\x1b[6n"} {
		if bytes.Contains(b, []byte(query)) {
			t.Errorf("rlsim run sent %q to the terminal:\n%q", query, b)
		}
	}
}

// withoutEnv is the environment without the named variables.
func withoutEnv(names ...string) []string {
	var env []string
next:
	for _, kv := range os.Environ() {
		for _, n := range names {
			if strings.HasPrefix(kv, n+"=") {
				continue next
			}
		}
		env = append(env, kv)
	}
	return env
}

// checkSignals stops runs with each signal, both in the simulation and while a
// large population is being set up, and checks the exit status, the time it took
// and that nothing (report, trace, staging directory) is left.
func checkSignals(t *testing.T, bin string) {
	dir := t.TempDir()
	long := filepath.Join(dir, "long.yaml")
	crowd := filepath.Join(dir, "crowd.yaml")
	os.WriteFile(long, []byte(`duration: 1h
limits: [{name: global, key: global, limit: 100, window: 1s}]
clients: [{name: steady, arrivals: [{kind: constant, rate: 2000/s}]}]
`), 0o644)
	// Setting up 300000 clients takes seconds, so an interruption there must
	// not wait for the setup to end.
	os.WriteFile(crowd, []byte(`duration: 10s
limits: [{name: per-user, key: user, limit: 10, window: 1s}]
clients: [{name: crowd, count: 300000, arrivals: [{kind: burst, at: 1s, count: 1}]}]
`), 0o644)
	for _, tc := range []struct {
		file   string
		sig    syscall.Signal
		status int
	}{
		{long, syscall.SIGINT, 130},
		{long, syscall.SIGTERM, 143},
		{long, syscall.SIGHUP, 129},
		{crowd, syscall.SIGINT, 130},
		{crowd, syscall.SIGTERM, 143},
	} {
		t.Run(fmt.Sprintf("%s %v", filepath.Base(tc.file), tc.sig), func(t *testing.T) {
			parent := t.TempDir()
			var stderr bytes.Buffer
			cmd := exec.Command(bin, "run", tc.file, "--max-events", "1000000000", "--out", "r", "--trace", "t.csv")
			cmd.Dir = parent
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			// The staging directory appears once the signal handler is set and the
			// input is read: the run has begun.
			waitFor(t, "the run to start", func() bool {
				entries, _ := os.ReadDir(parent)
				return len(entries) > 0
			})
			sent := time.Now()
			cmd.Process.Signal(tc.sig)
			err := cmd.Wait()
			took := time.Since(sent)
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != tc.status {
				t.Errorf("exit: %v, want status %d; stderr %q", err, tc.status, stderr.String())
			}
			if !strings.Contains(stderr.String(), "interrupted; nothing was written") {
				t.Errorf("stderr %q, want it to say the run was interrupted", stderr.String())
			}
			if took > 2*time.Second {
				t.Errorf("the run took %v to stop after %v, want a fraction of a second", took, tc.sig)
			}
			if entries, _ := os.ReadDir(parent); len(entries) != 0 {
				t.Errorf("left behind: %v", entries)
			}
		})
	}
}

// waitFor polls ok, which watches another process, for at most 20 seconds.
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(20 * time.Second)
	for !ok() {
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("waited 20s for %s", what)
		}
	}
}

// checkFullStdout runs commands whose output cannot be written (/dev/full):
// each must fail, saying so.
func checkFullStdout(t *testing.T, bin string) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full on this system")
	}
	defer full.Close()
	for _, args := range [][]string{{"run", "boundary-burst"}, {"run", "demo", "--format", "json"}, {"scenarios"},
		{"scenarios", "show", "demo"}, {"schema"}, {"version"}, {"--help"}} {
		var stderr bytes.Buffer
		cmd := exec.Command(bin, args...)
		cmd.Stdout = full
		cmd.Stderr = &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != exitUnfinished {
			t.Errorf("rlsim %s >/dev/full: %v, want exit status %d", strings.Join(args, " "), err, exitUnfinished)
		}
		if want := "rlsim: writing the output failed: "; !strings.HasPrefix(stderr.String(), want) ||
			strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("rlsim %s >/dev/full: stderr %q, want one line starting %q", strings.Join(args, " "), stderr.String(), want)
		}
	}
}

// checkTuiTerminated plays "rlsim tui" in a tmux pane, sends it SIGTERM and
// checks that it exits with 143 and leaves the alternate screen.
func checkTuiTerminated(t *testing.T, bin string) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed, so the binary cannot be played in a terminal (apt-get install tmux; .ci/run does)")
	}
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	socket := fmt.Sprintf("rlsim-term-%d", os.Getpid()) // a tmux server of our own
	tmux := func(args ...string) string {
		cmd := exec.Command("tmux", append([]string{"-L", socket}, args...)...)
		cmd.Env = append(os.Environ(), "TERM=xterm-256color")
		out, _ := cmd.CombinedOutput()
		return strings.TrimSpace(string(out))
	}
	t.Cleanup(func() { tmux("kill-server") })
	// tmux sometimes loses a dead pane's exit status, so an outer shell writes it
	// down; the inner one records its pid and becomes rlsim.
	statusFile := filepath.Join(dir, "status")
	script := fmt.Sprintf("sh -c 'echo $$ > %q; exec %q tui demo'; echo $? > %q", pidFile, bin, statusFile)
	tmux("new-session", "-d", "-s", "rlsim", "-x", "120", "-y", "40", "sh", "-c", script)
	tmux("set-option", "-t", "rlsim", "remain-on-exit", "on")
	waitFor(t, "the lanes on the alternate screen", func() bool {
		return strings.Contains(tmux("capture-pane", "-p", "-t", "rlsim"), "token bucket") &&
			tmux("display", "-p", "-t", "rlsim", "#{alternate_on}") == "1"
	})
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	fmt.Sscan(string(b), &pid)
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	var status []byte
	waitFor(t, "rlsim tui to exit", func() bool {
		status, err = os.ReadFile(statusFile)
		return err == nil && len(status) > 0
	})
	// A shell reports 143 also for a process the signal killed outright; the
	// alternate screen left on would then show it.
	if got := strings.TrimSpace(string(status)); got != "143" {
		t.Errorf("rlsim tui exited with status %s on SIGTERM, want 143", got)
	}
	if got := tmux("display", "-p", "-t", "rlsim", "#{alternate_on}"); got != "0" {
		t.Errorf("after SIGTERM the terminal is left on the alternate screen (alternate_on %q, want 0)", got)
	}
}
