package conform

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// hapConfig is one frontend of the real haproxy with its own stick-table rate
// limit, the rule algorithms.HAProxy models, keyed by the x-key header.
type hapConfig struct {
	period, expire time.Duration // whole ms
	limit          int64
}

// hapServer is a running haproxy, the URL of each frontend (in the order of the
// configs) and the access log it writes to its stdout.
type hapServer struct {
	urls  []string
	lines chan string
}

// startHAProxy starts haproxy in the foreground (-db) with one frontend per
// config, each on a free loopback port, logging one line per request to its
// stdout, and stops it when the test ends. It skips the test when haproxy is
// not installed.
//
// The log line gives, per request, the id and key the sender set, the status,
// the date of the poll loop iteration that ran the http-request rules (date(0,us),
// the same iteration, hence the same now_ms, as the track-sc0 that counted the
// request: clock.c keeps now = date unless the system clock jumps) and the rate
// the deny rule read.
func startHAProxy(t testing.TB, cfgs ...hapConfig) *hapServer {
	t.Helper()
	bin := productBinary(t, "haproxy", "/usr/sbin/haproxy", "install haproxy (apt-get install haproxy)")
	dir := t.TempDir()
	var conf strings.Builder
	var addrs []string
	for i, cfg := range cfgs {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := l.Addr().String()
		l.Close()
		addrs = append(addrs, addr)
		fmt.Fprintf(&conf, `
frontend fe%d
    bind %s
    stick-table type string size 10k expire %dms store http_req_rate(%dms)
    http-request set-var(txn.id) req.hdr(x-id)
    http-request set-var(txn.key) req.hdr(x-key)
    http-request track-sc0 req.hdr(x-key)
    http-request set-var(txn.now) date(0,us)
    http-request set-var(txn.rate) sc_http_req_rate(0)
    http-request deny deny_status 429 if { sc_http_req_rate(0) gt %d }
    http-request return status 200
    log-format "rlsim %%f %%[var(txn.id)] %%[var(txn.key)] %%ST %%[var(txn.now)] %%[var(txn.rate)] %%tr %%Ta"
`, i, addr, cfg.expire/time.Millisecond, cfg.period/time.Millisecond, cfg.limit)
	}
	head := fmt.Sprintf(`global
    pidfile %s
    nbthread 1
    log stdout format raw local0

defaults
    mode http
    log global
    option http-keep-alive
    option dontlognull
    timeout connect 1s
    timeout client 10s
    timeout server 10s
    timeout http-request 10s
    timeout http-keep-alive 10s
`, filepath.Join(dir, "haproxy.pid"))
	path := filepath.Join(dir, "haproxy.cfg")
	if err := os.WriteFile(path, []byte(head+conf.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-f", path, "-db")
	cmd.Env = append(os.Environ(), "TMPDIR="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	srv := &hapServer{lines: make(chan string, 4096)}
	for _, a := range addrs {
		srv.urls = append(srv.urls, "http://"+a+"/")
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if line := sc.Text(); strings.HasPrefix(line, "rlsim ") {
				srv.lines <- line
			}
		}
		io.Copy(io.Discard, out)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
		cmd.Wait()
	})
	for _, addr := range addrs {
		for deadline := time.Now().Add(3 * time.Second); ; {
			c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond)
			if err == nil {
				c.Close()
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("haproxy did not listen on %s: %v\n%s", addr, err, stderr.String())
			}
			select {
			case <-done:
				t.Fatalf("haproxy exited: %s", stderr.String())
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
	return srv
}

// hapShot is one request a client sends to frontend fe at its instant after
// the start (or at the wall-clock instant when, if set); on a 429 it sends
// again at once, up to retries more times.
type hapShot struct {
	fe      int
	at      time.Duration
	when    time.Time
	key     string
	retries int
}

// hapSent is one request sent and the status the client got.
type hapSent struct {
	id     string
	status int
}

// hapSend sends every shot at its instant, each in its own goroutine, after
// warming enough keep-alive connections (under keys of their own) that no
// request waits for a handshake. It returns what was sent.
func hapSend(t testing.TB, srv *hapServer, shots []hapShot) []hapSent {
	t.Helper()
	conns := 64
	client := &http.Client{
		Transport: &http.Transport{MaxIdleConns: conns, MaxIdleConnsPerHost: conns, MaxConnsPerHost: 0, IdleConnTimeout: time.Minute},
		Timeout:   5 * time.Second,
	}
	t.Cleanup(client.CloseIdleConnections)
	do := func(fe int, id, key string) (int, error) {
		req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, srv.urls[fe], nil)
		if err != nil {
			return 0, err
		}
		req.Header.Set("x-id", id)
		req.Header.Set("x-key", key)
		resp, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, nil
	}
	var wg sync.WaitGroup
	for i := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			do(i%len(srv.urls), fmt.Sprintf("warm%d", i), fmt.Sprintf("warm%d", i))
		}()
	}
	wg.Wait()

	var mu sync.Mutex
	var sent []hapSent
	var errs []error
	start := time.Now().Add(100 * time.Millisecond)
	for i, s := range shots {
		wg.Add(1)
		go func() {
			defer wg.Done()
			when := s.when
			if when.IsZero() {
				when = start.Add(s.at)
			}
			timer := time.NewTimer(time.Until(when))
			<-timer.C
			for try := 0; try <= s.retries; try++ {
				id := fmt.Sprintf("%d.%s.%d.%d", s.fe, s.key, i, try)
				status, err := do(s.fe, id, s.key)
				mu.Lock()
				if err != nil {
					errs = append(errs, err)
				} else {
					sent = append(sent, hapSent{id: id, status: status})
				}
				mu.Unlock()
				if status != http.StatusTooManyRequests {
					return
				}
			}
		}()
	}
	wg.Wait()
	if len(errs) > 0 {
		t.Fatalf("%d requests failed, first: %v", len(errs), errs[0])
	}
	return sent
}

