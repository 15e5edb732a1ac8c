package diff

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLogPairOfRenamedLimitsNamesBoth: one limit on each side under another
// name is one pair named current → proposed; of the same name, the name once.
func TestLogPairOfRenamedLimitsNamesBoth(t *testing.T) {
	dir := t.TempDir()
	conf := func(file, zone string) *Side {
		p := filepath.Join(dir, file)
		text := fmt.Sprintf("events {}\nhttp {\n  limit_req_zone $binary_remote_addr zone=%s:1m rate=1r/s;\n  server {\n    listen 127.0.0.1:8080;\n    limit_req zone=%s burst=2 nodelay;\n    location / { return 200; }\n  }\n}\n", zone, zone)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return side(t, p)
	}
	log := filepath.Join(dir, "a.log")
	if err := os.WriteFile(log, []byte(strings.Repeat("10.0.0.1 - - [02/Dec/2026:10:00:00 +0000] \"GET /x HTTP/1.1\" 200 1 \"-\" \"t\"\n", 5)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ cur, prop, want string }{
		{"before", "after", "before → after"},
		{"same", "same", "same"},
	} {
		r, _, err := Log(context.Background(), conf(c.cur+"1.conf", c.cur), conf(c.prop+"2.conf", c.prop), LogOptions{Logs: []string{log}})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Pairs) != 1 || r.Pairs[0].Limit != c.want {
			t.Errorf("limits %s and %s: pairs %+v, want one named %q", c.cur, c.prop, r.Pairs, c.want)
		}
	}
}
