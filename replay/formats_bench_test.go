package replay

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// benchLines are n lines of a format, one second apart in turn, from distinct
// addresses, so that no time is cached from the line before.
func benchLines(n int, line func(i int, at time.Time, ip string) string) [][]byte {
	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	out := make([][]byte, n)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range out {
		at := t0.Add(time.Duration(i) * 1137 * time.Millisecond)
		ip := fmt.Sprintf("198.51.%d.%d", rng.IntN(256), rng.IntN(256))
		out[i] = []byte(line(i, at, ip))
	}
	return out
}

// benchParse parses lines in turn: ns/op is ns per line; lines/s and
// allocs/op (allocations per line) are the figures of docs/replay.md.
func benchParse(b *testing.B, p parser, lines [][]byte) {
	var r Record
	for _, l := range lines { // every line parses
		if err := p.parse(l, &r); err != nil {
			b.Fatalf("parse(%q): %v", l, err)
		}
	}
	var size int64
	for _, l := range lines {
		size += int64(len(l)) + 1
	}
	b.SetBytes(size / int64(len(lines)))
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		if err := p.parse(lines[i], &r); err != nil {
			b.Fatal(err)
		}
		if i++; i == len(lines) {
			i = 0
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}

func BenchmarkParseNginx(b *testing.B) {
	f, err := NginxFormat(nginxSampleFormat)
	if err != nil {
		b.Fatal(err)
	}
	p, _ := newLogFormatParser(f, DefaultFields, time.UTC)
	benchParse(b, p, benchLines(4096, func(i int, at time.Time, ip string) string {
		return fmt.Sprintf(`%s - - [%s] "GET /api/users/%d?page=2 HTTP/1.1" 200 %d "-" "Mozilla/5.0 (X11; Linux x86_64)" "k-%d" 0.%03d`,
			ip, at.Format("02/Jan/2006:15:04:05 -0700"), i, 100+i, i%97, i%1000)
	}))
}

func BenchmarkParseEnvoy(b *testing.B) {
	p, _ := newLogFormatParser(envoyDefault, DefaultFields, time.UTC)
	benchParse(b, p, benchLines(4096, func(i int, at time.Time, ip string) string {
		return fmt.Sprintf(`[%s] "GET /api/v1/locations/%d HTTP/1.1" 200 - 0 1234 12 10 "%s, 10.0.0.2" "curl/8.5" "5f3c2a10-0d1e-4c1e-9a42-%012d" "api.example.com" "10.0.2.1:80"`,
			at.Format("2006-01-02T15:04:05.000Z"), i, ip, i)
	}))
}

func BenchmarkParseHAProxy(b *testing.B) {
	p := newHAProxy(DefaultFields, time.UTC)
	benchParse(b, p, benchLines(4096, func(i int, at time.Time, ip string) string {
		return fmt.Sprintf(`Feb  6 12:14:14 localhost haproxy[14389]: %s:%d [%s] http-in static/srv1 10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 {api.example.com|k-%d} {} "GET /index/%d.html HTTP/1.1"`,
			ip, 30000+i, at.Format("02/Jan/2006:15:04:05.000"), i%97, i)
	}))
}

func BenchmarkParseHAProxyZoned(b *testing.B) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		b.Skip(err)
	}
	p := newHAProxy(DefaultFields, paris)
	benchParse(b, p, benchLines(4096, func(i int, at time.Time, ip string) string {
		return fmt.Sprintf(`%s:%d [%s] http-in static/srv1 10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 "GET /index/%d.html HTTP/1.1"`,
			ip, 30000+i, at.Format("02/Jan/2006:15:04:05.000"), i)
	}))
}

func BenchmarkParseALB(b *testing.B) {
	p := newAWS("alb", DefaultFields, time.UTC)
	benchParse(b, p, benchLines(4096, func(i int, at time.Time, ip string) string {
		return fmt.Sprintf(`https %s app/my-loadbalancer/50dc6c495c0c9188 %s:2817 10.0.0.1:80 0.086 0.048 0.037 200 200 0 57 "GET https://www.example.com:443/api/users/%d HTTP/1.1" "curl/7.46.0" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067 "Root=1-58337281-1d84f3d73c47ec4e5857%04d" "www.example.com" "arn:aws:acm:us-east-2:123456789012:certificate/12345678-1234-1234-1234-123456789012" 1 %s "forward" "-" "-" "10.0.0.1:80" "200" "-" "-" TID_1234abcd5678ef90`,
			at.Add(80*time.Millisecond).Format("2006-01-02T15:04:05.000000Z"), ip, i, i%10000, at.Format("2006-01-02T15:04:05.000000Z"))
	}))
}

func BenchmarkParseELB(b *testing.B) {
	p := newAWS("elb", DefaultFields, time.UTC)
	benchParse(b, p, benchLines(4096, func(i int, at time.Time, ip string) string {
		return fmt.Sprintf(`%s my-loadbalancer %s:2817 10.0.0.1:80 0.000073 0.001048 0.000057 200 200 0 29 "GET http://www.example.com:80/items/%d HTTP/1.1" "curl/7.38.0" - -`,
			at.Format("2006-01-02T15:04:05.000000Z"), ip, i)
	}))
}

// BenchmarkParseCombined is the existing combined parser, for comparison.
func BenchmarkParseCombined(b *testing.B) {
	benchParse(b, &combined{}, benchLines(4096, func(i int, at time.Time, ip string) string {
		return fmt.Sprintf(`%s - - [%s] "GET /api/users/%d?page=2 HTTP/1.1" 200 %d "-" "Mozilla/5.0 (X11; Linux x86_64)"`,
			ip, at.Format("02/Jan/2006:15:04:05 -0700"), i, 100+i)
	}))
}

// BenchmarkParseEnvoyJSON is Envoy's json_format (encoding/json: allocates).
func BenchmarkParseEnvoyJSON(b *testing.B) {
	p := newEnvoyJSON(DefaultFields, time.UTC)
	benchParse(b, p, benchLines(4096, func(i int, at time.Time, ip string) string {
		return fmt.Sprintf(`{"start_time":"%s","method":"GET","path":"/api/users/%d","response_code":200,"x_forwarded_for":"%s","upstream_host":"10.0.2.1:80"}`,
			at.Format("2006-01-02T15:04:05.000Z"), i, ip)
	}))
}

// BenchmarkParseJSON is JSON lines with renamed and nested fields (the scanner).
func BenchmarkParseJSON(b *testing.B) {
	fields, _ := ParseFields("time=ts,ip=client.ip,path=req.path,method=req.method")
	p := &jsonLines{fields: fields, loc: time.UTC}
	benchParse(b, p, benchLines(4096, func(i int, at time.Time, ip string) string {
		return fmt.Sprintf(`{"ts":"%s","client":{"ip":"%s","port":%d},"req":{"method":"GET","path":"/api/users/%d","headers":{"x-api-key":"k-%d"}},"status":200,"ms":1.25}`,
			at.Format("2006-01-02T15:04:05.000Z07:00"), ip, 30000+i, i, i%97)
	}))
}
