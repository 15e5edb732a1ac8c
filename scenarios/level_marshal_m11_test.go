package scenarios

import (
	"strings"
	"testing"
)

// A lane's start level is written back as it reads: empty as "empty", a
// number as itself, full (the default) as nothing; each reads back the same.
func TestLaneStartWrittenBackAsItReads(t *testing.T) {
	if v, err := Level(0).MarshalYAML(); v != "empty" || err != nil {
		t.Errorf("Level(0) marshals as %v, %v; want empty", v, err)
	}
	if v, err := Level(7).MarshalYAML(); v != int64(7) || err != nil {
		t.Errorf("Level(7) marshals as %v (%T), %v; want 7", v, v, err)
	}
	for _, c := range []struct{ start, written string }{{"empty", "start: empty"}, {"4", "start: 4"}, {"full", ""}} {
		src := "duration: 2s\nlimits:\n  - {key: ip, limit: 10, window: 1s}\nlanes:\n  - {algorithm: token_bucket, start: " + c.start +
			"}\nclients:\n  - arrivals: [{kind: constant, rate: 5/s}]\n"
		s, err := Parse("level.yaml", []byte(src))
		if err != nil {
			t.Fatalf("start %s: %v", c.start, err)
		}
		out, err := Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if c.written == "" && strings.Contains(string(out), "start:") || c.written != "" && !strings.Contains(string(out), c.written+"\n") {
			t.Errorf("start %s written as:\n%s", c.start, out)
		}
		assertRoundTrip(t, s)
	}
}
