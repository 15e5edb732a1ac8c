package tui

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

func TestRuleSteps(t *testing.T) {
	tests := []struct{ v, up, down int64 }{
		{1, 2, 1},
		{2, 3, 1},
		{4, 5, 3},
		{5, 6, 4},
		{8, 10, 6},
		{10, 13, 8},
		{13, 16, 10},
		{100, 125, 80},
		{900_000, maxRuleValue, 720_000},
		{maxRuleValue, maxRuleValue, 800_000},
		{5_000_000, 5_000_000, 4_000_000},
	}
	for _, tc := range tests {
		if got := stepUp(tc.v); got != tc.up {
			t.Errorf("stepUp(%d) = %d, want %d", tc.v, got, tc.up)
		}
		if got := stepDown(tc.v); got != tc.down {
			t.Errorf("stepDown(%d) = %d, want %d", tc.v, got, tc.down)
		}
	}
	for v := int64(1); v < 2000; v++ {
		if up := stepUp(v); up <= v || float64(up) > float64(v)*1.25+1 {
			t.Errorf("stepUp(%d) = %d, want above it and at most ×1.25 rounded", v, up)
		}
		if down := stepDown(v); v > 1 && (down >= v || down < 1 || float64(down) < float64(v)/1.25-1) {
			t.Errorf("stepDown(%d) = %d, want below it, at least 1 and ÷1.25 rounded", v, down)
		}
	}
}

// pausedAt is the demo paused after n steps of one slice (100ms).
func pausedAt(t *testing.T, list []Scenario, n int) *Model {
	t.Helper()
	m := newModel(t, list, 100, 30)
	send(m, keyMsg("space"))
	for range n {
		send(m, keyMsg("right"))
	}
	return m
}

func TestRuleKeys(t *testing.T) {
	toMax := 0 // presses from the demo's 10 to the largest limit
	for v := int64(10); v < maxRuleValue; v = stepUp(v) {
		toMax++
	}
	demo := func(limit, burst int64) algorithms.Policy {
		return algorithms.Policy{Limit: limit, Window: time.Second, Burst: burst}
	}
	tests := []struct {
		name    string
		keys    []string
		want    algorithms.Policy // the first limit, as in force after the keys
		changes int               // rule pushes made
		status  string            // in the status line
	}{
		{"] raises the limit ×1.25", []string{"]"}, demo(13, 13), 1, "limit global 13 from t=500ms, was 10; every key starts afresh; max/win is judged against the limit in force in its window"},
		{"↑ too", []string{"up"}, demo(13, 13), 1, "limit global 13"},
		{"[ lowers it ÷1.25", []string{"["}, demo(8, 8), 1, "limit global 8 from t=500ms, was 10"},
		{"↓ too", []string{"down"}, demo(8, 8), 1, "limit global 8"},
		{"each press steps from the last", []string{"]", "]", "]"}, demo(20, 20), 3, "limit global 20 from t=500ms, was 16"},
		{"never below 1", strings.Split(strings.Repeat("[", 9), ""), demo(1, 1), 7, "no change: the limit is at its smallest, 1"},
		{"a million at most", strings.Split(strings.Repeat("]", toMax+1), ""), demo(maxRuleValue, maxRuleValue), toMax, "no change: the keys raise a limit to 1000000 at most"},
		{"} raises the burst, not the limit", []string{"}"}, demo(10, 13), 1, "burst global 13 from t=500ms, was 10; every key starts afresh"},
		{"{ lowers it", []string{"{"}, demo(10, 8), 1, "burst global 8"},
		{"a burst set stays when the limit moves", []string{"}", "}", "]"}, demo(13, 16), 3, "limit global 13"},
		{"c picks nothing in a chain of one", []string{"c"}, demo(10, 10), 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := pausedAt(t, builtins(t, "demo"), 5)
			send(m, keys(tc.keys...)...)
			if got := m.sim.Rule(0).Policy; got != tc.want {
				t.Errorf("limit in force %+v, want %+v", got, tc.want)
			}
			if len(m.changes) != tc.changes || len(m.sim.Config().Rules) != tc.changes {
				t.Errorf("%d changes kept, %d pushed; want %d", len(m.changes), len(m.sim.Config().Rules), tc.changes)
			}
			for _, ch := range m.changes {
				if ch.At != 500*time.Millisecond || ch.Limit != 0 || ch.Shadow {
					t.Errorf("change %+v, want one at 500ms of limit 0, enforced", ch)
				}
			}
			if !strings.Contains(m.status, tc.status) {
				t.Errorf("status %q, want %q in it", m.status, tc.status)
			}
			if info, _ := m.infoLine(); tc.changes > 0 && !strings.Contains(info, "rules changed") {
				t.Errorf("info line %q does not count the changes", info)
			}
		})
	}
}

