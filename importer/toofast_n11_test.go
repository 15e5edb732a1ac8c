package importer

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryProductKeepsLimitsUpToTheFastestRate: in each product's form of a
// limit (Envoy's token bucket and ratelimit service, Kong's rate-limiting and
// rate-limiting-advanced), maxImportedRate a second is imported and one more
// is told, at the limit's line, as faster than rlsim simulates, and left out.
func TestEveryProductKeepsLimitsUpToTheFastestRate(t *testing.T) {
	envoy, err := os.ReadFile(filepath.Join("testdata", "envoy", "minimal.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	kong := "_format_version: \"3.0\"\nservices:\n  - name: s\n    url: http://s.internal\n    routes:\n      - name: r\n        paths: [/]\nplugins:\n"
	for _, c := range []struct {
		product, file string
		doc           func(n int64) string
		line          int // of the limit's node
	}{
		{"envoy", "envoy.yaml", func(n int64) string {
			return strings.Replace(strings.Replace(string(envoy), "max_tokens: 10000", fmt.Sprintf("max_tokens: %d", n), 1),
				"tokens_per_fill: 1000", fmt.Sprintf("tokens_per_fill: %d", n), 1)
		}, 30},
		{"envoy", "ratelimit.yaml", func(n int64) string {
			return fmt.Sprintf("domain: d\ndescriptors:\n  - key: remote_address\n    rate_limit:\n      unit: second\n      requests_per_unit: %d\n", n)
		}, 5},
		{"kong", "kong.yaml", func(n int64) string {
			return kong + fmt.Sprintf("  - name: rate-limiting\n    config:\n      second: %d\n      policy: local\n", n)
		}, 11},
		{"kong", "kong-advanced.yaml", func(n int64) string {
			return kong + fmt.Sprintf("  - name: rate-limiting-advanced\n    config:\n      limit: [%d]\n      window_size: [1]\n      identifier: ip\n", n)
		}, 11},
	} {
		for _, n := range []int64{maxImportedRate, maxImportedRate + 1} {
			m, err := Import(Source{Path: c.file, Data: []byte(c.doc(n))}, c.product)
			if err != nil { // a config of no limit but that one: the problem is the error's
				want := fmt.Sprintf("%s:%d: ", c.file, c.line)
				if n == maxImportedRate || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), fmt.Sprintf("%d per 1s is faster than", n)) {
					t.Errorf("%s at %d/s: %v", c.file, n, err)
				}
				continue
			}
			var fast []Problem
			for _, p := range m.Problems {
				if strings.Contains(p.Message, fmt.Sprintf("is faster than %d a second", maxImportedRate)) {
					fast = append(fast, p)
				}
			}
			if n == maxImportedRate {
				if len(fast) != 0 || len(m.Limits) != 1 || m.Limits[0].Limit != n {
					t.Errorf("%s at %d/s: limits %+v, problems %v; want it imported", c.file, n, m.Limits, fast)
				}
				continue
			}
			if len(fast) != 1 || len(m.Limits) != 0 || fast[0].At.Line != c.line || !strings.Contains(fast[0].Message, fmt.Sprintf("%d per 1s", n)) {
				t.Errorf("%s at %d/s: limits %+v, problems %v; want it told at line %d as %d per 1s, not imported", c.file, n, m.Limits, m.Problems, c.line, n)
			}
		}
	}
}
