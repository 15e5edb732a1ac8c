package web

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// instant: 0 is "0s"; else rounded to the millisecond, half up.
func TestPromiseInstantToTheMillisecond(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0s"},
		{4433333289, "4.433s"},
		{4433900000, "4.434s"}, // rounded, not truncated
		{1499999, "1ms"},
		{1500000, "2ms"},
		{time.Second, "1s"},
	} {
		if got := instant(tc.d); got != tc.want {
			t.Errorf("instant(%d) = %q, want %q", int64(tc.d), got, tc.want)
		}
	}
}

// attachment keeps - _ . digits and ASCII letters, every other rune becomes _.
func TestPromiseAttachmentSafeName(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"demo-report.html", "demo-report.html"},
		{"a_Z.09", "a_Z.09"},
		{"/:@[`{ \"é", "_________"}, // the neighbours of each kept range, a quote, a space, one rune
		{"az AZ", "az_AZ"},
	} {
		if got, want := attachment(tc.name), `attachment; filename="`+tc.want+`"`; got != want {
			t.Errorf("attachment(%q) = %q, want %q", tc.name, got, want)
		}
	}
}

// policyText writes the effective burst: the limit when the burst is 0.
func TestPromisePolicyText(t *testing.T) {
	if got, want := policyText(algorithms.Policy{Limit: 10, Window: time.Second}), "limit 10 per 1s, burst 10"; got != want {
		t.Errorf("policyText(burst 0) = %q, want %q", got, want)
	}
	if got, want := policyText(algorithms.Policy{Limit: 10, Window: 2 * time.Second, Burst: 3}), "limit 10 per 2s, burst 3"; got != want {
		t.Errorf("policyText(burst 3) = %q, want %q", got, want)
	}
}

// limitsAt: a push at an instant applies at that instant, not before; a zero
// policy keeps the limit's policy but sets its shadow; the config is not changed.
func TestPromiseLimitsAt(t *testing.T) {
	p0 := algorithms.Policy{Limit: 5, Window: time.Second}
	p1 := algorithms.Policy{Limit: 9, Window: time.Second}
	cfg := sim.Config{
		Limits: []sim.Limit{{Name: "a", Policy: p0}, {Name: "b", Policy: p0}},
		Rules: []sim.RuleChange{
			{At: 2 * time.Second, Limit: 0, Policy: p1},
			{At: 3 * time.Second, Limit: 1, Shadow: true},
		},
	}
	if got := limitsAt(cfg, 2*time.Second-1); got[0].Policy != p0 || got[1].Shadow {
		t.Errorf("limitsAt(2s-1ns) = %+v, want the scenario's", got)
	}
	if got := limitsAt(cfg, 2*time.Second); got[0].Policy != p1 || got[1].Shadow {
		t.Errorf("limitsAt(2s) = %+v, want a's push applied, b untouched", got)
	}
	got := limitsAt(cfg, 3*time.Second)
	if got[0].Policy != p1 || got[1].Policy != p0 || !got[1].Shadow {
		t.Errorf("limitsAt(3s) = %+v, want b in shadow with its policy", got)
	}
	if cfg.Limits[0].Policy != p0 || cfg.Limits[1].Shadow {
		t.Errorf("limitsAt changed the config: %+v", cfg.Limits)
	}
}

// bins.Record ignores what the page does not draw: a lane out of range, a
// negative instant; t=0 and the last lane are counted. flush sends [] (not
// null) when nothing changed, and each changed column once.
func TestPromiseBinsRecordBounds(t *testing.T) {
	b := newBins(time.Millisecond, []sim.LaneKind{sim.LaneTokenBucket, sim.LaneTokenBucket})
	for _, r := range []sim.TraceRecord{
		{LaneIndex: -1, Event: sim.TraceAdmit},
		{LaneIndex: 2, Event: sim.TraceAdmit},
		{LaneIndex: 0, At: -1, Event: sim.TraceAdmit},
	} {
		_ = b.Record(&r)
	}
	for i := range 2 {
		if got, _ := json.Marshal(b.flush(i)); string(got) != "[]" {
			t.Errorf("row %d after ignored records flushes %s, want []", i, got)
		}
	}
	_ = b.Record(&sim.TraceRecord{LaneIndex: 1, At: 0, Event: sim.TraceAdmit, Request: 7})
	_ = b.Record(&sim.TraceRecord{LaneIndex: 1, At: time.Millisecond - 1, Event: sim.TraceAdmit, Request: 8})
	_ = b.Record(&sim.TraceRecord{LaneIndex: 1, At: time.Millisecond, Event: sim.TraceAdmit, Request: 9})
	cols := b.flush(1)
	admit := markOf(sim.TraceAdmit)
	if len(cols) != 2 || cols[0].I != 0 || cols[0].N[admit] != 2 || cols[1].I != 1 || cols[1].N[admit] != 1 {
		t.Errorf("flush(1) = %+v, want column 0 with 2 admitted, column 1 with 1", cols)
	}
	if got := b.flush(1); len(got) != 0 {
		t.Errorf("second flush = %+v, want none", got)
	}
	if rec, ok := b.sample(1, 0, admit); !ok || rec.Request != 7 {
		t.Errorf("sample(1, 0, admit) = %+v, %v; want the first attempt, request 7", rec, ok)
	}
	for _, tc := range []struct {
		i    int
		k    int64
		mark int
	}{{-1, 0, admit}, {2, 0, admit}, {1, 0, -1}, {1, 0, markKinds}, {1, 2, admit}} {
		if _, ok := b.sample(tc.i, tc.k, tc.mark); ok {
			t.Errorf("sample(%d, %d, %d) held, want not", tc.i, tc.k, tc.mark)
		}
	}
	if _, ok := b.sample(1, 0, markKinds-1); ok {
		t.Errorf("sample of a mark with no attempt held, want not")
	}
}