// A change of a shadow limit keeps it a shadow: the keys change the policy only.
func TestRuleKeysKeepAShadow(t *testing.T) {
	m := pausedAt(t, builtins(t, "shadow-rollout"), 5)
	was := m.sim.Rule(0)
	if !was.Shadow {
		t.Fatalf("shadow-rollout's limit is enforced at 500ms; the test wants a shadow")
	}
	send(m, keyMsg("]"))
	if now := m.sim.Rule(0); !now.Shadow || now.Policy.Limit != stepUp(was.Policy.Limit) {
		t.Errorf("after ]: %+v, want a shadow of limit %d", now, stepUp(was.Policy.Limit))
	}
	if info, _ := m.infoLine(); !strings.Contains(info, "(shadow)") {
		t.Errorf("info line %q does not say the limit is a shadow", info)
	}
	m.advance(31*time.Second - m.sim.Now()) // past the scenario's own push, enforcing it at 30s
	if info, _ := m.infoLine(); strings.Contains(info, "(shadow)") {
		t.Errorf("info line %q at 31s, after the push enforcing the limit", info)
	}
}

// twoLimits is the demo behind a chain of two limits.
func twoLimits(t *testing.T) []Scenario {
	list := builtins(t, "demo")
	cfg := &list[0].Config
	cfg.Limits = append(cfg.Limits, sim.Limit{Name: "per-user", Key: sim.KeyUser, Policy: algorithms.Policy{Limit: 3, Window: time.Second}})
	return list
}

func TestChooseLimit(t *testing.T) {
	m := pausedAt(t, twoLimits(t), 5)
	if info, _ := m.infoLine(); !strings.Contains(info, "limit 1 of 2 global 10 per 1s") {
		t.Errorf("info line %q", info)
	}
	send(m, keys("c", "]")...)
	if m.limit != 1 || m.sim.Rule(1).Policy.Limit != 4 || m.sim.Rule(0).Policy.Limit != 10 {
		t.Errorf("after c ]: keys on limit %d, limits %d and %d; want 1, 10 and 4", m.limit, m.sim.Rule(0).Policy.Limit, m.sim.Rule(1).Policy.Limit)
	}
	if info, _ := m.infoLine(); !strings.Contains(info, "limit 2 of 2 per-user 4 per 1s") {
		t.Errorf("info line %q", info)
	}
	if strings.Contains(m.status, "max/win") {
		t.Errorf("status %q: max/win is against the first limit, which did not change", m.status)
	}
	send(m, keyMsg("c"))
	if m.limit != 0 {
		t.Errorf("c wraps round: keys on limit %d", m.limit)
	}
	send(m, keyMsg("?"))
	if !strings.Contains(m.View(), "next limit of the chain") {
		t.Error("? does not list c for a chain of two")
	}
	send(m, keyMsg("tab"))
	if m.limit != 0 || len(m.changes) != 0 {
		t.Errorf("another scenario keeps limit %d and %d changes", m.limit, len(m.changes))
	}
}

