package web

import (
	"context"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// promiseYAML: one limit pushed at 1s to 20 (window and burst kept, the
// burst following the limit) and enforced again at 3s with no new policy; a
// group whose first rate component is 1/m, and one with no rate.
const promiseYAML = `duration: 4s
limits:
  - name: lim
    key: global
    limit: 10
    window: 1s
    changes:
      - at: 1s
        limit: 20
      - at: 3s
        enforce: true
clients:
  - name: a
    count: 2
    arrivals:
      - kind: burst
        at: 0s
        count: 1
      - kind: constant
        rate: 1/m
      - kind: poisson
        rate: 2/s
  - name: b
    arrivals:
      - kind: burst
        at: 0s
        count: 1
`

func promiseSession(t *testing.T) *session {
	t.Helper()
	sc, err := scenarios.Parse(editorFile, []byte(promiseYAML))
	if err != nil {
		t.Fatal(err)
	}
	sess, err := newSession(context.Background(), sc, 0, "rlsim run editor.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return sess
}

// describe: the first limit with its effective burst, each group's first
// constant or Poisson rate per second (0 without one), the end at 2×duration
// when there is no drain, the speeds and 1× as the speed.
func TestPromiseDescribe(t *testing.T) {
	sess := promiseSession(t)
	rep := describe(sess)
	if want := (limitInfo{Name: "lim", Key: "global", Limit: 10, Window: int64(time.Second), Burst: 10}); rep.Limit != want {
		t.Errorf("limit %+v, want %+v", rep.Limit, want)
	}
	if want := []groupInfo{{Name: "a", Count: 2, Rate: 1.0 / 60}, {Name: "b", Count: 1, Rate: 0}}; fmt.Sprint(rep.Groups) != fmt.Sprint(want) {
		t.Errorf("groups %+v, want %+v", rep.Groups, want)
	}
	if rep.Duration != int64(4*time.Second) || rep.End != int64(8*time.Second) {
		t.Errorf("duration %d, end %d; want 4s and 8s", rep.Duration, rep.End)
	}
	if rep.Speed != normalSpeed || rep.Speeds[rep.Speed] != 10 || len(rep.Speeds) != 13 || rep.Speeds[0] != 1 || rep.Speeds[12] != 10000 {
		t.Errorf("speed %d of %v, want the index of 10 tenths (1×), from 1 to 10000", rep.Speed, rep.Speeds)
	}
	if rep.Column != int64(sim.ColumnWidth(*sess.sc.Config)) {
		t.Errorf("column %d, want sim.ColumnWidth's %v", rep.Column, sim.ColumnWidth(*sess.sc.Config))
	}
	if len(rep.Lanes) != len(sim.DefaultLanes()) {
		t.Errorf("%d lanes, want the %d default ones", len(rep.Lanes), len(sim.DefaultLanes()))
	}
}

// The frame draws a scheduled push from its very instant, not a nanosecond
// before, as "limit: policy"; a push with no policy says what it does:
// "limit: enforced" or "limit: shadow".
func TestPromiseFrameRuleMarks(t *testing.T) {
	sess := promiseSession(t)
	sess.advance(time.Second - 1)
	if f := sess.frame(); f.Rules == nil || len(f.Rules) != 0 || f.Bursts == nil || f.Rates == nil {
		t.Errorf("at 1s-1ns rules %#v, bursts %#v, rates %#v; want each empty, not nil (the page reads [])", f.Rules, f.Bursts, f.Rates)
	}
	sess.advance(1)
	f := sess.frame()
	if len(f.Rules) != 1 || f.Rules[0] != (ruleMark{At: int64(time.Second), Text: "lim: limit 20 per 1s, burst 20"}) {
		t.Errorf("at 1s rules %+v, want the push to 20", f.Rules)
	}
	if f.Now != int64(time.Second) || f.Playing || f.Finished {
		t.Errorf("frame now %d playing %v finished %v, want 1s, paused, running", f.Now, f.Playing, f.Finished)
	}
	sess.advance(2 * time.Second)
	f = sess.frame()
	if len(f.Rules) != 2 || f.Rules[1] != (ruleMark{At: int64(3 * time.Second), Text: "lim: enforced"}) {
		t.Errorf("at 3s rules %+v, want the enforcing push as lim: enforced", f.Rules)
	}
	if f.Bursts == nil || f.Rates == nil || f.Rules == nil {
		t.Errorf("frame marks nil (%v %v %v), want [] for the page", f.Bursts, f.Rates, f.Rules)
	}
}

// advance stops at the end of the run, and says it has finished.
func TestPromiseAdvanceToTheEnd(t *testing.T) {
	sess := promiseSession(t)
	sess.playing = true
	sess.advance(time.Hour)
	if sess.sim.Now() > 8*time.Second || !sess.finished || sess.playing {
		t.Errorf("after an hour: now %v finished %v playing %v, want at most 8s, finished, paused", sess.sim.Now(), sess.finished, sess.playing)
	}
	if want := "finished: these are the figures rlsim run editor.yaml prints (the editor's scenario saved as editor.yaml)"; sess.status != want {
		t.Errorf("status %q, want %q", sess.status, want)
	}
}

// A burst's status and mark: its size, its spread, its instant and the first
// client's user; a rate change's status and mark name the group.
func TestPromiseBurstAndRateStatus(t *testing.T) {
	sess := promiseSession(t)
	sess.advance(500 * time.Millisecond)
	r, err := sess.apply(command{Op: "burst", Count: 5, Spread: int64(100 * time.Millisecond)})
	if err != nil {
		t.Fatal(err)
	}
	if want := "burst of 5 over 100ms fired at t=500ms as a-0"; r.Status != want {
		t.Errorf("burst status %q, want %q", r.Status, want)
	}
	if f := sess.frame(); len(f.Bursts) != 1 || f.Bursts[0] != (burstMark{At: int64(500 * time.Millisecond), Count: 5, Spread: int64(100 * time.Millisecond)}) {
		t.Errorf("bursts %+v", f.Bursts)
	}
	if sess.held.injected != 5 || sess.held.marks != 1 {
		t.Errorf("held %+v, want 5 injected and 1 mark", sess.held)
	}
	r, err = sess.apply(command{Op: "rate", Index: 1, Count: 3})
	if err != nil {
		t.Fatal(err)
	}
	if want := "at t=500ms, each client of b sends 3/s"; r.Status != want {
		t.Errorf("rate status %q, want %q", r.Status, want)
	}
	if f := sess.frame(); len(f.Rates) != 1 || f.Rates[0] != (ruleMark{At: int64(500 * time.Millisecond), Text: "b: 3/s each"}) {
		t.Errorf("rates %+v", f.Rates)
	}
	if sess.held.marks != 2 || !sess.touched {
		t.Errorf("held %+v touched %v, want 2 marks and touched", sess.held, sess.touched)
	}
}

// guard names the refused Host and the address, or the refused Origin.
func TestPromiseGuardMessages(t *testing.T) {
	s := New(Options{Addr: "127.0.0.1:8080"})
	r := httptest.NewRequest("GET", "http://evil.example:8080/", nil)
	if err := s.guard(r); err == nil || err.Error() != `host "evil.example:8080" is not this server's (127.0.0.1:8080): open http://127.0.0.1:8080/` {
		t.Errorf("foreign host: %v", err)
	}
	r = httptest.NewRequest("POST", "http://127.0.0.1:8080/api/sessions", nil)
	r.Header.Set("Origin", "http://evil.example")
	if err := s.guard(r); err == nil || err.Error() != `origin "http://evil.example" may not drive this server: only pages it serves may` {
		t.Errorf("foreign origin: %v", err)
	}
	r.Header.Set("Origin", "http://127.0.0.1:8080")
	if err := s.guard(r); err != nil {
		t.Errorf("own origin: %v", err)
	}
}

// scenarioProblems gives one problem at its line for a single field error.
func TestPromiseScenarioProblemsOne(t *testing.T) {
	fe := &scenarios.FieldError{File: "x.yaml", Line: 7, Path: "limits[0].limit", Msg: "must be positive"}
	rep := scenarioProblems(fmt.Errorf("wrapped: %w", fe))
	if rep.Error != "wrapped: "+fe.Error() {
		t.Errorf("error %q", rep.Error)
	}
	want := fieldError{Line: 7, Field: "limits[0].limit", Message: "must be positive", Text: fe.Error()}
	if len(rep.Errors) != 1 || rep.Errors[0] != want {
		t.Errorf("errors %+v, want [%+v]", rep.Errors, want)
	}
	if rep := scenarioProblems(fmt.Errorf("plain")); rep.Errors != nil || rep.Error != "plain" {
		t.Errorf("plain error: %+v", rep)
	}
}

// Each kind of push reads as what it changes: a policy, a policy into shadow,
// shadow alone, enforcing alone (a push into shadow drew "lim:  (shadow)").
func TestPushText(t *testing.T) {
	p := algorithms.Policy{Limit: 20, Window: time.Second}
	for _, tc := range []struct {
		ch   sim.RuleChange
		want string
	}{
		{sim.RuleChange{Policy: p}, policyText(p)},
		{sim.RuleChange{Policy: p, Shadow: true}, policyText(p) + " (shadow)"},
		{sim.RuleChange{Shadow: true}, "shadow"},
		{sim.RuleChange{}, "enforced"},
	} {
		if got := pushText(tc.ch); got != tc.want {
			t.Errorf("pushText(%+v) = %q, want %q", tc.ch, got, tc.want)
		}
	}
}
