package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
	"github.com/rlsim/rlsim/tui"
)

func TestTuiFlags(t *testing.T) {
	seven := uint64(7)
	tests := []struct {
		name    string
		args    []string
		want    tuiOptions
		wantErr string
	}{
		{name: "no argument plays the demo", args: []string{}, want: tuiOptions{Arg: "demo", MaxEvents: defaultMaxEvents}},
		{name: "a name and overrides", args: []string{"boundary-burst", "--seed", "7", "--lanes", "gcra"},
			want: tuiOptions{Arg: "boundary-burst", Seed: &seven, Lanes: "gcra", MaxEvents: defaultMaxEvents}},
		{name: "sets", args: []string{"--set", "limits[0].limit=3", "--set", "lanes=[gcra, aimd]"},
			want: tuiOptions{Arg: "demo", Sets: []string{"limits[0].limit=3", "lanes=[gcra, aimd]"}, MaxEvents: defaultMaxEvents}},
		{name: "a budget of events", args: []string{"--max-events", "-1"}, wantErr: "--max-events: must be positive, got -1"},
		{name: "one scenario at a time", args: []string{"a", "b"}, wantErr: "accepts at most 1 arg(s), received 2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got *tuiOptions
			cmd := NewCmdTui(&bytes.Buffer{}, func(o *tuiOptions) error { got = o; return nil })
			cmd.SetArgs(tc.args)
			cmd.SetOut(&bytes.Buffer{})
			cmd.SetErr(&bytes.Buffer{})
			err := cmd.Execute()
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got.Out, got.Ctx, got.Play, got.Err = nil, nil, nil, nil
			tc.want.Config.From = "auto"
			if !reflect.DeepEqual(*got, tc.want) {
				t.Errorf("options %+v, want %+v", *got, tc.want)
			}
		})
	}
}

// comparisons are the built-in scenarios with lanes, in the listed order.
func comparisons(t *testing.T) []string {
	return comparisonsWith(t, func(*sim.Config) bool { return true })
}

// comparisonsWith are the built-in scenarios with lanes whose config passes keep.
func comparisonsWith(t *testing.T, keep func(*sim.Config) bool) []string {
	var names []string
	for _, name := range scenarios.BuiltinNames() {
		s, err := scenarios.LoadBuiltin(name)
		if err != nil {
			t.Fatal(err)
		}
		if s.Config != nil && keep(s.Config) {
			names = append(names, name)
		}
	}
	return names
}

