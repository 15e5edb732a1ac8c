package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// View needs minWidth × (lanes + 5): one line fewer says so, truncated to the width.
func TestPromiseViewHeightInclusive(t *testing.T) {
	m := newModel(t, builtins(t, "demo"), 80, 24)
	need := len(m.snaps) + 5
	send(m, tea0(80, need-1))
	want := fmt.Sprintf("terminal too small: the lanes need %d×%d\n", minWidth, need)
	if got := m.View(); got != want {
		t.Errorf("height %d: %q, want %q", need-1, got, want)
	}
	send(m, tea0(80, need))
	if got := m.View(); strings.Contains(got, "too small") {
		t.Errorf("height %d: too small", need)
	}
	send(m, tea0(30, need-1))
	if got := m.View(); got != string([]rune(want)[:29])+"…\n" {
		t.Errorf("30 wide: %q, want the message cut to 30 runes", got)
	}
}

// layout: the info line, the header, the lanes, the axis (2) and the help
// always; the title from one spare line, the status from two, the legend
// from three, blank lines between the parts from five.
func TestPromiseLayoutSpareLines(t *testing.T) {
	m := newModel(t, builtins(t, "demo"), 80, 24)
	base := 1 + 1 + len(m.snaps) + 2 + 1
	for _, tc := range []struct {
		spare                         int
		title, status, legend, spaced bool
	}{
		{0, false, false, false, false}, {1, true, false, false, false}, {2, true, true, false, false},
		{3, true, true, true, false}, {4, true, true, true, false}, {5, true, true, true, true}, {9, true, true, true, true},
	} {
		send(m, tea0(80, base+tc.spare))
		lay := m.layout()
		if lay.title != tc.title || lay.status != tc.status || lay.legend != tc.legend || lay.spaced != tc.spaced {
			t.Errorf("%d spare lines: title %v status %v legend %v spaced %v; want %v %v %v %v", tc.spare,
				lay.title, lay.status, lay.legend, lay.spaced, tc.title, tc.status, tc.legend, tc.spaced)
		}
		m.status = "a status"
		lines := strings.Count(m.View(), "\n") + 1
		want := base
		for _, on := range []bool{tc.title, tc.status, tc.legend} {
			if on {
				want++
			}
		}
		if tc.spaced {
			want += 2
		}
		if lines != want || lines > base+tc.spare {
			t.Errorf("height %d: %d lines, want %d", base+tc.spare, lines, want)
		}
		m.status = ""
	}
}

// The lanes fill the width: every line at most the terminal's width, a lane
// row marked OVER 2 short of it (see below), and the last column the
// present's slice.
func TestPromiseLanesFitTheWidth(t *testing.T) {
	m := pausedAt(t, builtins(t, "demo"), 40) // 4s: lanes over the limit
	for width := 60; width <= 140; width++ {
		send(m, tea0(width, 40))
		view := m.View()
		widest, over := 0, false
		for _, line := range strings.Split(view, "\n") {
			w := lipgloss.Width(line)
			widest = max(widest, w)
			if strings.HasSuffix(line, " OVER") {
				over = true
				// A row with OVER is the widest: it reaches the terminal's edge.
				if w != width {
					t.Errorf("width %d: an OVER row is %d wide, want %d: %q", width, w, width, line)
				}
			}
		}
		if widest > width || !over {
			t.Errorf("width %d: widest line %d, an OVER row %v", width, widest, over)
		}
		lay := m.layout()
		if now := int64(m.sim.Now() / m.timeline.width); lay.from+int64(lay.cols)-1 != now {
			t.Errorf("width %d: columns %d..%d, want the last the present's slice %d", width, lay.from, lay.from+int64(lay.cols)-1, now)
		}
	}
}

