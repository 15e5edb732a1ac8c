package conform

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"
)

// redisAddr is the address of the redis-server TestMain started, or "" when
// none could be (skipReason says why).
var redisAddr, skipReason string

// TestMain starts one real redis-server for the package, on a free loopback
// port with no persistence, and stops it after. Without redis-server the tests
// that need it skip, except under CI (CI=true), where that is a failure.
func TestMain(m *testing.M) {
	redis.SetLogger(quiet{}) // the store errors the fault tests cause are theirs to tell
	// The parallel tests here wait on real servers and the real clock (a
	// gateway's aligned second, nginx's delays, a killed Redis), not on the
	// CPU: let three wait at once, not two (six made the real servers' clocks
	// drift from their logs), unless -parallel says how many.
	flag.Parse()
	if !parallelGiven() {
		flag.Set("test.parallel", "3")
	}
	addr, stop, err := startRedis(0)
	if err != nil {
		if os.Getenv("CI") == "true" {
			fmt.Fprintf(os.Stderr, "conform: CI must run these tests against a real redis-server: %v\n", err)
			os.Exit(1)
		}
		skipReason = fmt.Sprintf("no redis-server to test against (%v); install it: apt-get install -y redis-server", err)
	}
	redisAddr = addr
	code := m.Run()
	if stop != nil {
		stop()
	}
	os.Exit(code)
}

// parallelGiven reports whether the command line set -parallel.
func parallelGiven() bool {
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	return given
}

// startRedis starts a redis-server on port, or on a free one when port is 0,
// and returns its address and how to stop it.
func startRedis(port int) (addr string, stop func(), err error) {
	addr, _, stop, err = startRedisProcess(port)
	return addr, stop, err
}

// startRedisProcess is startRedis with the server's process, to signal.
func startRedisProcess(port int) (addr string, proc *os.Process, stop func(), err error) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		return "", nil, nil, err
	}
	if port == 0 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return "", nil, nil, err
		}
		port = l.Addr().(*net.TCPAddr).Port
		l.Close()
	}
	cmd := exec.Command(bin, "--port", fmt.Sprint(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
		"--daemonize", "no", "--loglevel", "notice")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, nil, err
	}
	stop = func() { cmd.Process.Kill(); cmd.Wait() }
	// The server says when it is ready; reading its log needs no polling.
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if strings.Contains(sc.Text(), "Ready to accept connections") {
			go func() {
				for sc.Scan() {
				}
			}()
			return fmt.Sprintf("127.0.0.1:%d", port), cmd.Process, stop, nil
		}
	}
	stop()
	return "", nil, nil, fmt.Errorf("redis-server on port %d exited before it was ready", port)
}

type quiet struct{}

func (quiet) Printf(context.Context, string, ...any) {}

// needRedis skips t without a server (never under CI: TestMain failed then).
func needRedis(t *testing.T) *redis.Options {
	t.Helper()
	if redisAddr == "" {
		t.Skip(skipReason)
	}
	return &redis.Options{Addr: redisAddr}
}
