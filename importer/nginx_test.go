package importer

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/scenarios"
)

// nginxLimit is one limit of an imported chain, derived by hand from the
// config: nginx's burst=B is rlsim's burst B+1, rate=Nr/s is N per 1s and
// Nr/m N per 1m (docs/products.md, nginx).
type nginxLimit struct {
	name, key string
	limit     int64
	window    time.Duration
	burst     int64
	endpoint  string
	dryRun    bool
}

// nginxProblem is a problem's line (in file) and a phrase of its message.
type nginxProblem struct {
	file   string
	line   int
	phrase string
}

func checkNginxLimits(t *testing.T, m *Model, want []nginxLimit) {
	t.Helper()
	if len(m.Limits) != len(want) {
		t.Fatalf("%d limits, want %d: %+v", len(m.Limits), len(want), m.Limits)
	}
	for i, w := range want {
		g := m.Limits[i]
		got := nginxLimit{g.Name, g.Key, g.Limit, g.Window, g.Burst, g.Endpoint, g.DryRun}
		if got != w {
			t.Errorf("limit %d = %+v, want %+v", i, got, w)
		}
	}
}

func checkNginxProblems(t *testing.T, m *Model, want []nginxProblem) {
	t.Helper()
	if len(m.Problems) != len(want) {
		for _, p := range m.Problems {
			t.Log(p)
		}
		t.Errorf("%d problems, want %d", len(m.Problems), len(want))
	}
	for _, w := range want {
		found := false
		for _, p := range m.Problems {
			if filepath.Base(p.At.File) == w.file && p.At.Line == w.line && strings.Contains(p.Message, w.phrase) {
				found = true
			}
		}
		if !found {
			t.Errorf("no problem at %s:%d saying %q", w.file, w.line, w.phrase)
		}
	}
}

// zoneSection is the nginx lane's zones as the test writes them.
func zoneSection(t *testing.T, l Lane) string {
	t.Helper()
	var zones []string
	for _, f := range l.Section {
		if f.Key != "zones" {
			t.Errorf("nginx section field %s, want zones alone", f.Key)
			continue
		}
		for _, z := range f.Value.([]Fields) {
			var kv []string
			for _, x := range z {
				kv = append(kv, fmt.Sprintf("%s=%v", x.Key, x.Value))
			}
			zones = append(zones, strings.Join(kv, " "))
		}
	}
	return strings.Join(zones, "; ")
}

func laneOption(l Lane, key string) any {
	for _, f := range l.Options {
		if f.Key == key {
			return f.Value
		}
	}
	return nil
}

func TestNginxMinimal(t *testing.T) {
	m, s := importSample(t, "nginx", "minimal.conf")
	checkNginxLimits(t, m, []nginxLimit{{"perip", "ip", 10, time.Second, 6, "/login", false}})
	checkNginxProblems(t, m, nil)
	if len(m.Lanes) != 1 || m.Lanes[0].Algorithm != "nginx" {
		t.Fatalf("lanes %+v, want one nginx lane", m.Lanes)
	}
	l := m.Lanes[0]
	if got, want := zoneSection(t, l), "rate=10r/s burst=5"; got != want {
		t.Errorf("zones %q, want %q", got, want)
	}
	// 10m: ⌊(10485760−704)/4120⌋ = 2544 pages, 32 states a page, less the
	// shctx's slot and the log_ctx's page (ngxZoneKeys).
	if got := laneOption(l, "keys"); got != int64(2544*32-1-32) {
		t.Errorf("keys %v, want %d", got, 2544*32-1-32)
	}
	if got := laneOption(l, "when_full"); got != "evict" {
		t.Errorf("when_full %v, want evict", got)
	}
	if got := laneOption(l, "status"); got != nil {
		t.Errorf("status %v, want none (nginx's 503, the lane's default)", got)
	}
	if rs := s.Config.RefusalStatus(0); rs != 503 {
		t.Errorf("the scenario's nginx lane refuses with %d, want 503", rs)
	}
}

