package replay

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
)

// LogFormat is an access-log format string compiled once into a matcher:
// literal separators between named fields. NginxFormat and EnvoyFormat build
// one; every field is a record field a key can name (field:NAME), and the
// fields that hold a request's time, client address, user, method and path
// are known by name. A LogFormat is immutable and safe for concurrent use.
//
// A line matches when it starts with the first literal and each field runs
// to the first occurrence of the literal after it (the last field to the last
// occurrence of the trailing literal, or the end of the line); a field of a
// fixed width (nginx's $time_local, 26 bytes) takes exactly that many bytes,
// whatever they hold. Values are kept as written: nginx's escapes (\x22) and
// "-" for an empty value are part of the value.
type LogFormat struct {
	product string   // "nginx" or "envoy"
	text    string   // the format string as given
	lits    [][]byte // lits[i] comes before field i; lits[len(names)] after the last
	names   []string
	widths  []int // a field's fixed width in bytes, 0 if it has none
	// backslash: a literal preceded by an odd run of backslashes is part of the
	// value (nginx escape=json writes a quote in a value as \").
	backslash bool
	roles     roles // the fields that hold the parts of a request, by default
}

// roles are field indexes (-1: none) of a request's parts.
type roles struct {
	time, ip, user, method, path, request int
	timeKind                              timeKind
}

// timeKind is how a time field is written.
type timeKind uint8

const (
	timeAny     timeKind = iota // parseTime: RFC 3339, "2006-01-02 15:04:05" in the zone, Unix seconds
	timeCLF                     // 02/Jan/2006:15:04:05 -0700 (nginx $time_local)
	timeISO                     // RFC 3339 with an optional fraction (nginx $time_iso8601, Envoy START_TIME)
	timeUnix                    // Unix seconds with an optional fraction (nginx $msec)
	timeHAProxy                 // 02/Jan/2006:15:04:05.000 in the zone (HAProxy's request_date)
)

// Product is "nginx" or "envoy": whose format string f was compiled from.
func (f *LogFormat) Product() string { return f.product }

// String is the format string as given.
func (f *LogFormat) String() string { return f.text }

// Fields are the names of f's fields, in order: what field:NAME may name.
func (f *LogFormat) Fields() []string { return append([]string(nil), f.names...) }

func (f *LogFormat) index(name string) int {
	for i, n := range f.names {
		if n == name {
			return i
		}
	}
	return -1
}

// resolve is f's roles with the parts fields renames (those that differ from
// DefaultFields) read from the fields of those names; an error names a
// renamed part whose field f does not have.
func (f *LogFormat) resolve(fields Fields) (roles, error) {
	r := f.roles
	var errs []error
	set := func(part, name, def string, dst *int) {
		if name == def || name == "" {
			return
		}
		if *dst = f.index(name); *dst < 0 {
			errs = append(errs, fmt.Errorf("%s=%s: the %s format has no field %q (it has %s)", part, name, f.product, name, strings.Join(f.names, ", ")))
		}
	}
	time0 := r.time
	set("time", fields.Time, DefaultFields.Time, &r.time)
	if r.time != time0 && r.time >= 0 {
		r.timeKind = timeKindOf(f.names[r.time])
	}
	set("ip", fields.IP, DefaultFields.IP, &r.ip)
	set("user", fields.User, DefaultFields.User, &r.user)
	// A renamed method or path is read from its field, after the request line.
	set("method", fields.Method, DefaultFields.Method, &r.method)
	set("path", fields.Path, DefaultFields.Path, &r.path)
	if r.time < 0 && len(errs) == 0 {
		errs = append(errs, fmt.Errorf("the %s format has no time field (want one of %s, or --fields time=FIELD)", f.product, timeFieldsOf(f.product)))
	}
	return r, errors.Join(errs...)
}

// timeKindOf is how the time field of that name is written.
func timeKindOf(name string) timeKind {
	switch name {
	case "time_local":
		return timeCLF
	case "time_iso8601":
		return timeISO
	case "msec":
		return timeUnix
	}
	return timeAny
}

