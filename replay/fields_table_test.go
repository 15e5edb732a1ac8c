package replay

import "testing"

func TestRequestLineParts(t *testing.T) {
	for _, c := range []struct{ line, method, path string }{
		{"GET /a?b=1 HTTP/1.1", "GET", "/a?b=1"},
		{"POST http://h:80/x/y?z HTTP/2.0", "POST", "/x/y?z"},
		{"GET https://h HTTP/1.1", "GET", "/"},
		{"GET /a b HTTP/1.1", "GET", "/a b"},
		{"GET /only", "GET", "/only"},
		{"GET  HTTP/1.1", "GET", ""},
		{"-", "", "-"},
		{" /lead", "", " /lead"},
		{"", "", ""},
	} {
		m, p := splitRequest([]byte(c.line))
		if string(m) != c.method || string(p) != c.path {
			t.Errorf("splitRequest(%q) = %q, %q; want %q, %q", c.line, m, p, c.method, c.path)
		}
	}
}

func TestAddressParts(t *testing.T) {
	for _, c := range []struct{ in, first, strip string }{
		{"192.0.2.1", "192.0.2.1", "192.0.2.1"},
		{"192.0.2.1:443", "192.0.2.1", "192.0.2.1"},
		{"[2001:db8::1]:443", "2001:db8::1", "2001:db8::1"},
		{"2001:db8::1", "2001:db8::1", "2001:db8:"},
		{" 10.0.0.1 , 10.0.0.2", "10.0.0.1", " 10.0.0.1 , 10.0.0.2"},
		{"-", "", ""},
		{"", "", ""},
		{"-:80", "", ""},
	} {
		if got := string(firstAddr([]byte(c.in))); got != c.first {
			t.Errorf("firstAddr(%q) = %q, want %q", c.in, got, c.first)
		}
		if got := string(stripPort([]byte(c.in))); got != c.strip {
			t.Errorf("stripPort(%q) = %q, want %q", c.in, got, c.strip)
		}
	}
	if dashless([]byte("-")) != nil || string(dashless([]byte("--"))) != "--" {
		t.Error(`dashless: "-" alone is nothing`)
	}
}
