package conform

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// nginxBin is Debian's nginx (nginx-light 1.22.1 here).
const nginxBin = "/usr/sbin/nginx"

// nginxLimit is one limit_req directive and its limit_req_zone, keyed by the
// X-Key header ($http_x_key).
type nginxLimit struct {
	zone string // the zone's name
	z    algorithms.NginxZone
}

// nginxLocation is one location of the server under test, and the rules that
// must decide as it does.
type nginxLocation struct {
	path    string       // the location's prefix, and the requests' $uri
	limits  []nginxLimit // in the order of its limit_req directives
	dryRun  bool         // limit_req_dry_run on
	status  int          // limit_req_status; 0 is nginx's default, 503
	content string       // the content handler; "" is empty_gif
	rules   []*algorithms.Nginx
}

// refusal is the status nginx answers a refused request with (lines 823–824).
func (l *nginxLocation) refusal() int {
	if l.status == 0 {
		return 503
	}
	return l.status
}

// limited is false for a location whose content runs before limit_req does.
func (l *nginxLocation) limited() bool { return !strings.HasPrefix(l.content, "return") }

// conf is the location block.
func (l *nginxLocation) conf() string {
	var b strings.Builder
	fmt.Fprintf(&b, "    location %s {\n", l.path)
	for _, lim := range l.limits {
		fmt.Fprintf(&b, "      limit_req zone=%s", lim.zone)
		if lim.z.Burst > 0 {
			fmt.Fprintf(&b, " burst=%d", lim.z.Burst)
		}
		if lim.z.Delay > 0 {
			fmt.Fprintf(&b, " delay=%d", lim.z.Delay)
		}
		if lim.z.NoDelay {
			b.WriteString(" nodelay")
		}
		b.WriteString(";\n")
	}
	if l.dryRun {
		b.WriteString("      limit_req_dry_run on;\n")
	}
	if l.status != 0 {
		fmt.Fprintf(&b, "      limit_req_status %d;\n", l.status)
	}
	content := l.content
	if content == "" {
		content = "empty_gif;"
	}
	fmt.Fprintf(&b, "      %s\n    }\n", content)
	return b.String()
}

// nginxConf is the whole configuration for locs, listening on port, with its
// files under dir. The access log's format gives each request's id, key, $uri,
// status, $msec and $request_time (the arrival is $msec − $request_time, both on
// nginx's cached wall clock, in ms) and $limit_req_status (1.17.6+).
func nginxConf(dir string, port int, locs []*nginxLocation) string {
	var zones, servers strings.Builder
	for _, l := range locs {
		for _, lim := range l.limits {
			fmt.Fprintf(&zones, "  limit_req_zone $http_x_key zone=%s:1m rate=%s;\n", lim.zone, lim.z.Rate)
		}
		servers.WriteString(l.conf())
	}
	return fmt.Sprintf(`worker_processes 1;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path %[1]s/tmp/body;
  proxy_temp_path %[1]s/tmp/proxy;
  fastcgi_temp_path %[1]s/tmp/fastcgi;
  uwsgi_temp_path %[1]s/tmp/uwsgi;
  scgi_temp_path %[1]s/tmp/scgi;
  log_format rl '$http_x_request_id $http_x_key $uri $status $msec $request_time $limit_req_status';
%[2]s  server {
    listen 127.0.0.1:%[3]d;
    access_log %[1]s/access.log rl;
%[4]s  }
}
`, dir, zones.String(), port, servers.String())
}

// nginxServer is a running nginx in a temp dir.
type nginxServer struct {
	dir, base string
	cmd       *exec.Cmd
	done      chan error
	stderr    bytes.Buffer
}

// startNginx starts nginx on a free loopback port with locs, in the
// foreground without a master (one process to stop), and stops it when the
// test ends. It skips the test when nginx is not installed.
func startNginx(t testing.TB, locs []*nginxLocation) *nginxServer {
	t.Helper()
	return startNginxConf(t, func(dir string, port int) string { return nginxConf(dir, port, locs) })
}

// startNginxConf is startNginx with the configuration conf writes for nginx's
// directory and port. A free port may be taken by another test's server
// between its probe and nginx's bind: nginx is ready only once it has written
// its own pid (after binding), and one that could not bind is started again
// on another port, up to three times.
func startNginxConf(t testing.TB, conf func(dir string, port int) string) *nginxServer {
	t.Helper()
	bin := productBinary(t, "nginx", nginxBin, "install nginx-light (apt-get install nginx-light)")
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "tmp"), 0o755); err != nil {
		t.Fatal(err)
	}
	for try := 1; ; try++ {
		n, err := tryNginx(t, bin, dir, conf)
		if err == nil {
			return n
		}
		if try == 3 || !strings.Contains(err.Error(), "Address already in use") {
			t.Fatal(err)
		}
	}
}