// The max-in-window column: count and ratio to the limit, "1.0×" for the
// limit exactly; a lane that limited nothing shows "-".
func TestPromiseMaxInWindowColumn(t *testing.T) {
	m := newModel(t, builtins(t, "demo"), 80, 24)
	lay := m.layout()
	col := lay.stats[len(lay.stats)-1]
	if col.head != "max/win" || lay.stats[0].head != "adm" || lay.stats[1].head != "ref" || lay.stats[2].head != "del" || len(lay.stats) != 4 {
		t.Errorf("narrow heads: %v", lay.stats)
	}
	fw, _ := sim.ParseLane("fixed_window")
	snap := sim.LaneSnapshot{Lane: fw, Attempts: 12, Admitted: 10, Refused: 2, Peak: sim.WindowPeak{Count: 10, Limit: 10}}
	if got := col.value(&snap); got != "10 1.0×" {
		t.Errorf("10 of 10: %q, want 10 1.0×", got)
	}
	snap.Peak = sim.WindowPeak{Count: 19, Limit: 10}
	if got := col.value(&snap); got != "19 1.9×" {
		t.Errorf("19 of 10: %q, want 19 1.9×", got)
	}
	snap = sim.LaneSnapshot{Lane: sim.LaneAIMD, Attempts: 5, Admitted: 5, Peak: sim.WindowPeak{Count: 21, Limit: 10}}
	if got := col.value(&snap); got != "21 -" {
		t.Errorf("a concurrency lane that limited nothing: %q, want 21 -", got)
	}
	snap = sim.LaneSnapshot{Admitted: 7, Refused: 3, Delayed: 2, Shed: 4, Dropped: 5}
	var got []string
	send(m, tea0(110, 24))
	for _, c := range m.layout().stats[:5] {
		got = append(got, c.head+"="+c.value(&snap))
	}
	if strings.Join(got, " ") != "admitted=7 refused=3 delayed=2 shed=4 dropped=5" {
		t.Errorf("wide columns: %q", got)
	}
}

// infoLine: the state, the clock to the hundredth of a second, the duration
// (demo runs 10s; its drain of 10s more is not the scenario's length), the
// speed, the limit in force with its burst when it differs, and the counts
// of changes and bursts.
func TestPromiseInfoLine(t *testing.T) {
	m := pausedAt(t, builtins(t, "demo"), 5)
	info, state := m.infoLine()
	if want := "‖ paused · t=0.50s of 10s · speed 1× · limit global 10 per 1s"; info != want || state != "‖ paused" {
		t.Errorf("infoLine = %q, %q; want %q", info, state, want)
	}
	send(m, keys("]", "}", "}", "+", "b")...)
	// ] 10→13 (burst follows), } 13→16, } 16→20, b a burst of 13
	info, _ = m.infoLine()
	if want := "‖ paused · t=0.50s of 10s · speed 2× · limit global 13 per 1s, bursts of 20 · rules changed 3 · bursts fired 1"; info != want {
		t.Errorf("infoLine = %q, want %q", info, want)
	}
	if !strings.HasPrefix(m.status, "burst of 13 fired at t=500ms") {
		t.Errorf("status %q, want a burst the size of the limit now", m.status)
	}
	send(m, keyMsg("space"))
	if _, state := m.infoLine(); state != "▶ running" {
		t.Errorf("state %q, want ▶ running", state)
	}
	m.advance(time.Hour)
	info, state = m.infoLine()
	if state != "■ finished" || !strings.HasPrefix(info, "■ finished · t=20.00s of 10s, drained") {
		t.Errorf("after the end: %q", info)
	}
	if m.status != "finished, with 1 burst fired and 3 rule changes: r plays it again as rlsim run does" {
		t.Errorf("status %q", m.status)
	}
}

