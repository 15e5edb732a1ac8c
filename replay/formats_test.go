package replay

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

// nginxSampleFormat writes testdata/formats-nginx.log (the log_format of issue 27).
const nginxSampleFormat = `$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" "$http_x_api_key" $request_time`

// want is a line's parts and some of its fields, derived by hand from the line.
type want struct {
	at                     time.Time
	ip, user, method, path string
	fields                 map[string]string
	absent                 []string // fields the line must not have
}

func check(t *testing.T, p parser, line string, w want) {
	t.Helper()
	var r Record
	if err := p.parse([]byte(line), &r); err != nil {
		t.Fatalf("parse(%q): %v", line, err)
	}
	if r.At != w.at.UnixNano() {
		t.Errorf("%.40q: At = %v, want %v", line, time.Unix(0, r.At).UTC(), w.at.UTC())
	}
	for _, c := range []struct{ part, got, want string }{
		{"ip", string(r.IP), w.ip}, {"user", string(r.User), w.user},
		{"method", string(r.Method), w.method}, {"path", string(r.Path), w.path},
	} {
		if c.got != c.want {
			t.Errorf("%.40q: %s = %q, want %q", line, c.part, c.got, c.want)
		}
	}
	for name, v := range w.fields {
		got, ok := r.field(name)
		if !ok || string(got) != v {
			t.Errorf("%.40q: field %s = %q (%v), want %q", line, name, got, ok, v)
		}
	}
	for _, name := range w.absent {
		if v, ok := r.field(name); ok {
			t.Errorf("%.40q: field %s = %q, want none", line, name, v)
		}
	}
}

