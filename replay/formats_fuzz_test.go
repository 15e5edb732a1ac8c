package replay

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// clean is s with every byte in bad, control byte or non-ASCII byte
// replaced by 'x', after prefix (so that it is never empty nor "-").
func clean(prefix, s, bad string) string {
	b := []byte(prefix + s)
	for i, c := range b {
		if c < 0x20 || c >= 0x7f || strings.IndexByte(bad, c) >= 0 {
			b[i] = 'x'
		}
	}
	return string(b)
}

// fuzzTime is an instant in the years replay reads, to the millisecond, and
// a zone of at most ±14h, from arbitrary numbers.
func fuzzTime(sec int64, ms uint16) (time.Time, *time.Location) {
	span := lastUnix - minUnix - 2
	s := minUnix + (sec%span+span)%span
	off := (int(ms)%1681 - 840) * 60 // -14:00 to +14:00
	return time.Unix(s, int64(ms%1000)*1e6).UTC(), time.FixedZone("", off)
}

// seedSample adds each line of a sample file as a seed.
func seedSample(f *testing.F, file string) {
	data, err := os.ReadFile("testdata/" + file)
	if err != nil {
		f.Fatal(err)
	}
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f.Add(line, int64(1772380800+i*3607), uint16(i*331), "192.0.2.7", "GET /api/users/42?x=1", "curl/8.5 (x; y)")
	}
	f.Add("", int64(0), uint16(0), "", "", "")
	f.Add(`"""]]]: [[[ {}|{ %`, int64(-1), uint16(65535), "::1", "- - -", `\"`)
}

// parts is what a round-trip line must read back.
type parts struct {
	at                     time.Time
	ip, user, method, path string
	fields                 map[string]string
}

func roundTrip(t *testing.T, p parser, line string, w parts) {
	t.Helper()
	var r Record
	if err := p.parse([]byte(line), &r); err != nil {
		t.Fatalf("parse(%q): %v", line, err)
	}
	if r.At != w.at.UnixNano() || string(r.IP) != w.ip || string(r.User) != w.user || string(r.Method) != w.method || string(r.Path) != w.path {
		t.Fatalf("parse(%q) = at %d ip %q user %q method %q path %q; want %d %q %q %q %q", line, r.At, r.IP, r.User, r.Method, r.Path,
			w.at.UnixNano(), w.ip, w.user, w.method, w.path)
	}
	for name, v := range w.fields {
		if got, ok := r.field(name); !ok || string(got) != v {
			t.Fatalf("parse(%q): field %s = %q, want %q", line, name, got, v)
		}
	}
}

// FuzzNginx: any line parses or fails without a panic; a line written by the
// log_format from arbitrary values reads them back.
func FuzzNginx(f *testing.F) {
	seedSample(f, "formats-nginx.log")
	format, err := NginxFormat(nginxSampleFormat)
	if err != nil {
		f.Fatal(err)
	}
	iso, err := NginxFormat(`$time_iso8601 $remote_addr "$request_method $request_uri" $upstream_addr "$http_x_api_key"`)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, line string, sec int64, ms uint16, a, b, c string) {
		p, _ := newLogFormatParser(format, DefaultFields, time.UTC)
		var r Record
		_ = p.parse([]byte(line), &r)
		at, zone := fuzzTime(sec, ms)
		at = at.Truncate(time.Second)
		ip, user, path := clean("i", a, " ,:[\""), clean("u", b, " "), clean("/", b, ` "?#:`)
		ua, key := clean("", c, `"`), clean("k", a+c, `"`)
		l := fmt.Sprintf(`%s - %s [%s] "POST %s HTTP/1.1" 200 5 "-" "%s" "%s" 0.001`, ip, user, at.In(zone).Format("02/Jan/2006:15:04:05 -0700"), path, ua, key)
		roundTrip(t, p, l, parts{at: at, ip: ip, user: user, method: "POST", path: path,
			fields: map[string]string{"http_user_agent": ua, "http_x_api_key": key, "status": "200"}})
		q, _ := newLogFormatParser(iso, DefaultFields, time.UTC)
		l = fmt.Sprintf(`%s %s "GET %s" %s "%s"`, at.In(zone).Format("2006-01-02T15:04:05-07:00"), ip, path, user, key)
		roundTrip(t, q, l, parts{at: at, ip: ip, method: "GET", path: path, fields: map[string]string{"upstream_addr": user, "http_x_api_key": key}})
	})
}

// FuzzEnvoy: as FuzzNginx, for Envoy's default format.
func FuzzEnvoy(f *testing.F) {
	seedSample(f, "formats-envoy.log")
	f.Fuzz(func(t *testing.T, line string, sec int64, ms uint16, a, b, c string) {
		p, _ := newLogFormatParser(envoyDefault, DefaultFields, time.UTC)
		var r Record
		_ = p.parse([]byte(line), &r)
		at, _ := fuzzTime(sec, ms)
		ip, method, path := clean("i", a, ` ,:["`), clean("M", b, ` "`), clean("/", b, ` ":`)
		ua, id := clean("", c, `"`), clean("r", a+c, `"`)
		l := fmt.Sprintf(`[%s] "%s %s HTTP/1.1" 429 UO 0 18 1 - "%s, 10.0.0.1" "%s" "%s" "%s" "%s"`,
			at.Format("2006-01-02T15:04:05.000Z"), method, path, ip, ua, id, ua, id)
		roundTrip(t, p, l, parts{at: at, ip: ip, method: method, path: path,
			fields: map[string]string{"req.user-agent": ua, "req.x-request-id": id, "req.:authority": ua, "upstream_host": id, "response_flags": "UO"}})
	})
}