func TestNginxProduction(t *testing.T) {
	m, s := importSample(t, "nginx", "production.conf")
	checkNginxLimits(t, m, []nginxLimit{
		{"login", "ip", 30, time.Minute, 6, "/login", false},
		{"api", "api_key", 100, time.Second, 201, "/api/", false},
		{"perserver", "global", 1000, time.Second, 501, "/api/", false},
		{"search", "ip", 20, time.Second, 11, "/api/search", true},
	})
	checkNginxProblems(t, m, []nginxProblem{
		{"production.conf", 26, "$api_client (map $http_x_api_key $api_client"},
		{"production.conf", 26, "zone api holds 162847 keys"},     // 20m: 5090 pages
		{"production.conf", 27, "zone perserver holds 8095 keys"}, // 1m, measured
		{"api.conf", 14, "nginx matches location /api/ by prefix"},
	})
	l := m.Lanes[0]
	want := "rate=30r/m burst=5 nodelay=true; rate=100r/s burst=200 delay=50; rate=1000r/s burst=500 nodelay=true; rate=20r/s burst=10"
	if got := zoneSection(t, l); got != want {
		t.Errorf("zones\n%s, want\n%s", got, want)
	}
	if got := laneOption(l, "status"); got != int64(429) {
		t.Errorf("status %v, want 429", got)
	}
	if rs := s.Config.RefusalStatus(0); rs != 429 {
		t.Errorf("the scenario's nginx lane refuses with %d, want 429", rs)
	}
	if len(m.Files) != 3 || filepath.Base(m.Files[1]) != "api.conf" || filepath.Base(m.Files[2]) != "www.conf" {
		t.Errorf("files %v, want production.conf, conf.d/api.conf, conf.d/www.conf", m.Files)
	}
	wantMain := `$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" "$http_x_forwarded_for"`
	if got := m.LogFormats["main"]; got != wantMain {
		t.Errorf("log_format main\n%s, want\n%s", got, wantMain)
	}
	wantJSON := `{"time":"$time_iso8601","addr":"$remote_addr","key":"$http_x_api_key","request":"$request","status":$status,"limit":"$limit_req_status"}`
	if got := m.LogFormats["json"]; got != wantJSON {
		t.Errorf("log_format json\n%s, want\n%s", got, wantJSON)
	}
	if !strings.Contains(strings.Join(m.Notes, "\n"), "escape=json") {
		t.Errorf("notes do not name log_format json's escape=json: %q", m.Notes)
	}
}

func TestNginxProblems(t *testing.T) {
	m, _ := importSample(t, "nginx", "problems.conf")
	checkNginxLimits(t, m, []nginxLimit{
		{"perip", "ip", 5, time.Second, 11, "", false},
		{"client", "api_key", 50, time.Minute, 1, `\.php$`, false},
		{"perip@/checkout", "ip", 5, time.Second, 3, "/checkout", false},
	})
	checkNginxProblems(t, m, []nginxProblem{
		{"problems.conf", 19, `whose $limited is "0"`},
		{"problems.conf", 20, "no key kind for $http_x_client_id"},
		{"problems.conf", 29, "regular expression"},
		{"problems.conf", 29, "has its own limit_req, so nginx applies none of http's"},
		{"problems.conf", 38, "has its own limit_req, so nginx applies none of http's"},
		{"problems.conf", 19, "zone perip is used by 2 limit_req (http at testdata/nginx/problems.conf:23; location = /checkout at testdata/nginx/problems.conf:39)"},
		{"problems.conf", 40, "limit_req_status 429"},
		{"problems.conf", 45, "rlsim has no conditions"},
		{"problems.conf", 48, "limit_except GET"},
		{"problems.conf", 55, "has its own limit_req"},
	})
	if !strings.Contains(m.Problems[0].Message, "10.0.0.0/8, 192.168.0.0/16") {
		t.Errorf("the empty key's problem does not name the geo's networks: %s", m.Problems[0].Message)
	}
	notes := strings.Join(m.Notes, "\n")
	if !strings.Contains(notes, "server old.example.com") || !strings.Contains(notes, "return") {
		t.Errorf("notes do not say old.example.com's limit_req is never reached: %q", notes)
	}
	if got := zoneSection(t, m.Lanes[0]); got != "rate=5r/s burst=10; rate=50r/m; rate=5r/s burst=2 nodelay=true" {
		t.Errorf("zones %q", got)
	}
}

