package web

import (
	"net/http"
	"strings"
	"testing"
)

// A request may carry a scenario and a config each up to MaxScenarioBytes,
// and JSON escapes a line break in two bytes (api.go: room for the escaping
// of both): a scenario and a config of 10,000 bytes of line breaks (some
// 39,500 bytes of JSON), are read whole, not refused as too large.
func TestBodyHoldsAScenarioAndAConfigEscaped(t *testing.T) {
	const capBytes = 10_000
	_, url := serve(t, Options{MaxScenarioBytes: capBytes})
	conf := configSample(t, "nginx/minimal.conf")
	conf += strings.Repeat("\n", capBytes-len(conf))
	yaml := "duration: 1s\nclients:\n  - {name: a, arrivals: [{kind: burst, at: 0s, count: 1}]}\n"
	yaml += strings.Repeat("\n", capBytes-len(yaml))
	body := mustJSON(createRequest{YAML: yaml, Config: conf})
	if n := len(body); n <= 2*capBytes+4096 {
		t.Fatalf("the request is %d bytes, want more than %d (room for one escaped document: the test would not tell)", n, 2*capBytes+4096)
	}
	var reply errorReply
	if code := do(t, "POST", url+"/api/sessions", body, nil, &reply); code != http.StatusOK {
		t.Errorf("a scenario and a config of %d bytes each: status %d %q, want 200", capBytes, code, reply.Error)
	}
}