// FuzzHAProxy: as FuzzNginx, for HAProxy's httplog, with and without a
// syslog prefix and header captures.
func FuzzHAProxy(f *testing.F) {
	seedSample(f, "formats-haproxy.log")
	f.Fuzz(func(t *testing.T, line string, sec int64, ms uint16, a, b, c string) {
		p := newHAProxy(DefaultFields, time.UTC)
		var r Record
		_ = p.parse([]byte(line), &r)
		at, _ := fuzzTime(sec, ms)
		ip, server, path := clean("i", a, " []"), clean("s", b, " /|}"), clean("/", b, ` ":`)
		hdr, method := clean("", c, "|}"), clean("M", a, ` "`)
		prefix, capture := "", ""
		want := map[string]string{"server_name": server, "client_port": "4711", "Ta": "109"}
		if ms&1 == 1 {
			prefix = "Feb  6 12:14:14 localhost haproxy[14389]: "
			want["pid"] = "14389"
		}
		if ms&2 == 2 {
			capture = "{" + hdr + "|" + server + "} {} "
			want["hdr0"], want["hdr1"] = hdr, server
		}
		l := fmt.Sprintf(`%s%s:4711 [%s] %s static/%s 10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 %s"%s %s HTTP/1.1"`,
			prefix, ip, at.Format("02/Jan/2006:15:04:05.000"), server, server, capture, method, path)
		roundTrip(t, p, l, parts{at: at, ip: ip, method: method, path: path, fields: want})
	})
}

// FuzzAWS: as FuzzNginx, for ALB and Classic ELB entries.
func FuzzAWS(f *testing.F) {
	seedSample(f, "formats-alb.log")
	seedSample(f, "formats-elb.log")
	f.Fuzz(func(t *testing.T, line string, sec int64, ms uint16, a, b, c string) {
		alb, elb := newAWS("alb", DefaultFields, time.UTC), newAWS("elb", DefaultFields, time.UTC)
		var r Record
		_ = alb.parse([]byte(line), &r)
		_ = elb.parse([]byte(line), &r)
		at, _ := fuzzTime(sec, ms)
		us := at.Add(time.Duration(ms) * time.Microsecond)
		ip, tok, path := clean("i", a, ` "[]`), clean("t", b, ` "`), clean("/", b, ` ":`)
		quoted, method := clean("", c, `"`), clean("M", a, ` "`)
		iso := us.Format("2006-01-02T15:04:05.000000Z")
		request := method + " https://h.example:443" + path + " HTTP/1.1"
		l := fmt.Sprintf(`%s %s %s %s:2817 10.0.0.1:80 0.000 0.001 0.000 200 200 34 366 "%s" "%s" - - %s "%s" "%s" "-" 0 %s "forward" "-" "-" "10.0.0.1:80" "200" "-" "-" %s`,
			tok, iso, tok, ip, request, quoted, tok, quoted, quoted, iso, tok)
		roundTrip(t, alb, l, parts{at: us, ip: ip, method: method, path: path, fields: map[string]string{"type": tok, "user_agent": quoted,
			"target_group_arn": tok, "trace_id": quoted, "domain_name": quoted, "conn_trace_id": tok, "request": request}})
		l = fmt.Sprintf(`%s %s %s:2817 10.0.0.1:80 0.000073 0.001048 0.000057 200 200 0 29 "%s" "%s" %s TLSv1.2`, iso, tok, ip, request, quoted, tok)
		roundTrip(t, elb, l, parts{at: us, ip: ip, method: method, path: path, fields: map[string]string{"elb": tok, "user_agent": quoted, "ssl_cipher": tok}})
	})
}

// FuzzFormatStrings: any nginx or Envoy format string compiles or is refused
// without a panic, and a compiled one reads any line or refuses it.
func FuzzFormatStrings(f *testing.F) {
	f.Add(nginxSampleFormat, `198.51.100.7 - - [01/Mar/2026:09:00:00 -0700] "GET / HTTP/1.1" 200 5 "-" "c" "k" 0.1`)
	f.Add(EnvoyDefaultFormat, `[2016-04-15T20:17:00.310Z] "POST /api/v1/locations HTTP/2" 204 - 154 0 226 100 "10.0.35.28" "nsq2http" "cc21" "locations" "tcp://10.0.2.1:80"`)
	f.Add(`escape=json ${a}$b|%C(x):3%`, `x|y`)
	f.Add(`%START_TIME(%s.%3f)% $msec`, `1.5 1.5`)
	f.Fuzz(func(t *testing.T, format, line string) {
		var r Record
		for _, compile := range []func(string) (*LogFormat, error){NginxFormat, EnvoyFormat} {
			lf, err := compile(format)
			if err != nil {
				continue
			}
			if len(lf.Fields()) == 0 {
				t.Fatalf("%q compiled to no field", format)
			}
			if p, err := newLogFormatParser(lf, DefaultFields, time.UTC); err == nil {
				_ = p.parse([]byte(line), &r)
			}
		}
	})
}