func timeFieldsOf(product string) string {
	if product == "nginx" {
		return "$time_local, $time_iso8601, $msec"
	}
	return "%START_TIME%"
}

// logFormatParser reads lines of a LogFormat.
type logFormatParser struct {
	f     *LogFormat
	roles roles
	loc   *time.Location
	clock stampCache
}

func newLogFormatParser(f *LogFormat, fields Fields, loc *time.Location) (*logFormatParser, error) {
	r, err := f.resolve(fields)
	if err != nil {
		return nil, err
	}
	return &logFormatParser{f: f, roles: r, loc: loc}, nil
}

func (p *logFormatParser) parse(line []byte, r *Record) error {
	r.reset()
	f := p.f
	if !bytes.HasPrefix(line, f.lits[0]) {
		return fmt.Errorf("not this %s format: the line does not start with %q", f.product, f.lits[0])
	}
	pos := len(f.lits[0])
	last := len(f.names) - 1
	for i, name := range f.names {
		next := f.lits[i+1]
		var end int
		switch {
		case f.widths[i] > 0:
			end = pos + f.widths[i]
			if end > len(line) || !bytes.HasPrefix(line[end:], next) {
				return fmt.Errorf("not this %s format: no %q after the %d bytes of %s", f.product, next, f.widths[i], name)
			}
		case i == last && len(next) == 0:
			end = len(line)
		case i == last:
			j := bytes.LastIndex(line[pos:], next)
			if j < 0 || pos+j+len(next) != len(line) {
				return fmt.Errorf("not this %s format: the line does not end with %q after %s", f.product, next, name)
			}
			end = pos + j
		default:
			j := f.find(line[pos:], next)
			if j < 0 {
				return fmt.Errorf("not this %s format: no %q after %s", f.product, next, name)
			}
			end = pos + j
		}
		r.names = append(r.names, name)
		r.values = append(r.values, line[pos:end])
		pos = end + len(next)
	}
	return p.fill(r)
}

// find is the index of lit in b, past escaped occurrences when f.backslash.
func (f *LogFormat) find(b, lit []byte) int {
	off := 0
	for {
		j := bytes.Index(b[off:], lit)
		if j < 0 || !f.backslash {
			if j >= 0 {
				j += off
			}
			return j
		}
		j += off
		n := 0
		for k := j - 1; k >= 0 && b[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return j
		}
		off = j + 1
	}
}

// fill sets r's parts from its fields, by the parser's roles.
func (p *logFormatParser) fill(r *Record) error {
	ro := &p.roles
	at, err := p.clock.read(r.values[ro.time], ro.timeKind, p.loc)
	if err != nil {
		return fmt.Errorf("%s: %w", r.names[ro.time], err)
	}
	r.At = at
	if ro.ip >= 0 {
		r.IP = firstAddr(r.values[ro.ip])
	}
	if ro.user >= 0 {
		r.User = dashless(r.values[ro.user])
	}
	if ro.request >= 0 {
		r.Method, r.Path = splitRequest(r.values[ro.request])
	}
	if ro.method >= 0 {
		r.Method = r.values[ro.method]
	}
	if ro.path >= 0 {
		r.Path = urlPath(r.values[ro.path])
	}
	return nil
}

// dashless is v, or nil for "-" (what the products write for no value).
func dashless(v []byte) []byte {
	if len(v) == 1 && v[0] == '-' {
		return nil
	}
	return v
}

// firstAddr is a client address as the products log it: the first of a
// comma-separated list (X-Forwarded-For), without a port (192.0.2.1:443,
// [2001:db8::1]:443); nil for "-" or nothing. An IPv6 address without
// brackets is kept whole.
func firstAddr(v []byte) []byte {
	if i := indexByte(v, ','); i >= 0 {
		v = v[:i]
	}
	v = bytes.TrimSpace(v)
	if len(v) > 0 && v[0] == '[' {
		if i := indexByte(v, ']'); i > 0 {
			return v[1:i]
		}
	}
	if i := indexByte(v, ':'); i >= 0 && lastIndexByte(v, ':') == i {
		v = v[:i]
	}
	return dashless(v)
}

