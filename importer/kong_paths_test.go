package importer

import (
	"strings"
	"testing"
)

func kongServiceDoc(routes string) string {
	return `_format_version: "3.0"
services:
  - name: s
    url: http://example.com
    routes:
` + routes + `    plugins:
      - name: rate-limiting
        config: {minute: 5, policy: local}
`
}

func kongProblem(m *Model, phrase string) string {
	for _, p := range m.Problems {
		if strings.Contains(p.Message, phrase) {
			return p.Message
		}
	}
	return ""
}

// A service's plugin counts on each distinct path of its routes once: two
// routes on one path are one endpoint, two routes without paths one "every
// path" endpoint.
func TestKongServicePathsCountedOnce(t *testing.T) {
	m := s7Import(t, "kong.yaml", "kong", kongServiceDoc(`      - name: r1
        paths: [/a, /b]
      - name: r2
        paths: [/a]
`))
	var eps []string
	for _, l := range m.Limits {
		eps = append(eps, l.Endpoint)
	}
	if strings.Join(eps, " ") != "/a /b" {
		t.Errorf("endpoints %q, want /a /b", eps)
	}
	if p := kongProblem(m, "one counter per identifier"); !strings.Contains(p, "its 2 paths (/a, /b)") || !strings.Contains(p, "up to 2 times") {
		t.Errorf("problem %q, want it to name 2 paths", p)
	}
	m = s7Import(t, "kong.yaml", "kong", kongServiceDoc(`      - name: h1
        hosts: [a.example.com]
      - name: h2
        hosts: [b.example.com]
`))
	if len(m.Limits) != 1 || m.Limits[0].Endpoint != "" || kongProblem(m, "one counter per identifier") != "" {
		t.Errorf("two routes without paths: limits %+v, problems %v; want one limit on every path", m.Limits, m.Problems)
	}
	if n := strings.Count(problemText(m), "not by path"); n != 2 {
		t.Errorf("%d problems say a route matches not by path, want one per route", n)
	}
}

// Each route matching by prefix is told once, a regex route's path is named.
func TestKongPrefixToldOncePerRoute(t *testing.T) {
	m := s7Import(t, "kong.yaml", "kong", kongServiceDoc(`      - name: r1
        paths: [/a, /b]
      - name: r2
        paths: ["~/items/\\d+"]
`))
	text := problemText(m)
	if n := strings.Count(text, "by prefix"); n != 1 {
		t.Errorf("%d prefix problems for route r1, want 1:\n%s", n, text)
	}
	if !strings.Contains(text, `route r2 matches the regex /items/\d+`) {
		t.Errorf("no regex problem for r2:\n%s", text)
	}
}

func problemText(m *Model) string {
	var b strings.Builder
	for _, p := range m.Problems {
		b.WriteString(p.Message + "\n")
	}
	return b.String()
}
