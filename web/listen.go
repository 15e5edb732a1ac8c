package web

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/rlsim/rlsim/run"
)

// ListenAndServe listens on addr (host:port), tells ready the page's URL and
// serves the playground with opt until ctx is done; then it ends every
// stream and shuts the server down. opt.Addr is set here: the address
// listened on, or the host name addr binds with the port chosen. A failure
// to listen is an *run.InputError naming --addr.
func ListenAndServe(ctx context.Context, addr string, opt Options, ready func(url string)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return run.BadInputf("--addr %s: %v", addr, err)
	}
	opt.Addr = ln.Addr().String()
	if host, _, err := net.SplitHostPort(addr); err == nil && host != "" && net.ParseIP(host) == nil {
		opt.Addr = net.JoinHostPort(host, portOf(ln.Addr())) // a name bound: the page is reached by that name
	}
	srv := New(opt)
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	ready("http://" + opt.Addr + "/")
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	srv.Close() // ends every stream, so that Shutdown need not wait for them
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(shut); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func portOf(a net.Addr) string {
	_, port, _ := net.SplitHostPort(a.String())
	return port
}
