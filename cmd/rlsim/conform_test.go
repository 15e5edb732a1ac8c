package main

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rlsim/rlsim/conform"
)

// TestConformPrintsEveryScript checks that --print-script writes each
// reference script exactly as shipped.
func TestConformPrintsEveryScript(t *testing.T) {
	for _, s := range conform.Scripts() {
		t.Run(s.Name, func(t *testing.T) {
			code, out, errOut := execute(t, "conform", "--print-script", s.Name)
			if code != 0 || out != s.Source {
				t.Errorf("exit %d, stderr %q; printed the script: %v", code, errOut, out == s.Source)
			}
		})
	}
}

// TestConformBadInput checks that every problem of a command line is told at
// once, with exit status 2, before any Redis is called.
func TestConformBadInput(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"unknown script", []string{"conform", "--print-script", "gcrra"},
			[]string{`--print-script: unknown script "gcrra"`, "gcra_racy_write"}},
		{"nothing to check", []string{"conform"},
			[]string{"missing the scenario", "--redis: missing the address"}},
		{"every flag wrong", []string{"conform", "--redis", "127.0.0.1:1", "--script", "x.lua", "--clock", "wall",
			"--time-scale", "0.5", "--tolerance", "-1s", "--runs", "0", "demo"},
			[]string{"--script: say which lane", `--clock: unknown clock "wall"`, "--time-scale: must be between 1 and 1000000, got 0.5",
				"--tolerance: must not be negative", "--runs: must be between 1 and 1000, got 0"}},
		{"too long in real time", []string{"conform", "--redis", "127.0.0.1:1", "--time-scale", "1", "--replicas", "1,4", "--max-wall", "1m", "demo"},
			[]string{"demo.yaml: the check would take about ", "(12 race runs included), over --max-wall 1m0s"}},
		{"server clock scaled", []string{"conform", "--redis", "127.0.0.1:1", "--clock", "server", "demo"},
			[]string{"the server clock runs in real time: must be 1, got 10"}},
		{"a chain of several limits", []string{"conform", "--redis", "127.0.0.1:1", "store-outage"},
			[]string{"store-outage.yaml: limits: conform checks a chain of one limit, got 3"}},
		{"a lane without a script", []string{"conform", "--redis", "127.0.0.1:1", "--lane", "aimd", "demo"},
			[]string{"lane aimd has no limiter script"}},
		{"a contention study", []string{"conform", "--redis", "127.0.0.1:1", "backoff-contention"},
			[]string{"not a contention study"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := execute(t, tt.args...)
			if code != exitBadInput || out != "" {
				t.Errorf("exit %d, stdout %q; want %d and nothing", code, out, exitBadInput)
			}
			for _, w := range tt.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr %q does not say %q", errOut, w)
				}
			}
		})
	}
}

// listenCounting listens on a free loopback port and counts the connections it
// accepts, answering none; it stops at the test's end.
func listenCounting(t *testing.T) (addr string, accepted func() int64) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var n atomic.Int64
	var conns []net.Conn
	var mu sync.Mutex
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			n.Add(1)
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
	})
	return l.Addr().String(), n.Load
}

// TestConformRefusesHostileNumbers gives each numeric flag NaN, infinities,
// huge, zero and negative values: each that is not a value the flag can mean
// is refused with exit status 2, naming the flag, before any connection to
// Redis is tried.
func TestConformRefusesHostileNumbers(t *testing.T) {
	addr, accepted := listenCounting(t)
	tests := []struct {
		flag   string
		values []string
	}{
		{"--time-scale", []string{"NaN", "nan", "Inf", "+Inf", "-Inf", "1e400", "1e300", "1000001", "0", "-0", "0.5", "-1"}},
		{"--tolerance", []string{"NaN", "Inf", "-1ns", "-1s", "2562048h", "1000000h", "1s"}},
		{"--show", []string{"NaN", "Inf", "1e9", "9223372036854775807", "9223372036854775808", "-1"}},
		{"--replicas", []string{"NaN", "Inf", "0", "-1", "65", "1,0", "9223372036854775807"}},
		{"--runs", []string{"NaN", "Inf", "0", "-1", "1001", "9223372036854775807", "4611686018427387904"}},
		{"--max-events", []string{"NaN", "Inf", "0", "-1", "9223372036854775808"}},
		{"--max-wall", []string{"NaN", "Inf", "0", "0s", "-1s", "2562048h"}},
	}
	for _, tt := range tests {
		for _, v := range tt.values {
			t.Run(tt.flag+"="+v, func(t *testing.T) {
				args := []string{"conform", "--redis", addr, tt.flag + "=" + v, "demo"}
				if tt.flag == "--runs" {
					args = append(args, "--replicas", "1")
				}
				code, out, errOut := execute(t, args...)
				if code != exitBadInput || out != "" || !strings.Contains(errOut, tt.flag) {
					t.Errorf("exit %d, stdout %q, stderr %q; want exit %d naming %s", code, out, errOut, exitBadInput, tt.flag)
				}
			})
		}
	}
	if n := accepted(); n != 0 {
		t.Errorf("%d connections to the Redis address: a refused flag must stop conform before it connects", n)
	}
}

// startRedisServer starts a redis-server on a free loopback port with no
// persistence for the test, stopped at its end; without one the test skips
// (under CI=true it fails).
func startRedisServer(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI must run this test against a real redis-server: %v", err)
		}
		t.Skipf("no redis-server (%v); install it: apt-get install -y redis-server", err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(bin, "--port", fmt.Sprint(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if strings.Contains(sc.Text(), "Ready to accept connections") {
			go func() {
				for sc.Scan() {
				}
			}()
			return fmt.Sprintf("127.0.0.1:%d", port)
		}
	}
	t.Fatalf("redis-server on port %d exited before it was ready", port)
	return ""
}

// TestConformExitStatuses runs conform end to end: a script that answers
// nonsense exits 1 (it once exited 0, its answers explained by the clock); a
// Redis that nothing listens for, or that never answers, exits 3 (the run
// could not finish), writing nothing.
func TestConformExitStatuses(t *testing.T) {
	t.Parallel() // its own tmux server or Redis, and ports of its own
	refused, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	nobody := refused.Addr().String()
	refused.Close()
	silent, _ := listenCounting(t)
	redisAddr := startRedisServer(t)
	tests := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"a script answering nonsense", []string{"--redis", redisAddr, "--script", "../../conform/testdata/absurd.lua", "--lane", "token_bucket",
			"--clock", "scheduled", "--time-scale", "100"}, exitCheckFailed,
			[]string{"conform: token_bucket: ", " attempts decided otherwise than the exact algorithm at the same instants (",
				" of them answers outside the calling convention; the first: now is "}},
		{"nothing listens", []string{"--redis", nobody}, exitUnfinished,
			[]string{"conform: redis at " + nobody + ": lane ", ": loading script ", "connection refused; the run could not finish"}},
		{"never answers", []string{"--redis", silent}, exitUnfinished,
			[]string{"conform: redis at " + silent + ": lane ", ": loading script ", "; the run could not finish"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := execute(t, append(append([]string{"conform"}, tt.args...), "demo")...)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr %q", code, tt.code, errOut)
			}
			if tt.code == exitUnfinished && out != "" {
				t.Errorf("the run could not finish, yet wrote %q", out)
			}
			for _, w := range tt.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr %q does not say %q", errOut, w)
				}
			}
		})
	}
}
