package replay

import (
	"math"
	"strings"
	"testing"
	"time"
)

// appendKey joins a spec's parts with one space, each as its doc says: the
// IP as written, method, normalised path, "METHOD path", user, "*", a field.
func TestPromiseAppendKeyParts(t *testing.T) {
	rec := &Record{IP: []byte("192.0.2.77"), Method: []byte("GET"), Path: []byte("/users/42//orders/?page=2"), User: []byte("bob"),
		names: []string{"tenant"}, values: [][]byte{[]byte("t-9")}}
	for _, tc := range []struct{ spec, want string }{
		{"ip", "192.0.2.77"},
		{"ip/24", "192.0.2.0/24"},
		{"method", "GET"},
		{"path", "/users/:id/orders"},
		{"endpoint", "GET /users/:id/orders"},
		{"user", "bob"},
		{"global", "*"},
		{"field:tenant", "t-9"},
		{"ip+endpoint", "192.0.2.77 GET /users/:id/orders"},
		{"global+user+field:tenant", "* bob t-9"},
	} {
		spec, err := ParseKey(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := spec.appendKey([]byte("pre:"), rec)
		if !ok || string(got) != "pre:"+tc.want {
			t.Errorf("key %s = %q, %v; want %q appended", tc.spec, got, ok, "pre:"+tc.want)
		}
		if spec.String() != tc.spec {
			t.Errorf("ParseKey(%q).String() = %q", tc.spec, spec.String())
		}
	}
	for _, tc := range []struct {
		spec string
		rec  Record
	}{
		{"ip", Record{}},
		{"ip/24", Record{IP: []byte("not-an-ip")}},
		{"field:tenant", Record{IP: []byte("192.0.2.1")}},
		{"user+ip", Record{User: []byte("u")}},
	} {
		spec, _ := ParseKey(tc.spec)
		if got, ok := spec.appendKey(nil, &tc.rec); ok {
			t.Errorf("key %s of %+v = %q, want no key", tc.spec, tc.rec, got)
		}
	}
	// A missing user or method is an empty part, not a missing one.
	spec, _ := ParseKey("user+method")
	if got, ok := spec.appendKey(nil, &Record{}); !ok || string(got) != " " {
		t.Errorf("user+method of an empty record = %q, %v; want one space", got, ok)
	}
}

// appendPrefix: an IPv4 /24, an IPv6 /64, a mapped IPv4 as its IPv4 /24, the zone dropped.
func TestPromiseAppendPrefix(t *testing.T) {
	for _, tc := range []struct{ ip, want string }{
		{"192.0.2.255", "192.0.2.0/24"},
		{"10.1.2.3", "10.1.2.0/24"},
		{"2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"},
		{"2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"},
		{"::ffff:198.51.100.9", "198.51.100.0/24"},
		{"fe80::1:2:3:4%eth0", "fe80::/64"},
	} {
		got, ok := appendPrefix(nil, []byte(tc.ip))
		if !ok || string(got) != tc.want {
			t.Errorf("appendPrefix(%s) = %q, %v; want %s", tc.ip, got, ok, tc.want)
		}
	}
}

// AppendPath's rules in order, with the root kept.
func TestPromiseAppendPathRules(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "/"},
		{"/", "/"},
		{"//", "/"},
		{"?a=1", "/"},
		{"/a//b///c/", "/a/b/c"},
		{"a/b", "/a/b"},
		{"/users/42/orders/?page=2", "/users/:id/orders"},
		{"/x/123e4567-e89b-12d3-a456-426614174000/y", "/x/:id/y"},
		{"/x/123E4567-E89B-12D3-A456-426614174000", "/x/:id"},
		{"/x/123e4567-e89b-12d3-a456-42661417400g", "/x/123e4567-e89b-12d3-a456-42661417400g"},
		{"/x/0123456789abcdef", "/x/:id"},
		{"/x/0123456789abcde", "/x/0123456789abcde"},
		{"/x/0", "/x/:id"},
		{"/x/-1", "/x/-1"},
		{"/x/1-2-3-4-5", "/x/1-2-3-4-5"},
		{"/a#b/c", "/a"},
	} {
		if got := string(AppendPath(nil, []byte(tc.in))); got != tc.want {
			t.Errorf("AppendPath(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := string(AppendPath([]byte("GET "), []byte("/"))); got != "GET /" {
		t.Errorf("AppendPath after a prefix = %q, want GET /", got)
	}
	if got := string(AppendPath([]byte("GET "), []byte(""))); got != "GET /" {
		t.Errorf("AppendPath(\"\") after a prefix = %q, want GET /", got)
	}
}

// inScope: every line without an endpoint; else the normalised path, "/"+e,
// or "METHOD path".
func TestPromiseInScope(t *testing.T) {
	rec := func(method, path string) *Record { return &Record{Method: []byte(method), Path: []byte(path)} }
	for _, tc := range []struct {
		e    string
		r    *Record
		want bool
	}{
		{"", rec("GET", "/anything"), true},
		{"login", rec("GET", "/login/?x=1"), true},
		{"/login", rec("GET", "//login"), true},
		{"/login", rec("GET", "/login/x"), false},
		{"login", rec("GET", "/logins"), false},
		{"ogin", rec("GET", "/login"), false},
		{"POST /login", rec("POST", "/login"), true},
		{"POST /login", rec("GET", "/login"), false},
		{"POST /login", rec("POST", "/logout"), false},
		{"GET /users/:id", rec("GET", "/users/7"), true},
		{"/users/:id", rec("GET", "/users/abc"), false},
	} {
		if got, _ := inScope(tc.e, tc.r, nil); got != tc.want {
			t.Errorf("inScope(%q, %s %s) = %v, want %v", tc.e, tc.r.Method, tc.r.Path, got, tc.want)
		}
	}
}

// ParseLimit: burst defaults to the limit, name to the key; "N/s" means per
// one second; every problem is reported at once.
func TestPromiseParseLimitDefaults(t *testing.T) {
	l, err := ParseLimit("key=ip+endpoint limit=100/s")
	if err != nil {
		t.Fatal(err)
	}
	if l.Name != "ip+endpoint" || l.Policy.Limit != 100 || l.Policy.Window != time.Second || l.Policy.EffectiveBurst() != 100 || l.Endpoint != "" {
		t.Errorf("ParseLimit = %+v; want name ip+endpoint, 100 per 1s, burst 100", l)
	}
	if got := l.String(); got != "name=ip+endpoint key=ip+endpoint limit=100/1s burst=100" {
		t.Errorf("String() = %q", got)
	}
	l, err = ParseLimit("name=n key=user limit=5/250ms burst=2 endpoint=/login")
	if err != nil || l.Policy.Window != 250*time.Millisecond || l.Policy.Burst != 2 || l.Name != "n" {
		t.Fatalf("ParseLimit = %+v, %v", l, err)
	}
	if got := l.String(); got != "name=n key=user limit=5/250ms burst=2 endpoint=/login" {
		t.Errorf("String() = %q", got)
	}
	if l, err := ParseLimit("key=ip limit=3/m"); err != nil || l.Policy.Window != time.Minute {
		t.Errorf("limit=3/m: %+v, %v; want a 1m window", l, err)
	}
	_, err = ParseLimit("key=bogus limit=x burst=0 what=1 nope")
	for _, want := range []string{`"nope": want NAME=VALUE`, "key: unknown key part", "limit: \"x\": want N/WINDOW", "burst: must be positive", "what: unknown"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseLimit(all bad) = %v, want %q among the errors", err, want)
		}
	}
	if err == nil || strings.Count(err.Error(), "; ") != 4 {
		t.Errorf("ParseLimit(all bad) = %v, want 5 problems joined by \"; \"", err)
	}
	for _, bad := range []string{"key=ip limit=1.5/s", "key=ip limit=-1/s", "key=ip limit=1/-1s", "key=ip limit=1/fortnight", "key=ip limit=1/"} {
		if _, err := ParseLimit(bad); err == nil {
			t.Errorf("ParseLimit(%q): no error", bad)
		}
	}
}