// tryNginx starts nginx in dir on a port free when probed, and waits until it
// listens as itself (its pid file written) or exits.
func tryNginx(t testing.TB, bin, dir string, conf func(dir string, port int) string) (*nginxServer, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	file, pidFile := filepath.Join(dir, "nginx.conf"), filepath.Join(dir, "nginx.pid")
	os.Remove(pidFile)
	if err := os.WriteFile(file, []byte(conf(dir, port)), 0o644); err != nil {
		t.Fatal(err)
	}
	n := &nginxServer{dir: dir, base: fmt.Sprintf("http://127.0.0.1:%d", port), done: make(chan error, 1)}
	n.cmd = exec.Command(bin, "-p", dir+"/", "-c", file, "-g",
		fmt.Sprintf("daemon off; master_process off; pid %s; error_log %s/err.log warn;", pidFile, dir))
	n.cmd.Stdout, n.cmd.Stderr = &n.stderr, &n.stderr
	if err := n.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { n.done <- n.cmd.Wait() }()
	t.Cleanup(func() { n.stop(t) })
	ours := strconv.Itoa(n.cmd.Process.Pid)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	deadline := time.Now().Add(5 * time.Second)
	for {
		pid, _ := os.ReadFile(pidFile)
		if strings.TrimSpace(string(pid)) == ours {
			c, err := net.DialTimeout("tcp", n.base[len("http://"):], 100*time.Millisecond)
			if err == nil {
				c.Close()
				return n, nil
			}
		}
		select {
		case err := <-n.done:
			n.done <- err
			logged, _ := os.ReadFile(filepath.Join(dir, "err.log"))
			return nil, fmt.Errorf("nginx exited: %v\n%s%s", err, n.stderr.String(), logged)
		case <-tick.C:
		}
		if time.Now().After(deadline) {
			t.Fatalf("nginx did not listen on %s within 5s\n%s", n.base, n.stderr.String())
		}
	}
}

// stop ends nginx gracefully (SIGQUIT: it finishes what it serves and
// closes its logs), killing it if it takes more than 5 s. Idempotent.
func (n *nginxServer) stop(t testing.TB) {
	if n.cmd.ProcessState != nil {
		return
	}
	n.cmd.Process.Signal(syscall.SIGQUIT)
	select {
	case err := <-n.done:
		n.done <- err
	case <-time.After(5 * time.Second):
		n.cmd.Process.Kill()
		n.done <- <-n.done
		t.Errorf("nginx did not stop within 5s of SIGQUIT; killed")
	}
}

// nginxAccess is one access log line.
type nginxAccess struct {
	line            int // its position in the log (nginx logs a request when it ends)
	id, key, uri    string
	status          int
	end, arrival    int64 // ms on nginx's cached wall clock: $msec, $msec − $request_time
	requestTime     int64 // ms
	limitReqStatus  string
	sortRank, order int
}

// nginxMillis reads nginx's "%T.%03M" (seconds with exactly 3 decimals) as ms.
func nginxMillis(s string) (int64, error) {
	sec, frac, ok := strings.Cut(s, ".")
	if !ok || len(frac) != 3 {
		return 0, fmt.Errorf("%q is not seconds.mmm", s)
	}
	a, err := strconv.ParseInt(sec, 10, 64)
	if err != nil {
		return 0, err
	}
	b, err := strconv.ParseInt(frac, 10, 64)
	if err != nil {
		return 0, err
	}
	return a*1000 + b, nil
}

func readNginxAccess(path string) ([]nginxAccess, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []nginxAccess
	sc := bufio.NewScanner(f)
	for i := 0; sc.Scan(); i++ {
		fs := strings.Fields(sc.Text())
		if len(fs) != 7 {
			return nil, fmt.Errorf("%s:%d: %d fields, want 7: %q", path, i+1, len(fs), sc.Text())
		}
		a := nginxAccess{line: i, id: fs[0], key: fs[1], uri: fs[2], limitReqStatus: fs[6]}
		if a.key == "-" {
			a.key = ""
		}
		var errs [3]error
		a.status, errs[0] = strconv.Atoi(fs[3])
		a.end, errs[1] = nginxMillis(fs[4])
		a.requestTime, errs[2] = nginxMillis(fs[5])
		for _, err := range errs {
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", path, i+1, err)
			}
		}
		a.arrival = a.end - a.requestTime
		out = append(out, a)
	}
	return out, sc.Err()
}

