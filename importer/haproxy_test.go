package importer

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestHAProxySamples(t *testing.T) {
	for _, c := range []struct {
		file     string
		limits   []wantLimit
		problems []wantProblem
		section  Fields
		options  Fields
	}{
		{"minimal.cfg", []wantLimit{{"web", "ip", 20, 10 * time.Second, 0, "", ""}}, nil,
			Fields{{"period", 10 * time.Second}, {"limit", int64(20)}, {"expire", 30 * time.Second}},
			Fields{{"status", int64(429)}, {"keys", 100 << 10}, {"when_full", "admit"}}},
		{"production.cfg", []wantLimit{
			{"st_login", "ip", 10, time.Minute, 0, "/login", ""},
			{"st_api", "api_key", 500, 10 * time.Second, 0, "/api/", ""}, // ge 501: 500 pass
		}, []wantProblem{
			{31, "path_beg /login"}, {32, "path_beg /api/"},
			{20, "the lane option keys is one for every limit"}, {20, "table st_api: expire 20s, table st_login: expire 2m"},
		}, Fields{{"period", time.Minute}, {"limit", int64(10)}, {"expire", 2 * time.Minute}},
			Fields{{"status", int64(429)}, {"keys", 200 << 10}, {"when_full", "admit"}}},
		{"problems.cfg", []wantLimit{
			{"fe_main", "ip", 50, 10 * time.Second, 0, "", ""},
			{"fe_main@19", "ip", 30, 10 * time.Second, 0, "/search", ""},
			{"st_session", "user", 19, time.Minute, 0, "", ""},
		}, []wantProblem{
			{7, "timeout tarpit"}, {15, "req.cook(session)"}, {16, "general purpose counters"},
			{17, "sc_http_req_rate alone"}, {18, "predefined ACL METH_POST"}, {18, "then answers 500"},
			{19, "counts every request tracked at line 14"}, {19, "path_beg /search"}, {20, "||"},
			{21, "no earlier track-sc2"}, {19, "answers 429 where the first"}, {22, "answers 429 where the first"},
			{26, "the lane option keys is one for every limit"}, {26, "table st_session: expire none, table fe_main: expire 1m"},
		}, Fields{{"period", 10 * time.Second}, {"limit", int64(50)}, {"expire", time.Minute}},
			Fields{{"status", int64(500)}, {"keys", 50 << 10}, {"when_full", "admit"}}},
	} {
		t.Run(c.file, func(t *testing.T) {
			m, s := importSample(t, "haproxy", c.file)
			checkLimits(t, m, c.limits)
			checkProblems(t, m, c.problems)
			if len(m.Lanes) != 1 || fmt.Sprint(m.Lanes[0].Section) != fmt.Sprint(c.section) || fmt.Sprint(m.Lanes[0].Options) != fmt.Sprint(c.options) {
				t.Errorf("lanes %+v, want one haproxy lane with %v and %v", m.Lanes, c.section, c.options)
			}
			// HAProxy has no burst: the scenario's is the limit (docs/products.md).
			if p := s.Config.Limits[0].Policy; p.Burst != 0 && p.Burst != p.Limit {
				t.Errorf("burst %d, want the limit %d", p.Burst, p.Limit)
			}
		})
	}
}