// stripPort is host:port without its port (the last colon on), and without
// the brackets of [IPv6]:port.
func stripPort(v []byte) []byte {
	if i := lastIndexByte(v, ':'); i >= 0 {
		v = v[:i]
	}
	if len(v) >= 2 && v[0] == '[' && v[len(v)-1] == ']' {
		v = v[1 : len(v)-1]
	}
	return dashless(v)
}

// splitRequest reads a request line, "GET /path HTTP/1.1": its method and
// path (a full URL's path); a line without a space is all path ("-").
func splitRequest(req []byte) (method, path []byte) {
	i := indexByte(req, ' ')
	if i <= 0 {
		return nil, req
	}
	method, req = req[:i], req[i+1:]
	if j := lastIndexByte(req, ' '); j >= 0 {
		req = req[:j]
	}
	return method, urlPath(req)
}

// urlPath is a full URL's path and query ("http://h:80/a?b" → "/a?b"), or v.
func urlPath(v []byte) []byte {
	i := bytes.Index(v, []byte("://"))
	if i < 0 {
		return v
	}
	rest := v[i+3:]
	j := indexByte(rest, '/')
	if j < 0 {
		return []byte("/")
	}
	return rest[j:]
}

// stampCache remembers the last time field read that depends on a zone
// (HAProxy's, a zoneless ISO time): the zone's offset is looked up once a second.
type stampCache struct {
	key  [20]byte
	n    int
	sec  int64
	have bool
}

// read parses a time field of kind k into ns since the Unix epoch.
func (c *stampCache) read(b []byte, k timeKind, loc *time.Location) (int64, error) {
	switch k {
	case timeCLF:
		return parseCLF(b)
	case timeISO:
		if at, ok, err := parseISO(b, loc, c, false); ok {
			return at, err
		}
	case timeUnix:
		return parseUnixBytes(b)
	case timeHAProxy:
		return c.haproxy(b, loc)
	}
	return c.readAny(b, loc)
}

// readAny is parseTime(b, loc), exactly, without allocating for the forms
// parseISO reads strictly (RFC 3339 with a T and Z or ±07:00, a zoneless
// time with a T or a space) and Unix seconds.
func (c *stampCache) readAny(b []byte, loc *time.Location) (int64, error) {
	if len(b) > 0 && b[0] >= '0' && b[0] <= '9' && bytes.IndexAny(b, "-:T ") < 0 {
		return parseUnixBytes(b)
	}
	if at, ok, err := parseISO(b, loc, c, true); ok {
		return at, err
	}
	return parseTime(b, loc)
}

// minUnix is 1678-01-01 in Unix seconds, the first second replay reads.
var minUnix = time.Date(1678, 1, 1, 0, 0, 0, 0, time.UTC).Unix()

// atSec is sec seconds and ns nanoseconds since the epoch, in the years read.
func atSec(sec, ns int64, b []byte) (int64, error) {
	if sec < minUnix || sec >= lastUnix {
		return 0, fmt.Errorf("time %q: year %d UTC is %w", b, time.Unix(sec, 0).UTC().Year(), errYears)
	}
	return sec*1e9 + ns, nil
}

// daysFromCivil is the days from 1970-01-01 to y-m-d in the proleptic
// Gregorian calendar (Howard Hinnant's days_from_civil).
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := y
	if era < 0 {
		era -= 399
	}
	era /= 400
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

