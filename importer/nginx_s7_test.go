package importer

import (
	"strings"
	"testing"
)

func ngxS7Conf(zone, status string) string {
	return `events {}
http {
    limit_req_zone $binary_remote_addr zone=perip:` + zone + ` rate=10r/s;
    server {
        listen 127.0.0.1:8080;
        location = /login {
            limit_req zone=perip burst=5;` + status + `
            proxy_pass http://127.0.0.1:9000;
        }
    }
}
`
}

// ngx_http_limit_req_zone refuses a zone under 8 pages ("zone %V is too
// small", size < 8 * ngx_pagesize): 32k, 8 pages of 4096 bytes, is taken.
func TestNginxZoneOfEightPages(t *testing.T) {
	m := s7Import(t, "nginx.conf", "nginx", ngxS7Conf("32k", ""))
	if len(m.Limits) != 1 {
		t.Errorf("zone of 32k: limits %+v, problems %v; want the limit", m.Limits, m.Problems)
	}
	for _, p := range m.Problems {
		if strings.Contains(p.Message, "too small") {
			t.Errorf("zone of 32k: %s", p)
		}
	}
	if _, err := Import(Source{Path: "nginx.conf", Data: []byte(ngxS7Conf("31k", ""))}, "nginx"); err == nil || !strings.Contains(err.Error(), "too small") {
		t.Errorf("zone of 31k: %v, want it refused as too small", err)
	}
}

// limit_req_status takes 400 to 599, both ends included
// (ngx_conf_check_num_bounds 400, 599 in ngx_http_limit_req_module.c).
func TestNginxStatusUpTo599(t *testing.T) {
	for _, tc := range []struct {
		status string
		want   any
	}{{"599", int64(599)}, {"400", int64(400)}, {"600", nil}} {
		m := s7Import(t, "nginx.conf", "nginx", ngxS7Conf("10m", "\n            limit_req_status "+tc.status+";"))
		if len(m.Lanes) != 1 {
			t.Fatalf("status %s: lanes %+v", tc.status, m.Lanes)
		}
		if got := ekLaneField(m.Lanes[0], "status"); got != tc.want {
			t.Errorf("limit_req_status %s: lane status %v, want %v (problems %v)", tc.status, got, tc.want, m.Problems)
		}
	}
}

// ngx_slab_init aligns the pages' start up to a page (ngx_align_ptr) after
// the pool's header and page descriptors, then drops the pages past the end.
// A 33k zone (33792 bytes): ⌊(33792 − 704)/(4096 + 24)⌋ = 8 pages, whose
// descriptors end at 704 + 8 × 24 = 896, so the pages start at 4096 and
// ⌊(33792 − 4096)/4096⌋ = 7 fit: 7 × 32 − 1 slots, less the log_ctx's page
// of 32 slots (22 + 4 bytes for "zone" take a 32-byte slot): 191, as many as
// 32k holds. Started at 0 (rounded down), 8 pages would give 223.
func TestNginxZoneKeysStartOnAPageBoundary(t *testing.T) {
	if got := ngxZoneKeys(33*1024, "zone"); got != 191 {
		t.Errorf("ngxZoneKeys(33k) = %d, want 191", got)
	}
	if got := ngxZoneKeys(32*1024, "zone"); got != 191 {
		t.Errorf("ngxZoneKeys(32k) = %d, want 191 (measured on nginx 1.22.1)", got)
	}
}
