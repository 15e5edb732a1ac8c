package importer

import (
	"strings"
	"testing"
	"time"
)

// kongDoc is one service with one route, one consumer and a global plugin
// of name with config lines cfg (each indented under config:).
func kongDoc(name string, cfg ...string) string {
	doc := "_format_version: \"3.0\"\nservices:\n  - name: s\n    url: http://s.internal\n    routes:\n      - name: r\n        paths: [/]\n" +
		"consumers:\n  - username: alice\nplugins:\n  - name: " + name + "\n    config:\n"
	for _, c := range cfg {
		doc += "      " + c + "\n"
	}
	return doc
}

// TestKongEachLimitByAndPolicy: each limit_by (identifier) maps to its key,
// each policy (strategy) and sync_rate to a state, sync interval and store
// error answer, and each setting Kong rejects or rlsim reads otherwise is
// told, with no problem where there is nothing to tell.
func TestKongEachLimitByAndPolicy(t *testing.T) {
	for _, c := range []struct {
		name    string
		cfg     []string
		key     string
		state   string
		sync    time.Duration
		onErr   string
		problem string // "" for none
	}{
		{"consumer", []string{"minute: 5", "limit_by: consumer"}, "user", "local", 0, "", ""},
		{"default is consumer", []string{"minute: 5"}, "user", "local", 0, "", ""},
		{"credential", []string{"minute: 5", "limit_by: credential"}, "api_key", "local", 0, "", ""},
		{"ip", []string{"minute: 5", "limit_by: ip"}, "ip", "local", 0, "", ""},
		{"service on a global plugin", []string{"minute: 5", "limit_by: service"}, "endpoint", "local", 0, "", "limit_by service on a global plugin"},
		{"header of a user", []string{"minute: 5", "limit_by: header", "header_name: X-User-Id"}, "user", "local", 0, "", ""},
		{"header of an api key", []string{"minute: 5", "limit_by: header", "header_name: X-Api-Key"}, "api_key", "local", 0, "", ""},
		{"header unknown", []string{"minute: 5", "limit_by: header", "header_name: X-Shoe-Size"}, "user", "local", 0, "", "limit_by header X-Shoe-Size, which rlsim has no key for: counted by user"},
		{"header without its name", []string{"minute: 5", "limit_by: header"}, "user", "local", 0, "", "limit_by header without header_name"},
		{"path without path", []string{"minute: 5", "limit_by: path"}, "global", "local", 0, "", "limit_by path without path"},
		{"unknown limit_by", []string{"minute: 5", "limit_by: shoe"}, "user", "local", 0, "", `limit_by "shoe" is not one of Kong's`},
		{"redis, fault tolerant by default", []string{"minute: 5", "policy: redis"}, "user", "shared", 0, "open", ""},
		{"redis not fault tolerant", []string{"minute: 5", "policy: redis", "fault_tolerant: false"}, "user", "shared", 0, "closed", ""},
		{"cluster", []string{"minute: 5", "policy: cluster"}, "user", "shared", 0, "open", ""},
		{"unknown policy", []string{"minute: 5", "policy: memcached"}, "user", "local", 0, "", `policy "memcached" is not local, cluster or redis`},
		{"redis sync -1", []string{"minute: 5", "policy: redis", "sync_rate: -1"}, "user", "shared", 0, "open", ""},
		{"redis synced", []string{"minute: 5", "policy: redis", "sync_rate: 0.5"}, "user", "synced", 500 * time.Millisecond, "", ""},
		{"redis sync too small", []string{"minute: 5", "policy: redis", "sync_rate: 0.01"}, "user", "shared", 0, "open", "sync_rate 0.01: Kong wants at least 0.02"},
		{"local with a sync", []string{"minute: 5", "policy: local", "sync_rate: 1"}, "user", "local", 0, "", "sync_rate can only be used with the redis policy"},
		{"cluster with a sync", []string{"minute: 5", "policy: cluster", "sync_rate: 1"}, "user", "synced", time.Second, "", "sync_rate can only be used with the redis policy"},
	} {
		m, err := Import(Source{Path: "k.yaml", Data: []byte(kongDoc("rate-limiting", c.cfg...))}, "kong")
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if len(m.Limits) != 1 {
			t.Errorf("%s: limits %+v, want one", c.name, m.Limits)
			continue
		}
		l := m.Limits[0]
		if l.Key != c.key || (c.state != "" && l.State != c.state) || l.SyncInterval != c.sync || (c.state != "" && l.OnStoreError != c.onErr) {
			t.Errorf("%s: key %s state %s sync %v on error %q, want %s %s %v %q", c.name, l.Key, l.State, l.SyncInterval, l.OnStoreError, c.key, c.state, c.sync, c.onErr)
		}
		var msgs []string
		for _, p := range m.Problems {
			msgs = append(msgs, p.Message)
		}
		all := strings.Join(msgs, "\n")
		if c.problem == "" && len(msgs) > 0 {
			t.Errorf("%s: problems %q, want none", c.name, all)
		}
		if c.problem != "" && !strings.Contains(all, c.problem) {
			t.Errorf("%s: problems %q, want %q", c.name, all, c.problem)
		}
	}
}