// nginxLimitLog is what limit_req wrote to the error log about one request
// (lines 269–273, 301–304): refused or delayed, in a dry run or not, the
// excess in milli-requests and the zone that decided.
type nginxLimitLog struct {
	refused, dryRun bool
	excess          int64
	zone            string
}

var nginxLimitLine = regexp.MustCompile(`(limiting requests|delaying request)(, dry run)?, excess: (\d+)\.(\d{3}),? by zone "([^"]+)".* request: "GET [^?" ]*\?id=([^ "&]+)`)

func readNginxErrors(path string) (map[string]nginxLimitLog, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]nginxLimitLog{}
	for _, m := range nginxLimitLine.FindAllStringSubmatch(string(b), -1) {
		whole, _ := strconv.ParseInt(m[3], 10, 64)
		frac, _ := strconv.ParseInt(m[4], 10, 64)
		out[m[6]] = nginxLimitLog{refused: m[1] == "limiting requests", dryRun: m[2] != "", excess: whole*1000 + frac, zone: m[5]}
	}
	return out, nil
}

// nginxOutcome is how nginx handles one request: its $limit_req_status
// ("-" when limit_req did not run or skipped the request), status, delay, and
// for a refusal or a delay the zone and excess its error log names.
type nginxOutcome struct {
	class  string
	status int
	delay  time.Duration
	zone   string
	excess int64
}

// nginxModel replays one location: per zone, per key, an algorithms.Nginx state.
type nginxModel struct {
	loc    *nginxLocation
	states []map[string]algorithms.NginxState
}

func newNginxModel(loc *nginxLocation) *nginxModel {
	m := &nginxModel{loc: loc}
	for range loc.limits {
		m.states = append(m.states, map[string]algorithms.NginxState{})
	}
	return m
}

// try is the outcome of a request of key at now and the states it leaves (nil:
// unchanged), changing nothing, as ngx_http_limit_req_handler decides (lines
// 194–329): an empty key is not limited (232–234); the zones are looked up in
// order and the first refusal stops, charging no zone (257–286); otherwise
// every zone is charged (466–473, 581–585) and the longest delay applies, the
// last zone's unless an earlier one's is strictly longer (547–603). A dry run
// passes every request, storing nothing for a refusal (278–281, 306–309).
func (m *nginxModel) try(key string, now time.Duration) (nginxOutcome, []algorithms.NginxState) {
	if key == "" || !m.loc.limited() {
		return nginxOutcome{class: "-", status: 200}, nil
	}
	next := make([]algorithms.NginxState, len(m.loc.limits))
	delays := make([]time.Duration, len(next))
	for i, lim := range m.loc.limits {
		rule := m.loc.rules[i]
		next[i] = m.states[i][key]
		before := next[i]
		d := rule.Decide(&next[i], now, 1)
		if !d.Admitted() {
			rule.Charge(&before, now, 1) // excess′ as the refusal's log line prints it
			o := nginxOutcome{class: "REJECTED", status: m.loc.refusal(), zone: lim.zone, excess: before.Excess()}
			if m.loc.dryRun {
				o.class, o.status = "REJECTED_DRY_RUN", 200
			}
			return o, nil
		}
		delays[i] = d.Delay
	}
	best := len(next) - 1
	for i := best - 1; i >= 0; i-- {
		if delays[i] > delays[best] {
			best = i
		}
	}
	o := nginxOutcome{class: "PASSED", status: 200}
	if delays[best] > 0 {
		o = nginxOutcome{class: "DELAYED", status: 200, delay: delays[best], zone: m.loc.limits[best].zone, excess: next[best].Excess()}
		if m.loc.dryRun {
			o.class, o.delay = "DELAYED_DRY_RUN", 0
		}
	}
	return o, next
}

func (m *nginxModel) commit(key string, next []algorithms.NginxState) {
	for i, s := range next {
		m.states[i][key] = s
	}
}

// statusRank orders requests of one key logged with the same arrival ms as
// nginx must have taken them: in one ms a key's excess only grows (ms = 0 adds
// 1000 a request, a refusal adds nothing), so its passes come first, then its
// delays, then its refusals.
func statusRank(s string) int {
	switch s {
	case "DELAYED", "DELAYED_DRY_RUN":
		return 1
	case "REJECTED", "REJECTED_DRY_RUN":
		return 2
	}
	return 0
}
