package web

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
)

// serve starts a playground on a loopback port; Addr is filled in.
func serve(t *testing.T, opt Options) (*Server, string) {
	t.Helper()
	ts := httptest.NewUnstartedServer(nil)
	opt.Addr = ts.Listener.Addr().String()
	srv := New(opt)
	ts.Config.Handler = srv
	ts.Start()
	t.Cleanup(func() { srv.Close(); ts.Close() })
	return srv, ts.URL
}

// do sends one request and decodes a JSON answer into reply (when not nil).
func do(t *testing.T, method, url, body string, header http.Header, reply any) int {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if reply != nil {
		if err := json.Unmarshal(b, reply); err != nil {
			t.Fatalf("%s %s: %d %q is not JSON: %v", method, url, resp.StatusCode, b, err)
		}
	}
	return resp.StatusCode
}

func TestAllowedHost(t *testing.T) {
	for _, tc := range []struct {
		addr, host string
		want       bool
	}{
		{"127.0.0.1:8080", "127.0.0.1:8080", true},
		{"127.0.0.1:8080", "localhost:8080", true},
		{"127.0.0.1:8080", "LOCALHOST:8080", true},
		{"127.0.0.1:8080", "127.0.0.2:8080", true}, // loopback still
		{"127.0.0.1:8080", "127.0.0.1:8081", false},
		{"127.0.0.1:8080", "evil.example:8080", false}, // DNS rebinding
		{"127.0.0.1:8080", "127.0.0.1", false},
		{"127.0.0.1:8080", "", false},
		{"[::1]:8080", "[::1]:8080", true},
		{"[::1]:8080", "localhost:8080", true},
		{"0.0.0.0:8080", "192.168.1.20:8080", true},
		{"0.0.0.0:8080", "evil.example:8080", false},
		{"192.168.1.20:8080", "192.168.1.20:8080", true},
		{"192.168.1.20:8080", "192.168.1.21:8080", false},
		{"192.168.1.20:8080", "localhost:8080", false},
		{"play.example:8080", "play.example:8080", true},
		{"play.example:8080", "other.example:8080", false},
	} {
		if got := allowedHost(tc.addr, tc.host); got != tc.want {
			t.Errorf("allowedHost(%q, %q) = %v, want %v", tc.addr, tc.host, got, tc.want)
		}
	}
}

// Another site cannot drive the server: a foreign Host (DNS rebinding) or
// Origin (a cross-site request) is refused before any work, on every path.
func TestGuardRefusesOtherSites(t *testing.T) {
	_, url := serve(t, Options{})
	host := strings.TrimPrefix(url, "http://")
	for _, tc := range []struct {
		name, method, path, host, origin string
		want                             int
	}{
		{"page", "GET", "/", "", "", http.StatusOK},
		{"page by localhost", "GET", "/", "localhost:" + strings.Split(host, ":")[1], "", http.StatusOK},
		{"same origin", "POST", "/api/sessions", "", url, http.StatusOK},
		{"rebinding", "GET", "/", "evil.example:" + strings.Split(host, ":")[1], "", http.StatusForbidden},
		{"rebinding API", "POST", "/api/sessions", "evil.example", "", http.StatusForbidden},
		{"cross-site POST", "POST", "/api/sessions", "", "http://evil.example", http.StatusForbidden},
		{"cross-site null", "POST", "/api/sessions", "", "null", http.StatusForbidden},
		{"cross-site asset", "GET", "/assets/app.js", "", "https://" + host, http.StatusForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, url+tc.path, strings.NewReader(`{"builtin":"boundary-burst"}`))
			if tc.host != "" {
				req.Host = tc.host
			}
			if tc.origin != "" {
				req.Header.Set("Origin", tc.origin)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.want {
				t.Errorf("%s %s: status %d, want %d", tc.method, tc.path, resp.StatusCode, tc.want)
			}
		})
	}
}

// The page and its assets come from the binary and name nothing outside it.
func TestPageIsSelfContained(t *testing.T) {
	_, url := serve(t, Options{})
	for _, path := range []string{"/", "/assets/app.js", "/assets/style.css"} {
		resp, err := http.Get(url + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d", path, resp.StatusCode)
		}
		for _, far := range []string{"http://", "https://", "//cdn", "@import"} {
			if strings.Contains(string(b), far) {
				t.Errorf("%s mentions %q: the page must work offline", path, far)
			}
		}
	}
}

