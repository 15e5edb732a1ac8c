package scenarios

import (
	"strings"
	"testing"
)

// Boundaries Parse states against the scenario's duration (2s here) and the
// limit's burst (10): each edge accepted, one step past it refused.
func TestAuditConvertEdges(t *testing.T) {
	const base = "duration: 2s\nlimits: [{key: global, limit: 10, window: 1s}]\n"
	client := func(cost, arrival string) string {
		return "clients:\n  - cost: " + cost + "\n    arrivals:\n      - " + arrival + "\n"
	}
	constant := func(extra string) string { return client("1", "{kind: constant, rate: 10/s"+extra+"}") }
	backend := func(at string) string {
		return "backend:\n  capacity: 1\n  service: {mean: 1ms}\n  changes:\n    - {at: " + at + ", capacity: 2}\n"
	}
	for _, tc := range []struct {
		name, src, want string // want "" = valid
	}{
		{"bucket = duration", base + "bucket: 2s\n" + constant(""), ""},
		{"bucket a ns longer", base + "bucket: 2.000000001s\n" + constant(""), "bucket: 2.000000001s is longer than the duration 2s"},
		{"cost = burst", base + client("10", "{kind: burst, count: 1}"), ""},
		{"cost = burst + 1", base + client("11", "{kind: burst, count: 1}"), "clients[0].cost: 11 is more than the burst 10"},
		{"start a ns before the end", base + constant(", start: 1.999999999s"), ""},
		{"start at the end", base + constant(", start: 2s"), "clients[0].arrivals[0].start: 2s is not before the scenario's duration 2s"},
		{"stop at the end", base + constant(", stop: 2s"), ""},
		{"stop a ns past the end", base + constant(", stop: 2.000000001s"), "clients[0].arrivals[0].stop: 2.000000001s is after the scenario's duration 2s"},
		{"a change a ns before the end", base + constant("") + backend("1.999999999s"), ""},
		{"a change at the end", base + constant("") + backend("2s"), "backend.changes[0].at: 2s is not before the scenario's duration 2s"},
		{"a change at 0", base + constant("") + backend("0s"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("f.yaml", []byte(tc.src))
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("Parse = %v, want valid", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("Parse = %v, want %q", err, tc.want)
			}
		})
	}
}

// Immediate retries need a maximum of at least 1 attempt: 0 is refused.
func TestAuditImmediateRetriesNeedAMaximum(t *testing.T) {
	src := func(max string) string {
		return "limits: [{key: global, limit: 10, window: 1s}]\nclients:\n  - arrivals: [{kind: burst, count: 1}]\n    retry: {kind: immediate" + max + "}\n"
	}
	if _, err := Parse("f.yaml", []byte(src(", max_attempts: 1"))); err != nil {
		t.Errorf("immediate with max_attempts 1: %v", err)
	}
	if _, err := Parse("f.yaml", []byte(src(", max_attempts: 0"))); err == nil || !strings.Contains(err.Error(), "max_attempts: must be positive for immediate retries") {
		t.Errorf("immediate with max_attempts 0: %v", err)
	}
}
