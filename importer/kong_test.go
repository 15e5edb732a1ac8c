package importer

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestImportKongMinimal(t *testing.T) {
	m, s := importSample(t, "kong", "minimal.yaml")
	// limit_by consumer, but the config has no consumers: Kong's
	// get_identifier falls back to the forwarded IP for every request.
	ekCheckLimits(t, m, []ekLimit{{"global/minute", "ip", 5, time.Minute, 0, "", false, "local"}})
	ekCheckProblems(t, m, nil)
	if len(m.Lanes) != 1 || m.Lanes[0].Algorithm != "kong" || len(m.Lanes[0].Section) != 0 || len(m.Lanes[0].Options) != 0 {
		t.Errorf("lanes %+v, want one plain kong lane", m.Lanes)
	}
	if s.Config.Topology == nil {
		t.Errorf("policy local is state local: the scenario needs a topology")
	}
}

func TestImportKongRealistic(t *testing.T) {
	m, _ := importSample(t, "kong", "realistic.yaml")
	// Plugins in the file's order: the orders-admin route's, the orders
	// service's (its other route, /orders, alone: orders-admin has its own),
	// then search's rate-limiting-advanced, one limit per (limit, window_size).
	ekCheckLimits(t, m, []ekLimit{
		{"orders-admin/minute", "ip", 30, time.Minute, 0, "/orders/admin", false, "shared"},
		{"orders/second", "user", 10, time.Second, 0, "/orders", false, "synced"},
		{"orders/minute", "user", 300, time.Minute, 0, "/orders", false, "synced"},
		{"search/60s", "ip", 100, time.Minute, 0, "/search", false, "shared"},
		{"search/3600s", "ip", 1000, time.Hour, 0, "/search", false, "shared"},
	})
	for i, want := range []struct {
		sync  time.Duration
		onErr string
	}{{0, "closed"}, {2 * time.Second, ""}, {2 * time.Second, ""}, {0, ""}, {0, ""}} {
		if l := m.Limits[i]; l.SyncInterval != want.sync || l.OnStoreError != want.onErr {
			t.Errorf("%s: sync_interval %v, on_store_error %q, want %v, %q (orders-admin: redis, sync_rate -1, fault_tolerant false; orders: sync_rate 2)",
				l.Name, l.SyncInterval, l.OnStoreError, want.sync, want.onErr)
		}
	}
	ekCheckProblems(t, m, []ekProblem{
		{14, "orders-admin matches /orders/admin by prefix"},
		{10, "orders-api matches /orders by prefix"},
		{46, "search matches /search by prefix"},
		{18, "both rate-limiting and rate-limiting-advanced"},
	})
	if len(m.Lanes) != 2 || m.Lanes[0].Algorithm != "kong" || ekLaneField(m.Lanes[0], "policy") != "redis" ||
		m.Lanes[1].Algorithm != "kong_advanced" || ekLaneField(m.Lanes[1], "window_type") != "sliding" || ekLaneField(m.Lanes[1], "disable_penalty") != nil {
		t.Errorf("lanes %+v, want kong (policy redis) and kong_advanced (sliding, penalty)", m.Lanes)
	}
}

func TestImportKongProblems(t *testing.T) {
	m, _ := importSample(t, "kong", "problems.yaml")
	var want []ekLimit
	// billing: second 0.5 is 1 here, minute 100; hour 50 is below minute's
	// 100, which Kong rejects, so it is left out; month is no chain window.
	for _, ep := range []struct{ name, endpoint string }{{"billing/invoices", "/invoices"}, {"billing/receipts", "/receipts"}, {"billing", ""}, {`billing/users/\d+$`, `/users/\d+$`}} {
		want = append(want,
			ekLimit{ep.name + "/second", "user", 1, time.Second, 0, ep.endpoint, false, "local"},
			ekLimit{ep.name + "/minute", "user", 100, time.Minute, 0, ep.endpoint, false, "local"})
	}
	want = append(want,
		ekLimit{"consumer carol/hour", "user", 10, time.Hour, 0, "", false, "local"},
		ekLimit{"global/day", "endpoint", 1000, 24 * time.Hour, 0, "", false, "shared"},
		ekLimit{"exports/30s", "global", 20, 30 * time.Second, 0, "/exports/big", false, "local"})
	ekCheckLimits(t, m, want)
	// hide_client_headers (line 24, billing's plugin): no quota headers.
	for _, l := range m.Limits {
		if strings.HasPrefix(l.Name, "billing") != l.NoHeaders {
			t.Errorf("limit %s: NoHeaders %v; only billing's plugin hides its headers", l.Name, l.NoHeaders)
		}
	}
	ekCheckProblems(t, m, []ekProblem{
		{28, "a second rate-limiting plugin on billing"},
		{68, `consumer group "gold"`},
		{73, "the most specific"},
		{27, "bucket is not read"},
		{18, "config.second 0.5"},
		{20, "cannot be lower than the limit for minute"},
		{22, "x-client-id, which rlsim has no key for"},
		{26, "sync_rate can only be used with the redis policy"},
		{9, "invoices matches /invoices by prefix"},
		{11, "by-host matches by hosts"},
		{13, `regex /users/\d+$`},
		{16, "one counter per identifier for its 4 paths"},
		{39, "must be lists of one length"},
		{58, "retry_after_jitter_max"},
		{56, "limit_by path counts requests to /exports/big"},
		{62, "consumer carol limits that consumer alone"},
		{76, "limit_by service on a global plugin"},
		{54, "window 30s of exports/30s is not a Kong rate-limiting period"},
		{16, "config.month or config.year of billing"},
		{25, "error_code 503 here, 429"},
	})
	if !strings.Contains(strings.Join(m.Notes, "\n"), "problems.yaml:41 is disabled") {
		t.Errorf("notes %q do not name the disabled plugin", m.Notes)
	}
	if len(m.Lanes) != 1 || m.Lanes[0].Algorithm != "kong_advanced" {
		t.Errorf("lanes %+v, want kong_advanced alone (the 30s window is no Kong period)", m.Lanes)
	}
}