// A scenario sent from the editor gets every problem at its line, in the very
// words rlsim run prints for the same file.
func TestEditorProblemsAreTheCLIs(t *testing.T) {
	_, url := serve(t, Options{})
	yaml := "duration: 3s\nlimits:\n  - key: global\n    limit: -1\n    window: 1s\nclients:\n  - name: a\n    arrivals:\n      - kind: bursty\n"
	var reply errorReply
	body, _ := json.Marshal(createRequest{YAML: yaml})
	if code := do(t, "POST", url+"/api/sessions", string(body), nil, &reply); code != http.StatusBadRequest {
		t.Fatalf("status %d, want 400", code)
	}
	_, err := scenarios.Parse(editorFile, []byte(yaml))
	want := strings.Split(err.Error(), "\n")
	if len(reply.Errors) != len(want) || len(want) < 2 {
		t.Fatalf("%d problems %+v, want the CLI's %d: %q", len(reply.Errors), reply.Errors, len(want), want)
	}
	for i, fe := range reply.Errors {
		if fe.Text != want[i] || fe.Line <= 0 || !strings.HasPrefix(fe.Text, editorFile+":"+itoa(fe.Line)+": ") {
			t.Errorf("problem %d: line %d %q, want %q at its line", i, fe.Line, fe.Text, want[i])
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestBoundedWork(t *testing.T) {
	t.Run("sessions", func(t *testing.T) {
		srv, url := serve(t, Options{MaxSessions: 2})
		for i, want := range []int{200, 200, 503} {
			var reply errorReply
			if code := do(t, "POST", url+"/api/sessions", `{"builtin":"boundary-burst"}`, nil, &reply); code != want {
				t.Errorf("session %d: status %d (%s), want %d", i+1, code, reply.Error, want)
			}
		}
		if srv.Sessions() != 2 {
			t.Errorf("%d sessions open, want the cap of 2", srv.Sessions())
		}
	})
	t.Run("scenario size", func(t *testing.T) {
		_, url := serve(t, Options{MaxScenarioBytes: 1000})
		big, _ := json.Marshal(createRequest{YAML: "# " + strings.Repeat("x", 2000) + "\nduration: 1s\n"})
		var reply errorReply
		if code := do(t, "POST", url+"/api/sessions", string(big), nil, &reply); code != http.StatusRequestEntityTooLarge || !strings.Contains(reply.Error, "over 1000 bytes") {
			t.Errorf("status %d %q, want 413 naming the cap", code, reply.Error)
		}
	})
	t.Run("event budget", func(t *testing.T) {
		_, url := serve(t, Options{Overrides: run.Overrides{MaxEvents: 1000}})
		var reply errorReply
		if code := do(t, "POST", url+"/api/sessions", `{"builtin":"steady-overload"}`, nil, &reply); code != http.StatusBadRequest || !strings.Contains(reply.Error, "--max-events") {
			t.Errorf("status %d %q, want 400 naming the budget", code, reply.Error)
		}
	})
	t.Run("clients", func(t *testing.T) {
		_, url := serve(t, Options{MaxClients: 100})
		var reply errorReply
		body, _ := json.Marshal(createRequest{YAML: "duration: 1s\nlimits: [{key: global, limit: 1, window: 1s}]\nclients:\n  - {name: a, count: 60, arrivals: [{kind: burst, at: 0s, count: 1}]}\n  - {name: b, count: 41, arrivals: [{kind: burst, at: 0s, count: 1}]}\n"})
		if code := do(t, "POST", url+"/api/sessions", string(body), nil, &reply); code != http.StatusBadRequest || !strings.Contains(reply.Error, "editor.yaml: clients: 101 in all, more than the 100 a page may play") {
			t.Errorf("status %d %q, want 400 naming the cap", code, reply.Error)
		}
	})
	t.Run("contention study", func(t *testing.T) {
		_, url := serve(t, Options{})
		var reply errorReply
		if code := do(t, "POST", url+"/api/sessions", `{"builtin":"backoff-contention"}`, nil, &reply); code != http.StatusBadRequest || !strings.Contains(reply.Error, "no lanes to watch") {
			t.Errorf("status %d %q, want 400: no lanes", code, reply.Error)
		}
	})
}

// The session ends when its page's stream closes.
func TestSessionEndsWithItsStream(t *testing.T) {
	srv, url := serve(t, Options{})
	var rep sessionReply
	if code := do(t, "POST", url+"/api/sessions", `{"builtin":"demo"}`, nil, &rep); code != 200 {
		t.Fatalf("status %d", code)
	}
	ended := make(chan struct{})
	srv.mu.Lock()
	srv.onEnd = func() { close(ended) }
	srv.mu.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", url+"/api/sessions/"+rep.ID+"/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "data: {") {
		t.Fatalf("first line of the stream %q, %v", line, err)
	}
	if code := do(t, "GET", url+"/api/sessions/"+rep.ID+"/events", "", nil, &errorReply{}); code != http.StatusConflict {
		t.Errorf("a second stream of one session: status %d, want 409", code)
	}
	cancel()
	resp.Body.Close()
	select {
	case <-ended:
	case <-time.After(10 * time.Second):
		t.Fatal("the session outlived its stream")
	}
	if code := do(t, "POST", url+"/api/sessions/"+rep.ID+"/control", `{"op":"play"}`, nil, &errorReply{}); code != http.StatusNotFound {
		t.Errorf("a control after the stream closed: status %d, want 404", code)
	}
}

// The page downloads the scenario as written and the run so far as the HTML
// report, which says how far it was played and with what changes.
func TestDownloads(t *testing.T) {
	_, url := serve(t, Options{})
	var rep sessionReply
	if code := do(t, "POST", url+"/api/sessions", `{"builtin":"steady-overload"}`, nil, &rep); code != 200 {
		t.Fatalf("status %d", code)
	}
	get := func(path string) (*http.Response, string) {
		resp, err := http.Get(url + "/api/sessions/" + rep.ID + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	resp, yaml := get("/scenario.yaml")
	src, _ := scenarios.BuiltinSource("steady-overload")
	if yaml != string(src) || resp.Header.Get("Content-Disposition") != `attachment; filename="steady-overload.yaml"` {
		t.Errorf("scenario.yaml: %q, %q; want the built-in's source as a file", resp.Header.Get("Content-Disposition"), yaml)
	}
	for _, body := range []string{`{"op":"step","count":20}`, `{"op":"rule","limit":20,"window":1000000000,"burst":20}`, `{"op":"step","count":20}`} {
		if code := do(t, "POST", url+"/api/sessions/"+rep.ID+"/control", body, nil, &controlReply{}); code != 200 {
			t.Fatalf("%s: status %d", body, code)
		}
	}
	resp, html := get("/report.html")
	for _, want := range []string{"<!doctype html>", "# played live in rlsim serve to t=4s, with 0 burst(s) fired and the rule pushes listed;", "rlsim run steady-overload"} {
		if !strings.Contains(strings.ToLower(html), strings.ToLower(want)) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	if resp.StatusCode != 200 || resp.Header.Get("Content-Disposition") != `attachment; filename="steady-overload-report.html"` {
		t.Errorf("report.html: status %d, %q", resp.StatusCode, resp.Header.Get("Content-Disposition"))
	}
}

// The command a page names runs the same scenario with the same flags.
func TestReproduce(t *testing.T) {
	seed := uint64(9)
	first, err := run.Load("testdata/crowd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	first.Sets = []string{"limits[0].limit=7"}
	editor, err := scenarios.Parse(editorFile, []byte("duration: 1s\nlimits: [{key: global, limit: 1, window: 1s}]\nclients: [{name: a, arrivals: [{kind: burst, at: 0s, count: 1}]}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	srv := New(Options{Addr: "127.0.0.1:1", First: first, Overrides: run.Overrides{Seed: &seed, Lanes: "gcra,sliding_log"}})
	for _, tc := range []struct {
		sc   *scenarios.Scenario
		want string
	}{
		{builtin(t, "nat-per-ip"), "rlsim run nat-per-ip --seed 9 --lanes gcra,sliding_log"},
		{first, "rlsim run testdata/crowd.yaml --seed 9 --lanes gcra,sliding_log --set 'limits[0].limit=7'"},
		{editor, "rlsim run editor.yaml --seed 9 --lanes gcra,sliding_log"},
	} {
		if got := srv.reproduce(tc.sc); got != tc.want {
			t.Errorf("reproduce(%s) = %q, want %q", tc.sc.File, got, tc.want)
		}
	}
	// A path and a set a shell would split or expand are quoted, as rlsim run
	// quotes its own reproduce line.
	spaced, err := scenarios.Parse("my tests/it's.yaml", editor.Source)
	if err != nil {
		t.Fatal(err)
	}
	spaced.Sets = []string{"description=a b"}
	srv = New(Options{Addr: "127.0.0.1:1", First: spaced, Overrides: run.Overrides{Seed: &seed, Lanes: "gcra"}})
	for _, tc := range []struct {
		sc   *scenarios.Scenario
		want string
	}{
		{spaced, `rlsim run 'my tests/it'\''s.yaml' --seed 9 --lanes gcra --set 'description=a b'`},
	} {
		if got := srv.reproduce(tc.sc); got != tc.want {
			t.Errorf("reproduce(%s) = %q, want %q", tc.sc.File, got, tc.want)
		}
	}
}