// hapArrival is one request as haproxy logged it.
type hapArrival struct {
	fe      string // frontend: "fe0", "fe1", …
	id, key string
	status  int
	at      int64 // date of the poll loop iteration, µs since the Unix epoch
	rate    int64 // sc_http_req_rate(0) as the deny rule read it
}

// hapArrivals reads the log lines of n requests and returns them in the order
// haproxy counted them: by date, and within one loop iteration by rate (the
// rate a key reads goes up by one with each request counted at one instant).
func hapArrivals(t testing.TB, srv *hapServer, n int) []hapArrival {
	t.Helper()
	var out []hapArrival
	for len(out) < n {
		var line string
		select {
		case line = <-srv.lines:
		case <-time.After(2 * time.Second):
			t.Fatalf("haproxy logged %d of %d requests", len(out), n)
		}
		f := strings.Fields(line)
		if len(f) > 2 && strings.HasPrefix(f[2], "warm") {
			continue
		}
		if len(f) < 7 {
			t.Fatalf("short log line %q", line)
		}
		a := hapArrival{fe: f[1], id: f[2], key: f[3]}
		var err1, err2, err3 error
		a.status, err1 = strconv.Atoi(f[4])
		a.at, err2 = strconv.ParseInt(f[5], 10, 64)
		a.rate, err3 = strconv.ParseInt(f[6], 10, 64)
		if err1 != nil || err2 != nil || err3 != nil {
			t.Fatalf("bad log line %q", line)
		}
		out = append(out, a)
	}
	slices.SortStableFunc(out, func(a, b hapArrival) int {
		if a.at != b.at {
			return cmpInt(a.at, b.at)
		}
		if c := strings.Compare(a.fe+" "+a.key, b.fe+" "+b.key); c != 0 {
			return c
		}
		return cmpInt(a.rate, b.rate)
	})
	return out
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