func TestKongDetectsOnlyItsOwn(t *testing.T) {
	for _, p := range []string{"envoy", "kong"} {
		files, _ := filepath.Glob(filepath.Join("testdata", p, "*"))
		for _, name := range files {
			src, err := SourceFile(name)
			if err != nil {
				t.Fatal(err)
			}
			if got := detectKong(name, src.Data); got != (p == "kong") {
				t.Errorf("detectKong(%s) = %v", name, got)
			}
		}
	}
	if !detectKong("kong.json", []byte(`{"_format_version": "3.0", "services": []}`)) {
		t.Errorf("a JSON declarative config is not detected")
	}
}

// TestKongTopology holds the documented mapping of policy, sync_rate and
// fault_tolerant onto state, sync_interval and on_store_error.
func TestKongTopology(t *testing.T) {
	for _, c := range []struct {
		config, state string
		sync          time.Duration
		onErr         string
	}{
		{"policy: local", "local", 0, ""},
		{"policy: cluster", "shared", 0, "open"},
		{"policy: redis", "shared", 0, "open"},
		{"{policy: redis, sync_rate: -1, fault_tolerant: false}", "shared", 0, "closed"},
		{"{policy: redis, sync_rate: 0.5}", "synced", 500 * time.Millisecond, ""},
		{"{policy: redis, sync_rate: 10, fault_tolerant: false}", "synced", 10 * time.Second, ""},
	} {
		cfg := strings.TrimPrefix(c.config, "{")
		cfg = strings.TrimSuffix(cfg, "}")
		doc := "_format_version: \"3.0\"\nplugins:\n- name: rate-limiting\n  config: {minute: 5, " + cfg + "}\n"
		m, err := Import(Source{Path: "k.yaml", Data: []byte(doc)}, "kong")
		if err != nil {
			t.Fatalf("%s: %v", c.config, err)
		}
		l := m.Limits[0]
		if l.State != c.state || l.SyncInterval != c.sync || l.OnStoreError != c.onErr {
			t.Errorf("%s: state %q sync %v on_store_error %q, want %q %v %q", c.config, l.State, l.SyncInterval, l.OnStoreError, c.state, c.sync, c.onErr)
		}
	}
}

func FuzzImportKong(f *testing.F) {
	fuzzImport(f, "kong",
		"_format_version: \"3.0\"\n",
		"_format_version: \"3.0\"\nplugins:\n- name: rate-limiting\n  config: {second: 1}\n",
		"_format_version: \"3.0\"\nplugins:\n- name: rate-limiting-advanced\n  config: {limit: [1], window_size: [1]}\n",
		"_format_version: \"3.0\"\nplugins:\n- name: rate-limiting\n  config: {month: 3}\n")
}

// kongGenerated is a config of n services, each with two routes, a
// rate-limiting plugin of two periods and a rate-limiting-advanced one on
// its second route: about 30 lines a service.
func kongGenerated(n int) []byte {
	var b strings.Builder
	b.WriteString("_format_version: \"3.0\"\nservices:\n")
	for i := range n {
		fmt.Fprintf(&b, `  - name: svc%d
    url: http://svc%d.internal:8080
    routes:
      - name: r%d
        paths:
          - /s%d
      - name: r%db
        paths:
          - /s%d/b
        plugins:
          - name: rate-limiting-advanced
            config:
              limit: [10, 100]
              window_size: [60, 3600]
              identifier: ip
              strategy: redis
              sync_rate: 1
    plugins:
      - name: rate-limiting
        config:
          second: %d
          minute: %d
          limit_by: ip
          policy: redis
          redis:
            host: redis
            port: 6379
            timeout: 2000
          fault_tolerant: true
`, i, i, i, i, i, i, 5+i%7, 100+i)
	}
	return []byte(b.String())
}

func BenchmarkImportKong(b *testing.B) {
	data := kongGenerated(345)
	if lines := strings.Count(string(data), "\n"); lines < 10000 {
		b.Fatalf("%d lines, want 10,000", lines)
	}
	b.ReportAllocs()
	for b.Loop() {
		m, err := Import(Source{Path: "big.yaml", Data: data}, "kong")
		if err != nil || len(m.Limits) != 6*345 { // 2 periods × 2 paths, 2 advanced windows
			b.Fatalf("%v, %d limits", err, len(m.Limits))
		}
	}
}
