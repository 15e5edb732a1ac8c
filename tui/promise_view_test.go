package tui

import (
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/lipgloss"

	"github.com/rlsim/rlsim/sim"
)

// formatTime: 0s, whole milliseconds under a second as ms, else seconds
// rounded to the millisecond.
func TestPromiseFormatTime(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0s"}, {time.Millisecond, "1ms"}, {250 * time.Millisecond, "250ms"}, {999 * time.Millisecond, "999ms"},
		{time.Second, "1s"}, {1500 * time.Millisecond, "1.5s"}, {20 * time.Second, "20s"}, {1500 * time.Microsecond, "0.002s"},
		{1400 * time.Microsecond, "0.001s"}, {time.Second + 499*time.Microsecond, "1s"}, {time.Second + 500*time.Microsecond, "1.001s"},
		{90 * time.Second, "90s"}, {time.Hour, "3600s"},
	} {
		if got := formatTime(tc.d); got != tc.want {
			t.Errorf("formatTime(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

// speedLabel writes tenths of real time: 0.1× to 100×.
func TestPromiseSpeedLabel(t *testing.T) {
	var got []string
	for _, s := range speeds {
		got = append(got, speedLabel(s))
	}
	if want := []string{"0.1×", "0.2×", "0.5×", "1×", "2×", "5×", "10×", "20×", "50×", "100×"}; !slices.Equal(got, want) {
		t.Errorf("speed labels %q, want %q", got, want)
	}
	if speedLabel(speeds[normalSpeed]) != "1×" {
		t.Errorf("normal speed %s, want 1×", speedLabel(speeds[normalSpeed]))
	}
	if time.Duration(speeds[normalSpeed])*frame/10 != frame {
		t.Errorf("at 1× a tick does not advance one frame")
	}
}

// truncate keeps at most n runes, the last an ellipsis when cut; pads count runes.
func TestPromiseTruncateAndPad(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 3, "abc"}, {"abcd", 3, "ab…"}, {"abc", 4, "abc"}, {"abc", 1, "…"}, {"abc", 0, ""}, {"abc", -2, ""},
		{"ééé", 3, "ééé"}, {"éééé", 3, "éé…"}, {"", 0, ""},
	} {
		if got := truncate(tc.s, tc.n); got != tc.want {
			t.Errorf("truncate(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
	if got := padLeft("é", 3); got != "  é" {
		t.Errorf("padLeft(é, 3) = %q", got)
	}
	if got := padRight("é", 3); got != "é  " {
		t.Errorf("padRight(é, 3) = %q", got)
	}
	if padLeft("abcd", 2) != "abcd" || padRight("abcd", 2) != "abcd" {
		t.Errorf("a pad narrower than its text cut it")
	}
}

// interventions: "" when nothing changed, else bursts then rule changes, in
// the singular for one.
func TestPromiseInterventions(t *testing.T) {
	for _, tc := range []struct {
		bursts, changes int
		want            string
	}{
		{0, 0, ""}, {1, 0, "1 burst fired"}, {2, 0, "2 bursts fired"}, {0, 1, "1 rule change"}, {0, 3, "3 rule changes"},
		{2, 3, "2 bursts fired and 3 rule changes"}, {1, 1, "1 burst fired and 1 rule change"},
	} {
		m := &Model{bursts: make([]firedBurst, tc.bursts), changes: make([]sim.RuleChange, tc.changes)}
		if got := m.interventions(); got != tc.want {
			t.Errorf("%d bursts, %d changes: %q, want %q", tc.bursts, tc.changes, got, tc.want)
		}
	}
}

// hasShadow: a shadow limit, or a rule change to one, at any time.
func TestPromiseHasShadow(t *testing.T) {
	if hasShadow(sim.Config{Limits: []sim.Limit{{}, {}}, Rules: []sim.RuleChange{{}}}) {
		t.Errorf("no shadow: true")
	}
	if !hasShadow(sim.Config{Limits: []sim.Limit{{}, {Shadow: true}}}) {
		t.Errorf("the second limit a shadow: false")
	}
	if !hasShadow(sim.Config{Limits: []sim.Limit{{}}, Rules: []sim.RuleChange{{}, {Shadow: true}}}) {
		t.Errorf("a later rule change to a shadow: false")
	}
}

// markOf: the answer most attempts got, ties to the more severe (refused,
// shed, dropped, delayed, admitted); admitted then shed count as shed; both
// admitted (or delayed) and refused is mixed; admitted with a shadow's
// refusal is the shadow mark; an empty slice shows the leaky queue.
func TestPromiseMarkOf(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    cell
		want mark
	}{
		{"empty", cell{}, markNone},
		{"admitted", cell{slice: slice{admitted: 1}}, markAdmit},
		{"refused", cell{slice: slice{refused: 2}}, markRefuse},
		{"tie admitted refused", cell{slice: slice{admitted: 3, refused: 3}}, markMixed},
		{"mostly admitted, one refused", cell{slice: slice{admitted: 5, refused: 1}}, markMixed},
		{"mostly refused, one admitted", cell{slice: slice{admitted: 1, refused: 5}}, markMixed},
		{"delayed and refused", cell{slice: slice{delayed: 1, refused: 1}}, markMixed},
		{"admitted then shed", cell{slice: slice{admitted: 2, shed: 2}}, markShed},
		{"admitted, some shed", cell{slice: slice{admitted: 5, shed: 2}}, markAdmit},
		{"admitted then shed, refused", cell{slice: slice{admitted: 2, shed: 2, refused: 3}}, markRefuse},
		{"tie shed refused", cell{slice: slice{shed: 2, refused: 2}}, markRefuse},
		{"shed over refused", cell{slice: slice{admitted: 3, shed: 3, refused: 2}}, markShed},
		{"tie dropped delayed", cell{slice: slice{dropped: 2, delayed: 2}}, markDrop},
		{"dropped, admitted and refused", cell{slice: slice{dropped: 3, admitted: 1, refused: 1}}, markDrop},
		{"tie delayed admitted", cell{slice: slice{delayed: 2, admitted: 2}}, markWait},
		{"tie shed dropped", cell{slice: slice{shed: 1, dropped: 1}}, markShed},
		{"admitted, a shadow's refusal", cell{slice: slice{admitted: 2, shadow: 1}}, markShadow},
		{"delayed, a shadow's refusal", cell{slice: slice{delayed: 1, shadow: 1}}, markShadow},
		{"refused, a shadow's refusal", cell{slice: slice{refused: 1, shadow: 1}}, markRefuse},
		{"mixed beats shadow", cell{slice: slice{admitted: 2, refused: 1, shadow: 1}}, markMixed},
		{"waiting", cell{waiting: 1}, markWait},
		{"released", cell{slice: slice{released: 1}}, markRelease},
		{"waiting and released", cell{slice: slice{released: 1}, waiting: 2}, markWait},
		{"admitted while waiting", cell{slice: slice{admitted: 1}, waiting: 3}, markAdmit},
	} {
		if got := markOf(&tc.c); got != tc.want {
			t.Errorf("%s: markOf(%+v) = %q, want %q", tc.name, tc.c, glyphs[got], glyphs[tc.want])
		}
	}
}

func promiseTimeline(w time.Duration, lanes int) *timeline {
	tl := newTimeline(w)
	tl.setLanes(make([]sim.LaneKind, lanes))
	return tl
}

// timeline.Record: slice k is [k·w, (k+1)·w); a record of no row or before
// 0 is dropped; a shadow's refusal counts on admits and delays; a delay
// counts at its arrival and its release, and waits between them.
func TestPromiseTimelineRecord(t *testing.T) {
	const w = time.Second
	tl := promiseTimeline(w, 2)
	rec := func(lane int, at time.Duration, ev sim.TraceEvent, delay time.Duration, shadow string) {
		if err := tl.Record(&sim.TraceRecord{LaneIndex: lane, At: at, Event: ev, Delay: delay, Shadow: shadow}); err != nil {
			t.Fatal(err)
		}
	}
	rec(0, w-1, sim.TraceAdmit, 0, "")
	rec(0, w, sim.TraceAdmit, 0, "s")
	rec(0, w, sim.TraceRefuse, 0, "s")
	rec(0, 2*w, sim.TraceShed, 0, "")
	rec(0, 2*w+1, sim.TraceDrop, 0, "")
	rec(0, 2*w, sim.TraceDelay, 2*w, "s") // released at 4w
	rec(1, 0, sim.TraceRefuse, 0, "")
	rec(2, 0, sim.TraceRefuse, 0, "")  // no such row
	rec(-1, 0, sim.TraceRefuse, 0, "") // no such row
	rec(0, -1, sim.TraceRefuse, 0, "") // before 0
	cells := make([]cell, 6)
	tl.fill(0, -1, cells)
	want := []cell{
		{},
		{slice: slice{admitted: 1}},
		{slice: slice{admitted: 1, refused: 1, shadow: 1}},
		{slice: slice{shed: 1, dropped: 1, delayed: 1, waitDiff: 1, shadow: 1}, waiting: 1},
		{waiting: 1},
		{slice: slice{released: 1, waitDiff: -1}},
	}
	for i := range want {
		if cells[i] != want[i] {
			t.Errorf("slice %d = %+v, want %+v", i-1, cells[i], want[i])
		}
	}
	tl.fill(1, 0, cells[:2])
	if cells[0] != (cell{slice: slice{refused: 1}}) || cells[1] != (cell{}) {
		t.Errorf("row 1 = %+v, want one refusal in slice 0", cells[:2])
	}
	// fill from a later slice carries the waits of the slices before it
	tl.fill(0, 4, cells[:1])
	if cells[0] != (cell{slice: slice{released: 1, waitDiff: -1}}) {
		t.Errorf("slice 4 from 4 on = %+v, want the release and nothing waiting", cells[0])
	}
	tl.fill(0, 3, cells[:1])
	if cells[0].waiting != 1 {
		t.Errorf("slice 3 from 3 on: waiting %d, want 1 (carried from slice 2)", cells[0].waiting)
	}
}

// ruleColumns marks the columns, from slice from on, holding a scheduled push.
func TestPromiseRuleColumns(t *testing.T) {
	list := builtins(t, "demo")
	const w = time.Second
	cfg := list[0].Config
	cfg.Rules = []sim.RuleChange{{At: 5 * w}, {At: 9*w + w - 1}, {At: 10 * w}, {At: 2*w - 1}}
	m := &Model{timeline: newTimeline(w)}
	s, err := sim.New(func() sim.Config { c := cfg; c.Limits = slices.Clone(cfg.Limits); return c }(), sim.Options{})
	if err != nil {
		t.Skipf("a demo with pushes does not build: %v", err)
	}
	m.sim = s
	got := m.ruleColumns(2, 8) // slices 2..9
	want := []bool{false, false, false, true, false, false, false, true}
	if !slices.Equal(got, want) {
		t.Errorf("ruleColumns(2, 8) = %v, want %v (pushes in slices 1, 5, 9, 10)", got, want)
	}
}

// drawAxis: a tick every step, the least of w×{1,2,5,10,...} at least 8w,
// labelled where the label fits; blank before slice 0; 'b' at a burst, '!'
// at a push (over the burst's 'b').
func TestPromiseDrawAxis(t *testing.T) {
	const w = time.Second
	m := &Model{timeline: newTimeline(w), styles: newStyles(monochrome())}
	axis := func(from int64, cols int, ruled []bool) (string, string) {
		var b strings.Builder
		if ruled == nil {
			ruled = make([]bool, cols)
		}
		m.drawAxis(&b, layout{nameW: 2, cols: cols, from: from, ruled: ruled})
		lines := strings.Split(b.String(), "\n")
		return lines[0], lines[1]
	}
	ticks, labels := axis(0, 23, nil)
	if want := "   ┬─────────┬─────────┬──"; ticks != want {
		t.Errorf("ticks %q, want %q", ticks, want)
	}
	if want := "   0s        10s       20s"; labels != want {
		t.Errorf("labels %q, want %q", labels, want)
	}
	_, labels = axis(0, 22, nil) // "20s" at column 20 needs 23
	if want := "   0s        10s"; labels != want {
		t.Errorf("22 columns: labels %q, want %q", labels, want)
	}
	ticks, labels = axis(-3, 5, nil)
	if want := "      ┬─"; ticks != want || labels != "      0s" {
		t.Errorf("from -3: %q / %q, want %q / \"      0s\"", ticks, labels, want)
	}
	m.bursts = []firedBurst{{at: 2*w + 1}, {at: 4 * w}}
	ruled := make([]bool, 6)
	ruled[4] = true
	ticks, _ = axis(0, 6, ruled)
	if want := "   ┬─b─!─"; ticks != want {
		t.Errorf("a burst in slices 2 and 4, a push in 4: %q, want %q", ticks, want)
	}
	m.bursts = nil
	m.timeline = newTimeline(100 * time.Millisecond) // step 1s: 10 columns
	ticks, labels = axis(0, 12, nil)
	if ticks != "   ┬─────────┬─" || labels != "   0s        1s" {
		t.Errorf("100ms slices: %q / %q", ticks, labels)
	}
	m.timeline = newTimeline(250 * time.Millisecond) // 2w, 5w, 10w: 2.5s
	ticks, labels = axis(0, 14, nil)
	if ticks != "   ┬─────────┬───" || labels != "   0s        2.5s" {
		t.Errorf("250ms slices: %q / %q", ticks, labels)
	}
}

// legendItems are the demo legend's items, as it draws them without colour.
func legendItems() []string {
	return []string{"█ " + sim.MarkAdmitted.String(), "x " + sim.MarkRefused.String(), "▒ both", "──> " + sim.MarkDelayed.String(),
		"! " + sim.MarkShed.String(), "/ " + sim.MarkDropped.String()}
}

// legend: an item when it fits with two columns after it, then OVER's long
// text from 110 columns when it fits, else its short one when that fits.
func TestPromiseLegendFits(t *testing.T) {
	m := newModel(t, builtins(t, "demo"), 80, 24)
	items := legendItems()
	if got := m.legend(200); got != strings.Join(items, "  ")+"  OVER over the limit in some window" {
		t.Fatalf("legend(200) = %q", got)
	}
	need := 0 // the width at which item k is shown
	for k, it := range items {
		need += utf8.RuneCountInString(it) + 2
		if it == items[3] { // "──>" counts 3
			need = need - utf8.RuneCountInString(it) + 3 + 1 + len(sim.MarkDelayed.String())
		}
		if got := m.legend(need); !strings.Contains(got, it) {
			t.Errorf("legend(%d) = %q, want item %d shown", need, got, k)
		}
		if got := m.legend(need - 1); strings.Contains(got, it) {
			t.Errorf("legend(%d) = %q, want item %d left out", need-1, got, k)
		}
	}
	used := need
	if got := m.legend(used + len("OVER >limit")); !strings.HasSuffix(got, "  OVER >limit") {
		t.Errorf("legend(%d) = %q, want the short OVER", used+11, got)
	}
	if got := m.legend(used + len("OVER >limit") - 1); strings.Contains(got, "OVER") {
		t.Errorf("legend(%d) = %q, want no OVER", used+10, got)
	}
	if got := m.legend(109); !strings.HasSuffix(got, "  OVER >limit") {
		t.Errorf("legend(109) = %q, want the short OVER below 110 columns", got)
	}
	if got := m.legend(110); !strings.HasSuffix(got, "  OVER over the limit in some window") {
		t.Errorf("legend(110) = %q, want the long OVER", got)
	}
	if got := m.legend(11); got != "OVER >limit" {
		t.Errorf("legend(11) = %q, want only OVER >limit", got)
	}
	for w := 0; w <= 130; w++ {
		if got := lipgloss.Width(m.legend(w)); got > w {
			t.Errorf("legend(%d) is %d wide", w, got)
		}
	}
}

// The legend adds the shadow's mark and the rule push's when the scenario
// has them, each only where it fits.
func TestPromiseLegendShadowAndRules(t *testing.T) {
	list := builtins(t, "demo")
	cfg := &list[0].Config
	cfg.Limits = slices.Clone(cfg.Limits)
	cfg.Limits[0].Shadow = true
	cfg.Rules = []sim.RuleChange{{At: time.Second, Policy: cfg.Limits[0].Policy, Shadow: true}}
	m, err := New(list, Options{Renderer: monochrome()})
	if err != nil {
		t.Skipf("a demo with a shadow and a push: %v", err)
	}
	full := m.legend(300)
	if !strings.Contains(full, "  ○ would refuse (shadow)  ") || !strings.HasSuffix(full, "OVER over the limit in some window  ┊ rule push") {
		t.Errorf("legend(300) = %q", full)
	}
	for w := 0; w <= 200; w++ {
		if got := lipgloss.Width(m.legend(w)); got > w {
			t.Errorf("legend(%d) is %d wide: %q", w, got, m.legend(w))
		}
	}
	base := strings.Join(legendItems(), "  ")
	w := utf8.RuneCountInString(base) + 2 + utf8.RuneCountInString("○ would refuse (shadow)") + 2
	if got := m.legend(w); !strings.HasSuffix(got, "○ would refuse (shadow)") {
		t.Errorf("legend(%d) = %q, want the shadow's item last", w, got)
	}
	if got := m.legend(w - 1); strings.Contains(got, "shadow") {
		t.Errorf("legend(%d) = %q, want no shadow item", w-1, got)
	}
}