// window writes a duration without zero units, as ParseLimit reads it back.
func TestPromiseWindowText(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{time.Minute, "1m"},
		{90 * time.Minute, "1h30m"},
		{2 * time.Hour, "2h"},
		{500 * time.Millisecond, "500ms"},
		{90 * time.Second, "1m30s"},
		{time.Hour + time.Second, "1h0m1s"},
		{10 * time.Second, "10s"},
	} {
		got := window(tc.d)
		if got != tc.want {
			t.Errorf("window(%v) = %q, want %q", tc.d, got, tc.want)
		}
		if back, err := time.ParseDuration(got); err != nil || back != tc.d {
			t.Errorf("window(%v) = %q reads back as %v, %v", tc.d, got, back, err)
		}
	}
}

// newKeyTable: retireAfter is the longest of every limit's, and at least the
// reorder bound; it looks every half retirement time, and at least every second.
func TestPromiseKeyTableBounds(t *testing.T) {
	a := mustLimit(t, "key=ip limit=100/1m burst=20") // 2m + 22×600ms
	b := mustLimit(t, "key=ip limit=3/1s burst=2")    // 2s + 4×333333334ns
	kt := newKeyTable([]Limit{b, a}, 5*time.Second)
	if want := int64(2*time.Minute + 22*600*time.Millisecond); kt.after != want || kt.every != want/2 {
		t.Errorf("after %v every %v, want %v and half", time.Duration(kt.after), time.Duration(kt.every), time.Duration(want))
	}
	kt = newKeyTable([]Limit{b}, 10*time.Second)
	if kt.after != int64(10*time.Second) || kt.every != int64(5*time.Second) {
		t.Errorf("late 10s over a 3.3s retirement: after %v every %v, want 10s and 5s", time.Duration(kt.after), time.Duration(kt.every))
	}
	kt = newKeyTable([]Limit{mustLimit(t, "key=ip limit=1/1ns burst=1")}, 0)
	if kt.after != 5 || kt.every != int64(time.Second) {
		t.Errorf("a 5ns retirement: after %d every %v, want 5ns and 1s", kt.after, time.Duration(kt.every))
	}
}

