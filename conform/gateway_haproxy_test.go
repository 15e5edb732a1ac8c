package conform

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The lines of docs/conform.md's HAProxy access log: the request id and the
// date the rules run at, in the same poll loop iteration as the track-sc0
// that counts the request, with a 3-digit fraction.
const (
	hapLogRID    = "http-request set-var(txn.rid) req.hdr(x-request-id)"
	hapLogDate   = "http-request set-var(txn.t) date(0,ms)"
	hapLogFormat = `log-format "rid=%[var(txn.rid)] t=%[var(txn.t),div(1000)].%[var(txn.t),mod(1000),add(1000),regsub(^1,)]"`
)

// gatewayHAProxyConf is an HAProxy 2.6 frontend denying (403) a key above 10
// requests in its sc_http_req_rate(1s), keyed by X-Key (up to 64 bytes), logging
// to its standard output in the format conform --http reads.
const gatewayHAProxyConf = `global
    nbthread 1
    log stdout format raw local0
defaults
    mode http
    log global
    option http-keep-alive
    timeout connect 1s
    timeout client 10s
    timeout server 10s
    timeout http-request 10s
    timeout http-keep-alive 10s
frontend edge
    bind BIND
    stick-table type string len 64 size 10k expire 2s store http_req_rate(1s)
    ` + hapLogRID + `
    ` + hapLogDate + `
    http-request track-sc0 req.hdr(x-key)
    http-request deny deny_status 403 if { sc_http_req_rate(0) gt 10 }
    http-request return status 200
    ` + hapLogFormat + `
`

// startGatewayHAProxy starts haproxy with gatewayHAProxyConf on a free
// loopback port, its standard output to the returned log, and kills it when
// the test ends. It skips the test when haproxy is not installed.
func startGatewayHAProxy(t *testing.T) (base, accessLog string) {
	t.Helper()
	bin, err := exec.LookPath("haproxy")
	if err != nil {
		t.Skip("no haproxy to test against; install haproxy (apt-get install haproxy)")
	}
	dir := t.TempDir()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	path := filepath.Join(dir, "haproxy.cfg")
	if err := os.WriteFile(path, []byte(strings.Replace(gatewayHAProxyConf, "BIND", addr, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	accessLog = filepath.Join(dir, "access.log")
	logFile, err := os.Create(accessLog)
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd := exec.Command(bin, "-f", path, "-db")
	cmd.Env = append(os.Environ(), "TMPDIR="+dir)
	cmd.Stdout, cmd.Stderr = logFile, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
		logFile.Close()
	})
	for deadline := time.Now().Add(3 * time.Second); ; {
		c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond)
		if err == nil {
			c.Close()
			return "http://" + addr, accessLog
		}
		if time.Now().After(deadline) {
			t.Fatalf("haproxy did not listen on %s: %v\n%s", addr, err, stderr.String())
		}
		select {
		case err := <-done:
			t.Fatalf("haproxy exited: %v\n%s", err, stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// TestGatewayRealHAProxy runs conform --http against a real HAProxy whose
// stick table is the scenario's haproxy lane (sc_http_req_rate over 1s, deny
// above 10): on the dates HAProxy logged, in ms as it counts, every request
// agrees, at tolerance 0. The lane refuses about half, so agreement says
// something.
func TestGatewayRealHAProxy(t *testing.T) {
	t.Parallel() // its own server, on its own free port
	out := runGatewayOnceMore(t, func() GatewayFlags {
		base, accessLog := startGatewayHAProxy(t)
		return GatewayFlags{
			Scenario: "testdata/gateway_haproxy.yaml", URL: base, Lane: "haproxy", KeyHeader: "X-Key", Path: "/",
			AccessLog: accessLog, Format: "json", Show: 10, Scale: 1, MaxEvents: 1e6, MaxWall: time.Minute,
		}
	})
	r, err := ReadGatewayJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	c := r.Lanes[0]
	if c.Product != "HAProxy 2.6" || c.RefusalStatus != 403 || c.Clock != "access log" || c.NotLogged != 0 {
		t.Errorf("product %q, refusal %d, clock %q, %d not logged", c.Product, c.RefusalStatus, c.Clock, c.NotLogged)
	}
	if c.Sent == 0 || c.Agreed != c.Sent {
		t.Errorf("sent %d: agreed %d, within %d, differed %d, no decision %d: %+v", c.Sent, c.Agreed, c.Within, c.Differed, c.NoDecision, c.Diffs)
	}
	if c.GatewayAdmitted == c.Sent || c.GatewayAdmitted == 0 {
		t.Errorf("haproxy admitted %d of %d: want some refused", c.GatewayAdmitted, c.Sent)
	}
}

// TestDocsStateTheGatewayConfigs holds docs/conform.md to the nginx and
// HAProxy lines the real gateways are tested with.
func TestDocsStateTheGatewayConfigs(t *testing.T) {
	doc, err := os.ReadFile("../docs/conform.md")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{hapLogRID, hapLogDate, hapLogFormat}
	for _, line := range strings.Split(gatewayNginxConf, "\n") {
		if l := strings.TrimSpace(line); strings.HasPrefix(l, "log_format") || strings.HasPrefix(l, "limit_req") {
			want = append(want, l)
		}
	}
	for _, w := range want {
		if !strings.Contains(string(doc), w) {
			t.Errorf("docs/conform.md does not state %q", w)
		}
	}
}