func TestTuiPlaylist(t *testing.T) {
	all := comparisons(t)
	mine := filepath.Join(t.TempDir(), "mine.yaml")
	src, _ := scenarios.BuiltinSource("steady-overload")
	if err := os.WriteFile(mine, src, 0o644); err != nil {
		t.Fatal(err)
	}
	i := 0
	for all[i] != "nat-per-ip" {
		i++
	}
	twoGroups := comparisonsWith(t, func(c *sim.Config) bool { return len(c.Clients) >= 2 })
	seven := uint64(7)
	tests := []struct {
		name      string
		opts      tuiOptions
		want      []string
		wantLanes []sim.LaneKind
		wantLimit int64 // of every scenario's first limit, when not 0
		wantCount int   // of every scenario's second client group, when not 0
		absent    string
		wantErr   string
	}{
		{name: "sets change every scenario", opts: tuiOptions{Arg: "demo", Sets: []string{"limits[0].limit=3"}}, want: all, wantLimit: 3},
		{name: "built-ins a set does not fit are left out", opts: tuiOptions{Arg: "demo", Sets: []string{"clients[1].count=3"}},
			want: twoGroups, wantCount: 3},
		{name: "built-ins a set makes invalid are left out", opts: tuiOptions{Arg: "nat-per-ip", Sets: []string{"clients[1].arrivals[0].kind=constant"}},
			absent: "demo"}, // its clients[1] bursts, with no rate
		{name: "a set the scenario asked for does not fit", opts: tuiOptions{Arg: "boundary-burst", Sets: []string{"clients[1].count=3"}},
			wantErr: "(--set clients[1].count=3): clients[1]"},
		{name: "a bad set", opts: tuiOptions{Arg: "demo", Sets: []string{"limits[0].limit=x"}}, wantErr: `(--set limits[0].limit=x): limits[0].limit: want a whole number, got "x"`},
		{name: "the default first, then the others in order", opts: tuiOptions{Arg: "demo"}, want: all},
		{name: "a built-in, then those after it, round the list", opts: tuiOptions{Arg: "nat-per-ip"},
			want: append(append([]string(nil), all[i:]...), all[:i]...)},
		{name: "a file, then every built-in", opts: tuiOptions{Arg: mine}, want: append([]string{"mine"}, all...)},
		{name: "flags apply to every scenario", opts: tuiOptions{Arg: "demo", Lanes: "gcra,fixed_window", Seed: &seven},
			want: all, wantLanes: []sim.LaneKind{sim.LaneGCRA, sim.LaneFixedWindow}},
		{name: "a contention study has no lanes", opts: tuiOptions{Arg: "backoff-contention"}, wantErr: "contention study"},
		{name: "unknown name", opts: tuiOptions{Arg: "demoo"}, wantErr: `did you mean "demo"?`},
		{name: "unknown lane", opts: tuiOptions{Arg: "demo", Lanes: "gcra,bogus"}, wantErr: "--lanes:"},
		{name: "a lane twice", opts: tuiOptions{Arg: "demo", Lanes: "gcra,gcra"}, wantErr: "--lanes: gcra is named twice"},
		{name: "over the event budget", opts: tuiOptions{Arg: "demo", MaxEvents: 100}, wantErr: "over the budget of 100; shorten the scenario or lift the budget with --max-events"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			list, err := playlist(&tc.opts)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || exitStatus(err) != exitBadInput {
					t.Fatalf("error %v (exit %d), want one containing %q and exit 2", err, exitStatus(err), tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, s := range list {
				names = append(names, s.Name)
				if got := s.Config.Limits[0].Policy.Limit; tc.wantLimit != 0 && got != tc.wantLimit {
					t.Errorf("%s: first limit %d, want %d", s.Name, got, tc.wantLimit)
				}
				if tc.wantCount != 0 && (len(s.Config.Clients) < 2 || s.Config.Clients[1].Count != tc.wantCount) {
					t.Errorf("%s: client groups %+v, want a second one of %d", s.Name, s.Config.Clients, tc.wantCount)
				}
				if tc.wantLanes != nil && !reflect.DeepEqual(s.Config.Lanes, tc.wantLanes) {
					t.Errorf("%s: lanes %v, want %v", s.Name, s.Config.Lanes, tc.wantLanes)
				}
				if tc.opts.Seed != nil && s.Config.Seed != *tc.opts.Seed {
					t.Errorf("%s: seed %d, want %d", s.Name, s.Config.Seed, *tc.opts.Seed)
				}
			}
			if tc.absent != "" {
				if slices.Contains(names, tc.absent) || len(names) < 2 || names[0] != tc.opts.Arg {
					t.Errorf("playlist %v, want %s first and no %s", names, tc.opts.Arg, tc.absent)
				}
				return
			}
			if !reflect.DeepEqual(names, tc.want) {
				t.Errorf("playlist %v, want %v", names, tc.want)
			}
		})
	}
}

func TestTuiNeedsATerminal(t *testing.T) {
	code, out, errOut := execute(t, "tui")
	if code != exitBadInput || out != "" || !strings.Contains(errOut, "rlsim tui draws in a terminal") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestTuiInTmux builds the real binary and plays it in a tmux terminal: the
// lanes appear, keys work and q exits with status 0. CI installs tmux (.ci/run).
func TestTuiInTmux(t *testing.T) {
	t.Parallel() // its own tmux server or Redis, and ports of its own
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed, so the binary cannot be played in a terminal (apt-get install tmux; .ci/run does)")
	}
	bin := binary(t)
	dir := t.TempDir()
	status := filepath.Join(dir, "status")
	socket := fmt.Sprintf("rlsim-test-%d", os.Getpid()) // a tmux server of our own
	tmux := func(args ...string) (string, error) {
		cmd := exec.Command("tmux", append([]string{"-L", socket}, args...)...)
		cmd.Env = append(os.Environ(), "TERM=xterm-256color")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	t.Cleanup(func() { tmux("kill-server") })
	script := fmt.Sprintf("%q tui demo; echo $? > %q", bin, status)
	if out, err := tmux("new-session", "-d", "-s", "rlsim", "-x", "120", "-y", "40", "sh", "-c", script); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	// poll captures the pane until ok accepts it, for at most 20 seconds.
	poll := func(what string, ok func(screen string) bool) string {
		t.Helper()
		var screen string
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			screen, _ = tmux("capture-pane", "-p", "-t", "rlsim")
			if ok(screen) {
				return screen
			}
		}
		t.Fatalf("%s: not within 20s; the screen:\n%s", what, screen)
		return ""
	}
	lanes := []string{"fixed window", "sliding log", "sliding window counter", "token bucket",
		"leaky bucket", "GCRA", "AIMD concurrency", "client throttling"}
	poll("the lanes and their first figures", func(s string) bool {
		for _, l := range lanes {
			if !strings.Contains(s, l) {
				return false
			}
		}
		return strings.Contains(s, "× OVER") // the fixed window overshoots at t≈3s
	})
	tmux("send-keys", "-t", "rlsim", "Space")
	poll("pause", func(s string) bool { return strings.Contains(s, "‖ paused") })
	tmux("send-keys", "-t", "rlsim", "]")
	poll("the limit raised", func(s string) bool {
		return strings.Contains(s, "limit global 13 per 1s · rules changed 1") && strings.Contains(s, "limit global 13 from t=")
	})
	tmux("send-keys", "-t", "rlsim", "Tab")
	poll("the next scenario, playing", func(s string) bool {
		return strings.Contains(s, "rlsim · "+scenarios.BuiltinNames()[1]+" (2 of") && strings.Contains(s, "▶ running")
	})
	tmux("send-keys", "-t", "rlsim", "q")
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if b, err := os.ReadFile(status); err == nil && strings.TrimSpace(string(b)) != "" {
			if got := strings.TrimSpace(string(b)); got != "0" {
				t.Errorf("rlsim tui exited with status %s after q, want 0", got)
			}
			break
		}
		if time.Now().After(deadline) {
			screen, _ := tmux("capture-pane", "-p", "-t", "rlsim")
			t.Fatalf("q did not end rlsim tui within 20s; the screen:\n%s", screen)
		}
	}
}

// TestTuiSetupStopsWhenInterrupted interrupts the view while its first scenario,
// 300000 clients, is being set up: it must stop there, never start playing.
func TestTuiSetupStopsWhenInterrupted(t *testing.T) {
	crowd := filepath.Join(t.TempDir(), "crowd.yaml")
	os.WriteFile(crowd, []byte(`duration: 10s
limits: [{name: per-user, key: user, limit: 10, window: 1s}]
clients: [{name: crowd, count: 300000, arrivals: [{kind: burst, at: 1s, count: 1}]}]
`), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	played := false
	err := tuiRun(&tuiOptions{Out: &bytes.Buffer{}, Ctx: ctx, Arg: crowd,
		Play: func(context.Context, *tui.Model, io.Writer) error { played = true; return nil }})
	if !errors.Is(err, context.Canceled) || played {
		t.Errorf("tuiRun = %v, played %v; want context.Canceled before playing", err, played)
	}
}
