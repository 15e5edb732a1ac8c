package tui

import (
	"context"
	"io"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/rlsim/rlsim/internal/golden"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// builtins loads the named built-in scenarios as a playlist.
func builtins(t testing.TB, names ...string) []Scenario {
	t.Helper()
	var list []Scenario
	for _, name := range names {
		s, err := scenarios.LoadBuiltin(name)
		if err != nil {
			t.Fatal(err)
		}
		list = append(list, Scenario{Name: s.Name, Description: s.Description, Config: *s.Config})
	}
	return list
}

// monochrome is a renderer without colour, as NO_COLOR gives.
func monochrome() *lipgloss.Renderer {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.Ascii)
	return r
}

// newModel is a model of list in a width×height monochrome terminal.
func newModel(t testing.TB, list []Scenario, width, height int) *Model {
	t.Helper()
	m, err := New(list, Options{Renderer: monochrome()})
	if err != nil {
		t.Fatal(err)
	}
	m.Update(tea.WindowSizeMsg{Width: width, Height: height})
	return m
}

// send applies msgs in order and returns the last command.
func send(m *Model, msgs ...tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	for _, msg := range msgs {
		_, cmd = m.Update(msg)
	}
	return cmd
}

func keyMsg(s string) tea.KeyMsg {
	switch s {
	case "space":
		return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
	case "right":
		return tea.KeyMsg{Type: tea.KeyRight}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	case "shift+tab":
		return tea.KeyMsg{Type: tea.KeyShiftTab}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

func keys(ss ...string) []tea.Msg {
	var msgs []tea.Msg
	for _, s := range ss {
		msgs = append(msgs, keyMsg(s))
	}
	return msgs
}

// playToEnd ticks m at its fastest until the scenario finishes.
func playToEnd(t testing.TB, m *Model) {
	t.Helper()
	m.speed = len(speeds) - 1
	for i := 0; !m.finished; i++ {
		if i > 1_000_000 {
			t.Fatal("the scenario never finished")
		}
		send(m, tickMsg{m.gen})
	}
}

// TestSameNumbersAsRun plays scenarios to their end through the view and
// compares everything measured with sim.Run's result, which rlsim run prints.
func TestSameNumbersAsRun(t *testing.T) {
	for _, b := range scenarios.Builtins() {
		s, err := scenarios.LoadBuiltin(b.Name)
		if err != nil {
			t.Fatal(err)
		}
		if s.Config == nil {
			continue // a contention study: no lanes
		}
		t.Run(b.Name, func(t *testing.T) {
			m := newModel(t, builtins(t, b.Name), 100, 30)
			playToEnd(t, m)
			want, err := sim.Run(context.Background(), *s.Config, sim.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := m.sim.Result(); !reflect.DeepEqual(got, want) {
				t.Errorf("the view's result differs from sim.Run's")
			}
			for i, snap := range m.snaps {
				l := want.Lanes[i]
				if snap.Admitted != l.Admitted || snap.Refused != l.Refused || snap.Delayed != l.Delayed ||
					snap.Shed != l.Shed || snap.Dropped != l.Dropped || snap.Peak.Count != l.Peak.Count {
					t.Errorf("%s: shown adm %d ref %d del %d shed %d drop %d max %d, rlsim run: %d %d %d %d %d %d",
						snap.Lane, snap.Admitted, snap.Refused, snap.Delayed, snap.Shed, snap.Dropped, snap.Peak.Count,
						l.Admitted, l.Refused, l.Delayed, l.Shed, l.Dropped, l.Peak.Count)
				}
			}
		})
	}
}

func TestTicks(t *testing.T) {
	m := newModel(t, builtins(t, "demo"), 100, 30)
	cmd := send(m, tickMsg{m.gen})
	if got, want := m.sim.Now(), frame; got != want {
		t.Errorf("after one tick at 1×, t = %v, want %v", got, want)
	}
	if cmd == nil {
		t.Error("a tick did not re-arm the clock")
	}
	if cmd := send(m, tickMsg{m.gen - 1}); cmd != nil || m.sim.Now() != frame {
		t.Errorf("a stale tick advanced the clock to %v or re-armed it", m.sim.Now())
	}
	send(m, keyMsg("+"), keyMsg("+"), tickMsg{m.gen}) // 5×
	if got, want := m.sim.Now(), frame+5*frame; got != want {
		t.Errorf("after a tick at 5×, t = %v, want %v", got, want)
	}
}

func TestControls(t *testing.T) {
	slice := 100 * time.Millisecond // a tenth of the demo's 1s window
	tests := []struct {
		name  string
		msgs  []tea.Msg
		check func(t *testing.T, m *Model)
	}{
		{"pause stops the clock", append(keys("space"), tickMsg{1}, tickMsg{0}), func(t *testing.T, m *Model) {
			if !m.paused || m.sim.Now() != 0 {
				t.Errorf("paused %v, t = %v; want paused at 0", m.paused, m.sim.Now())
			}
		}},
		{"resume restarts it", append(keys("space", "space"), tickMsg{2}), func(t *testing.T, m *Model) {
			if m.paused || m.sim.Now() != frame {
				t.Errorf("paused %v, t = %v; want running at %v", m.paused, m.sim.Now(), frame)
			}
		}},
		{"step moves one slice", keys("space", "right", "right", "right"), func(t *testing.T, m *Model) {
			if m.sim.Now() != 3*slice {
				t.Errorf("t = %v, want %v", m.sim.Now(), 3*slice)
			}
		}},
		{"step goes to the next slice boundary", append([]tea.Msg{tickMsg{0}}, keys("space", "right")...), func(t *testing.T, m *Model) {
			if m.sim.Now() != slice {
				t.Errorf("t = %v, want %v", m.sim.Now(), slice)
			}
		}},
		{"step while running says how", keys("right"), func(t *testing.T, m *Model) {
			if m.sim.Now() != 0 || !strings.Contains(m.status, "paused") {
				t.Errorf("t = %v, status %q", m.sim.Now(), m.status)
			}
		}},
		{"speed tops at 100×", keys(strings.Split(strings.Repeat("+", 20), "")...), func(t *testing.T, m *Model) {
			if speedLabel(speeds[m.speed]) != "100×" {
				t.Errorf("speed %s", speedLabel(speeds[m.speed]))
			}
		}},
		{"speed bottoms at 0.1×", keys(strings.Split(strings.Repeat("-", 20), "")...), func(t *testing.T, m *Model) {
			if speedLabel(speeds[m.speed]) != "0.1×" {
				t.Errorf("speed %s", speedLabel(speeds[m.speed]))
			}
		}},
		{"tab goes to the next scenario", keys("tab"), func(t *testing.T, m *Model) {
			if m.current != 1 || m.sim.Config().Name != "boundary-burst" || m.sim.Now() != 0 {
				t.Errorf("playing %d %q at %v", m.current, m.sim.Config().Name, m.sim.Now())
			}
		}},
		{"n and p move both ways round the list", keys("n", "n", "n", "p"), func(t *testing.T, m *Model) {
			if m.current != 2 {
				t.Errorf("playing %d", m.current)
			}
		}},
		{"shift+tab wraps backwards", keys("shift+tab"), func(t *testing.T, m *Model) {
			if m.current != 2 {
				t.Errorf("playing %d", m.current)
			}
		}},
		{"restart goes back to zero, without bursts", append(append(keys("space"), keys(strings.Split(strings.Repeat("l", 12), "")...)...), keys("b", "r")...), func(t *testing.T, m *Model) {
			if m.sim.Now() != 0 || len(m.bursts) != 0 || m.sim.Config().Clients[len(m.sim.Config().Clients)-1].Name == burstClass {
				t.Errorf("t = %v, bursts %v", m.sim.Now(), m.bursts)
			}
		}},
		{"? shows every key", keys("?"), func(t *testing.T, m *Model) {
			if !m.help.ShowAll || !strings.Contains(m.View(), "previous scenario") {
				t.Errorf("full help not shown:\n%s", m.View())
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := newModel(t, builtins(t, "demo", "boundary-burst", "steady-overload"), 100, 30)
			send(m, tc.msgs...)
			tc.check(t, m)
		})
	}
}

func TestQuit(t *testing.T) {
	for _, k := range []tea.KeyMsg{keyMsg("q"), {Type: tea.KeyCtrlC}} {
		m := newModel(t, builtins(t, "demo"), 100, 30)
		cmd := send(m, k)
		if cmd == nil {
			t.Fatalf("%s: no command", k)
		}
		if _, ok := cmd().(tea.QuitMsg); !ok {
			t.Errorf("%s does not quit", k)
		}
	}
}

// TestBurst fires a burst and checks that it is exactly a run with one more
// client that bursts at that moment, and that the replay kept the past.
func TestBurst(t *testing.T) {
	m := newModel(t, builtins(t, "demo"), 100, 30)
	send(m, keys("space")...)
	for range 15 {
		send(m, keyMsg("right"))
	}
	before := m.sim.Snapshot()
	at := m.sim.Now()
	send(m, keyMsg("b"))
	if m.sim.Now() != at || len(m.bursts) != 1 || m.bursts[0].at != at {
		t.Fatalf("after b: t = %v, bursts %v; want one at %v", m.sim.Now(), m.bursts, at)
	}
	after := m.snaps
	for i := range before {
		added := after[i].Attempts - before[i].Attempts
		if added <= 0 || added > 10 {
			t.Errorf("%s: the burst added %d attempts by t=%v, want 1 to 10", before[i].Lane, added, at)
		}
	}

	cfg := builtins(t, "demo")[0].Config
	cfg.Clients = append(cfg.Clients, sim.ClientGroup{Name: burstClass, Count: 1, Identity: sim.Identity{
		User: "steady-0", IP: "steady-0", APIKey: "steady-0", Tenant: "steady-0", Endpoint: "steady-0"},
		Arrivals: []sim.Arrival{{Kind: sim.ArrivalBurst, At: at, Count: 10, Spread: 300 * time.Millisecond}}})
	send(m, keys("space")...)
	playToEnd(t, m)
	want, err := sim.Run(context.Background(), cfg, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(m.sim.Result(), want) {
		t.Error("a run with a burst differs from sim.Run of the scenario with a burst client added")
	}
	if cmd := send(m, keyMsg("b")); cmd != nil || !strings.Contains(m.status, "no burst") {
		t.Errorf("a burst after the traffic's end: status %q", m.status)
	}
}

// TestBurstRestartsAFinishedRun checks that a burst fired after every lane ran
// out of events wakes the clock up again.
func TestBurstRestartsAFinishedRun(t *testing.T) {
	list := builtins(t, "demo")
	list[0].Config.Clients = list[0].Config.Clients[1:2] // only the bursty client
	list[0].Config.Clients[0].Arrivals = list[0].Config.Clients[0].Arrivals[:1]
	list[0].Config.Clients[0].Retry = sim.Retry{}
	list[0].Config.Backend = nil
	m := newModel(t, list, 100, 30)
	for !m.finished {
		send(m, tickMsg{m.gen})
	}
	if m.sim.Now() >= m.sim.Config().Duration {
		t.Skipf("the run ended at %v, no time left for a burst", m.sim.Now())
	}
	if cmd := send(m, keyMsg("b")); cmd == nil || m.finished {
		t.Errorf("the burst did not restart the clock (finished %v)", m.finished)
	}
}

func TestTimelineRing(t *testing.T) {
	w := 100 * time.Millisecond
	tl := newTimeline(w)
	tl.setLanes([]sim.LaneKind{sim.LaneLeakyBucket})
	rec := func(at time.Duration, ev sim.TraceEvent, delay time.Duration) {
		tl.Record(&sim.TraceRecord{At: at, Lane: sim.LaneLeakyBucket, Event: ev, Delay: delay})
	}
	tl.Record(&sim.TraceRecord{At: 0, Lane: sim.LaneGCRA, Event: sim.TraceAdmit}) // a lane not shown
	rec(0, sim.TraceAdmit, 0)
	rec(150*time.Millisecond, sim.TraceDelay, 300*time.Millisecond) // waits in slices 1-3, released in 4
	rec(200*time.Millisecond, sim.TraceRefuse, 0)
	cells := make([]cell, 6)
	tl.fill(0, -1, cells)
	var got []string
	for i := range cells {
		got = append(got, glyphs[markOf(&cells[i])])
	}
	if want := []string{" ", "█", "─", "x", "─", ">"}; !reflect.DeepEqual(got, want) {
		t.Errorf("slices -1..4 show %q, want %q", got, want)
	}

	// A release far ahead moves the ring on: the oldest slices are forgotten,
	// the wait still counts in the slices kept.
	far := time.Duration(ringSlices+10) * w
	rec(time.Second, sim.TraceDelay, far)
	tl.fill(0, 30, cells)
	if cells[0].waiting != 1 || cells[0].admitted != 0 {
		t.Errorf("slice 30 of a ring moved on: waiting %d, admitted %d; want 1 waiting", cells[0].waiting, cells[0].admitted)
	}
	tl.fill(0, 0, cells)
	if cells[0].admitted != 0 || cells[1].refused != 0 {
		t.Errorf("forgotten slices still show: %+v", cells[:2])
	}
	rec(0, sim.TraceAdmit, 0) // a record for a forgotten slice is dropped, not misplaced
	tl.fill(0, int64(ringSlices), cells)
	for i := range cells {
		if cells[i].admitted != 0 {
			t.Errorf("slice %d shows an admission recorded for slice 0", ringSlices+i)
		}
	}
}

func TestColoursAreDistinct(t *testing.T) {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI256)
	s := newStyles(r)
	seen := map[escapes]mark{}
	for k := markAdmit; k < marks; k++ {
		if s.mark[k].pre == "" {
			t.Errorf("mark %q has no colour", glyphs[k])
		}
		if prev, ok := seen[s.mark[k]]; ok && !(k == markRelease && prev == markWait) {
			t.Errorf("marks %q and %q look the same", glyphs[prev], glyphs[k])
		}
		seen[s.mark[k]] = k
	}
	if mono := newStyles(monochrome()); mono.mark[markAdmit].pre != "" || mono.over.pre != "" {
		t.Error("the monochrome view has escape codes")
	}
}

// checkGolden compares got with tui/testdata/name.golden; -update rewrites it.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name+".golden"), []byte(got))
}

func TestViewGolden(t *testing.T) {
	steps := func(n int) []tea.Msg {
		msgs := keys("space")
		for range n {
			msgs = append(msgs, keyMsg("right"))
		}
		return msgs
	}
	tests := []struct {
		name          string
		scenario      string
		width, height int
		msgs          []tea.Msg
	}{
		{"start", "demo", 80, 24, nil},
		{"demo_80x24", "demo", 80, 24, steps(40)},
		{"demo_120x40", "demo", 120, 40, steps(40)},
		{"demo_burst_100x30", "demo", 100, 30, append(steps(15), keyMsg("b"), keyMsg("right"), keyMsg("right"), keyMsg("right"), keyMsg("right"))},
		{"demo_full_help", "demo", 100, 30, append(steps(40), keyMsg("?"))},
		{"demo_short_50x13", "demo", 50, 13, steps(40)},
		{"too_small", "demo", 40, 10, nil},
		{"leaky_queue_steady_overload", "steady-overload", 100, 24, steps(50)},
		{"shed_downstream_slowdown", "downstream-slowdown", 100, 24, steps(120)},
		{"drop_client_throttling", "client-throttling-overload", 100, 24, steps(300)},
		{"variants_choose_burst", "choose-burst", 80, 24, steps(110)},
		{"finished_boundary_burst", "boundary-burst", 100, 24, append(keys("+", "+", "+", "+", "+", "+"), tickMsg{0}, tickMsg{0}, tickMsg{0})},
		{"rule_keys_steady_overload", "steady-overload", 100, 24, append(append(append(append(steps(20), keys("]", "]")...),
			steps(10)[1:]...), keyMsg("}")), steps(10)[1:]...)},
		{"rule_keys_demo_80x24", "demo", 80, 24, append(append(steps(28), keyMsg("[")), steps(12)[1:]...)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := newModel(t, builtins(t, tc.scenario), tc.width, tc.height)
			send(m, tc.msgs...)
			v := m.View()
			checkGolden(t, tc.name, v)
			if n := strings.Count(v, "\n") + 1; n > tc.height {
				t.Errorf("%d lines in a terminal %d high", n, tc.height)
			}
			for i, line := range strings.Split(v, "\n") {
				if w := lipgloss.Width(line); w > tc.width {
					t.Errorf("line %d is %d wide in a terminal %d wide: %q", i+1, w, tc.width, line)
				}
			}
		})
	}
}

// TestResize checks that the view re-lays itself: more columns show more of the
// past, the present stays at the right edge.
func TestResize(t *testing.T) {
	m := newModel(t, builtins(t, "demo"), 80, 24)
	send(m, keys("space")...)
	for range 30 {
		send(m, keyMsg("right"))
	}
	narrow := m.layout()
	send(m, tea.WindowSizeMsg{Width: 160, Height: 50})
	wide := m.layout()
	if wide.cols <= narrow.cols {
		t.Errorf("%d columns at 160 wide, %d at 80", wide.cols, narrow.cols)
	}
	for _, lay := range []layout{narrow, wide} {
		if last := lay.from + int64(lay.cols) - 1; last != int64(m.sim.Now()/m.timeline.width) {
			t.Errorf("the right edge shows slice %d, the present is in slice %d", last, m.sim.Now()/m.timeline.width)
		}
	}
}

// A rule push is marked '!' on the time axis, in the column of its time.
func TestRulePushMarkedOnTheAxis(t *testing.T) {
	m := newModel(t, builtins(t, "shadow-rollout"), 120, 30)
	push := m.sim.Config().Rules[0].At
	var b strings.Builder
	lay := layout{nameW: 4, cols: 400}
	lay.ruled = m.ruleColumns(lay.from, lay.cols)
	m.drawAxis(&b, lay)
	ticks := []rune(strings.SplitN(b.String(), "\n", 2)[0])
	want := lay.nameW + 1 + int(push/m.timeline.width)
	if strings.Count(string(ticks), "!") != 1 || want >= len(ticks) || ticks[want] != '!' {
		t.Errorf("axis %q: want one '!' at column %d (t=%v, %v a column)", string(ticks), want, push, m.timeline.width)
	}
}
