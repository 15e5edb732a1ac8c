package scenarios

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// docDefault is the default docs/scenarios.md states for field in the table
// whose header's first cell is header: the row's second cell, a backticked
// literal.
func docDefault(t *testing.T, doc, header, field string) string {
	t.Helper()
	_, table, ok := strings.Cut(doc, "| "+header+" | default |")
	if !ok {
		t.Fatalf("no table %q in docs/scenarios.md", header)
	}
	for _, line := range strings.Split(table, "\n")[2:] {
		if !strings.HasPrefix(line, "|") {
			break
		}
		cells := strings.Split(line, "|")
		if strings.TrimSpace(cells[1]) == "`"+field+"`" {
			return strings.Trim(strings.TrimSpace(cells[2]), "`")
		}
	}
	t.Fatalf("no row %s in table %q", field, header)
	return ""
}

// The defaults a short file gets are the ones docs/scenarios.md states: the
// top-level duration and seed, and each field of a health check.
func TestDefaultsAreTheDocumentedOnes(t *testing.T) {
	raw, err := os.ReadFile("../docs/scenarios.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	s, err := Parse("d.yaml", []byte("topology:\n  replicas: 2\n  health: {}\nclients:\n  - arrivals: [{kind: constant, rate: 5/s}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	c := s.Config
	h := c.Topology.WithHealthDefaults().Health
	for _, f := range []struct{ header, field, got string }{
		{"field", "duration", c.Duration.String()},
		{"field", "seed", strconv.FormatUint(c.Seed, 10)},
		{"`health` field", "endpoint", h.Endpoint},
		{"`health` field", "interval", h.Interval.String()},
		{"`health` field", "unhealthy_after", strconv.Itoa(h.UnhealthyAfter)},
		{"`health` field", "healthy_after", strconv.Itoa(h.HealthyAfter)},
	} {
		want := docDefault(t, doc, f.header, f.field)
		if d, err := time.ParseDuration(want); err == nil {
			want = d.String()
		}
		if f.got != want {
			t.Errorf("%s default %s, the docs say %s", f.field, f.got, want)
		}
	}
}
