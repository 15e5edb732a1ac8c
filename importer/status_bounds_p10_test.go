package importer

import (
	"fmt"
	"strings"
	"testing"
)

// statusProduct is one product's refusal status setting: a config refusing
// with code, the status its lane answers by default (no "status" option), and
// the statuses the product itself takes.
type statusProduct struct {
	product, path string
	config        func(code int64) string
	dflt          int64
	lo, hi        int64 // the product's own bounds of a status it keeps
}

var statusProducts = []statusProduct{
	{"nginx", "nginx.conf", func(c int64) string {
		return ngxS7Conf("10m", fmt.Sprintf("\n            limit_req_status %d;", c))
	}, 503, 400, 599},
	{"envoy", "envoy.yaml", func(c int64) string {
		return string(envoyS7Config("                max_tokens: 10\n                tokens_per_fill: 10\n                fill_interval: 1s",
			fmt.Sprintf("              status: {code: %d}", c)))
	}, 429, 400, 599},
	{"kong", "kong.yaml", func(c int64) string {
		return fmt.Sprintf("_format_version: \"3.0\"\nplugins:\n  - name: rate-limiting\n    config:\n      minute: 5\n      policy: local\n      error_code: %d\n", c)
	}, 429, 400, 599},
	{"haproxy", "haproxy.cfg", func(c int64) string {
		return fmt.Sprintf("frontend f\n    bind 127.0.0.1:8080\n    stick-table type ip size 100k expire 30s store http_req_rate(10s)\n    http-request track-sc0 src\n    http-request deny deny_status %d if { sc_http_req_rate(0) gt 5 }\n    default_backend app\n", c)
	}, 403, 400, 599},
}

// Every product's refusal status at each of its bounds and one past: a status
// within [lo, hi] is the lane's (no option when it is the default), one
// outside is a problem naming it, and the lane keeps its default. Envoy reads
// 100 to 599 as HTTP statuses and answers 429 for one below 400 without a
// problem; 600 and 99 are no HTTP status, a problem.
func TestRefusalStatusAtEachBound(t *testing.T) {
	for _, p := range statusProducts {
		for _, code := range []int64{p.lo - 1, p.lo, 429, 503, p.hi - 1, p.hi, p.hi + 1} {
			kept := code >= p.lo && code <= p.hi
			m := s7Import(t, p.path, p.product, p.config(code))
			if len(m.Lanes) != 1 {
				t.Fatalf("%s status %d: lanes %+v (problems %v)", p.product, code, m.Lanes, m.Problems)
			}
			var want any
			if kept && code != p.dflt {
				want = code
			}
			if got := ekLaneField(m.Lanes[0], "status"); got != want {
				t.Errorf("%s status %d: lane status %v, want %v (problems %v)", p.product, code, got, want, m.Problems)
			}
			told := false
			for _, pr := range m.Problems {
				told = told || strings.Contains(pr.Message, fmt.Sprint(code))
			}
			silentBelow := p.product == "envoy" && code >= 100 && code < 400
			if told != (!kept && !silentBelow) {
				t.Errorf("%s status %d: a problem naming it %v, want %v (problems %v)", p.product, code, told, !kept && !silentBelow, m.Problems)
			}
		}
	}
	for _, code := range []int64{99, 100, 600} {
		m := s7Import(t, "envoy.yaml", "envoy", statusProducts[1].config(code))
		told := false
		for _, pr := range m.Problems {
			told = told || strings.Contains(pr.Message, "is not an HTTP status")
		}
		if told != (code != 100) {
			t.Errorf("envoy status %d: told not an HTTP status %v, want %v (problems %v)", code, told, code != 100, m.Problems)
		}
	}
}
