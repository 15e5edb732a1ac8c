package web

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

func configSample(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "importer", "testdata", path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A pasted nginx config's limits and lanes replace the scenario's, for a
// built-in and for the editor's YAML alike.
func TestConfigReplacesLimitsAndLanes(t *testing.T) {
	_, url := serve(t, Options{})
	conf := configSample(t, "nginx/minimal.conf")
	editor := "duration: 2s\nlimits:\n  - {key: global, limit: 99, window: 1s}\nlanes: [gcra, fixed_window]\nclients:\n  - name: a\n    identity: {endpoint: /login}\n    arrivals: [{kind: burst, at: 0s, count: 20}]\n"
	for _, req := range []createRequest{{Builtin: "demo", Config: conf}, {YAML: editor, Config: conf, From: "nginx"}} {
		var reply sessionReply
		if code := do(t, "POST", url+"/api/sessions", mustJSON(req), nil, &reply); code != http.StatusOK {
			t.Fatalf("%+v: status %d", req, code)
		}
		// minimal.conf: limit_req_zone … rate=10r/s and limit_req zone=perip burst=5 on
		// location = /login: 10 a second per address, 5 beyond the first (6 at once).
		want := limitInfo{Name: "perip", Key: "ip", Limit: 10, Window: int64(time.Second), Burst: 6}
		if len(reply.Lanes) != 1 || reply.Lanes[0].Name != "nginx" || reply.Limit != want {
			t.Errorf("builtin %q: lanes %+v, limit %+v; want the one lane nginx and the limit %+v", req.Builtin, reply.Lanes, reply.Limit, want)
		}
		if !strings.Contains(reply.Description, "against the limits and lanes of the pasted config (nginx)") {
			t.Errorf("description %q does not name the config", reply.Description)
		}
		if len(reply.Warnings) != 0 { // an exact location, a key rlsim has: nothing it cannot say
			t.Errorf("warnings %+v, want none", reply.Warnings)
		}
		if strings.Contains(reply.YAML, "limit: 99") || strings.Contains(reply.YAML, "fixed_window") || !strings.Contains(reply.YAML, "algorithm: nginx") {
			t.Errorf("the session's YAML is not the scenario as run:\n%s", reply.YAML)
		}
	}
}

// Without a config, from names nothing: it is refused rather than ignored.
func TestConfigFromWithoutConfig(t *testing.T) {
	_, url := serve(t, Options{})
	var reply errorReply
	if code := do(t, "POST", url+"/api/sessions", `{"builtin":"demo","from":"nginx"}`, nil, &reply); code != http.StatusBadRequest || !strings.Contains(reply.Error, "none is pasted") {
		t.Errorf("from without a config: status %d %q, want 400", code, reply.Error)
	}
}

// A config that cannot be read gets each problem at its line in the pasted
// text, marked as the config's, and no session.
func TestConfigProblemsAtTheirLines(t *testing.T) {
	srv, url := serve(t, Options{})
	conf := "http {\n" +
		"    limit_req_zone $binary_remote_addr zone=perip:10m rate=10r/s;\n" +
		"    server {\n" +
		"        location / { limit_req zone=nosuch burst=5; }\n" + // line 4: no such zone
		"        location /a { limit_req zone=perip burst=x; }\n" + // line 5: no burst
		"    }\n}\n"
	var reply errorReply
	if code := do(t, "POST", url+"/api/sessions", mustJSON(createRequest{Builtin: "demo", Config: conf}), nil, &reply); code != http.StatusBadRequest {
		t.Fatalf("status %d, want 400", code)
	}
	lines := map[int]string{}
	for _, fe := range reply.Errors {
		if fe.Source != "config" {
			t.Errorf("problem %+v: source %q, want config", fe, fe.Source)
		}
		if fe.Line > 0 && !strings.HasPrefix(fe.Text, fmt.Sprintf("config:%d: ", fe.Line)) {
			t.Errorf("problem %+v: text does not name its line", fe)
		}
		lines[fe.Line] = fe.Message
	}
	if !strings.Contains(lines[4], "nosuch") || !strings.Contains(lines[5], "burst") {
		t.Errorf("problems by line %v, want zone nosuch at 4 and the burst at 5", lines)
	}
	if srv.Sessions() != 0 {
		t.Errorf("%d sessions open after a config refused", srv.Sessions())
	}
	// The scenario's own problems stay the scenario's.
	yaml := "duration: 3s\nclients:\n  - name: a\n    arrivals:\n      - kind: bursty\n"
	reply = errorReply{}
	if code := do(t, "POST", url+"/api/sessions", mustJSON(createRequest{YAML: yaml, Config: configSample(t, "nginx/minimal.conf")}), nil, &reply); code != http.StatusBadRequest {
		t.Fatalf("a broken scenario with a config: status %d, want 400", code)
	}
	if len(reply.Errors) == 0 || reply.Errors[0].Source != "scenario" || reply.Errors[0].Line != 5 {
		t.Errorf("a broken scenario with a config: problems %+v, want the scenario's at line 5", reply.Errors)
	}
}

// from=haproxy on an nginx config fails, and says what the config looks like.
func TestConfigFromTheWrongProduct(t *testing.T) {
	_, url := serve(t, Options{})
	var reply errorReply
	code := do(t, "POST", url+"/api/sessions", mustJSON(createRequest{Builtin: "demo", Config: configSample(t, "nginx/minimal.conf"), From: "haproxy"}), nil, &reply)
	if code != http.StatusBadRequest || len(reply.Errors) == 0 {
		t.Fatalf("status %d %+v, want 400 with problems", code, reply)
	}
	if first := reply.Errors[0]; first.Source != "config" || !strings.Contains(first.Message, "looks like nginx's, not haproxy's: pick nginx or auto") {
		t.Errorf("first problem %+v, want one saying it looks like nginx", first)
	}
	for _, from := range []string{"apache", "envoy"} {
		reply = errorReply{}
		code := do(t, "POST", url+"/api/sessions", mustJSON(createRequest{Builtin: "demo", Config: configSample(t, "nginx/minimal.conf"), From: from}), nil, &reply)
		if code != http.StatusBadRequest || len(reply.Errors) == 0 || reply.Errors[0].Source != "config" {
			t.Errorf("from %s: status %d %+v, want 400 with a problem of the config", from, code, reply)
		}
	}
}

// The parts the scenario cannot say are warnings: the session opens, and each
// is at its line; an include (nothing beside a pasted config) is one.
func TestConfigWarnings(t *testing.T) {
	_, url := serve(t, Options{})
	conf := "http {\n" +
		"    limit_req_zone $binary_remote_addr zone=perip:10m rate=10r/s;\n" +
		"    include extra.conf;\n" + // line 3
		"    server {\n" +
		"        location ~ \\.php$ { limit_req zone=perip; }\n" + // line 5: a regular expression
		"    }\n}\n"
	var reply sessionReply
	if code := do(t, "POST", url+"/api/sessions", mustJSON(createRequest{Builtin: "demo", Config: conf}), nil, &reply); code != http.StatusOK {
		t.Fatalf("status %d, want 200", code)
	}
	at := map[int]string{}
	for _, w := range reply.Warnings {
		at[w.Line] += w.Message
		if !strings.HasPrefix(w.Text, fmt.Sprintf("config:%d: ", w.Line)) {
			t.Errorf("warning %+v: text does not name its line", w)
		}
	}
	if !strings.Contains(at[3], "include extra.conf is not read") || !strings.Contains(at[5], "regular expression") {
		t.Errorf("warnings by line %v, want the include at 3 and the regular expression at 5", at)
	}
	if !strings.Contains(reply.YAML, "include extra.conf is not read") {
		t.Errorf("the session's YAML does not carry the warnings as comments:\n%s", reply.YAML)
	}
}

// A config over the cap is refused before it is imported, as a scenario over
// it is before it is parsed.
func TestConfigOverTheCap(t *testing.T) {
	srv, url := serve(t, Options{MaxScenarioBytes: 1000})
	var imports, builds atomic.Int64
	srv.onImport = func() { imports.Add(1) }
	srv.onBuild = func() { builds.Add(1) }
	big := configSample(t, "nginx/minimal.conf") + "# " + strings.Repeat("x", 1000) + "\n"
	var reply errorReply
	code := do(t, "POST", url+"/api/sessions", mustJSON(createRequest{Builtin: "demo", Config: big}), nil, &reply)
	if code != http.StatusRequestEntityTooLarge || !strings.Contains(reply.Error, "the config is over 1000 bytes") || imports.Load() != 0 || builds.Load() != 0 {
		t.Errorf("status %d %q, %d imports, %d builds; want 413 naming the cap, nothing imported", code, reply.Error, imports.Load(), builds.Load())
	}
	// At the cap, with a scenario at it too, the request is read whole.
	conf := configSample(t, "nginx/minimal.conf")
	conf += strings.Repeat("\n", 1000-len(conf)) // line breaks: two bytes each in JSON
	yaml := "duration: 1s\nclients:\n  - {name: a, arrivals: [{kind: burst, at: 0s, count: 1}]}\n"
	yaml += strings.Repeat("\n", 1000-len(yaml))
	if code := do(t, "POST", url+"/api/sessions", mustJSON(createRequest{YAML: yaml, Config: conf}), nil, &reply); code != http.StatusOK || imports.Load() != 1 {
		t.Errorf("a config and a scenario at the cap: status %d %q, %d imports; want 200", code, reply.Error, imports.Load())
	}
}

// The session's YAML is the scenario as run: saved and run by rlsim run's
// path, it gives the session's verdicts, attempt for attempt.
func TestConfigYAMLRunsAsTheSession(t *testing.T) {
	srv, url := serve(t, Options{})
	for _, tc := range []struct{ builtin, config string }{
		{"demo", "nginx/minimal.conf"},
		{"boundary-burst", "haproxy/minimal.cfg"},
		{"steady-overload", "traefik/minimal.yml"},
	} {
		var reply sessionReply
		if code := do(t, "POST", url+"/api/sessions", mustJSON(createRequest{Builtin: tc.builtin, Config: configSample(t, tc.config)}), nil, &reply); code != http.StatusOK {
			t.Fatalf("%s with %s: status %d", tc.builtin, tc.config, code)
		}
		resp, err := http.Get(url + "/api/sessions/" + reply.ID + "/scenario.yaml")
		if err != nil {
			t.Fatal(err)
		}
		yaml, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(yaml) != reply.YAML {
			t.Errorf("%s: scenario.yaml is not the reply's yaml", tc.builtin)
		}
		file := filepath.Join(t.TempDir(), tc.builtin+".yaml")
		if err := os.WriteFile(file, yaml, 0o644); err != nil {
			t.Fatal(err)
		}
		list, err := run.Overrides{}.Load([]string{file})
		if err != nil {
			t.Fatalf("%s: rlsim run of the saved YAML: %v", tc.builtin, err)
		}
		srv.mu.Lock()
		sess := srv.sessions[reply.ID]
		srv.mu.Unlock()
		if sess.command != "rlsim run "+tc.builtin+".yaml" {
			t.Errorf("%s: reproduce with %q, want rlsim run %s.yaml", tc.builtin, sess.command, tc.builtin)
		}
		if err := sess.sim.RunUntil(sess.sim.End()); err != nil {
			t.Fatal(err)
		}
		played := sess.sim.Result()
		saved, savedHash := verdicts(t, *list[0].Config)
		_, playedHash := verdicts(t, *sess.sc.Config)
		if savedHash != playedHash {
			t.Errorf("%s with %s: the saved YAML's verdicts hash %x, the session's %x", tc.builtin, tc.config, savedHash, playedHash)
		}
		if len(saved.Lanes) != len(played.Lanes) {
			t.Fatalf("%s: %d lanes saved, %d played", tc.builtin, len(saved.Lanes), len(played.Lanes))
		}
		for i, l := range played.Lanes {
			s := saved.Lanes[i]
			if l.Name != s.Name || l.Attempts != s.Attempts || l.Admitted != s.Admitted || l.Refused != s.Refused || l.Attempts == 0 {
				t.Errorf("%s lane %s: played %d/%d/%d, saved %s %d/%d/%d (attempts/admitted/refused)", tc.builtin, l.Name, l.Attempts, l.Admitted, l.Refused, s.Name, s.Attempts, s.Admitted, s.Refused)
			}
		}
	}
}

// verdicts runs cfg to its end and hashes every verdict of every attempt.
func verdicts(t *testing.T, cfg sim.Config) (sim.Result, uint64) {
	t.Helper()
	h := fnv.New64a()
	res, err := sim.Run(context.Background(), cfg, sim.Options{Trace: hashSink{h}})
	if err != nil {
		t.Fatal(err)
	}
	return res, h.Sum64()
}

type hashSink struct{ w io.Writer }

func (h hashSink) Record(r *sim.TraceRecord) error {
	_, err := fmt.Fprintf(h.w, "%d %d %d %d %d %d %s %s\n", r.At, r.LaneIndex, r.Event, r.Client, r.Request, r.Attempt, r.Limit, r.Key)
	return err
}

// FuzzCreateConfig: whatever config is pasted, read as whatever product, the
// answer is a session or a refusal with a message; every problem and
// warning of the config is at a line of the pasted text, and a session's
// YAML is a scenario rlsim reads.
func FuzzCreateConfig(f *testing.F) {
	for _, path := range []string{"nginx/minimal.conf", "nginx/problems.conf", "haproxy/minimal.cfg", "haproxy/problems.cfg", "traefik/minimal.yml", "traefik/production.toml"} {
		b, err := os.ReadFile(filepath.Join("..", "importer", "testdata", path))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b), "auto")
	}
	f.Add("http { limit_req_zone $x zone=a:1m rate=1r/s; server { location / { limit_req zone=a", "nginx")
	f.Add("include /etc/passwd;", "nginx")
	f.Add("frontend x\n  http-request deny if { sc_http_req_rate(0) gt 0 }\n", "haproxy")
	f.Add("\x00{", "traefik")
	f.Fuzz(func(t *testing.T, config, from string) {
		srv := fuzzServer()
		defer srv.Close()
		body := mustJSON(createRequest{Builtin: "demo", Config: config, From: from})
		rec := post(srv, "/api/sessions", body)
		checkAnswer(t, body, rec, http.StatusOK, http.StatusBadRequest, http.StatusRequestEntityTooLarge)
		lines := strings.Count(config, "\n") + 1
		inText := func(line int) bool { return line >= 0 && line <= lines }
		if rec.Code == http.StatusBadRequest {
			var reply errorReply
			if err := json.Unmarshal(rec.Body.Bytes(), &reply); err != nil {
				t.Fatal(err)
			}
			for _, fe := range reply.Errors {
				if fe.Source == "config" && !inText(fe.Line) || fe.Source != "config" && fe.Source != "scenario" {
					t.Errorf("problem %+v: not at a line of the %d pasted, or of no editor", fe, lines)
				}
			}
			return
		}
		if rec.Code != http.StatusOK {
			return
		}
		var reply sessionReply
		if err := json.Unmarshal(rec.Body.Bytes(), &reply); err != nil {
			t.Fatal(err)
		}
		for _, w := range reply.Warnings {
			if !inText(w.Line) {
				t.Errorf("warning %+v: not at a line of the %d pasted", w, lines)
			}
		}
		if _, err := scenarios.Parse("demo.yaml", []byte(reply.YAML)); err != nil || len(reply.Lanes) == 0 {
			t.Errorf("the session's YAML does not parse (%v) or it has no lanes:\n%s", err, reply.YAML)
		}
	})
}

