package web

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/scenarios"
)

func auditSession(t *testing.T) *session {
	t.Helper()
	sc, err := scenarios.LoadBuiltin("steady-overload")
	if err != nil {
		t.Fatal(err)
	}
	sess, err := newSession(context.Background(), sc, 0, "rlsim run "+sc.Name)
	if err != nil {
		t.Fatal(err)
	}
	return sess
}

// The speed index runs from 0 to len(speeds)-1, both ends included.
func TestAuditSpeedIndexBounds(t *testing.T) {
	for _, tc := range []struct {
		index int
		ok    bool
	}{{-1, false}, {0, true}, {len(speeds) - 1, true}, {len(speeds), false}} {
		sess := auditSession(t)
		_, err := sess.apply(command{Op: "speed", Index: tc.index})
		if (err == nil) != tc.ok {
			t.Errorf("speed %d: %v, want accepted %v", tc.index, err, tc.ok)
		}
		if tc.ok && sess.speed != tc.index {
			t.Errorf("speed %d: session speed %d", tc.index, sess.speed)
		}
	}
}

// A step of no count is one column; a step while playing is refused.
func TestAuditStepCountZeroIsOneColumn(t *testing.T) {
	sess := auditSession(t)
	if _, err := sess.apply(command{Op: "step"}); err != nil {
		t.Fatal(err)
	}
	if got := sess.sim.Now(); got != sess.width {
		t.Errorf("one step from 0: now %v, want one column, %v", got, sess.width)
	}
	if _, err := sess.apply(command{Op: "step", Count: 2}); err != nil {
		t.Fatal(err)
	}
	if got := sess.sim.Now(); got != 3*sess.width {
		t.Errorf("then a step of 2: now %v, want three columns, %v", got, 3*sess.width)
	}
	if _, err := sess.apply(command{Op: "play"}); err != nil {
		t.Fatal(err)
	}
	if _, err := sess.apply(command{Op: "step"}); err == nil || !strings.Contains(err.Error(), "while paused") {
		t.Errorf("step while playing: %v, want refused", err)
	}
}

// A scenario of exactly MaxScenarioBytes is taken; one byte more is refused.
func TestAuditScenarioSizeInclusive(t *testing.T) {
	const limit = 1000
	base := "duration: 1s\nlimits: [{key: global, limit: 1, window: 1s}]\nclients:\n  - {name: a, count: 1, arrivals: [{kind: burst, at: 0s, count: 1}]}\n"
	yaml := func(n int) string { return base + "#" + strings.Repeat("x", n-len(base)-2) + "\n" }
	_, url := serve(t, Options{MaxScenarioBytes: limit})
	for _, tc := range []struct {
		size int
		code int
	}{{limit, http.StatusOK}, {limit + 1, http.StatusRequestEntityTooLarge}} {
		y := yaml(tc.size)
		if len(y) != tc.size {
			t.Fatalf("built %d bytes, want %d", len(y), tc.size)
		}
		body, _ := json.Marshal(createRequest{YAML: y})
		var reply errorReply
		if code := do(t, "POST", url+"/api/sessions", string(body), nil, &reply); code != tc.code {
			t.Errorf("a scenario of %d bytes, cap %d: status %d (%s), want %d", tc.size, limit, code, reply.Error, tc.code)
		}
	}
}