func TestHAProxyWords(t *testing.T) {
	for _, c := range []struct {
		line string
		want []string
	}{
		{`  acl a path_beg /x # comment`, []string{"acl", "a", "path_beg", "/x"}},
		{`a\ b "c d" 'e f' \#g "h\"i" 'j\k' x\x41`, []string{"a b", "c d", "e f", "#g", `h"i`, `j\k`, "xA"}},
		{`"#not" 'a'"b"c`, []string{"#not", "abc"}},
		{"\ttab\t\tsep", []string{"tab", "sep"}},
	} {
		got, err := haproxyWords(c.line)
		if err != nil || strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("haproxyWords(%q) = %q, %v; want %q", c.line, got, err, c.want)
		}
	}
	for _, bad := range []string{`"open`, `'open`, `end\`, `\x4`} {
		if _, err := haproxyWords(bad); err == nil {
			t.Errorf("haproxyWords(%q): no error", bad)
		}
	}
}

func TestHAProxyTimeAndSize(t *testing.T) {
	for s, want := range map[string]time.Duration{"10": 10 * time.Millisecond, "10s": 10 * time.Second, "1m": time.Minute, "2h": 2 * time.Hour, "1d": 24 * time.Hour, "500us": 500 * time.Microsecond} {
		if got, ok := haproxyTime(s); !ok || got != want {
			t.Errorf("haproxyTime(%q) = %v, %v; want %v", s, got, ok, want)
		}
	}
	for s, want := range map[string]int64{"100": 100, "100k": 102400, "1m": 1 << 20, "2g": 0, "1g": 1 << 30} {
		if got, _ := haproxySize(s); got != want {
			t.Errorf("haproxySize(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestHAProxySyntaxErrorsAtLines(t *testing.T) {
	_, err := Import(Source{Path: "bad.cfg", Data: []byte("stick-table type ip\nfrontend f\n  acl a \"open\n")}, "haproxy")
	if err == nil || !strings.Contains(err.Error(), "bad.cfg:1:") || !strings.Contains(err.Error(), "bad.cfg:3:") {
		t.Errorf("got %v, want errors at lines 1 and 3", err)
	}
}

// TestHAProxySamplesAreRealHAProxy holds every sample to the real binary:
// haproxy -c reads each as valid HAProxy configuration.
func TestHAProxySamplesAreRealHAProxy(t *testing.T) {
	bin := haproxyBinary(t)
	files, _ := filepath.Glob(filepath.Join("testdata", "haproxy", "*.cfg"))
	if len(files) < 3 {
		t.Fatalf("%d samples, want at least 3", len(files))
	}
	for _, f := range files {
		out, err := exec.Command(bin, "-c", "-f", f).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "Configuration file is valid") {
			t.Errorf("haproxy -c -f %s: %v\n%s", f, err, out)
		}
	}
}

// haproxyBinary is conform/products_real_test.go's productBinary for
// haproxy: found, else a skip with the install hint, a failure under CI.
func haproxyBinary(t *testing.T) string {
	t.Helper()
	if bin, err := exec.LookPath("haproxy"); err == nil {
		return bin
	}
	if _, err := os.Stat("/usr/sbin/haproxy"); err == nil {
		return "/usr/sbin/haproxy"
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("no haproxy: CI must hold the HAProxy samples to the real binary (apt-get install haproxy)")
	}
	t.Skipf("no haproxy to test against: apt-get install haproxy")
	return ""
}

func FuzzImportHAProxy(f *testing.F) {
	fuzzImport(f, "haproxy",
		"frontend f\n stick-table type ip size 1k store http_req_rate(1s)\n http-request track-sc0 src\n http-request deny if { sc_http_req_rate(0) gt 3 }\n",
		"backend t\n stick-table type ip size 1 store http_req_rate(1)\nfrontend f\n acl r src_http_req_rate(t) ge 2\n http-request track-sc2 src table t\n http-request deny if r\n")
}

// haproxyConfig is a generated config of about lines lines: frontends,
// each with a table, a tracking rule and a deny.
func haproxyConfig(lines int) []byte {
	var b strings.Builder
	b.WriteString("defaults\n    mode http\n")
	for i := range lines / 6 {
		fmt.Fprintf(&b, "frontend f%d\n    bind 127.0.0.1:%d\n    stick-table type ip size 100k expire 30s store http_req_rate(10s)\n    http-request track-sc0 src\n    http-request deny deny_status 429 if { sc_http_req_rate(0) gt %d }\n    default_backend app\n", i, 10000+i, i+1)
	}
	return []byte(b.String())
}

func BenchmarkImportHAProxy(b *testing.B) {
	data := haproxyConfig(10000)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Import(Source{Path: "gen.cfg", Data: data}, "haproxy"); err != nil {
			b.Fatal(err)
		}
	}
}

func TestHAProxyMutatedSamples(t *testing.T) { mutatedSamples(t, "haproxy", 1500) }