// keyTable.id: a key that sent within retireAfter keeps its id; one that sent
// nothing for exactly retireAfter, with nothing queued, is retired on its
// return and comes back as a new episode; a queued key is never retired.
func TestPromiseKeyTableEpisodes(t *testing.T) {
	kt := newKeyTable([]Limit{mustLimit(t, "key=ip limit=1/1ns burst=1")}, 0) // after = 5ns
	id := func(k string, at int64) int32 {
		t.Helper()
		got, ok := kt.id([]byte(k), at)
		if !ok {
			t.Fatalf("id(%s, %d): no id", k, at)
		}
		return got
	}
	a := id("a", 100)
	if b := id("b", 100); b == a {
		t.Fatalf("two keys share id %d", a)
	}
	if got := id("a", 104); got != a || len(kt.retired) != 0 || kt.seen[a] != 104 {
		t.Errorf("a back 4ns later (of 5): id %d, retired %v, seen %d; want id %d, none, 104", got, kt.retired, kt.seen[a], a)
	}
	if got := id("a", 103); got != a || kt.seen[a] != 104 {
		t.Errorf("a at 103 after 104: seen %d, want the latest, 104", kt.seen[a])
	}
	if kt.episodes != 2 || kt.retirements != 0 {
		t.Errorf("episodes %d retirements %d, want 2 and 0", kt.episodes, kt.retirements)
	}
	id("a", 109) // exactly 5ns after 104
	if kt.episodes != 3 || kt.retirements != 1 || len(kt.retired) != 1 || kt.retired[0] != (retiree{id: a, name: "a", at: 109}) {
		t.Errorf("a back exactly retireAfter later: episodes %d retirements %d retired %+v; want 3, 1, a at 104+5",
			kt.episodes, kt.retirements, kt.retired)
	}
	got := kt.take(100, 7)
	if len(got) != 1 || got[0].at != 9 || got[0].before != 7 || kt.retired != nil {
		t.Errorf("take(100, 7) = %+v (left %v), want a at 9, before 7, none left", got, kt.retired)
	}
	// queued: not retired however long it waits
	c := id("c", 200)
	kt.pending([]int32{outOfScope, c})
	if kt.queued[c] != 1 {
		t.Fatalf("pending: queued %d, want 1", kt.queued[c])
	}
	if got := id("c", 1000); got != c || len(kt.retired) != 0 {
		t.Errorf("queued c back after 800ns: id %d, retired %v; want its id kept", got, kt.retired)
	}
	kt.released([]int32{c, outOfScope}, 500)
	if kt.queued[c] != 0 || kt.seen[c] != 1000 {
		t.Errorf("released at 500: queued %d seen %d, want 0 and 1000 (the later)", kt.queued[c], kt.seen[c])
	}
	kt.pending([]int32{c})
	kt.released([]int32{c}, 2000)
	if kt.seen[c] != 2000 {
		t.Errorf("released at 2000: seen %d, want 2000", kt.seen[c])
	}
}

// retire frees, in id order, every key with nothing queued whose last request
// is at least retireAfter before now, each at its last request plus
// retireAfter, and looks again every later.
func TestPromiseKeyTableRetire(t *testing.T) {
	kt := newKeyTable([]Limit{mustLimit(t, "key=ip limit=1/1ns burst=1")}, 0) // after = 5ns, every 1s
	for _, k := range []struct {
		name string
		at   int64
	}{{"x", 100}, {"y", 101}, {"z", 96}, {"w", 95}} {
		kt.id([]byte(k.name), k.at)
	}
	kt.pending([]int32{3}) // w waits in the buffer
	kt.retire(105)
	want := []retiree{{id: 0, name: "x", at: 105}, {id: 2, name: "z", at: 101}}
	if len(kt.retired) != len(want) || kt.retired[0] != want[0] || kt.retired[1] != want[1] {
		t.Errorf("retire(105) = %+v, want %+v", kt.retired, want)
	}
	if kt.nextScan != 105+int64(time.Second) {
		t.Errorf("next scan %d, want 105+1s", kt.nextScan)
	}
	if _, live := kt.ids["y"]; !live || kt.names[1] != "y" || kt.names[0] != "" || kt.queued[0] != -1 {
		t.Errorf("after retire: ids %v names %q queued %v", kt.ids, kt.names, kt.queued)
	}
	// A freed id goes to the next new key (the last freed first).
	if got, _ := kt.id([]byte("v"), 106); got != 2 {
		t.Errorf("a new key after ids 0 and 2 were freed: id %d, want 2", got)
	}
	kt.retire(math.MaxInt64 - 1)
	if kt.nextScan != math.MaxInt64 {
		t.Errorf("retire near the end of time: next scan %d, want saturated", kt.nextScan)
	}
}
