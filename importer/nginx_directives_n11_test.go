package importer

import (
	"fmt"
	"strings"
	"testing"
)

// TestNginxDirectiveRefusalsEach: each limit_req_zone and limit_req nginx -t
// refuses (or rlsim cannot run) is told at its line and ignored; the good
// zone beside it is still imported.
func TestNginxDirectiveRefusalsEach(t *testing.T) {
	good := "  limit_req_zone $binary_remote_addr zone=good:1m rate=5r/s;\n"
	for _, c := range []struct {
		http, server string // a line in http, one in the server's location
		phrase       string
	}{
		{"limit_req_zone $binary_remote_addr;", "", "limit_req_zone needs a key and zone=; ignored"},
		{"limit_req_zone $binary_remote_addr zone=z:lots rate=5r/s;", "", `invalid zone size "zone=z:lots"; ignored`},
		{"limit_req_zone $binary_remote_addr zone=z:31k rate=5r/s;", "", `zone "zone=z:31k" is too small`},
		{"limit_req_zone $binary_remote_addr zone=z:1m rate=0r/s;", "", `invalid rate "rate=0r/s"; ignored`},
		{"limit_req_zone $binary_remote_addr zone=z:1m rate=5r/h;", "", `invalid rate "rate=5r/h"; ignored`},
		{fmt.Sprintf("limit_req_zone $binary_remote_addr zone=z:1m rate=%dr/s;", ngxMaxPerSecond+1), "", "more than"},
		{"limit_req_zone $binary_remote_addr zone=z:1m rate=1000000001r/m;", "", "more than 1000000000 a minute"},
		{"limit_req_zone $binary_remote_addr zone=z:1m rate=5r/s bogus;", "", `limit_req_zone: invalid parameter "bogus"; ignored`},
		{"limit_req_zone $binary_remote_addr rate=5r/s;", "", "limit_req_zone must have the zone parameter; ignored"},
		{"limit_req_zone $http_x_user zone=good:1m rate=5r/s;", "", `limit_req_zone "good" is already bound to key "$binary_remote_addr"`},
		{"", "limit_req zone=good burst=0;", `invalid burst value "burst=0"; ignored`},
		{"", "limit_req zone=good burst=x;", `invalid burst value "burst=x"; ignored`},
		{"", "limit_req zone=good delay=-1;", `invalid delay value "delay=-1"; ignored`},
		{"", "limit_req zone=good burst=1099511627777;", "burst=1099511627777: more than rlsim's nginx lane takes (1099511627776); ignored"},
		{"", "limit_req zone=good bogus;", `limit_req: invalid parameter "bogus"; ignored`},
		{"", "limit_req burst=5;", "limit_req must have the zone parameter; ignored"},
		{"", "limit_req_zone $binary_remote_addr zone=z:1m rate=5r/s;", "limit_req_zone is allowed only in http (nginx -t refuses it in location); ignored"},
	} {
		conf := "http {\n" + good + "  " + c.http + "\n  server {\n    listen 80;\n    location / {\n      limit_req zone=good;\n      " + c.server + "\n    }\n  }\n}\n"
		line := 3
		if c.server != "" {
			line = 8
		}
		m := importText(t, conf)
		var at []string
		found := false
		for _, p := range m.Problems {
			at = append(at, p.String())
			if strings.Contains(p.Message, c.phrase) && p.At.Line == line {
				found = true
			}
		}
		if !found {
			t.Errorf("%q%q: problems %q, want one at line %d saying %q", c.http, c.server, at, line, c.phrase)
		}
		if len(m.Limits) < 1 || m.Limits[0].Name != "good" {
			t.Errorf("%q%q: limits %+v, want zone good imported", c.http, c.server, m.Limits)
		}
	}
}