// importText imports an nginx config held in the test.
func importText(t *testing.T, conf string) *Model {
	t.Helper()
	m, err := Import(Source{Path: "t.conf", Data: []byte(conf)}, "nginx")
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	if _, err := scenarios.Parse("t.yaml", Render(m)); err != nil {
		t.Fatalf("the imported scenario does not parse: %v\n%s", err, Render(m))
	}
	return m
}

// TestNginxInheritance holds nginx's rule: limit_req is inherited only by a
// level with none of its own; limit_req_dry_run and limit_req_status by
// the nearest level that sets them.
func TestNginxInheritance(t *testing.T) {
	m := importText(t, `http {
	limit_req_zone $remote_addr zone=a:1m rate=2r/s;
	limit_req_zone $remote_user zone=b:1m rate=3r/m;
	limit_req_dry_run on;
	server {
		limit_req zone=a;
		location = /x { limit_req zone=b burst=4 delay=2; limit_req_dry_run off; }
		location = /y { }
	}
}`)
	checkNginxLimits(t, m, []nginxLimit{
		{"a", "ip", 2, time.Second, 1, "", true},
		{"b", "user", 3, time.Minute, 5, "/x", false},
	})
	checkNginxProblems(t, m, []nginxProblem{{"t.conf", 7, "has its own limit_req, so nginx applies none of server"}})
}

// TestNginxLocations: ^~ is a prefix, @ a named location, and a nested
// location inherits its parent's limit_req, which rlsim scopes to the
// parent's name alone.
func TestNginxLocations(t *testing.T) {
	m := importText(t, `limit_req_zone $remote_addr zone=a:1m rate=1r/s;
server {
	location ^~ /img/ { limit_req zone=a; location = /img/x { } }
	location @fallback { limit_req zone=a burst=2; }
}`)
	checkNginxLimits(t, m, []nginxLimit{
		{"a", "ip", 1, time.Second, 1, "/img/", false},
		{"a@@fallback", "ip", 1, time.Second, 3, "@fallback", false},
	})
	checkNginxProblems(t, m, []nginxProblem{
		{"t.conf", 3, "nginx matches location ^~ /img/ by prefix"},
		{"t.conf", 3, "location = /img/x (inside location ^~ /img/) inherits its limit_req"},
		{"t.conf", 4, "named location"},
		{"t.conf", 1, "zone a is used by 2 limit_req"},
	})
}

// TestNginxDelayOrder: nodelay is delay=∞ (ngx_http_limit_req, line 1021),
// so the last of nodelay and delay= wins.
func TestNginxDelayOrder(t *testing.T) {
	m := importText(t, `limit_req_zone $uri zone=a:1m rate=7;
server { location =/p { limit_req zone=a nodelay delay=3; } location =/q { limit_req zone=a delay=3 nodelay; } }`)
	if got := zoneSection(t, m.Lanes[0]); got != "rate=7r/s delay=3; rate=7r/s nodelay=true" {
		t.Errorf("zones %q, want delay=3 then nodelay", got)
	}
	if m.Limits[0].Key != "endpoint" || m.Limits[1].Name != "a@/q" {
		t.Errorf("limits %+v", m.Limits)
	}
}

