package importer

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// The small readers and writers every product uses, held case by case at the
// edges of what each promises.

func TestHAProxyTimeUnits(t *testing.T) {
	year := 365 * 24 * time.Hour
	for _, c := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"10", 10 * time.Millisecond, true}, // HAProxy's default unit is the ms
		{"0", 0, true},
		{"7us", 7 * time.Microsecond, true},
		{"7ms", 7 * time.Millisecond, true},
		{"7s", 7 * time.Second, true},
		{"7m", 7 * time.Minute, true},
		{"7h", 7 * time.Hour, true},
		{"7d", 7 * 24 * time.Hour, true},
		{"365d", year, true},
		{"366d", 0, false},
		{"8760h", year, true},
		{"8761h", 0, false},
		{"-1s", 0, false},
		{"s", 0, false},
		{"1.5s", 0, false},
		{"10x", 0, false},
	} {
		if got, ok := haproxyTime(c.in); got != c.want || ok != c.ok {
			t.Errorf("haproxyTime(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestHAProxySizeSuffixes(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"1", 1, true}, {"100k", 100 << 10, true}, {"100K", 100 << 10, true},
		{"2m", 2 << 20, true}, {"2M", 2 << 20, true}, {"1g", 1 << 30, true}, {"1G", 1 << 30, true},
		{"2147483647", 1<<31 - 1, true}, {"2147483648", 0, false},
		{"2097151k", 2097151 << 10, true}, {"2097152k", 0, false},
		{"0", 0, false}, {"-1k", 0, false}, {"k", 0, false}, {"1t", 0, false}, {"2g", 0, false},
	} {
		if got, ok := haproxySize(c.in); got != c.want || ok != c.ok {
			t.Errorf("haproxySize(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestHAProxyTrackKeyKinds(t *testing.T) {
	for _, c := range []struct {
		in, kind string
		exact    bool
	}{
		{"src", "ip", true}, {"SRC", "ip", true},
		{"req.hdr(x-api-key)", "api_key", true}, {"hdr(X-API-Key)", "api_key", true}, {"req.hdr(apikey)", "api_key", true},
		{"hdr(apikey)", "api_key", true}, {"url_param(apikey)", "api_key", true}, {"urlp(apikey)", "api_key", true},
		{"url_param(api_key)", "api_key", true},
		{"req.hdr(authorization)", "user", true}, {"hdr(authorization)", "user", true}, {"http_auth_user", "user", true},
		{"path", "endpoint", true}, {"base", "endpoint", true},
		{"src,ipmask(24)", "ip", false}, {"req.hdr(x-forwarded-for,-1)", "ip", false}, {"hdr(x-forwarded-for)", "ip", false},
		{"hdr_ip(x-real-ip)", "ip", false}, // (the default too: its own case is for the reader)
		{"req.hdr(x-tenant-id)", "tenant", true}, {"hdr(x-tenant)", "tenant", true}, {"req.cook(tenant)", "tenant", false},
		{"req.cook(session)", "user", false}, {"req.hdr(x-user)", "user", false}, {"req.hdr(x-auth-token)", "user", false},
		{"req.hdr(x-key)", "api_key", false}, {"url_param(token)", "api_key", false}, {"urlp(token)", "api_key", false},
		{"path,lower", "endpoint", false}, {"url", "endpoint", false},
		{"dst", "ip", false},
	} {
		if kind, exact := trackKey(c.in); kind != c.kind || exact != c.exact {
			t.Errorf("trackKey(%q) = %s, %v; want %s, %v", c.in, kind, exact, c.kind, c.exact)
		}
	}
}

func TestNginxSizesAndNumbers(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0", 0, true}, {"10", 10, true}, {"10k", 10 << 10, true}, {"10K", 10 << 10, true},
		{"10m", 10 << 20, true}, {"10M", 10 << 20, true}, {"4398046511104m", 1 << 62, true},
		{"4398046511105m", 0, false}, {"", 0, false}, {"k", 0, false}, {"-1", 0, false}, {"+1", 0, false},
		{"1g", 0, false}, {"1 k", 0, false},
	} {
		if got, ok := ngxParseSize(c.in); got != c.want || ok != c.ok {
			t.Errorf("ngxParseSize(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
	for _, c := range []struct {
		n    int64
		want string
	}{{10 << 20, "10m"}, {3 << 10, "3k"}, {1 << 20, "1m"}, {1<<20 + 1<<10, "1025k"}, {1000, "1000"}, {0, "0m"}} {
		if got := ngxSize(c.n); got != c.want {
			t.Errorf("ngxSize(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	if ngxRate(&ngxZone{n: 5, window: time.Minute}) != "5r/m" || ngxRate(&ngxZone{n: 5, window: time.Second}) != "5r/s" {
		t.Error("ngxRate writes r/m for a minute's window and r/s otherwise")
	}
	if ngxMod("") != "" || ngxMod("=") != "= " {
		t.Error(`ngxMod: "" stays empty, a modifier gets a space`)
	}
	if cmpString(nil, "d") != "d" || cmpString([]string{"a", "b"}, "d") != "a" || cmpOr("", "b") != "b" || cmpOr("a", "b") != "a" {
		t.Error("cmpString and cmpOr take the first given, else the default")
	}
}

func TestNginxGuessKind(t *testing.T) {
	for _, c := range []struct{ name, kind, what string }{
		{"http_x_api_key", "api_key", "a request header"},
		{"http_x_user_id", "user", "a request header"},
		{"http_x_tenant", "tenant", "a request header"},
		{"http_x_org", "tenant", "a request header"},
		{"http_x_account", "tenant", "a request header"},
		{"http_x_forwarded_for", "ip", "a request header"},
		{"http_x_real_ip", "ip", "a request header"},
		{"http_ip", "ip", "a request header"},
		{"http_zip", "api_key", "a request header"},
		{"arg_token", "api_key", "a query argument"},
		{"arg_user", "user", "a query argument"},
		{"cookie_session", "user", "a cookie"},
		{"cookie_tenant", "tenant", "a cookie"},
		{"jwt_claim_sub", "user", "a JWT claim, NGINX Plus's"},
		{"binary_remote_addr", "ip", "an nginx variable"},
	} {
		if kind, what := ngxGuessKind(c.name); kind != c.kind || what != c.what {
			t.Errorf("ngxGuessKind(%q) = %s, %q; want %s, %q", c.name, kind, what, c.kind, c.what)
		}
	}
}

func TestTraefikHeaderKinds(t *testing.T) {
	for _, c := range []struct{ h, kind string }{
		{"X-Api-Key", "api_key"}, {"apikey", "api_key"}, {"X-APIKEY", "api_key"}, {"Api-Key", "api_key"},
		{"Authorization", "user"}, {"X-Tenant-Id", "tenant"}, {"x-tenant", "tenant"}, {"X-Org", ""}, {"tenant", ""},
	} {
		kind, why := traefikHeaderKey(c.h)
		if kind != c.kind || (kind != "" && kind != "user" && !strings.Contains(why, c.h)) || (kind == "" && why != "") {
			t.Errorf("traefikHeaderKey(%q) = %s, %q; want %s", c.h, kind, why, c.kind)
		}
	}
	for _, c := range []struct{ h, kind string }{
		{"X-Tenant", "tenant"}, {"X-Org-Id", "tenant"}, {"X-User", "user"}, {"X-Auth", "user"},
		{"X-Client-IP", "ip"}, {"Forwarded", "ip"}, {"X-Key", "api_key"},
	} {
		if got := nearestHeaderKind(c.h); got != c.kind {
			t.Errorf("nearestHeaderKind(%q) = %s, want %s", c.h, got, c.kind)
		}
	}
}

func TestTraefikDurations(t *testing.T) {
	most := int64(math.MaxInt64 / time.Second)
	for _, c := range []struct {
		v    any
		want time.Duration
		ok   bool
	}{
		{int64(3), 3 * time.Second, true}, {"3", 3 * time.Second, true}, {"1m30s", 90 * time.Second, true},
		{"250ms", 250 * time.Millisecond, true}, {int64(-2), -2 * time.Second, true},
		{most, time.Duration(most) * time.Second, true}, {most + 1, 0, false}, {-most - 1, 0, false},
		{fmt.Sprint(most + 1), 0, false}, {"soon", 0, false}, {1.5, 0, false}, {true, 0, false},
	} {
		got, err := traefikDuration(&cnode{val: c.v})
		if got != c.want || (err == nil) != c.ok {
			t.Errorf("traefikDuration(%#v) = %v, %v; want %v, ok %v", c.v, got, err, c.want, c.ok)
		}
	}
}

func TestTraefikRuleAndTerms(t *testing.T) {
	for _, c := range []struct {
		rule string
		want []string // nil: not a plain && of matchers
	}{
		{"Path(`/a`)", []string{"Path(`/a`)"}},
		{"Host(`x`) && Path(`/a`)", []string{"Host(`x`) ", " Path(`/a`)"}},
		{"Path(`/a&&b`)&&Method(`GET`)", []string{"Path(`/a&&b`)", "Method(`GET`)"}},
		{`Path("/a\"&&b")&&Host("h")`, []string{`Path("/a\"&&b")`, `Host("h")`}},
		{"HostSNI(`x`) && Path(`/a`)", []string{"HostSNI(`x`) ", " Path(`/a`)"}},
		{"Path(`/a`) || Path(`/b`)", nil},
		{"!Path(`/a`)", nil},
		{"Path(`/a`) & Host(`h`)", nil},
		{"Path(`/a`) &", nil},
		{"(Path(`/a`))", nil},
		{"Host(`h`) && (`/a`)", nil},
		{"Host(`h`) && 1(`/a`)", nil},
		{"Path((`/a`))", nil},
		{"Path(`/a`))", nil},
		{"Path(`/a`", nil},
		{"Path(`/a)", nil},
		{`Path("/a)`, nil},
	} {
		got, ok := splitAnd(c.rule)
		if ok != (c.want != nil) || strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("splitAnd(%q) = %q, %v; want %q", c.rule, got, ok, c.want)
		}
	}
}

func TestLooksTOML(t *testing.T) {
	for _, c := range []struct {
		doc  string
		want bool
	}{
		{"# c\n\n[http.middlewares]\n", true}, {"  a = 1\n", true}, {"http:\n  a: 1\n", false},
		{"# only a comment\n", false}, {"", false}, {"a: b = c\n", true}, {"a=1\n", false},
	} {
		if got := looksTOML([]byte(c.doc)); got != c.want {
			t.Errorf("looksTOML(%q) = %v, want %v", c.doc, got, c.want)
		}
	}
}

func TestGatewayHeaderKinds(t *testing.T) {
	for _, c := range []struct {
		h, kind string
		exact   bool
	}{
		{" X-API-Key ", "api_key", true}, {"api_key", "api_key", true}, {"x-api-token", "api_key", true}, {"key", "api_key", true},
		{"Authorization", "user", true}, {"x-user-id", "user", true}, {"x-consumer-username", "user", true}, {"x-forwarded-user", "user", true},
		{"X-Tenant-Id", "tenant", true}, {"tenant_id", "tenant", true}, {"x-organization-id", "tenant", true},
		{"X-Forwarded-For", "ip", true}, {"cf-connecting-ip", "ip", true}, {"remote_address", "ip", true},
		{":path", "endpoint", true}, {"path", "endpoint", true},
		{"x-session", "user", false},
	} {
		if kind, exact := gatewayHeaderKind(c.h); kind != c.kind || exact != c.exact {
			t.Errorf("gatewayHeaderKind(%q) = %s, %v; want %s, %v", c.h, kind, exact, c.kind, c.exact)
		}
	}
}

func TestRenderScalars(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{"plain", "plain"}, {"yes", `"yes"`}, {"Off", `"Off"`}, {"~", `"~"`}, {"null", `"null"`}, {"y", `"y"`},
		{"a: b", `"a: b"`}, {"", `""`},
		{int64(-3), "-3"}, {7, "7"}, {0.25, "0.25"}, {1e21, "1e+21"}, {true, "true"},
		{90 * time.Minute, "90m"}, {2 * time.Hour, "2h"}, {1500 * time.Millisecond, "1500ms"},
		{3 * time.Microsecond, "3us"}, {7 * time.Nanosecond, "7ns"}, {time.Duration(0), "0h"},
	} {
		if got := value(c.v); got != c.want {
			t.Errorf("value(%#v) = %s, want %s", c.v, got, c.want)
		}
	}
	if got := uncontrolled("a\tb\x7fc\né"); got != "a?b?c?é" {
		t.Errorf("uncontrolled = %q", got)
	}
	if expireWords(0) != "none" || expireWords(time.Minute) != "1m" {
		t.Error("expireWords: 0 is none, else the duration")
	}
	if plural(1, "a", "b") != "a" || plural(0, "a", "b") != "b" || plural(2, "a", "b") != "b" {
		t.Error("plural: one for 1 only")
	}
	defer func() {
		if recover() == nil {
			t.Error("value of an unknown type does not panic")
		}
	}()
	value([]int{1})
}

func TestKongWindowsAndGroupNames(t *testing.T) {
	for _, d := range []time.Duration{time.Second, time.Minute, time.Hour, 24 * time.Hour} {
		if !kongWindow(d) {
			t.Errorf("kongWindow(%v) = false", d)
		}
	}
	for _, d := range []time.Duration{2 * time.Second, 30 * 24 * time.Hour, 0} {
		if kongWindow(d) {
			t.Errorf("kongWindow(%v) = true", d)
		}
	}
	for _, c := range []struct{ ep, want string }{
		{"", "all"}, {"/", "root"}, {"GET /api/Users", "get-api-users"}, {"/a//b/", "a-b"}, {"x_y-9", "x_y-9"}, {"/é", "root"},
	} {
		if got := groupName(c.ep); got != c.want {
			t.Errorf("groupName(%q) = %q, want %q", c.ep, got, c.want)
		}
	}
	if keyShare(Limit{Key: "global"}) != exampleClients || keyShare(Limit{Key: "ip"}) != 1 {
		t.Error("keyShare: every example client shares a global key, one client each otherwise")
	}
}
