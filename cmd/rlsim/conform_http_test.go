package main

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rlsim/rlsim/conform"
)

const (
	gatewayScenario      = "../../conform/testdata/gateway.yaml"       // fixed_window 10/s, two users at twice it
	gatewayUnderScenario = "../../conform/testdata/gateway_under.yaml" // fixed_window 100/s, one user at 50/s
)

// fixedWindow is a gateway for the tests: per X-Key a fixed window of limit a
// second aligned to the Unix epoch, refusals (429) not counted; with every > 0
// it also refuses every every-th request it receives. It counts requests.
type fixedWindow struct {
	limit, every int
	mu           sync.Mutex
	counts       map[string][2]int64
	hits         atomic.Int64
}

func startFixedWindow(t *testing.T, limit, every int) (*httptest.Server, *fixedWindow) {
	t.Helper()
	g := &fixedWindow{limit: limit, every: every, counts: map[string][2]int64{}}
	srv := httptest.NewServer(g)
	t.Cleanup(srv.Close)
	return srv, g
}

func (g *fixedWindow) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := g.hits.Add(1)
	g.mu.Lock()
	key, win := r.Header.Get("X-Key"), time.Now().Unix()
	c := g.counts[key]
	if c[0] != win {
		c = [2]int64{win, 0}
	}
	status := http.StatusOK
	switch {
	case g.every > 0 && n%int64(g.every) == 0, c[1] >= int64(g.limit):
		status = http.StatusTooManyRequests
	default:
		c[1]++
	}
	g.counts[key] = c
	g.mu.Unlock()
	w.WriteHeader(status)
}