// TestNginxKeys holds the key table of docs/import-nginx.md.
func TestNginxKeys(t *testing.T) {
	for _, c := range []struct {
		key, kind, problem string
	}{
		{"$binary_remote_addr", "ip", ""},
		{"$remote_addr", "ip", ""},
		{"${remote_addr}", "ip", ""},
		{"$http_x_forwarded_for", "ip", "X-Forwarded-For"},
		{"$remote_user", "user", ""},
		{"$http_authorization", "user", ""},
		{"$http_x_api_key", "api_key", ""},
		{"$arg_apikey", "api_key", ""},
		{"$http_x_tenant_id", "tenant", ""},
		{"$http_x_org", "tenant", "no key kind"},
		{"$uri", "endpoint", ""},
		{"$request_uri", "endpoint", "query string"},
		{"$server_name", "global", ""},
		{"constant", "global", ""},
		{"$host", "global", "Host header"},
		{"$cookie_session", "user", "a cookie"},
		{"$request_id", "ip", "no key kind"},
		{"$binary_remote_addr$uri", "ip", "combines $binary_remote_addr, $uri"},
		{"$k", "api_key", ""}, // a map whose results are all $http_x_api_key
		{"$s", "user", ""},    // set to $remote_user
		{"$e", "ip", "is empty for requests whose $http_x_internal is \"yes\""},
		{"$g", "global", "whose address ($remote_addr) is any value not listed (the default is empty)"},
		{"$n", "global", "is always empty"}, // a map without default or results
	} {
		conf := `http {
	map $http_x_probe $k { default $http_x_api_key; ~^a $http_x_api_key; }
	map $http_x_internal $e { default $binary_remote_addr; yes ""; }
	geo $g { default ""; 10.0.0.0/8 1; }
	map $uri $n { }
	limit_req_zone ` + c.key + ` zone=z:1m rate=1r/s;
	server { set $s $remote_user; location = /a { limit_req zone=z; } }
}`
		m := importText(t, conf)
		if m.Limits[0].Key != c.kind {
			t.Errorf("key %s = %s, want %s", c.key, m.Limits[0].Key, c.kind)
		}
		var msgs []string
		for _, p := range m.Problems {
			if p.At.Line == 6 { // the limit_req_zone
				msgs = append(msgs, p.Message)
			}
		}
		got := strings.Join(msgs, "\n")
		if c.problem == "" && got != "" || c.problem != "" && !strings.Contains(got, c.problem) {
			t.Errorf("key %s: problems %q, want one saying %q", c.key, got, c.problem)
		}
	}
}

// TestNginxTokens holds the tokenizer to ngx_conf_read_token: quotes,
// escapes, comments only where a word begins, ${ } inside a word.
func TestNginxTokens(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
	}{
		{`a b;`, `a|b`},
		{`a "b c" 'd;e';`, `a|b c|d;e`},
		{`a "x\"y" 'it\'s' \\z;`, `a|x"y|it's|\z`},
		{`a "\t\n\q";`, "a|\t\n\\q"},
		{`a b#c;`, `a|b#c`},
		{"a b # c;\n d;", `a|b|d`},
		{`a ${x}y;`, `a|${x}y`},
		{`a b\;c;`, `a|b\;c`}, // only \" \' \\ \t \r \n are unescaped
		{`a "";`, `a|`},
	} {
		s := &ngxScanner{file: "t", data: []byte(c.in), line: 1}
		words, _, tok, err := s.next()
		if err != nil || tok != ngxStatement || strings.Join(words, "|") != c.want {
			t.Errorf("%q: %q %v %v, want %q", c.in, words, tok, err, c.want)
		}
	}
	for _, c := range []struct{ in, want string }{
		{`a "b"c;`, `t:1: unexpected "c"`},
		{"a {\n b;", `t:2: unexpected end of file, expecting "}"`},
		{"a;\n}", `t:2: unexpected "}"`},
		{"a b", `t:1: unexpected end of file, expecting ";" or "}"`},
		{";", `t:1: unexpected ";"`},
		{"a { b }", `t:1: unexpected "}"`},
	} {
		_, err := (&ngxConf{src: Source{Path: "t"}}).parseFile("t", []byte(c.in))
		var se *SyntaxError
		if !errors.As(err, &se) || err.Error() != c.want {
			t.Errorf("%q: error %v, want %s", c.in, err, c.want)
		}
	}
}

