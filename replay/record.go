package replay

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Record is one parsed log line. Its byte slices point into the line and are
// valid only until the next line is read.
type Record struct {
	// At is the request's time, in ns since the Unix epoch (UTC).
	At     int64
	IP     []byte
	User   []byte
	Method []byte
	Path   []byte
	names  []string // the line's field names (JSON, CSV or a format's), beside values
	values [][]byte
	clock  stampCache // the zone's offset of the last zoneless time read
}

func (r *Record) reset() {
	r.At, r.IP, r.User, r.Method, r.Path = 0, nil, nil, nil, nil
	r.names, r.values = r.names[:0], r.values[:0]
}

func (r *Record) field(name string) ([]byte, bool) {
	for i, n := range r.names {
		if n == name {
			return r.values[i], true
		}
	}
	return nil, false
}

// Fields names the fields that hold a request's parts: JSON or CSV fields, or
// another format's (an nginx variable, an Envoy operator), which reads its own
// by default; a part left as in DefaultFields keeps the format's default.
type Fields struct {
	Time   string // RFC 3339, "2006-01-02 15:04:05[.fraction]" in Location, or Unix seconds
	IP     string
	Method string
	Path   string // path with optional query; a full URL's path is used
	User   string
}

// DefaultFields are the field names JSON lines and CSV are read with unless told.
var DefaultFields = Fields{Time: "time", IP: "ip", Method: "method", Path: "path", User: "user"}

// ParseFields reads "time=ts,ip=remote_addr": the fields renamed from DefaultFields.
func ParseFields(s string) (Fields, error) {
	f := DefaultFields
	if s == "" {
		return f, nil
	}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || v == "" {
			return f, fmt.Errorf("%q: want PART=FIELD", kv)
		}
		switch k {
		case "time":
			f.Time = v
		case "ip":
			f.IP = v
		case "method":
			f.Method = v
		case "path":
			f.Path = v
		case "user":
			f.User = v
		default:
			return f, fmt.Errorf("%q: unknown part %q (want time, ip, method, path, user)", kv, k)
		}
	}
	return f, nil
}

// fill sets the record's named parts from its fields.
func (r *Record) fill(f Fields, loc *time.Location) error {
	ts, ok := r.field(f.Time)
	if !ok {
		return fmt.Errorf("no %q field", f.Time)
	}
	at, err := r.clock.readAny(ts, loc)
	if err != nil {
		return fmt.Errorf("%s: %w", f.Time, err)
	}
	r.At = at
	r.IP, _ = r.field(f.IP)
	r.Method, _ = r.field(f.Method)
	r.User, _ = r.field(f.User)
	r.Path, _ = r.field(f.Path)
	if i := bytes.Index(r.Path, []byte("://")); i >= 0 {
		rest := r.Path[i+3:]
		j := 0
		for j < len(rest) && rest[j] != '/' {
			j++
		}
		r.Path = rest[j:]
	}
	return nil
}

// parseTime reads RFC 3339 (any offset), a zoneless "2006-01-02 15:04:05" or
// "2006-01-02T15:04:05" (with optional fraction) in loc, or Unix seconds with an
// optional fraction of up to 9 digits, exactly.
func parseTime(b []byte, loc *time.Location) (int64, error) {
	s := string(b)
	if s == "" {
		return 0, fmt.Errorf("empty time")
	}
	if s[0] >= '0' && s[0] <= '9' && !strings.ContainsAny(s, "-:T ") {
		return parseUnixBytes(b)
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return unixNano(t, s)
	}
	for _, layout := range []string{"2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999"} {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return unixNano(t, s)
		}
	}
	return 0, fmt.Errorf("time %q: want RFC 3339, 2006-01-02 15:04:05 or Unix seconds", s)
}

// The times a replay reads: whole years that int64 nanoseconds since 1970
// hold (1677-09-21 to 2262-04-11), so that a log's first hour, which windows
// align to, is one too.
var (
	errYears = errors.New("outside the years 1678 to 2261 that a replay reads (int64 nanoseconds since 1970)")
	// lastUnix is 2262-01-01 in Unix seconds: the first second past them.
	lastUnix = time.Date(2262, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
)

// unixNano is t in ns since the Unix epoch, checked: time.Time.UnixNano wraps
// around outside int64's range (the year 1000 reads as 2169), so a time outside
// the years replay reads is an error naming its year and s, as written.
func unixNano[S string | []byte](t time.Time, s S) (int64, error) {
	if y := t.UTC().Year(); y < 1678 || y > 2261 {
		return 0, fmt.Errorf("time %q: year %d UTC is %w", s, y, errYears)
	}
	return t.UnixNano(), nil
}
