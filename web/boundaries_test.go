package web

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/scenarios"
)

// The page's bounds, each at its edge, without a browser: a burst of 1 to
// maxBurst, fired before the traffic's end (not at it), and a scenario of up
// to MaxClients clients.

func TestBurstSizeBounds(t *testing.T) {
	for _, tc := range []struct {
		n  int
		ok bool
	}{{0, false}, {1, true}, {maxBurst, true}, {maxBurst + 1, false}} {
		sess := demoSession(t)
		if _, err := sess.apply(command{Op: "burst", Count: tc.n}); (err == nil) != tc.ok {
			t.Errorf("burst of %d: %v, want accepted %v", tc.n, err, tc.ok)
		}
	}
}

func TestNoBurstAtTheEndOfTraffic(t *testing.T) {
	sess := demoSession(t)
	end := sess.sim.Config().Duration
	if err := sess.sim.RunUntil(end - 1); err != nil {
		t.Fatal(err)
	}
	if _, err := sess.apply(command{Op: "burst", Count: 1}); err != nil {
		t.Errorf("a burst a nanosecond before the end of traffic: %v, want it fired", err)
	}
	if err := sess.sim.RunUntil(end); err != nil {
		t.Fatal(err)
	}
	if _, err := sess.apply(command{Op: "burst", Count: 1}); err == nil || !strings.Contains(err.Error(), "new requests stop at") {
		t.Errorf("a burst at the end of traffic: %v, want it refused", err)
	}
}

func TestClientsUpToTheCap(t *testing.T) {
	_, url := serve(t, Options{MaxClients: 100})
	for _, tc := range []struct {
		b    int
		want int
	}{{40, http.StatusOK}, {41, http.StatusBadRequest}} {
		yaml := "duration: 1s\nlimits: [{key: global, limit: 1, window: 1s}]\nclients:\n" +
			"  - {name: a, count: 60, arrivals: [{kind: burst, at: 0s, count: 1}]}\n" +
			"  - {name: b, count: " + itoa(tc.b) + ", arrivals: [{kind: burst, at: 0s, count: 1}]}\n"
		body, _ := json.Marshal(createRequest{YAML: yaml})
		var reply errorReply
		if code := do(t, "POST", url+"/api/sessions", string(body), nil, &reply); code != tc.want {
			t.Errorf("%d clients against a cap of 100: status %d (%s), want %d", 60+tc.b, code, reply.Error, tc.want)
		}
	}
}

func demoSession(t *testing.T) *session {
	t.Helper()
	sc, err := scenarios.LoadBuiltin("demo")
	if err != nil {
		t.Fatal(err)
	}
	sess, err := newSession(context.Background(), sc, 0, "rlsim run demo")
	if err != nil {
		t.Fatal(err)
	}
	return sess
}