func sampleLines(t *testing.T, name string) []string {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

func atUTC(y int, mo time.Month, d, h, mi, s, ms int) time.Time {
	return time.Date(y, mo, d, h, mi, s, ms*1e6, time.UTC)
}

func TestNginxFormatSample(t *testing.T) {
	f, err := NginxFormat(nginxSampleFormat)
	if err != nil {
		t.Fatal(err)
	}
	p, err := newLogFormatParser(f, DefaultFields, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	lines := sampleLines(t, "formats-nginx.log")
	// 09:00 at -0700 is 16:00 UTC.
	check(t, p, lines[0], want{at: atUTC(2026, 3, 1, 16, 0, 0, 0), ip: "198.51.100.7", method: "GET", path: "/api/users/42",
		fields: map[string]string{"http_x_api_key": "k-123", "status": "200", "body_bytes_sent": "512", "http_referer": "-",
			"http_user_agent": "curl/8.5", "request_time": "0.004", "remote_user": "-", "time_local": "01/Mar/2026:09:00:00 -0700"}})
	check(t, p, lines[1], want{at: atUTC(2026, 3, 1, 16, 0, 0, 0), ip: "198.51.100.7", user: "alice", method: "POST", path: "/login",
		fields: map[string]string{"http_referer": "https://example.com/", "http_user_agent": "Mozilla/5.0 (X11; Linux x86_64)", "status": "302"}})
	check(t, p, lines[2], want{at: atUTC(2026, 3, 1, 16, 0, 1, 0), ip: "203.0.113.66", method: "GET", path: "/api/orders/7?page=2",
		fields: map[string]string{"http_x_api_key": "k-456", "request": "GET /api/orders/7?page=2 HTTP/2.0"}})
	// nginx's default escaping writes a quote as \x22: kept as written.
	check(t, p, lines[3], want{at: atUTC(2026, 3, 1, 16, 0, 2, 0), ip: "2001:db8::1", method: "GET", path: `/search?q=\x22a b\x22`,
		fields: map[string]string{"http_user_agent": `Mozilla/5.0 \x22quoted\x22`, "http_x_api_key": "-"}})
	if got := strings.Join(f.Fields(), ","); got != "remote_addr,remote_user,time_local,request,status,body_bytes_sent,http_referer,http_user_agent,http_x_api_key,request_time" {
		t.Errorf("Fields() = %s", got)
	}
}

// Other log_formats: braces, $time_iso8601, $msec, $request_uri without
// $request, escape=json, --fields ip=http_x_forwarded_for.
func TestNginxFormats(t *testing.T) {
	for _, tc := range []struct {
		name, format, fields, line string
		want                       want
	}{
		{"iso8601 and upstream", `${remote_addr}|$time_iso8601|$request_method|$request_uri|$upstream_addr|$http_x_user_id`, "",
			`192.0.2.9|2026-03-01T09:00:00+01:00|PUT|/v1/items/9?x=1|10.0.0.5:8080, 10.0.0.6:8080|u-77`,
			want{at: atUTC(2026, 3, 1, 8, 0, 0, 0), ip: "192.0.2.9", method: "PUT", path: "/v1/items/9?x=1",
				fields: map[string]string{"upstream_addr": "10.0.0.5:8080, 10.0.0.6:8080", "http_x_user_id": "u-77"}}},
		{"msec and uri", `$msec $remote_addr $uri $status`, "",
			`1772380800.123 192.0.2.10 /a/b 204`,
			want{at: time.Unix(1772380800, 123e6), ip: "192.0.2.10", path: "/a/b", fields: map[string]string{"status": "204"}}},
		{"x-forwarded-for", `$remote_addr [$time_local] "$request" "$http_x_forwarded_for"`, "ip=http_x_forwarded_for",
			`10.0.0.1 [01/Mar/2026:09:00:00 +0000] "GET / HTTP/1.1" "203.0.113.5, 10.0.0.9"`,
			want{at: atUTC(2026, 3, 1, 9, 0, 0, 0), ip: "203.0.113.5", method: "GET", path: "/"}},
		{"escape=json", `escape=json "$time_local" "$http_user_agent" "$remote_addr"`, "",
			`"01/Mar/2026:09:00:00 +0000" "say \"hi\" \\" "192.0.2.1"`,
			want{at: atUTC(2026, 3, 1, 9, 0, 0, 0), ip: "192.0.2.1", fields: map[string]string{"http_user_agent": `say \"hi\" \\`}}},
		{"time renamed", `$msec $remote_addr [$time_local]`, "time=time_local",
			`1.5 192.0.2.1 [01/Mar/2026:09:00:00 +0100]`,
			want{at: atUTC(2026, 3, 1, 8, 0, 0, 0), ip: "192.0.2.1"}},
		{"time_local unbracketed", `$time_local $remote_addr`, "",
			`01/Mar/2026:09:00:00 -0030 192.0.2.1`,
			want{at: atUTC(2026, 3, 1, 9, 30, 0, 0), ip: "192.0.2.1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := NginxFormat(tc.format)
			if err != nil {
				t.Fatal(err)
			}
			fields, err := ParseFields(tc.fields)
			if err != nil {
				t.Fatal(err)
			}
			p, err := newLogFormatParser(f, fields, time.UTC)
			if err != nil {
				t.Fatal(err)
			}
			check(t, p, tc.line, tc.want)
		})
	}
}

func TestNginxFormatErrors(t *testing.T) {
	for _, tc := range []struct{ format, want string }{
		{`$remote_addr$remote_user [$time_local]`, "nothing between them"},
		{`$binary_remote_addr [$time_local]`, "raw bytes"},
		{`${remote_addr [$time_local]`, "no closing }"},
		{`$ [$time_local]`, "invalid variable name"},
		{`plain text`, "has no field"},
		{`escape=xml $remote_addr`, "escape=xml"},
	} {
		if _, err := NginxFormat(tc.format); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NginxFormat(%q) = %v, want an error with %q", tc.format, err, tc.want)
		}
	}
	f, _ := NginxFormat(`$remote_addr $status`)
	if _, err := f.resolve(DefaultFields); err == nil || !strings.Contains(err.Error(), "no time field") {
		t.Errorf("a format without a time: %v", err)
	}
	fields, _ := ParseFields("ip=http_x_real_ip")
	f, _ = NginxFormat(`$remote_addr [$time_local]`)
	if _, err := f.resolve(fields); err == nil || !strings.Contains(err.Error(), `no field "http_x_real_ip"`) {
		t.Errorf("--fields naming a field not in the format: %v", err)
	}
	p, _ := newLogFormatParser(f, DefaultFields, time.UTC)
	var r Record
	for _, line := range []string{`192.0.2.1 01/Mar/2026:09:00:00 +0000]`, `192.0.2.1 [01/Mar/2026:09:00:00 +0000`, `192.0.2.1 [01/Mar/2026:25:00:00 +0000]`,
		`192.0.2.1 [31/Feb/2026:09:00:00 +0000]`, `192.0.2.1 [01/Mar/2300:09:00:00 +0000]`} {
		if err := p.parse([]byte(line), &r); err == nil {
			t.Errorf("parse(%q) = nil, want an error", line)
		}
	}
}

func TestEnvoyDefaultSample(t *testing.T) {
	p, err := newLogFormatParser(envoyDefault, DefaultFields, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	lines := sampleLines(t, "formats-envoy.log")
	// The first line is the docs' example of the default format.
	check(t, p, lines[0], want{at: atUTC(2016, 4, 15, 20, 17, 0, 310), ip: "10.0.35.28", method: "POST", path: "/api/v1/locations",
		fields: map[string]string{"protocol": "HTTP/2", "response_code": "204", "response_flags": "-", "bytes_received": "154",
			"bytes_sent": "0", "duration": "226", "resp.x-envoy-upstream-service-time": "100", "req.x-forwarded-for": "10.0.35.28",
			"req.user-agent": "nsq2http", "req.x-request-id": "cc21d9b0-cf5c-432b-8c7e-98aeb7988cd2", "req.:authority": "locations",
			"upstream_host": "tcp://10.0.2.1:80", "req.x-envoy-original-path": "/api/v1/locations"}})
	check(t, p, lines[1], want{at: atUTC(2016, 4, 15, 20, 17, 0, 950), ip: "198.51.100.7", method: "GET", path: "/api/v1/locations/42",
		fields: map[string]string{"req.:authority": "api.example.com"}})
	// An X-Forwarded-For of "-" is no address.
	check(t, p, lines[2], want{at: atUTC(2016, 4, 15, 20, 17, 1, 2), method: "GET", path: "/healthz",
		fields: map[string]string{"upstream_host": "-", "resp.x-envoy-upstream-service-time": "-"}})
}

func TestEnvoyFormats(t *testing.T) {
	f, err := EnvoyFormat(`%START_TIME(%s.%3f)% %DOWNSTREAM_REMOTE_ADDRESS% %REQ(:METHOD)% %REQ(:PATH)% %REQ(X-API-KEY):12% %DYNAMIC_METADATA(ns:key)%\n`)
	if err != nil {
		t.Fatal(err)
	}
	p, err := newLogFormatParser(f, DefaultFields, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	check(t, p, `1772380800.250 [2001:db8::5]:44321 GET /a?b=1 k-123 v`, want{at: time.Unix(1772380800, 250e6), ip: "2001:db8::5",
		method: "GET", path: "/a?b=1", fields: map[string]string{"req.x-api-key": "k-123", "dynamic_metadata(ns:key)": "v"}})
	for _, bad := range []string{`%START_TIME% %REQ%`, `%START_TIME% %REQ(X`, `%START_TIME% %lower%`, `%START_TIME%%DURATION%`, `[%START_TIME`} {
		if _, err := EnvoyFormat(bad); err == nil {
			t.Errorf("EnvoyFormat(%q) = nil error", bad)
		}
	}
}

func TestEnvoyJSONSample(t *testing.T) {
	p := newEnvoyJSON(DefaultFields, time.UTC)
	lines := sampleLines(t, "formats-envoy.jsonl")
	check(t, p, lines[0], want{at: atUTC(2026, 3, 1, 16, 0, 0, 250), ip: "198.51.100.7", method: "GET", path: "/api/users/42",
		fields: map[string]string{"upstream_host": "10.0.2.1:80", "response_code": "200"}})
	// x_forwarded_for null: the address is downstream_remote_address's, without its port.
	check(t, p, lines[1], want{at: atUTC(2026, 3, 1, 16, 0, 0, 500), ip: "203.0.113.66", method: "POST", path: "/login"})
	// A JSON line with the default keys reads them, start_time or not.
	check(t, p, `{"time":"2026-03-01T16:00:01Z","start_time":"2026-03-01T16:00:00Z","ip":"192.0.2.1","x_forwarded_for":"192.0.2.2"}`,
		want{at: atUTC(2026, 3, 1, 16, 0, 1, 0), ip: "192.0.2.1"})
}

func TestNestedJSONFields(t *testing.T) {
	fields, _ := ParseFields("ip=request.ip,method=request.method,path=request.path,time=meta.at")
	p := &jsonLines{fields: fields, loc: time.UTC}
	check(t, p, `{"meta":{"at":"2026-03-01T16:00:00Z"},"request":{"ip":"192.0.2.1","method":"GET","path":"/a","headers":{"x-api-key":"k1"}},"tags":["a"]}`,
		want{at: atUTC(2026, 3, 1, 16, 0, 0, 0), ip: "192.0.2.1", method: "GET", path: "/a",
			fields: map[string]string{"request.headers.x-api-key": "k1"}, absent: []string{"request", "tags", "request.headers"}})
}

func TestHAProxySample(t *testing.T) {
	p := newHAProxy(DefaultFields, time.UTC)
	lines := sampleLines(t, "formats-haproxy.log")
	// The first line is section 8.2.3's example.
	check(t, p, lines[0], want{at: atUTC(2009, 2, 6, 12, 14, 14, 655), ip: "10.0.1.2", method: "GET", path: "/index.html",
		fields: map[string]string{"process_name": "haproxy", "pid": "14389", "client_ip": "10.0.1.2", "client_port": "33317",
			"request_date": "06/Feb/2009:12:14:14.655", "frontend_name": "http-in", "backend_name": "static", "server_name": "srv1",
			"TR": "10", "Tw": "0", "Tc": "30", "Tr": "69", "Ta": "109", "status_code": "200", "bytes_read": "2750",
			"captured_request_cookie": "-", "captured_response_cookie": "-", "termination_state": "----",
			"actconn": "1", "feconn": "1", "beconn": "1", "srv_conn": "1", "retries": "0", "srv_queue": "0", "backend_queue": "0",
			"captured_request_headers": "1wt.eu", "hdr0": "1wt.eu", "captured_response_headers": "", "rsp_hdr0": "", "http_request": "GET /index.html HTTP/1.1"},
		absent: []string{"hdr1", "rsp_hdr1"}})
	check(t, p, lines[1], want{at: atUTC(2009, 2, 6, 12, 14, 15, 1), ip: "10.0.1.2", method: "POST", path: "/api/orders?x=1",
		fields: map[string]string{"frontend_name": "http-in~", "hdr0": "api.example.com", "hdr1": "k-123", "status_code": "429"},
		absent: []string{"process_name", "pid"}})
	check(t, p, lines[2], want{at: atUTC(2009, 2, 6, 12, 14, 16, 120), ip: "2001:db8::7", method: "GET", path: "/status",
		fields: map[string]string{"process_name": "haproxy", "server_name": "<NOSRV>", "TR": "-1", "termination_state": "SC--"},
		absent: []string{"captured_request_headers", "hdr0"}})
	// The request date is the server's wall clock: 12:14 in Paris in February (UTC+1) is 11:14 UTC.
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Skip("no tzdata:", err)
	}
	check(t, newHAProxy(DefaultFields, paris), lines[0], want{at: atUTC(2009, 2, 6, 11, 14, 14, 655), ip: "10.0.1.2", method: "GET", path: "/index.html"})
	var r Record
	for _, bad := range []string{lines[0][:60], strings.Replace(lines[0], "10/0/30/69/109", "10/0/30", 1),
		strings.Replace(lines[0], `"GET`, `GET`, 1), strings.Replace(lines[0], "12:14:14.655]", "12:14:14]", 1)} {
		if err := p.parse([]byte(bad), &r); err == nil {
			t.Errorf("parse(%q) = nil, want an error", bad)
		}
	}
}

func TestALBSample(t *testing.T) {
	p := newAWS("alb", DefaultFields, time.UTC)
	lines := sampleLines(t, "formats-alb.log")
	// The docs' HTTP example: the time is request_creation_time.
	check(t, p, lines[0], want{at: time.Date(2018, 7, 2, 22, 22, 48, 364000e3, time.UTC), ip: "192.168.131.39", method: "GET", path: "/",
		fields: map[string]string{"type": "http", "time": "2018-07-02T22:23:00.186641Z", "elb": "app/my-loadbalancer/50dc6c495c0c9188",
			"client:port": "192.168.131.39:2817", "target:port": "10.0.0.1:80", "request_processing_time": "0.000",
			"target_processing_time": "0.001", "response_processing_time": "0.000", "elb_status_code": "200", "target_status_code": "200",
			"received_bytes": "34", "sent_bytes": "366", "request": "GET http://www.example.com:80/ HTTP/1.1", "user_agent": "curl/7.46.0",
			"ssl_cipher": "-", "ssl_protocol": "-", "target_group_arn": "arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067",
			"trace_id": "Root=1-58337262-36d228ad5d99923122bbe354", "domain_name": "-", "chosen_cert_arn": "-", "matched_rule_priority": "0",
			"request_creation_time": "2018-07-02T22:22:48.364000Z", "actions_executed": "forward", "redirect_url": "-", "error_reason": "-",
			"target:port_list": "10.0.0.1:80", "target_status_code_list": "200", "classification": "-", "classification_reason": "-",
			"conn_trace_id": "TID_1234abcd5678ef90"}})
	check(t, p, lines[1], want{at: time.Date(2018, 7, 2, 22, 22, 48, 364000e3, time.UTC), ip: "192.168.131.39", method: "GET", path: "/api/users/42?x=1",
		fields: map[string]string{"ssl_protocol": "TLSv1.2", "actions_executed": "authenticate,forward", "domain_name": "www.example.com"}})
	// An entry written before conn_trace_id was added has one field fewer.
	check(t, p, lines[2], want{at: time.Date(2018, 7, 2, 22, 22, 48, 364000e3, time.UTC), ip: "10.0.1.252", method: "GET", path: "/",
		fields: map[string]string{"type": "h2", "redirect_url": "https://example.com:80/"}, absent: []string{"conn_trace_id"}})
	fields, _ := ParseFields("ip=target:port")
	check(t, newAWS("alb", fields, time.UTC), lines[0], want{at: time.Date(2018, 7, 2, 22, 22, 48, 364000e3, time.UTC), ip: "10.0.0.1", method: "GET", path: "/"})
}

func TestELBSample(t *testing.T) {
	p := newAWS("elb", DefaultFields, time.UTC)
	lines := sampleLines(t, "formats-elb.log")
	at := time.Date(2015, 5, 13, 23, 39, 43, 945958e3, time.UTC)
	check(t, p, lines[0], want{at: at, ip: "192.168.131.39", method: "GET", path: "/",
		fields: map[string]string{"time": "2015-05-13T23:39:43.945958Z", "elb": "my-loadbalancer", "client:port": "192.168.131.39:2817",
			"backend:port": "10.0.0.1:80", "request_processing_time": "0.000073", "backend_processing_time": "0.001048",
			"response_processing_time": "0.000057", "elb_status_code": "200", "backend_status_code": "200", "received_bytes": "0",
			"sent_bytes": "29", "request": "GET http://www.example.com:80/ HTTP/1.1", "user_agent": "curl/7.38.0", "ssl_cipher": "-", "ssl_protocol": "-"}})
	check(t, p, lines[1], want{at: at, ip: "192.168.131.39", method: "GET", path: "/", fields: map[string]string{"ssl_cipher": "DHE-RSA-AES128-SHA"}})
	// The docs' TCP example: no HTTP request.
	check(t, p, lines[2], want{at: at, ip: "192.168.131.39", path: "- -", fields: map[string]string{"elb_status_code": "-", "request": "- - - "}})
	var r Record
	if err := p.parse([]byte(lines[0][:80]), &r); err == nil {
		t.Error("a cut entry parsed")
	}
}

// TestSniffFormats: auto reads each sample's format from its first line.
func TestSniffFormats(t *testing.T) {
	for file, format := range map[string]string{"formats-envoy.log": "envoy", "formats-envoy.jsonl": "envoy-json",
		"formats-haproxy.log": "haproxy", "formats-alb.log": "alb", "formats-elb.log": "elb", "formats-nginx.log": "combined",
		"sample.log": "combined", "sample.jsonl": "json", "sample.csv": "csv"} {
		for i, line := range sampleLines(t, file) {
			if file == "sample.csv" && i > 0 {
				break
			}
			if got := sniff([]byte(line)); got != format {
				t.Errorf("%s:%d: sniff = %q, want %q", file, i+1, got, format)
			}
		}
	}
}

// TestReplayFormats replays each sample by auto (or its format string) under a
// key of one of its own fields: every line parses, and the format is named.
func TestReplayFormats(t *testing.T) {
	nginx, _ := NginxFormat(nginxSampleFormat)
	for _, tc := range []struct {
		file, key, format string
		custom            *LogFormat
	}{
		{"formats-nginx.log", "field:http_x_api_key", "nginx", nginx},
		{"formats-envoy.log", "field:req.x-request-id+endpoint", "envoy", nil},
		{"formats-envoy.jsonl", "ip+field:upstream_host", "envoy-json", nil},
		{"formats-haproxy.log", "ip+field:backend_name", "haproxy", nil},
		{"formats-alb.log", "ip+field:target_group_arn", "alb", nil},
		{"formats-elb.log", "ip+field:elb", "elb", nil},
	} {
		data, err := os.ReadFile("testdata/" + tc.file)
		if err != nil {
			t.Fatal(err)
		}
		opts := Options{Format: "auto", LogFormat: tc.custom, Strict: true, Limits: []Limit{mustLimit(t, "key="+tc.key+" limit=1/1s")}}
		res, err := Replay(context.Background(), []Input{{Name: tc.file, R: bytes.NewReader(data)}}, opts)
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		if n := int64(bytes.Count(data, []byte("\n"))); res.Requests != n || res.Format != tc.format {
			t.Errorf("%s: %d requests, format %q; want %d, %q", tc.file, res.Requests, res.Format, n, tc.format)
		}
	}
	// Envoy's default format keyed by ip: a line whose X-Forwarded-For is "-" is a bad line.
	res, err := replayString(t, "envoy", strings.Join(sampleLines(t, "formats-envoy.log"), "\n"), Options{})
	if err != nil || res.Requests != 2 || res.Bad != 1 || res.Format != "envoy" {
		t.Errorf("envoy by ip: %+v, %v; want 2 requests, 1 bad, format envoy", res, err)
	}
}

func TestNoneParsedNamesFormats(t *testing.T) {
	_, err := replayString(t, "h.log", "10.0.1.2:33317 [06/Feb/2009:12:14:14.655] http-in static/srv1 10/0/30 200\n", Options{})
	var none *NoneParsedError
	if !errors.As(err, &none) {
		t.Fatalf("err %v, want a NoneParsedError", err)
	}
	for _, w := range []string{"format detected: haproxy (HAProxy's option httplog)", "nginx (any log_format, given by --nginx-format)",
		"envoy-json (Envoy's json_format)", "alb (AWS Application Load Balancer)", "elb (AWS Classic Load Balancer)", "h.log:1: not HAProxy's httplog format"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q lacks %q", err, w)
		}
	}
}

func TestFormatFlags(t *testing.T) {
	base := func() Flags {
		return Flags{Limits: []string{"key=field:http_x_api_key limit=10/1m"}, LogFormat: "auto", TZ: "UTC", Late: 5 * time.Second,
			LegitBelow: 0.5, Top: 10, Format: "text"}
	}
	f := base()
	f.NginxFormat = nginxSampleFormat
	o, err := f.Options()
	if err != nil || o.Format != "nginx" || o.LogFormat == nil || o.LogFormat.Product() != "nginx" || o.LogFormat.String() != nginxSampleFormat {
		t.Errorf("--nginx-format alone: %+v, %v; want --log-format nginx", o.LogFormat, err)
	}
	f = base()
	f.EnvoyFormat = `[%START_TIME%] %REQ(X-API-KEY)%`
	if o, err := f.Options(); err != nil || o.Format != "envoy" || o.LogFormat.Product() != "envoy" {
		t.Errorf("--envoy-format alone: %v", err)
	}
	for _, tc := range []struct {
		set  func(*Flags)
		want string
	}{
		{func(f *Flags) { f.LogFormat = "nginx" }, "--log-format nginx: needs the log_format string"},
		{func(f *Flags) { f.LogFormat = "combined"; f.NginxFormat = nginxSampleFormat }, "--nginx-format: is an nginx format, but --log-format is combined"},
		{func(f *Flags) { f.NginxFormat = "$remote_addr$status" }, "--nginx-format: nginx log_format: remote_addr and status have nothing between them"},
		{func(f *Flags) { f.NginxFormat = nginxSampleFormat; f.Fields = "ip=http_x_real_ip" }, `--nginx-format, --fields: ip=http_x_real_ip: the nginx format has no field "http_x_real_ip"`},
		{func(f *Flags) { f.NginxFormat = nginxSampleFormat; f.EnvoyFormat = "%START_TIME%" }, "--nginx-format, --envoy-format: give one"},
		{func(f *Flags) { f.EnvoyFormat = "%START_TIME" }, "--envoy-format: envoy format:"},
		{func(f *Flags) { f.LogFormat = "w3c" }, `--log-format: unknown "w3c" (want auto, combined, json, csv, nginx, envoy, envoy-json, haproxy, alb, elb)`},
	} {
		f := base()
		tc.set(&f)
		if _, err := f.Options(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Options() = %v, want an error with %q", err, tc.want)
		}
	}
}

// TestTimeCalendar: the time readers' calendar at its edges, against Unix
// seconds worked out independently (Python's calendar.timegm): leap days of
// 2000 and 2024, none in 1900 or 2100, the first and last days read.
func TestTimeCalendar(t *testing.T) {
	for _, tc := range []struct {
		clf, iso, haproxy string
		unix              int64
	}{
		{"29/Feb/2000:00:00:00 +0000", "2000-02-29T00:00:00Z", "29/Feb/2000:00:00:00.000", 951782400},
		{"01/Mar/2000:00:00:00 +0000", "2000-03-01T00:00:00Z", "01/Mar/2000:00:00:00.000", 951868800},
		{"01/Mar/1900:00:00:00 +0000", "1900-03-01T00:00:00Z", "01/Mar/1900:00:00:00.000", -2203891200},
		{"01/Mar/2100:00:00:00 +0000", "2100-03-01T00:00:00Z", "01/Mar/2100:00:00:00.000", 4107542400},
		{"29/Feb/2024:00:00:00 +0000", "2024-02-29T00:00:00Z", "29/Feb/2024:00:00:00.000", 1709164800},
		{"01/Jan/1678:00:00:00 +0000", "1678-01-01T00:00:00Z", "01/Jan/1678:00:00:00.000", -9214560000},
		{"31/Dec/2261:00:00:00 +0000", "2261-12-31T00:00:00Z", "31/Dec/2261:00:00:00.000", 9214560000},
		{"31/Dec/1969:00:00:00 +0000", "1969-12-31T00:00:00Z", "31/Dec/1969:00:00:00.000", -86400},
	} {
		var c stampCache
		for _, got := range []func() (int64, error){
			func() (int64, error) { return parseCLF([]byte(tc.clf)) },
			func() (int64, error) { return c.read([]byte(tc.iso), timeISO, time.UTC) },
			func() (int64, error) { return c.haproxy([]byte(tc.haproxy), time.UTC) },
		} {
			if at, err := got(); err != nil || at != tc.unix*1e9 {
				t.Errorf("%s: %d, %v; want %d s", tc.iso, at, err, tc.unix)
			}
		}
	}
	var c stampCache
	for _, bad := range []string{"29/Feb/1900:00:00:00 +0000", "29/Feb/2100:00:00:00 +0000", "31/Apr/2026:00:00:00 +0000", "31/Dec/1677:23:59:59 +0000", "01/Jan/2262:00:00:00 +0000"} {
		if at, err := parseCLF([]byte(bad)); err == nil {
			t.Errorf("parseCLF(%q) = %d, want an error", bad, at)
		}
	}
	if at, err := c.read([]byte("2262-01-01T00:00:00Z"), timeISO, time.UTC); err == nil || !errors.Is(err, errYears) {
		t.Errorf("2262: %d, %v; want errYears", at, err)
	}
}