// reserve refuses at MaxSessions slots, open or being built; release gives a
// slot back once.
func TestPromiseReserveCap(t *testing.T) {
	s := New(Options{Addr: "127.0.0.1:1", MaxSessions: 2})
	a, err := s.reserve()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.reserve(); err != nil {
		t.Fatalf("second of 2 slots: %v", err)
	}
	if _, err := s.reserve(); err == nil || err.Error() != "too many pages are playing (2 at most): close one and reload" {
		t.Errorf("third of 2 slots: %v", err)
	}
	s.release(a)
	s.release(a)
	if s.building != 1 {
		t.Errorf("building = %d after releasing one slot twice, want 1", s.building)
	}
	if _, err := s.reserve(); err != nil {
		t.Errorf("a slot given back: %v", err)
	}
}

// The frame and the API replies name their fields as the page reads them.
func TestPromiseJSONFieldNames(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want []string
	}{
		{frame{}, []string{`"now"`, `"playing"`, `"finished"`, `"speed"`, `"status"`, `"events"`, `"lanes"`, `"rules"`, `"rates"`, `"bursts"`}},
		{laneFrame{}, []string{`"attempts"`, `"admitted"`, `"refused"`, `"delayed"`, `"shed"`, `"dropped"`, `"succeeded"`, `"peak"`, `"over"`, `"notLimiting"`, `"concurrency"`, `"columns"`}},
		{peak{}, []string{`"count"`, `"limit"`, `"start"`, `"end"`, `"key"`}},
		{column{}, []string{`"i"`, `"n"`}},
		{burstMark{}, []string{`"at"`, `"count"`, `"spread"`}},
		{sample{}, []string{`"lane"`, `"mark"`, `"client"`, `"class"`, `"request"`, `"attempt"`, `"cost"`, `"delay"`, `"retryAfter"`, `"headers"`, `"more"`}},
		{sessionReply{}, []string{`"id"`, `"name"`, `"description"`, `"yaml"`, `"lanes"`, `"limit"`, `"groups"`, `"duration"`, `"end"`, `"column"`, `"speeds"`, `"speed"`}},
		{limitInfo{}, []string{`"name"`, `"key"`, `"limit"`, `"window"`, `"burst"`}},
		{groupInfo{}, []string{`"name"`, `"count"`, `"rate"`}},
		{fieldError{}, []string{`"line"`, `"field"`, `"message"`, `"text"`}},
	} {
		b, _ := json.Marshal(tc.v)
		for _, f := range tc.want {
			if !strings.Contains(string(b), f+":") {
				t.Errorf("%T marshals as %s, without %s", tc.v, b, f)
			}
		}
	}
	if b, _ := json.Marshal(errorReply{Error: "x"}); string(b) != `{"error":"x"}` {
		t.Errorf("errorReply without problems = %s, want errors omitted", b)
	}
	if b, _ := json.Marshal(controlReply{Status: "s"}); string(b) != `{"status":"s"}` {
		t.Errorf("controlReply without a sample = %s, want sample omitted", b)
	}
}

// apply names the control it does not know and the ones it wants.
func TestPromiseApplyUnknownControl(t *testing.T) {
	sess := builtinSession(t, "demo")
	_, err := sess.apply(command{Op: "jump"})
	if want := `unknown control "jump" (want play, pause, step, speed, burst, rule, rate or sample)`; err == nil || err.Error() != want {
		t.Errorf("apply(jump) = %v, want %q", err, want)
	}
	if _, err := sess.apply(command{Op: "play"}); err != nil {
		t.Fatal(err)
	}
	if _, err := sess.apply(command{Op: "step"}); err == nil || err.Error() != "step works while paused" {
		t.Errorf("step while playing = %v", err)
	}
}

// A rule push is drawn in the frame from its instant, as "name: policy".
func TestPromiseRuleChangeStatus(t *testing.T) {
	sess := builtinSession(t, "demo")
	name := sess.sim.Config().Limits[0].Name
	r, err := sess.apply(command{Op: "rule", Limit: 7, Window: int64(2 * time.Second), Burst: 0})
	if err != nil {
		t.Fatal(err)
	}
	if want := "at t=0s, " + name + ": limit 7 per 2s, burst 7"; r.Status != want {
		t.Errorf("status %q, want %q", r.Status, want)
	}
	if _, err := sess.apply(command{Op: "rule", Limit: 0, Window: int64(time.Second)}); err == nil || !strings.HasPrefix(err.Error(), "no change: ") {
		t.Errorf("a zero limit: %v, want a refusal starting no change:", err)
	}
}
