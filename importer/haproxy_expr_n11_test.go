package importer

import (
	"strings"
	"testing"
)

// TestHAProxyExprEveryForm: each ACL criterion the importer reads, with its
// flags, operators and values: the sc, sc0..2 and src rate forms (gt N: N
// pass, ge N: N-1), path_beg and path -m beg as prefixes, path and path -m str
// as exact, one pattern only; anything else read as nothing.
func TestHAProxyExprEveryForm(t *testing.T) {
	none := hxExpr{sc: -2}
	for _, c := range []struct {
		text string
		want hxExpr
	}{
		{"sc_http_req_rate(0) gt 20", hxExpr{rate: true, sc: 0, limit: 20, limitOK: true, operators: "gt"}},
		{"sc_http_req_rate(1,per_ip) ge 20", hxExpr{rate: true, sc: 1, table: "per_ip", limit: 19, limitOK: true, operators: "ge"}},
		{"sc2_http_req_rate gt 7", hxExpr{rate: true, sc: 2, limit: 7, limitOK: true, operators: "gt"}},
		{"sc0_http_req_rate(t) -m int gt 7", hxExpr{rate: true, sc: 0, table: "t", limit: 7, limitOK: true, operators: "gt"}},
		{"sc3_http_req_rate gt 7", none},
		{"src_http_req_rate(t) gt 9", hxExpr{rate: true, sc: -1, table: "t", limit: 9, limitOK: true, operators: "gt"}},
		{"sc_http_req_rate(0) lt 20", hxExpr{rate: true, sc: 0, operators: "lt"}},
		{"sc_http_req_rate(0) gt lots", hxExpr{rate: true, sc: 0}},
		{"sc_http_req_rate(0) gt", hxExpr{rate: true, sc: 0}},
		{"path_beg /api", hxExpr{sc: -2, path: "/api", prefix: true}},
		{"path_beg -i /api", hxExpr{sc: -2, path: "/api", prefix: true}},
		{"path -m beg /api", hxExpr{sc: -2, path: "/api", prefix: true}},
		{"path_beg /a /b", none},
		{"path /login", hxExpr{sc: -2, path: "/login"}},
		{"path -m str /login", hxExpr{sc: -2, path: "/login"}},
		{"path -- -odd", hxExpr{sc: -2, path: "-odd"}},
		{"path /a /b", none},
		{"path -m reg ^/a", none},
		{"hdr(host) example.com", none},
		{"path_beg -m", none},
	} {
		w := strings.Fields(c.text)
		c.want.text = c.text
		if got := expr(w); got != c.want {
			t.Errorf("expr(%q) = %+v, want %+v", c.text, got, c.want)
		}
	}
	if got := expr(nil); got != none {
		t.Errorf("expr(nil) = %+v", got)
	}
}
