package web

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// playToEnd plays a session as the page's play button does, at the fastest
// speed, frame after frame, and returns the last frame.
func playToEnd(t *testing.T, sess *session) frame {
	t.Helper()
	sess.speed = len(speeds) - 1
	if _, err := sess.apply(command{Op: "play"}); err != nil {
		t.Fatal(err)
	}
	for i := 0; !sess.finished; i++ {
		if i > 1_000_000 {
			t.Fatal("the session never finished")
		}
		sess.tick(defaultFrame)
		sess.frame()
	}
	return sess.frame()
}

// Played to the end without interaction, every built-in ends with exactly the
// figures rlsim run computes for it, lane by lane.
func TestSameNumbersAsRun(t *testing.T) {
	for _, b := range playable() {
		t.Run(b.Name, func(t *testing.T) {
			srv := New(Options{Addr: "127.0.0.1:1"})
			sc, err := srv.load(createRequest{Builtin: b.Name})
			if err != nil {
				t.Fatal(err)
			}
			sess, err := newSession(context.Background(), sc, 0, "rlsim run "+sc.Name)
			if err != nil {
				t.Fatal(err)
			}
			got := playToEnd(t, sess)
			fresh, err := run.Load(run.BuiltinPrefix + b.Name)
			if err != nil {
				t.Fatal(err)
			}
			out, err := run.Scenario(context.Background(), fresh, run.Options{})
			if err != nil {
				t.Fatal(err)
			}
			want := out.Result.Lanes
			if len(got.Lanes) != len(want) {
				t.Fatalf("%d lanes, rlsim run has %d", len(got.Lanes), len(want))
			}
			for i, w := range want {
				g := got.Lanes[i]
				wf := laneFrame{Attempts: w.Attempts, Admitted: w.Admitted, Refused: w.Refused, Delayed: w.Delayed,
					Shed: w.Shed, Dropped: w.Dropped, Succeeded: w.Succeeded,
					Peak:        peak{Count: w.Peak.Count, Limit: w.Peak.Limit, Start: int64(w.Peak.Start), End: int64(w.Peak.End), Key: w.Peak.Key},
					Over:        w.Peak.Count > w.Peak.Limit && !w.NotLimiting() && w.Lane.Info().Class != sim.ConcurrencyLimiter,
					NotLimiting: w.NotLimiting(), Concurrency: w.Lane.Info().Class == sim.ConcurrencyLimiter,
					Limiting: sim.LimitingPhrases(*out.Scenario.Config, w.InFlight, w.Criticality, w.Partitions)}
				g.Columns = nil
				if !reflect.DeepEqual(g, wf) {
					t.Errorf("%v: the page ends with\n%+v\nrlsim run prints\n%+v", w.Lane, g, wf)
				}
			}
			if !strings.HasPrefix(got.Status, "finished: these are the figures rlsim run "+b.Name) {
				t.Errorf("status %q", got.Status)
			}
		})
	}
}

// The columns streamed add up to each lane's figures: every attempt is drawn
// once, at the instant it was decided, as admitted at once, delayed, refused,
// shed or dropped.
func TestColumnsAddUpToTheFigures(t *testing.T) {
	for _, name := range []string{"demo", "downstream-slowdown", "client-throttling-overload"} {
		t.Run(name, func(t *testing.T) {
			sc, err := scenarios.LoadBuiltin(name)
			if err != nil {
				t.Fatal(err)
			}
			sess, err := newSession(context.Background(), sc, 0, "rlsim run "+sc.Name)
			if err != nil {
				t.Fatal(err)
			}
			cols := make([]map[int64][markKinds]int64, len(sess.sim.Config().Lanes))
			for i := range cols {
				cols[i] = map[int64][markKinds]int64{}
			}
			sess.speed, sess.playing = len(speeds)-1, true
			var last frame
			for !sess.finished {
				sess.tick(defaultFrame)
				last = sess.frame()
				for i, l := range last.Lanes {
					for _, c := range l.Columns {
						cols[i][c.I] = c.N // a column sent again replaces its earlier counts
					}
				}
			}
			for i, l := range last.Lanes {
				var sum [markKinds]int64
				for _, n := range cols[i] {
					for k := range sum {
						sum[k] += n[k]
					}
				}
				want := [markKinds]int64{l.Admitted - l.Delayed, l.Delayed, l.Refused, l.Shed, l.Dropped}
				if sum != want {
					t.Errorf("%v: the columns hold %v (admitted at once, delayed, refused, shed, dropped), the figures %v",
						sess.sim.Config().Lanes[i], sum, want)
				}
			}
		})
	}
}

