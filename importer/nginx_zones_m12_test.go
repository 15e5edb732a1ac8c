package importer

import (
	"fmt"
	"strings"
	"testing"
)

// TestNginxUndefinedZoneToldAtItsLimitReq: each limit_req naming a zone no
// limit_req_zone defines is told once, at its own line (the one holding
// "limit_req zone=NAME"), whether it is alone in its block, after a
// defined zone's limit_req or in a server's or http's block; the defined
// zone is imported.
func TestNginxUndefinedZoneToldAtItsLimitReq(t *testing.T) {
	conf := `events {}
http {
    limit_req_zone $binary_remote_addr zone=perip:1m rate=10r/s;
    limit_req zone=nohttp;
    server {
        listen 127.0.0.1:8080;
        limit_req zone=noserver burst=2;
        location = /a {
            limit_req zone=perip burst=5;
            limit_req zone=noa1;
            proxy_pass http://127.0.0.1:9000;
        }
        location = /b {
            limit_req zone=noa2 nodelay;
        }
    }
}
`
	m := s7Import(t, "nginx.conf", "nginx", conf)
	lines := strings.Split(conf, "\n")
	for _, zone := range []string{"nohttp", "noserver", "noa1", "noa2"} {
		want := 0
		for i, l := range lines {
			if strings.Contains(l, "limit_req zone="+zone) {
				want = i + 1
			}
		}
		phrase := fmt.Sprintf("limit_req zone=%s: no limit_req_zone defines %s", zone, zone)
		var at []int
		for _, p := range m.Problems {
			if strings.Contains(p.Message, phrase) {
				at = append(at, p.At.Line)
				if p.At.File != "nginx.conf" {
					t.Errorf("%s told in file %q", zone, p.At.File)
				}
			}
		}
		if len(at) != 1 || at[0] != want {
			t.Errorf("zone %s told at lines %v, want once at %d (problems %v)", zone, at, want, m.Problems)
		}
	}
	found := false
	for _, l := range m.Limits {
		found = found || strings.HasPrefix(l.Name, "perip")
	}
	if !found {
		t.Errorf("limits %+v, want perip imported", m.Limits)
	}
}