// TestRuleChangesDecideAsScheduled presses rule keys and fires a burst (which
// rebuilds the run and replays the changes), plays to the end and compares
// every lane with sim.Run of the scenario with those changes scheduled a
// nanosecond after the instants pressed at (whose requests were decided already).
func TestRuleChangesDecideAsScheduled(t *testing.T) {
	for _, name := range []string{"demo", "steady-overload"} {
		t.Run(name, func(t *testing.T) {
			m := pausedAt(t, builtins(t, name), 15)
			send(m, keys("]", "]")...)
			for range 10 {
				send(m, keyMsg("right"))
			}
			send(m, keys("{", "b")...)
			for range 5 {
				send(m, keyMsg("right"))
			}
			send(m, keyMsg("["))
			if len(m.changes) != 4 || len(m.bursts) != 1 {
				t.Fatalf("%d changes, %d bursts; want 4 and 1", len(m.changes), len(m.bursts))
			}
			send(m, keyMsg("space"))
			playToEnd(t, m)
			if !strings.Contains(m.status, "finished, with 1 burst fired and 4 rule changes: r plays it again") {
				t.Errorf("status %q", m.status)
			}

			cfg := builtins(t, name)[0].Config
			first := m.sim.Config().Clients[0]
			b := m.bursts[0]
			cfg.Clients = append(cfg.Clients, sim.ClientGroup{Name: burstClass, Count: 1, Identity: first.IdentityOf(0),
				Arrivals: []sim.Arrival{{Kind: sim.ArrivalBurst, At: b.at, Count: int(b.count), Spread: 300 * time.Millisecond}}})
			if b.count != 16 {
				t.Errorf("the burst fired after the limit went to 16 has %d requests", b.count)
			}
			for _, ch := range m.changes {
				ch.At++
				cfg.Rules = append(cfg.Rules, ch)
			}
			want, err := sim.Run(context.Background(), cfg, sim.Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := m.sim.Result()
			for i := range want.Lanes {
				// The live push starts the windows afresh at the instant pressed,
				// the scheduled one a nanosecond later: a key over the limit then
				// is timed over it a nanosecond longer per push.
				g, w := got.Lanes[i], want.Lanes[i]
				if d := w.TimeOverLimit - g.TimeOverLimit; d >= 0 && d <= time.Duration(len(m.changes)) {
					g.TimeOverLimit = w.TimeOverLimit
				}
				if !reflect.DeepEqual(g, w) {
					t.Errorf("%v: the keys' changes decided otherwise than the same changes scheduled", w.Lane)
				}
			}
		})
	}
}

// TestAdmissionsFollowTheLimit raises and lowers the limit and the burst of a
// steady overload at 2s and compares each lane's admissions with the run
// left alone: the rate lanes admit more under a higher limit and fewer under
// a lower one; the buckets admit more with a larger burst; AIMD, whose limit
// is no rate, does not move. Each busiest window is judged against the limit
// in force during it: the sliding log, which holds whatever limit it is given,
// is not OVER for the limit being raised (it once was, judged against the
// limit at the start).
func TestAdmissionsFollowTheLimit(t *testing.T) {
	var over map[sim.LaneKind]string
	admitted := func(keys ...string) map[sim.LaneKind]int64 {
		m := pausedAt(t, builtins(t, "steady-overload"), 20)
		for _, k := range keys {
			send(m, keyMsg(k))
		}
		send(m, keyMsg("space"))
		playToEnd(t, m)
		over = map[sim.LaneKind]string{}
		for _, snap := range m.snaps {
			if snap.OverLimit {
				over[snap.Lane] = fmt.Sprintf("%d against %d", snap.Peak.Count, snap.Peak.Limit)
			}
		}
		got := map[sim.LaneKind]int64{}
		for _, l := range m.sim.Result().Lanes {
			got[l.Lane] = l.Admitted
		}
		return got
	}
	alone := admitted()
	if over[sim.LaneSlidingLog] != "" {
		t.Errorf("left alone, the sliding log is OVER (%s)", over[sim.LaneSlidingLog])
	}
	rate := []sim.LaneKind{sim.LaneFixedWindow, sim.LaneSlidingLog, sim.LaneSlidingWindowCounter, sim.LaneTokenBucket,
		sim.LaneLeakyBucket, sim.LaneGCRA, sim.LaneClientThrottle}
	tests := []struct {
		name string
		keys []string
		more []sim.LaneKind // admit more than alone
		less []sim.LaneKind // admit fewer
	}{
		{"limit raised", []string{"]", "]", "]"}, rate, nil},
		{"limit lowered", []string{"[", "[", "["}, nil, rate},
		{"burst raised", []string{"}", "}", "}"}, []sim.LaneKind{sim.LaneTokenBucket, sim.LaneGCRA, sim.LaneLeakyBucket}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := admitted(tc.keys...)
			if tc.name == "limit raised" && over[sim.LaneSlidingLog] != "" {
				t.Errorf("with the limit raised, the sliding log is OVER (%s)", over[sim.LaneSlidingLog])
			}
			for _, k := range tc.more {
				if got[k] <= alone[k] {
					t.Errorf("%v admitted %d, left alone %d; want more", k, got[k], alone[k])
				}
			}
			for _, k := range tc.less {
				if got[k] >= alone[k] {
					t.Errorf("%v admitted %d, left alone %d; want fewer", k, got[k], alone[k])
				}
			}
			if got[sim.LaneAIMD] != alone[sim.LaneAIMD] {
				t.Errorf("AIMD admitted %d, left alone %d; a rule push does not reach it", got[sim.LaneAIMD], alone[sim.LaneAIMD])
			}
		})
	}
}

func TestRuleKeysAfterTheEnd(t *testing.T) {
	m := newModel(t, builtins(t, "boundary-burst"), 100, 30)
	playToEnd(t, m)
	send(m, keyMsg("]"))
	if len(m.changes) != 0 || !strings.Contains(m.status, "no change: the run is over; r plays it again") {
		t.Errorf("%d changes, status %q", len(m.changes), m.status)
	}
}

// A rule push shows down every lane, in its column: an empty cell shows the
// rule glyph and, in colour, a cell with attempts keeps its glyph on grey.
func TestRulePushMarkedInEveryLane(t *testing.T) {
	r := lipgloss.NewRenderer(nil)
	r.SetColorProfile(termenv.ANSI256)
	m, err := New(builtins(t, "demo"), Options{Renderer: r})
	if err != nil {
		t.Fatal(err)
	}
	send(m, tea.WindowSizeMsg{Width: 100, Height: 30}, keyMsg("space"))
	for range 15 {
		send(m, keyMsg("right"))
	}
	send(m, keyMsg("]"))
	for range 5 {
		send(m, keyMsg("right"))
	}
	lay := m.layout()
	col := -1
	for j, ruled := range lay.ruled {
		if ruled {
			col = j
		}
	}
	if col < 0 || lay.from+int64(col) != 15 {
		t.Fatalf("rule columns %v from slice %d; want slice 15 marked", lay.ruled, lay.from)
	}
	for i := range lay.snap {
		m.timeline.fill(i, lay.from, lay.cells)
		var b strings.Builder
		m.drawCells(&b, lay.cells, lay.ruled)
		k := markOf(&lay.cells[col])
		want := m.styles.ruled[k].wrap(glyphs[k])
		if k == markNone {
			want = m.styles.ruled[k].wrap(ruleGlyph)
		}
		if !strings.Contains(b.String(), want) {
			t.Errorf("%v: column of the push does not show %q: %q", lay.snap[i].Lane, want, b.String())
		}
	}
}