// Controls change the run at the present, in every lane alike.
func TestControls(t *testing.T) {
	_, url := serve(t, Options{})
	var rep sessionReply
	if code := do(t, "POST", url+"/api/sessions", `{"builtin":"steady-overload"}`, nil, &rep); code != 200 {
		t.Fatalf("status %d", code)
	}
	ctl := func(body string) (int, controlReply, errorReply) {
		var ok controlReply
		var bad errorReply
		req, _ := http.NewRequest("POST", url+"/api/sessions/"+rep.ID+"/control", strings.NewReader(body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		dec := json.NewDecoder(resp.Body)
		if resp.StatusCode == 200 {
			_ = dec.Decode(&ok)
		} else {
			_ = dec.Decode(&bad)
		}
		return resp.StatusCode, ok, bad
	}
	for _, tc := range []struct {
		body, want string
		code       int
	}{
		{`{"op":"step"}`, "", 200},
		{`{"op":"burst","count":50,"spread":100000000}`, "burst of 50 over 100ms fired at t=", 200},
		{`{"op":"rule","limit":40,"window":1000000000,"burst":40}`, "limit 40 per 1s, burst 40", 200},
		{`{"op":"rate","index":0,"count":7}`, "sends 7/s", 200},
		{`{"op":"burst","count":0}`, "no burst: the size must be 1 to 100000, got 0", 400},
		{`{"op":"rule","limit":0,"window":0}`, "no change: limit must be positive, got 0; window must be positive", 400},
		{`{"op":"rule","limit":5,"window":1000000000,"burst":-1}`, "no change: burst must not be negative", 400},
		{`{"op":"rate","index":9,"count":1}`, "rate.group", 400},
		{`{"op":"speed","index":99}`, "speed: index must be 0 to", 400},
		{`{"op":"sample","lane":0,"column":999999,"mark":0}`, "no longer held", 400},
		{`{"op":"fly"}`, `unknown control "fly"`, 400},
		{`{"op":"play","extra":1}`, "not a JSON command", 400},
		{`not json`, "not a JSON command", 400},
	} {
		code, ok, bad := ctl(tc.body)
		if code != tc.code || !strings.Contains(ok.Status+bad.Error, tc.want) {
			t.Errorf("%s: status %d %q%q, want %d with %q", tc.body, code, ok.Status, bad.Error, tc.code, tc.want)
		}
	}
}

// A burst fired and a rule pushed from the page reach every lane, at the
// present, and show on the timeline.
func TestBurstAndRuleReachEveryLane(t *testing.T) {
	play := func(change func(*session)) (*session, frame) {
		sc, err := scenarios.LoadBuiltin("steady-overload")
		if err != nil {
			t.Fatal(err)
		}
		sess, err := newSession(context.Background(), sc, 0, "rlsim run "+sc.Name)
		if err != nil {
			t.Fatal(err)
		}
		for range 5 {
			if _, err := sess.apply(command{Op: "step"}); err != nil {
				t.Fatal(err)
			}
		}
		change(sess)
		return sess, playToEnd(t, sess)
	}
	plain, _ := play(func(*session) {})
	burst, f := play(func(s *session) {
		if _, err := s.apply(command{Op: "burst", Count: 40, Spread: int64(50 * time.Millisecond)}); err != nil {
			t.Fatal(err)
		}
	})
	for i, l := range burst.sim.Result().Lanes {
		if want := plain.sim.Result().Lanes[i].Unique + 40; l.Unique != want {
			t.Errorf("%v: %d requests, want %d: the burst of 40 and the scenario's", l.Lane, l.Unique, want)
		}
	}
	if len(f.Bursts) != 1 || f.Bursts[0].Count != 40 || f.Bursts[0].At != int64(5*burst.width) {
		t.Errorf("bursts on the timeline %+v, want one of 40 at %v", f.Bursts, 5*burst.width)
	}
	if !strings.HasPrefix(f.Status, "finished, with the changes made here") {
		t.Errorf("status %q claims the figures are rlsim run's", f.Status)
	}
	for _, c := range []command{{Op: "rule", Limit: 5, Window: int64(time.Second)}, {Op: "rate", Count: 5}, {Op: "burst", Count: 5}, {Op: "play"}} {
		if _, err := burst.apply(c); err == nil || !strings.Contains(err.Error(), "finished") {
			t.Errorf("%s after the end: %v, want a refusal saying the run has finished", c.Op, err)
		}
	}
	ruled, f := play(func(s *session) {
		if _, err := s.apply(command{Op: "rule", Limit: 1000, Window: int64(time.Second), Burst: 1000}); err != nil {
			t.Fatal(err)
		}
	})
	if len(f.Rules) != 1 || f.Rules[0].At != int64(5*ruled.width) || !strings.Contains(f.Rules[0].Text, "limit 1000 per 1s") {
		t.Errorf("rules on the timeline %+v", f.Rules)
	}
	_, f = play(func(s *session) {
		if _, err := s.apply(command{Op: "rate", Index: 0, Count: 3}); err != nil {
			t.Fatal(err)
		}
	})
	if len(f.Rates) != 1 || f.Rates[0].At != int64(5*ruled.width) || f.Rates[0].Text != "clients: 3/s each" {
		t.Errorf("rate changes on the timeline %+v", f.Rates)
	}
	for i, l := range ruled.sim.Result().Lanes {
		if p := plain.sim.Result().Lanes[i]; l.Refused >= p.Refused && p.Refused > 0 {
			t.Errorf("%v refused %d with the limit raised 100-fold, %d without", l.Lane, l.Refused, p.Refused)
		}
	}
}