// advance stops at the end: the status names what rlsim run prints.
func TestPromiseAdvanceToTheEnd(t *testing.T) {
	m := newModel(t, builtins(t, "demo"), 80, 24)
	m.advance(time.Hour)
	if m.sim.Now() != m.sim.End() || !m.finished || m.status != "finished: these are the figures rlsim run demo prints" {
		t.Errorf("now %v of %v, finished %v, status %q", m.sim.Now(), m.sim.End(), m.finished, m.status)
	}
	if cmd := send(m, tickMsg{m.gen}); cmd != nil {
		t.Errorf("a tick after the end: a command")
	}
	send(m, keyMsg("b"))
	want := fmt.Sprintf("no burst: new requests stop at t=%s, the end of the scenario's traffic", formatTime(m.sim.Config().Duration))
	if m.status != want {
		t.Errorf("status %q, want %q", m.status, want)
	}
}

// withBursts adds a client per burst on the first client's key, spread over
// three columns or to the end of the traffic, whichever is sooner.
func TestPromiseWithBursts(t *testing.T) {
	m := newModel(t, builtins(t, "demo"), 80, 24)
	cfg := m.list[0].Config
	w := sim.ColumnWidth(cfg)
	dur := m.sim.Config().Duration
	m.bursts = []firedBurst{{at: 0, count: 7}, {at: dur - w, count: 9}, {at: dur - 3*w, count: 2}}
	got := m.withBursts(cfg)
	n := len(cfg.Clients)
	if len(got.Clients) != n+3 || len(m.list[0].Config.Clients) != n {
		t.Fatalf("%d clients (scenario's %d), want 3 more and the scenario's kept", len(got.Clients), len(m.list[0].Config.Clients))
	}
	id := m.sim.Config().Clients[0].IdentityOf(0)
	for i, tc := range []struct {
		at     time.Duration
		count  int
		spread time.Duration
	}{{0, 7, 3 * w}, {dur - w, 9, w}, {dur - 3*w, 2, 3 * w}} {
		c := got.Clients[n+i]
		a := c.Arrivals[0]
		if c.Name != burstClass || c.Count != 1 || c.Identity != id || len(c.Arrivals) != 1 || a.Kind != sim.ArrivalBurst ||
			a.At != tc.at || a.Count != tc.count || a.Spread != tc.spread {
			t.Errorf("burst %d: %+v, want at %v count %d spread %v on %+v", i, c, tc.at, tc.count, tc.spread, id)
		}
	}
}

// ScenariosOf keeps the list's order, names, descriptions and configs.
func TestPromiseScenariosOf(t *testing.T) {
	a, b := sim.Config{Duration: time.Second}, sim.Config{Duration: 2 * time.Second}
	got := ScenariosOf([]*scenarios.Scenario{{Name: "a", Description: "da", Config: &a}, {Name: "b", Description: "db", Config: &b}})
	if len(got) != 2 || got[0].Name != "a" || got[0].Description != "da" || got[0].Config.Duration != time.Second ||
		got[1].Name != "b" || got[1].Description != "db" || got[1].Config.Duration != 2*time.Second {
		t.Errorf("ScenariosOf = %+v", got)
	}
	if got := ScenariosOf(nil); got == nil || len(got) != 0 {
		t.Errorf("ScenariosOf(nil) = %#v", got)
	}
}

// Speed keys stop at the ends of speeds; the speed scales each tick's advance.
func TestPromiseTickAdvance(t *testing.T) {
	m := newModel(t, builtins(t, "demo"), 80, 24)
	send(m, keys("-", "-")...) // 0.2×
	send(m, tickMsg{m.gen})
	if want := frame * 2 / 10; m.sim.Now() != want {
		t.Errorf("one tick at 0.2×: now %v, want %v", m.sim.Now(), want)
	}
	send(m, tickMsg{m.gen + 1}) // another loop's tick
	if want := frame * 2 / 10; m.sim.Now() != want {
		t.Errorf("a stale tick advanced the clock to %v", m.sim.Now())
	}
}

// tea0 is a window size message.
func tea0(w, h int) tea.Msg { return tea.WindowSizeMsg{Width: w, Height: h} }
