package replay

import (
	"bytes"
	"errors"
	"fmt"
	"time"
)

// haproxyLog parses HAProxy's HTTP log format (option httplog), HAProxy 2.6,
// doc/configuration.txt section 8.2.3 "HTTP log format":
//
//	Feb  6 12:14:14 localhost haproxy[14389]: 10.0.1.2:33317 [06/Feb/2009:12:14:14.655] http-in \
//	  static/srv1 10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 {1wt.eu} {} "GET /index.html HTTP/1.1"
//
// (its log-format string "%ci:%cp [%tr] %ft %b/%s %TR/%Tw/%Tc/%Tr/%Ta %ST %B
// %CC %CS %tsc %ac/%fc/%bc/%sc/%rc %sq/%bq %hr %hs %{+Q}r"). The syslog prefix
// (anything up to "]: ", as "haproxy[14389]: " ends it) is optional: a line
// logged to stdout with "format raw" has none. The fields are named as that
// section names them: process_name and pid (from the prefix, when there is
// one), client_ip, client_port, request_date, frontend_name, backend_name,
// server_name, TR, Tw, Tc, Tr, Ta, status_code, bytes_read,
// captured_request_cookie, captured_response_cookie, termination_state,
// actconn, feconn, beconn, srv_conn, retries, srv_queue, backend_queue,
// captured_request_headers and captured_response_headers (the text between
// the braces), http_request. Each captured header is a field of its own, in
// the order of the "capture request header" lines: hdr0, hdr1, … (up to
// hdr15), and rsp_hdr0, … for response headers. HAProxy writes the braces only
// when headers are captured: a single pair is read as the request headers.
//
// The time is request_date, "06/Feb/2009:12:14:14.655", a wall-clock time in
// the server's zone (--tz, default UTC); the address client_ip; the method and
// path from http_request. A client address of "unix" or "-" is kept as written.
type haproxyLog struct {
	loc     *time.Location
	fields  Fields
	renamed bool
	clock   stampCache
}

var errHAProxy = errors.New("not HAProxy's httplog format")

var (
	haproxyHdr    = numbered("hdr", 16)
	haproxyRspHdr = numbered("rsp_hdr", 16)
)

func numbered(prefix string, n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("%s%d", prefix, i)
	}
	return names
}

func newHAProxy(fields Fields, loc *time.Location) *haproxyLog {
	return &haproxyLog{loc: loc, fields: fields, renamed: fields != DefaultFields}
}

// token cuts b at the first sep: what comes before and after it.
func token(b []byte, sep byte) (tok, rest []byte, ok bool) {
	i := indexByte(b, sep)
	if i < 0 {
		return b, nil, false
	}
	return b[:i], b[i+1:], true
}

