package importer

import (
	"strings"
	"testing"
)

// TestKongUnknownPolicyToldAtItsField: an unknown policy (rate-limiting) or
// strategy (rate-limiting-advanced) is told at the line of that field, by
// its name, wherever it sits among the settings, and taken as local.
func TestKongUnknownPolicyToldAtItsField(t *testing.T) {
	for _, c := range []struct {
		plugin, field string
		cfg           []string
	}{
		{"rate-limiting", "policy", []string{"minute: 5", "policy: memcached"}},
		{"rate-limiting", "policy", []string{"policy: memcached", "minute: 5"}},
		{"rate-limiting-advanced", "strategy", []string{"limit: [10]", "window_size: [1]", "strategy: memcached"}},
		{"rate-limiting-advanced", "strategy", []string{"limit: [10]", "strategy: memcached", "window_size: [1]"}},
	} {
		doc := kongDoc(c.plugin, c.cfg...)
		want := 0
		for i, l := range strings.Split(doc, "\n") {
			if strings.TrimSpace(l) == c.field+": memcached" {
				want = i + 1
			}
		}
		m, err := Import(Source{Path: "k.yaml", Data: []byte(doc)}, "kong")
		if err != nil {
			t.Fatalf("%s %v: %v", c.plugin, c.cfg, err)
		}
		phrase := c.field + ` "memcached" is not local, cluster or redis: taken as local`
		var at []int
		for _, p := range m.Problems {
			if strings.Contains(p.Message, phrase) {
				at = append(at, p.At.Line)
			}
		}
		if len(at) != 1 || at[0] != want {
			t.Errorf("%s %v: %q told at lines %v, want once at %d (problems %v)", c.plugin, c.cfg, phrase, at, want, m.Problems)
		}
		for _, l := range m.Limits {
			if l.State != "local" && l.State != "" {
				t.Errorf("%s: limit %s state %q, want local", c.plugin, l.Name, l.State)
			}
		}
	}
}