// TestConformHTTPBadInput: every problem of a --http command line is told at
// once, with exit status 2, before any request reaches the gateway.
func TestConformHTTPBadInput(t *testing.T) {
	srv, g := startFixedWindow(t, 10, 0)
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"with --redis", []string{"--http", srv.URL, "--redis", "127.0.0.1:1", "--lane", "fixed_window", gatewayScenario},
			[]string{"--redis: either --redis or --http"}},
		{"no lane", []string{"--http", srv.URL, gatewayScenario}, []string{"--lane: say which lane"}},
		{"every flag wrong", []string{"--http", "localhost:80", "--key-header", "X Key", "--path", "api", "--time-scale", "10",
			"--clock", "server", "--replicas", "2", "--tolerance", "-1ms", "--format", "xml"},
			[]string{"missing the scenario", `--http: "localhost:80" is not an absolute http`, `--key-header: "X Key"`, `--path: "api"`,
				"--time-scale: a gateway limits on its own wall clock: must be 1 with --http, got 10", "--clock: not with --http",
				"--replicas: not with --http", "--tolerance: must not be negative", `--format: unknown format "xml"`}},
		{"unknown lane", []string{"--http", srv.URL, "--lane", "gcra", gatewayScenario},
			[]string{"gateway.yaml has no lane named gcra (its lanes: fixed_window)"}},
		{"no rate limiter", []string{"--http", srv.URL, "--lane", "aimd", "demo"}, []string{"lane aimd is no rate limiter"}},
		{"tolerance of a window", []string{"--http", srv.URL, "--lane", "fixed_window", "--tolerance", "1s", gatewayScenario},
			[]string{"--tolerance: ", "not below the limit's window 1s"}},
		{"too long", []string{"--http", srv.URL, "--lane", "fixed_window", "--max-wall", "1s", gatewayScenario},
			[]string{"over --max-wall 1s"}},
		{"no such log", []string{"--http", srv.URL, "--lane", "fixed_window", "--access-log", "/nonexistent/a.log", gatewayScenario},
			[]string{"--access-log: "}},
		{"http flags with --redis", []string{"--redis", "127.0.0.1:1", "--path", "/x", "--access-log", "a.log", "--clock", "wall", "demo"},
			[]string{"--path: only with --http", "--access-log: only with --http", `--clock: unknown clock "wall"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := execute(t, append([]string{"conform"}, tt.args...)...)
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
	if n := g.hits.Load(); n != 0 {
		t.Errorf("%d requests reached the gateway; want none", n)
	}
}

// TestConformHTTPFlags: --http takes the shared flags as given, --time-scale 1
// unless set, and the lane by the scenario's name for it.
func TestConformHTTPFlags(t *testing.T) {
	var got *conform.GatewayFlags
	cmd := NewCmdConform(&bytes.Buffer{}, func(o *conformOptions) error { got = o.Gateway; return nil })
	cmd.SetArgs([]string{"--http", "http://127.0.0.1:8080", "--lane", "edge", "--key-header", "X-Api-Key", "--path", "/api",
		"--tolerance", "5ms", "--access-log", "a.log", "--format", "json", "--show", "2", "--max-wall", "1m", "s.yaml"})
	if err := cmd.ExecuteContext(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := conform.GatewayFlags{Scenario: "s.yaml", URL: "http://127.0.0.1:8080", Lane: "edge", KeyHeader: "X-Api-Key", Path: "/api",
		Tolerance: 5 * time.Millisecond, AccessLog: "a.log", Format: "json", Show: 2, Scale: 1, MaxEvents: defaultMaxEvents, MaxWall: time.Minute}
	if got == nil || !reflect.DeepEqual(*got, want) {
		t.Errorf("flags %+v; want %+v", got, want)
	}
}

// TestConformHTTPAgrees: a gateway that is the scenario's fixed window agrees
// with its lane: exit 0, the table on stdout, nothing on stderr.
func TestConformHTTPAgrees(t *testing.T) {
	t.Parallel()
	srv, g := startFixedWindow(t, 10, 0)
	code, out, errOut := execute(t, "conform", "--http", srv.URL, "--lane", "fixed_window", gatewayScenario)
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q; want 0 and nothing\n%s", code, errOut, out)
	}
	for _, w := range []string{"against the gateway at " + srv.URL, "the instants the requests were sent",
		"lane          sent  agreed  within tolerance  differed  no decision", "\nfixed_window  47  "} {
		if !strings.Contains(out, w) {
			t.Errorf("stdout does not say %q:\n%s", w, out)
		}
	}
	if n := g.hits.Load(); n != 47 {
		t.Errorf("the gateway got %d requests; want the lane's 47 attempts", n)
	}
}

// TestConformHTTPDiffers: a gateway that also refuses every 7th request
// differs from the lane on each, under the limit: exit 1, the differences shown,
// and the JSON says the same, whole.
func TestConformHTTPDiffers(t *testing.T) {
	t.Parallel()
	srv, _ := startFixedWindow(t, 100, 7)
	code, out, errOut := execute(t, "conform", "--http", srv.URL, "--lane", "fixed_window", "--format", "json", "--show", "2", gatewayUnderScenario)
	if code != exitCheckFailed || !strings.Contains(errOut, "conform: fixed_window: 4 requests decided otherwise than the lane beyond the tolerance, 0 with no decision") {
		t.Fatalf("exit %d, stderr %q; want 1 and the 4 differences told", code, errOut)
	}
	r, err := conform.ReadGatewayJSON(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	c := r.Lanes[0]
	if c.Sent != 30 || c.Differed != 4 || c.Agreed != 26 || len(c.Diffs) != 2 || c.Diffs[0].Status != 429 || !c.Diffs[0].LaneAdmitted {
		t.Errorf("sent %d, differed %d, agreed %d, shown %+v; want 30 sent, the 4 7th refused where the lane admits, 2 shown", c.Sent, c.Differed, c.Agreed, c.Diffs)
	}
}

// TestConformHTTPUnreachable: a port nothing listens on ends the command with
// exit status 3 and nothing on stdout.
func TestConformHTTPUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	code, out, errOut := execute(t, "conform", "--http", "http://"+addr, "--lane", "fixed_window", gatewayScenario)
	if code != exitUnfinished || out != "" || !strings.Contains(errOut, "cannot be reached") {
		t.Errorf("exit %d, stdout %q, stderr %q; want 3, nothing, and why", code, out, errOut)
	}
}