func (p *haproxyLog) parse(line []byte, r *Record) error {
	r.reset()
	add := func(name string, v []byte) {
		r.names = append(r.names, name)
		r.values = append(r.values, v)
	}
	if j := bytes.Index(line, []byte("]: ")); j >= 0 {
		if i := bytes.Index(line, []byte(" [")); i < 0 || j < i {
			tag := line[:j]
			if k := lastIndexByte(tag, ' '); k >= 0 {
				tag = tag[k+1:]
			}
			if k := indexByte(tag, '['); k >= 0 {
				add("process_name", tag[:k])
				add("pid", tag[k+1:])
			}
			line = line[j+3:]
		}
	}
	client, rest, ok := token(line, ' ')
	if !ok {
		return fmt.Errorf("%w: no client address", errHAProxy)
	}
	c := lastIndexByte(client, ':')
	if c < 0 {
		return fmt.Errorf("%w: client %q not address:port", errHAProxy, client)
	}
	add("client_ip", client[:c])
	add("client_port", client[c+1:])
	r.IP = client[:c]
	if len(rest) < 2 || rest[0] != '[' {
		return fmt.Errorf("%w: no [request_date]", errHAProxy)
	}
	date, rest, ok := token(rest[1:], ']')
	if !ok || len(rest) == 0 || rest[0] != ' ' {
		return fmt.Errorf("%w: request_date not closed by ]", errHAProxy)
	}
	add("request_date", date)
	rest = rest[1:]
	var tok []byte
	next := func(what string) error {
		if tok, rest, ok = token(rest, ' '); !ok {
			return fmt.Errorf("%w: no %s", errHAProxy, what)
		}
		return nil
	}
	split := func(what string, names ...string) error {
		if err := next(what); err != nil {
			return err
		}
		for i, name := range names {
			part, more, ok := token(tok, '/')
			if ok == (i == len(names)-1) {
				return fmt.Errorf("%w: %s %q not %d values split by /", errHAProxy, what, tok, len(names))
			}
			add(name, part)
			tok = more
		}
		return nil
	}
	if err := next("frontend_name"); err != nil {
		return err
	}
	add("frontend_name", tok)
	if err := split("backend_name/server_name", "backend_name", "server_name"); err != nil {
		return err
	}
	if err := split("timers TR/Tw/Tc/Tr/Ta", "TR", "Tw", "Tc", "Tr", "Ta"); err != nil {
		return err
	}
	for _, name := range []string{"status_code", "bytes_read", "captured_request_cookie", "captured_response_cookie", "termination_state"} {
		if err := next(name); err != nil {
			return err
		}
		add(name, tok)
	}
	if err := split("connection counts", "actconn", "feconn", "beconn", "srv_conn", "retries"); err != nil {
		return err
	}
	if err := split("queues", "srv_queue", "backend_queue"); err != nil {
		return err
	}
	for _, h := range []struct {
		name string
		each []string
	}{{"captured_request_headers", haproxyHdr}, {"captured_response_headers", haproxyRspHdr}} {
		if len(rest) == 0 || rest[0] != '{' {
			break
		}
		end := indexByte(rest, '}')
		if end < 0 || end+1 >= len(rest) || rest[end+1] != ' ' {
			return fmt.Errorf("%w: %s not closed by \"} \"", errHAProxy, h.name)
		}
		hdrs := rest[1:end]
		add(h.name, hdrs)
		for i := 0; i < len(h.each); i++ {
			v, more, ok := token(hdrs, '|')
			add(h.each[i], v)
			if !ok {
				break
			}
			hdrs = more
		}
		rest = rest[end+2:]
	}
	q := lastIndexByte(rest, '"')
	if len(rest) == 0 || rest[0] != '"' || q == 0 {
		return fmt.Errorf("%w: no quoted http_request", errHAProxy)
	}
	req := rest[1:q]
	add("http_request", req)
	r.Method, r.Path = splitRequest(req)
	at, err := p.clock.haproxy(date, p.loc)
	if err != nil {
		return fmt.Errorf("request_date: %w", err)
	}
	r.At = at
	if p.renamed {
		return renameParts(r, p.fields, p.loc, &p.clock)
	}
	return nil
}

// renameParts reads the parts fields renames (those differing from
// DefaultFields) from the record's fields of those names.
func renameParts(r *Record, f Fields, loc *time.Location, c *stampCache) error {
	get := func(name string) ([]byte, error) {
		v, ok := r.field(name)
		if !ok {
			return nil, fmt.Errorf("no %q field", name)
		}
		return v, nil
	}
	if f.Time != DefaultFields.Time {
		v, err := get(f.Time)
		if err != nil {
			return err
		}
		if r.At, err = c.read(v, timeAny, loc); err != nil {
			return fmt.Errorf("%s: %w", f.Time, err)
		}
	}
	if f.IP != DefaultFields.IP {
		v, err := get(f.IP)
		if err != nil {
			return err
		}
		r.IP = firstAddr(v)
	}
	if f.User != DefaultFields.User {
		v, err := get(f.User)
		if err != nil {
			return err
		}
		r.User = dashless(v)
	}
	if f.Method != DefaultFields.Method {
		v, err := get(f.Method)
		if err != nil {
			return err
		}
		r.Method = v
	}
	if f.Path != DefaultFields.Path {
		v, err := get(f.Path)
		if err != nil {
			return err
		}
		r.Path = urlPath(v)
	}
	return nil
}
