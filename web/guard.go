package web

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// guard refuses a request that another site could have made: its Host must
// name this server (a DNS-rebinding page reaches it under the attacker's name)
// and its Origin, which browsers send with every cross-origin request and every
// POST, must be this server's own.
func (s *Server) guard(r *http.Request) error {
	if !allowedHost(s.opt.Addr, r.Host) {
		return fmt.Errorf("host %q is not this server's (%s): open http://%s/", r.Host, s.opt.Addr, s.opt.Addr)
	}
	if o := r.Header.Get("Origin"); o != "" && o != "http://"+r.Host {
		return fmt.Errorf("origin %q may not drive this server: only pages it serves may", o)
	}
	return nil
}

// allowedHost reports whether host, a request's Host header, names the server
// bound at addr: addr itself; for a loopback address also localhost at its
// port; for an unspecified address (0.0.0.0, ::) any IP literal at its port,
// as a DNS name is what a rebinding attack needs.
func allowedHost(addr, host string) bool {
	if strings.EqualFold(host, addr) {
		return true
	}
	bh, bport, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	h, port, err := net.SplitHostPort(host)
	if err != nil || port != bport {
		return false
	}
	bound, err := netip.ParseAddr(bh)
	if err != nil {
		return false // a name was bound: only that name, exactly, is allowed
	}
	switch {
	case bound.IsLoopback():
		if strings.EqualFold(h, "localhost") {
			return true
		}
		a, err := netip.ParseAddr(strings.Trim(h, "[]"))
		return err == nil && a.IsLoopback()
	case bound.IsUnspecified():
		_, err := netip.ParseAddr(strings.Trim(h, "[]"))
		return err == nil || strings.EqualFold(h, "localhost")
	}
	a, err := netip.ParseAddr(strings.Trim(h, "[]"))
	return err == nil && a == bound
}