// The server's first scenario, given a config, is read again from its file
// with its --sets after the config's, and the command line says them.
func TestConfigOnTheFirstScenario(t *testing.T) {
	list, err := run.Overrides{Sets: []string{"duration=8s", "limits[0].limit=4"}}.Load([]string{"demo"})
	if err != nil {
		t.Fatal(err)
	}
	srv, url := serve(t, Options{First: list[0]})
	var reply sessionReply
	if code := do(t, "POST", url+"/api/sessions", mustJSON(createRequest{Config: configSample(t, "nginx/minimal.conf")}), nil, &reply); code != http.StatusOK {
		t.Fatalf("status %d", code)
	}
	// limits[0] is now the config's perip (10r/s), set to 4 as the --set says.
	if reply.Duration != int64(8*time.Second) || reply.Limit.Name != "perip" || reply.Limit.Limit != 4 || len(reply.Lanes) != 1 || reply.Lanes[0].Name != "nginx" {
		t.Errorf("duration %v, limit %+v, lanes %+v; want 8s, perip at 4, nginx", time.Duration(reply.Duration), reply.Limit, reply.Lanes)
	}
	srv.mu.Lock()
	sess := srv.sessions[reply.ID]
	srv.mu.Unlock()
	if want := "rlsim run demo.yaml --set duration=8s --set 'limits[0].limit=4'"; sess.command != want {
		t.Errorf("command %q, want %q", sess.command, want)
	}
}