func daysIn(y, m int64) int64 {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// digits reads b[i:i+n] as a decimal number; ok is false unless all are digits.
func digits(b []byte, i, n int) (int64, bool) {
	if i+n > len(b) {
		return 0, false
	}
	v := int64(0)
	for _, c := range b[i : i+n] {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v, true
}

var months = [12]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}

func month(b []byte) (int64, bool) {
	for i, m := range months {
		if string(b) == m {
			return int64(i + 1), true
		}
	}
	return 0, false
}

// civil reads "02/Jan/2006:15:04:05" at the start of b: the seconds since the
// epoch of that wall-clock time read as UTC.
func civil(b []byte) (int64, bool) {
	if len(b) < 20 || b[2] != '/' || b[6] != '/' || b[11] != ':' || b[14] != ':' || b[17] != ':' {
		return 0, false
	}
	d, ok1 := digits(b, 0, 2)
	m, ok2 := month(b[3:6])
	y, ok3 := digits(b, 7, 4)
	hh, ok4 := digits(b, 12, 2)
	mm, ok5 := digits(b, 15, 2)
	ss, ok6 := digits(b, 18, 2)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || d < 1 || d > daysIn(y, m) || hh > 23 || mm > 59 || ss > 59 {
		return 0, false
	}
	return daysFromCivil(y, m, d)*86400 + hh*3600 + mm*60 + ss, true
}

// parseCLF reads nginx's $time_local and the combined format's time,
// "02/Jan/2006:15:04:05 -0700", exactly.
func parseCLF(b []byte) (int64, error) {
	sec, ok := civil(b)
	if !ok || len(b) != 26 || b[20] != ' ' || (b[21] != '+' && b[21] != '-') {
		return 0, fmt.Errorf("time %q: want 02/Jan/2006:15:04:05 -0700", b)
	}
	oh, ok1 := digits(b, 22, 2)
	om, ok2 := digits(b, 24, 2)
	if !ok1 || !ok2 || om > 59 {
		return 0, fmt.Errorf("time %q: want 02/Jan/2006:15:04:05 -0700", b)
	}
	off := oh*3600 + om*60
	if b[21] == '-' {
		off = -off
	}
	return atSec(sec-off, 0, b)
}

// fraction reads ".123" at b[i:]: its nanoseconds and the index after it.
func fraction(b []byte, i int) (ns int64, j int, ok bool) {
	if i >= len(b) || b[i] != '.' && b[i] != ',' {
		return 0, i, true
	}
	j = i + 1
	n := 0
	for j < len(b) && b[j] >= '0' && b[j] <= '9' {
		if n < 9 {
			ns = ns*10 + int64(b[j]-'0')
		}
		n++
		j++
	}
	if n == 0 || n > 9 {
		return 0, j, false
	}
	for ; n < 9; n++ {
		ns *= 10
	}
	return ns, j, true
}

// parseISO reads "2006-01-02T15:04:05[.frac](Z|±07:00|±0700)" (a space for the
// T, and a time without a zone read in loc, too). ok is false when b is not of
// that shape (the caller tries others); err is a time outside the years read.
// Strict reads only what time.Parse(time.RFC3339Nano) reads, and zoneless
// times with a T or a space and a "." before the fraction, as parseTime does.
func parseISO(b []byte, loc *time.Location, c *stampCache, strict bool) (at int64, ok bool, err error) {
	if len(b) < 19 || b[4] != '-' || b[7] != '-' || (b[10] != 'T' && b[10] != ' ') || b[13] != ':' || b[16] != ':' {
		return 0, false, nil
	}
	y, ok1 := digits(b, 0, 4)
	m, ok2 := digits(b, 5, 2)
	d, ok3 := digits(b, 8, 2)
	hh, ok4 := digits(b, 11, 2)
	mm, ok5 := digits(b, 14, 2)
	ss, ok6 := digits(b, 17, 2)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || m < 1 || m > 12 || d < 1 || d > daysIn(y, m) || hh > 23 || mm > 59 || ss > 59 {
		return 0, false, nil
	}
	if strict && len(b) > 19 && b[19] == ',' {
		return 0, false, nil
	}
	ns, i, fok := fraction(b, 19)
	if !fok {
		return 0, false, nil
	}
	sec := daysFromCivil(y, m, d)*86400 + hh*3600 + mm*60 + ss
	if strict && i < len(b) && b[10] != 'T' {
		return 0, false, nil
	}
	switch {
	case i == len(b):
		if loc == nil || loc == time.UTC {
			break
		}
		sec = c.zoned(b[:19], sec, y, m, d, hh, mm, ss, loc)
	case b[i] == 'Z' && i+1 == len(b):
	case b[i] == '+' || b[i] == '-':
		z := b[i+1:]
		var oh, om int64
		var zok bool
		switch len(z) {
		case 5:
			if z[2] != ':' {
				return 0, false, nil
			}
			oh, ok1 = digits(z, 0, 2)
			om, zok = digits(z, 3, 2)
			zok = zok && ok1
		case 4:
			oh, ok1 = digits(z, 0, 2)
			om, zok = digits(z, 2, 2)
			zok = zok && ok1 && !strict
		}
		if !zok || om > 59 || oh > 23 {
			return 0, false, nil
		}
		off := oh*3600 + om*60
		if b[i] == '-' {
			off = -off
		}
		sec -= off
	default:
		return 0, false, nil
	}
	at, err = atSec(sec, ns, b)
	return at, true, err
}

// zoned is the Unix seconds of a wall-clock time in loc (its UTC reading
// utc), looked up once per distinct second key.
func (c *stampCache) zoned(key []byte, utc, y, m, d, hh, mm, ss int64, loc *time.Location) int64 {
	if c.have && c.n == len(key) && string(c.key[:c.n]) == string(key) {
		return c.sec
	}
	sec := time.Date(int(y), time.Month(m), int(d), int(hh), int(mm), int(ss), 0, loc).Unix()
	c.n = copy(c.key[:], key)
	c.sec, c.have = sec, true
	return sec
}

// haproxy reads HAProxy's "06/Feb/2009:12:14:14.655", a wall-clock time in loc.
func (c *stampCache) haproxy(b []byte, loc *time.Location) (int64, error) {
	utc, ok := civil(b)
	if !ok {
		return 0, fmt.Errorf("time %q: want 06/Feb/2009:12:14:14.655", b)
	}
	ns, i, fok := fraction(b, 20)
	if !fok || i != len(b) || len(b) != 24 {
		return 0, fmt.Errorf("time %q: want 06/Feb/2009:12:14:14.655", b)
	}
	sec := utc
	if loc != nil && loc != time.UTC {
		y, _ := digits(b, 7, 4)
		m, _ := month(b[3:6])
		d, _ := digits(b, 0, 2)
		hh, _ := digits(b, 12, 2)
		mm, _ := digits(b, 15, 2)
		ss, _ := digits(b, 18, 2)
		sec = c.zoned(b[:20], utc, y, m, d, hh, mm, ss, loc)
	}
	return atSec(sec, ns, b)
}

// parseUnixBytes reads Unix seconds with an optional fraction of up to 9
// digits ("1551345600.123"), without allocating: every format's Unix times.
func parseUnixBytes(b []byte) (int64, error) {
	whole, frac, _ := bytes.Cut(b, []byte("."))
	bad := len(whole) == 0 || len(frac) > 9
	sec := int64(0)
	for _, c := range whole {
		if c < '0' || c > '9' || sec > (math.MaxInt64-int64(c-'0'))/10 {
			bad = true
			break
		}
		sec = sec*10 + int64(c-'0')
	}
	if bad {
		return 0, fmt.Errorf("time %q: not Unix seconds", b)
	}
	if sec >= lastUnix {
		return 0, fmt.Errorf("time %q: a year after 2261 is %w", b, errYears)
	}
	ns := int64(0)
	for i := 0; i < 9; i++ {
		ns *= 10
		if i < len(frac) {
			c := frac[i]
			if c < '0' || c > '9' {
				return 0, fmt.Errorf("time %q: not Unix seconds", b)
			}
			ns += int64(c - '0')
		}
	}
	return sec*1e9 + ns, nil
}
