package web

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/scenarios"
)

// The session counts columns and builds no trace; its report runs the
// scenario again, traced, with the page's changes made at their instants,
// and must come to the session's figures exactly: mid-run and at the end,
// with a burst, a rule push and a rate change made between steps.
func TestReportReplaysTheSession(t *testing.T) {
	for _, name := range []string{"steady-overload", "demo"} {
		t.Run(name, func(t *testing.T) {
			sc, err := scenarios.LoadBuiltin(name)
			if err != nil {
				t.Fatal(err)
			}
			sess, err := newSession(context.Background(), sc, 0, "rlsim run "+sc.Name)
			if err != nil {
				t.Fatal(err)
			}
			p := sess.sim.Rule(0).Policy
			for _, c := range []command{
				{Op: "step", Count: 3}, {Op: "burst", Count: 40, Spread: int64(30 * time.Millisecond)}, {Op: "step", Count: 2},
				{Op: "rule", Limit: p.Limit * 2, Window: int64(p.Window), Burst: p.EffectiveBurst() * 2}, {Op: "step", Count: 1},
				{Op: "rate", Index: 0, Count: 7}, {Op: "step", Count: 4},
			} {
				if _, err := sess.apply(c); err != nil {
					t.Fatalf("%s: %v", c.Op, err)
				}
			}
			sameAsReplayed(t, sess, "mid-run")
			playToEnd(t, sess)
			sameAsReplayed(t, sess, "at the end")
		})
	}
}

func sameAsReplayed(t *testing.T, sess *session, when string) {
	t.Helper()
	plan, err := sess.planReport()
	if err != nil {
		t.Fatalf("%s: %v", when, err)
	}
	res, tl, err := plan.replay(context.Background())
	sess.reportDone()
	if err != nil {
		t.Fatalf("%s: replay: %v", when, err)
	}
	got, _ := json.Marshal(res)
	want, _ := json.Marshal(sess.sim.Result())
	if string(got) != string(want) {
		t.Errorf("%s: the replayed result differs from the session's:\n%s\nwant\n%s", when, firstDiff(string(got), string(want)), "")
	}
	if tl == nil || tl.Last() <= 0 {
		t.Errorf("%s: the replay traced nothing into the report's timeline", when)
	}
}

// firstDiff is the text around where a and b first differ.
func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(i-80, 0)
	return a[lo:min(i+80, len(a))] + "\n   against\n" + b[lo:min(i+80, len(b))]
}

// A report whose re-run would take the session over its bound is refused
// with 409 before any work, by the session and through the server; within
// the bound it is written.
func TestReportOverTheBoundIsRefused(t *testing.T) {
	sc, err := scenarios.LoadBuiltin("steady-overload")
	if err != nil {
		t.Fatal(err)
	}
	base := footprint(sc.Config)
	sess, err := newSession(context.Background(), sc, 0, "rlsim run")
	if err != nil {
		t.Fatal(err)
	}
	sess.maxBytes = 2*base - 1
	var over errOverBudget
	if err := sess.reportFits(); !errors.As(err, &over) || !strings.Contains(err.Error(), "runs the session again") {
		t.Errorf("bound 2×%d−1: reportFits = %v, want over budget", base, err)
	}
	sess.maxBytes = 2 * base
	if err := sess.reportFits(); err != nil {
		t.Errorf("bound 2×%d: reportFits = %v, want none", base, err)
	}

	for _, tc := range []struct {
		bound int64
		code  int
	}{{2*base - 1, http.StatusConflict}, {2 * base, http.StatusOK}} {
		_, url := serve(t, Options{MaxSessionBytes: tc.bound})
		var rep sessionReply
		if code := do(t, "POST", url+"/api/sessions", `{"builtin":"steady-overload"}`, nil, &rep); code != 200 {
			t.Fatalf("bound %d: create: status %d", tc.bound, code)
		}
		resp, err := http.Get(url + "/api/sessions/" + rep.ID + "/report.html")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.code {
			t.Errorf("bound %d (footprint %d): report.html status %d, want %d", tc.bound, base, resp.StatusCode, tc.code)
		}
	}
}

// A report is written without the session's mutex, one at a time: a second
// asked while one is being written is refused (its re-run would hold the
// session's memory a third time), and asked after, written.
func TestOneReportAtATime(t *testing.T) {
	sess := builtinSession(t, "steady-overload")
	if _, err := sess.apply(command{Op: "step", Count: 3}); err != nil {
		t.Fatal(err)
	}
	plan, err := sess.planReport()
	if err != nil {
		t.Fatal(err)
	}
	var over errOverBudget
	if _, err := sess.planReport(); !errors.As(err, &over) {
		t.Errorf("a second report while one is written: %v, want refused", err)
	}
	if _, err := sess.apply(command{Op: "step", Count: 2}); err != nil { // the page plays on
		t.Fatal(err)
	}
	if b, err := plan.reportHTML(context.Background()); err != nil || !strings.Contains(string(b), "played live in rlsim serve to t=300ms") {
		t.Errorf("the report planned at t=300ms: %v, %.200q", err, b)
	}
	sess.reportDone()
	if _, err := sess.planReport(); err != nil {
		t.Errorf("a report after the first is done: %v", err)
	}
}