// TestNginxIncludes: globs are read sorted, relative to the main file's
// directory (the prefix), whatever file includes them; a cycle is an error.
func TestNginxIncludes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("main.conf", "http { include zones/*.conf; include sites/site.conf; }")
	write("zones/b.conf", "limit_req_zone $remote_addr zone=b:1m rate=2r/s;")
	write("zones/a.conf", "limit_req_zone $remote_addr zone=a:1m rate=1r/s;")
	// Relative to the prefix, not to sites/.
	write("sites/site.conf", "server { include zones/use.inc; }")
	write("zones/use.inc", "location = /u { limit_req zone=b; limit_req zone=a; }")
	src, err := SourceFile(filepath.Join(dir, "main.conf"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := Import(src, "nginx")
	if err != nil {
		t.Fatal(err)
	}
	checkNginxLimits(t, m, []nginxLimit{{"b", "ip", 2, time.Second, 1, "/u", false}, {"a", "ip", 1, time.Second, 1, "/u", false}})
	var base []string
	for _, f := range m.Files {
		base = append(base, filepath.Base(f))
	}
	if got := strings.Join(base, ","); got != "main.conf,a.conf,b.conf,site.conf,use.inc" {
		t.Errorf("files read %s", got)
	}
	write("zones/use.inc", "include sites/site.conf;")
	src, _ = SourceFile(filepath.Join(dir, "main.conf"))
	if _, err := Import(src, "nginx"); err == nil || !strings.Contains(err.Error(), "includes itself") {
		t.Errorf("a cycle of includes: %v, want an error", err)
	}
}

func TestNginxSync(t *testing.T) {
	m := importText(t, `http { limit_req_zone $remote_addr zone=a:1m rate=5r/s sync; limit_req zone=a burst=1; }`)
	if l := m.Limits[0]; l.State != "synced" || l.SyncInterval != time.Second {
		t.Errorf("limit %+v, want synced every 1s", l)
	}
	if laneOption(m.Lanes[0], "keys") != nil {
		t.Errorf("keys with a topology: the scenario refuses them")
	}
	if _, err := scenarios.Parse("sync.yaml", Render(m)); err != nil {
		t.Errorf("%v\n%s", err, Render(m))
	}
}

func TestDetectNginx(t *testing.T) {
	for _, c := range []struct {
		data string
		want bool
	}{
		{"http {\n", true},
		{"  limit_req zone=a burst=5; # x\n", true},
		{"server {\n", true},
		{"nginx_http_limit_req_zone = foo 10m\n", false},           // kong.conf
		{"backend web\n  server web1 127.0.0.1:80 check\n", false}, // haproxy
		{"http:\n  routers: {}\n", false},                          // yaml
		{"[http.middlewares.a.rateLimit]\n", false},                // toml
	} {
		if got := detectNginx("x", []byte(c.data)); got != c.want {
			t.Errorf("detect %q = %v, want %v", c.data, got, c.want)
		}
	}
}

// productBinary is conform's (conform/products_real_test.go): the binary on
// PATH or at path, else a skip with the hint, a failure under CI.
func productBinary(t *testing.T, name, path, hint string) string {
	t.Helper()
	if bin, err := exec.LookPath(name); err == nil {
		return bin
	}
	if _, err := os.Stat(path); err == nil {
		return path
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("no %s: CI must hold the %s importer's samples to the real binary (%s)", name, name, hint)
	}
	t.Skipf("no %s to test against: %s", name, hint)
	return ""
}

// TestNginxSamplesAreRealNginx runs nginx -t on every sample: they are
// configs nginx 1.22.1 accepts, not only configs this reader reads.
func TestNginxSamplesAreRealNginx(t *testing.T) {
	bin := productBinary(t, "nginx", "/usr/sbin/nginx", "apt-get install nginx-light")
	samples, _ := filepath.Glob(filepath.Join("testdata", "nginx", "*.conf"))
	if len(samples) < 3 {
		t.Fatalf("samples %v", samples)
	}
	for _, s := range samples {
		t.Run(filepath.Base(s), func(t *testing.T) {
			prefix := t.TempDir()
			if err := os.Mkdir(filepath.Join(prefix, "logs"), 0o755); err != nil {
				t.Fatal(err)
			}
			abs, _ := filepath.Abs(s)
			out, err := exec.Command(bin, "-t", "-e", "stderr", "-p", prefix+"/", "-c", abs, "-g", "pid "+filepath.Join(prefix, "nginx.pid")+";").CombinedOutput()
			if err != nil || !strings.Contains(string(out), "test is successful") {
				t.Errorf("nginx -t %s: %v\n%s", s, err, out)
			}
		})
	}
}

func FuzzImportNginx(f *testing.F) {
	fuzzImport(f, "nginx",
		"http { limit_req_zone $binary_remote_addr zone=a:1m rate=1r/m; server { location / { limit_req zone=a burst=1; } } }",
		"limit_req_zone \"\" zone=a:32k; limit_req zone=a;",
		"map $a $b { default \"\"; } limit_req_zone $b zone=z:64k rate=999999999r/s sync; limit_req zone=z burst=1099511627776;",
		"http { include x; limit_req_zone $x zone=q:1m; location ~ 'a\nb' { limit_req zone=q; } }",
		"server { location @n { limit_req zone=a nodelay; } } limit_req_zone $http_x_tenant zone=a:1m rate=5r/m;",
	)
}

// BenchmarkImportNginx imports a generated 10,000-line config: 500 zones,
// 100 servers of 20 locations each (10,903 lines).
func BenchmarkImportNginx(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("events {}\nhttp {\n")
	for i := range 500 {
		fmt.Fprintf(&sb, "    limit_req_zone $binary_remote_addr zone=z%d:1m rate=%dr/s;\n", i, i+1)
	}
	for s := range 100 {
		fmt.Fprintf(&sb, "    server {\n        listen %d;\n        server_name s%d.example.com;\n", 8000+s, s)
		for l := range 20 {
			fmt.Fprintf(&sb, "        # location %d of server %d\n        location = /s%d/l%d {\n            limit_req zone=z%d burst=%d nodelay;\n            proxy_pass http://127.0.0.1:9000;\n        }\n", l, s, s, l, (s*20+l)%500, l+1)
		}
		sb.WriteString("    }\n")
	}
	sb.WriteString("}\n")
	data := []byte(sb.String())
	if n := strings.Count(sb.String(), "\n"); n < 10000 {
		b.Fatalf("%d lines, want 10,000", n)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		m, err := Import(Source{Path: "gen.conf", Data: data}, "nginx")
		if err != nil || len(m.Limits) != 2000 {
			b.Fatalf("%v, %d limits", err, len(m.Limits))
		}
	}
}

// TestNginxZoneKeys holds ngxZoneKeys to the states Debian's nginx 1.22.1
// was measured to hold (TestNginxZoneKeysAreRealNginx's method): 32k 191,
// 64k 447, 1m 8095, 2m 16223 with a one-letter zone name; a 50-letter name
// puts the log_ctx in a 128-byte slot instead of a page of its own: 32k 222.
func TestNginxZoneKeys(t *testing.T) {
	for _, c := range []struct {
		size int64
		name string
		want int64
	}{
		{32 << 10, "z", 191}, {64 << 10, "z", 447}, {1 << 20, "z", 8095}, {2 << 20, "z", 16223},
		{32 << 10, strings.Repeat("n", 50), 222},
	} {
		if got := ngxZoneKeys(c.size, c.name); got != c.want {
			t.Errorf("ngxZoneKeys(%d, %d-byte name) = %d, want %d", c.size, len(c.name), got, c.want)
		}
	}
}

// TestNginxZoneKeysAreRealNginx measures how many states a zone holds on the
// real nginx: keys k1…kM each sent once (rate=1r/m, so each key's second
// request within a minute is refused while its state is held), then probed
// newest first: the held ones are refused, the first evicted one passes.
func TestNginxZoneKeysAreRealNginx(t *testing.T) {
	bin := productBinary(t, "nginx", "/usr/sbin/nginx", "apt-get install nginx-light")
	for _, c := range []struct {
		size string
		n    int64
		name string
	}{{"32k", 32 << 10, "z"}, {"64k", 64 << 10, "z"}, {"32k", 32 << 10, strings.Repeat("n", 50)}, {"1m", 1 << 20, "z"}} {
		want := ngxZoneKeys(c.n, c.name)
		if got := measureZone(t, bin, c.size, c.name, int(want)+100); got != want {
			t.Errorf("zone %s:%s held %d states on nginx, ngxZoneKeys says %d", c.name, c.size, got, want)
		}
	}
}

func measureZone(t *testing.T, bin, size, name string, m int) int64 {
	t.Helper()
	dir := t.TempDir()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	conf := fmt.Sprintf(`worker_processes 1;
events {}
http {
    access_log off;
    error_log stderr crit;
    limit_req_zone $http_x_key zone=%s:%s rate=1r/m;
    server {
        listen 127.0.0.1:%d;
        location = /limited { limit_req zone=%s; limit_req_status 429; try_files /none =204; }
    }
}
`, name, size, port, name)
	os.Mkdir(filepath.Join(dir, "logs"), 0o755)
	if err := os.WriteFile(filepath.Join(dir, "nginx.conf"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-e", "stderr", "-p", dir+"/", "-c", filepath.Join(dir, "nginx.conf"),
		"-g", "daemon off; master_process off; pid "+filepath.Join(dir, "nginx.pid")+";")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	client := &http.Client{Timeout: 5 * time.Second}
	get := func(k int) (int, error) {
		req, _ := http.NewRequest("GET", fmt.Sprintf("http://127.0.0.1:%d/limited", port), nil)
		req.Header.Set("X-Key", "k"+strconv.Itoa(k))
		resp, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		resp.Body.Close()
		return resp.StatusCode, nil
	}
	for deadline := time.Now().Add(5 * time.Second); ; {
		if _, err := get(0); err == nil {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("nginx did not answer: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	for k := 1; k <= m; k++ {
		if s, err := get(k); err != nil || s != 204 {
			t.Fatalf("key k%d's first request: %d %v, want 204", k, s, err)
		}
	}
	held := int64(0)
	for k := m; k >= 1; k-- {
		s, err := get(k)
		if err != nil {
			t.Fatal(err)
		}
		if s != 429 {
			break
		}
		held++
	}
	return held
}

// TestNginxSyntaxErrorsAreRealNginx holds the reader's syntax errors to
// nginx -t's: the same message at the same line.
func TestNginxSyntaxErrorsAreRealNginx(t *testing.T) {
	bin := productBinary(t, "nginx", "/usr/sbin/nginx", "apt-get install nginx-light")
	emerg := regexp.MustCompile(`\[emerg\] (?:\d+#\d+: )?(.*) in (\S+):(\d+)`)
	for _, conf := range []string{
		"events {}\nworker_processes \"1\"x;\n",
		"events {\n",
		"events {}\n}\n",
		"events {}\nworker_processes 1",
		"events {}\n;\n",
		"events { worker_connections 512 }\n",
		"events {}\nworker_processes \"1;\n",
		"events {}\nhttp {\n    server { listen 127.0.0.1:8080; }\n",
		"events {}\nhttp {\n    limit_req_zone $a zone=a:1m\n    {\n}\n",
		"events {}\nhttp {\n    server\n    ;\n}\n",
		"events {}\nhttp {\n    server {\n        location = /a { limit_req zone=a {} }\n    }\n}\n",
	} {
		dir := t.TempDir()
		file := filepath.Join(dir, "bad.conf")
		if err := os.WriteFile(file, []byte(conf), 0o644); err != nil {
			t.Fatal(err)
		}
		out, _ := exec.Command(bin, "-t", "-e", "stderr", "-p", dir+"/", "-c", file, "-g", "pid "+filepath.Join(dir, "nginx.pid")+";").CombinedOutput()
		m := emerg.FindStringSubmatch(string(out))
		if m == nil {
			t.Errorf("%q: nginx -t said no [emerg]: %s", conf, out)
			continue
		}
		want := file + ":" + m[3] + ": " + m[1]
		_, err := Import(Source{Path: file, Data: []byte(conf)}, "nginx")
		var se *SyntaxError
		if !errors.As(err, &se) || err.Error() != want {
			t.Errorf("%q: %v, want %s (nginx -t)", conf, err, want)
		}
	}
}
