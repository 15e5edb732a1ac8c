package importer

import (
	"strings"
	"testing"
	"time"
)

// A rateLimit whose field Traefik refuses is not imported, and said so once,
// at that field's line, for that reason alone (not again as a middleware that
// does not limit, or is not used): for each field Traefik checks, one bad
// value beside a good middleware, which alone is imported.
func TestTraefikRefusedFieldIsOneProblemAndNotImported(t *testing.T) {
	doc := func(bad string) string {
		return "http:\n" + // 1
			"  routers:\n" + // 2
			"    good:\n" + // 3
			"      rule: Path(`/good`)\n" + // 4
			"      middlewares: [good]\n" + // 5
			"    bad:\n" + // 6
			"      rule: Path(`/bad`)\n" + // 7
			"      middlewares: [bad]\n" + // 8
			"  middlewares:\n" + // 9
			"    good:\n" + // 10
			"      rateLimit:\n" + // 11
			"        average: 5\n" + // 12
			"    bad:\n" + // 13
			"      rateLimit:\n" + // 14
			"        " + bad + "\n" // 15 on
	}
	for _, c := range []struct {
		bad    string
		line   int
		phrase string
	}{
		{"average: 2.5", 15, "average 2.5 is not an integer"},
		{"average: ten", 15, "average ten is not an integer"},
		{"average: 9223372036854775807", 15, "overflows Traefik's int64 arithmetic"},
		{"average: 5\n        period: soon", 16, "period: "},
		{"average: 5\n        period: -1s", 16, "is negative"},
		{"average: 5\n        burst: 2.5", 16, "burst 2.5 is not an integer"},
		{"average: 0", 14, "Traefik does not limit"},
	} {
		m, err := Import(Source{Path: "traefik.yml", Data: []byte(doc(c.bad))}, "traefik")
		if err != nil {
			t.Errorf("%q: %v", c.bad, err)
			continue
		}
		if len(m.Limits) != 1 || !strings.HasSuffix(m.Limits[0].Name, "good") || m.Limits[0].Limit != 5 || m.Limits[0].Window != time.Second {
			t.Errorf("%q: limits %+v, want only good's 5 a second", c.bad, m.Limits)
		}
		if len(m.Problems) != 1 || m.Problems[0].At.Line != c.line || !strings.Contains(m.Problems[0].Message, c.phrase) {
			t.Errorf("%q: problems\n%swant one, at line %d, saying %q", c.bad, problemList(m), c.line, c.phrase)
		}
	}
}
