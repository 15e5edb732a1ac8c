package tui

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// mark is what one cell of a lane shows: the answer most attempts that arrived
// in its time slice got (or "some admitted, some refused" when the slice had
// both), or, where none arrived, the state of the leaky queue.
type mark uint8

const (
	markNone    mark = iota
	markAdmit        // admitted at once
	markWait         // delayed: waiting in the leaky queue
	markRelease      // the leaky queue released its last waiting request
	markRefuse       // 429
	markShed         // 503
	markDrop         // dropped client-side by the adaptive throttle
	markMixed        // some admitted, some refused
	markShadow       // admitted, some of them a shadow limit would have refused
	marks
)

// verdicts are the marks that draw one of sim's marks, whose glyph, colour and
// name they take from sim's table of marks.
var verdicts = [...]struct {
	m mark
	v sim.Mark
}{{markAdmit, sim.MarkAdmitted}, {markWait, sim.MarkDelayed}, {markRefuse, sim.MarkRefused},
	{markShed, sim.MarkShed}, {markDrop, sim.MarkDropped}}

// glyphs carry the meaning without colour (NO_COLOR).
var glyphs = func() [marks]string {
	g := [marks]string{markNone: " ", markRelease: ">", markMixed: "▒", markShadow: "○"}
	for _, v := range verdicts {
		g[v.m] = v.v.Info().Glyph
	}
	return g
}()

// ruleGlyph is what an empty cell shows in the column of a rule push, so that
// the push reads as a line down every lane; a cell with attempts keeps its
// glyph (on a grey ground, in colour).
const ruleGlyph = "┊"

// markOf is what c shows. Attempts admitted and then shed by a full backend in
// the same slice count as shed; ties go to the more severe answer.
func markOf(c *cell) mark {
	best, n := markNone, uint32(0)
	for _, o := range [...]struct {
		m mark
		n uint32
	}{{markRefuse, c.refused}, {markShed, c.shed}, {markDrop, c.dropped},
		{markWait, c.delayed}, {markAdmit, c.admitted - min(c.admitted, c.shed)}} {
		if o.n > n {
			best, n = o.m, o.n
		}
	}
	admitted := c.admitted - min(c.admitted, c.shed) + c.delayed
	switch {
	case (best == markAdmit || best == markWait || best == markRefuse) && admitted > 0 && c.refused > 0:
		return markMixed
	case (best == markAdmit || best == markWait) && c.shadow > 0:
		return markShadow
	case best != markNone:
		return best
	case c.waiting > 0:
		return markWait
	case c.released > 0:
		return markRelease
	}
	return markNone
}

// escapes are the codes a style puts around its text, so runs of cells are styled by
// concatenation instead of a lipgloss render per cell.
type escapes struct{ pre, post string }

func split(s lipgloss.Style) escapes {
	out := s.Render("\x00")
	i := strings.IndexByte(out, 0)
	if i < 0 {
		return escapes{}
	}
	return escapes{out[:i], out[i+1:]}
}

func (a escapes) wrap(s string) string {
	if a.pre == "" {
		return s
	}
	return a.pre + s + a.post
}

type styles struct {
	mark                        [marks]escapes
	ruled                       [marks]escapes // mark, in the column of a rule push
	title, faint, over, overRow escapes
	state                       escapes
}

func newStyles(r *lipgloss.Renderer) styles {
	color := func(c string) lipgloss.Style { return r.NewStyle().Foreground(lipgloss.Color(c)) }
	marked := [marks]lipgloss.Style{
		markNone:    r.NewStyle(),
		markRelease: color(sim.MarkDelayed.Info().ANSI).Bold(true),
		markMixed:   color("9"),
		markShadow:  color(sim.MarkRefused.Info().ANSI), // the refusal's colour, not bold: a refusal not made
	}
	for _, v := range verdicts {
		info := v.v.Info()
		marked[v.m] = color(info.ANSI).Bold(info.Bold)
	}
	var s styles
	for k := markAdmit; k < marks; k++ {
		s.mark[k] = split(marked[k])
		s.ruled[k] = split(marked[k].Background(lipgloss.Color("8")))
	}
	s.ruled[markNone] = split(r.NewStyle().Faint(true))
	s.title = split(r.NewStyle().Bold(true))
	s.faint = split(r.NewStyle().Faint(true))
	s.over = split(r.NewStyle().Bold(true).Foreground(lipgloss.Color("15")).Background(lipgloss.Color("1")))
	s.overRow = split(color("1").Bold(true))
	s.state = split(r.NewStyle().Bold(true).Reverse(true))
	return s
}

// minWidth is the narrowest terminal the view draws in.
const minWidth = 50

// View draws the lanes, the time axis, the live figures and the help line, to
// fit the terminal's width and height.
func (m *Model) View() string {
	if need := len(m.snaps) + 5; m.width < minWidth || m.height < need {
		return truncate(fmt.Sprintf("terminal too small: the lanes need %d×%d", minWidth, need), m.width) + "\n"
	}
	var b strings.Builder
	lay := m.layout()
	line := func(s string) {
		b.WriteString(s)
		b.WriteByte('\n')
	}
	sc := m.list[m.current]
	if lay.title {
		head := fmt.Sprintf("rlsim · %s (%d of %d)", scenarios.Escape(sc.Name), m.current+1, len(m.list))
		rest := truncate(scenarios.Escape(sc.Description), m.width-utf8.RuneCountInString(head)-2)
		line(m.styles.title.wrap(head) + "  " + m.styles.faint.wrap(rest))
	}
	info, state := m.infoLine()
	info = truncate(info, m.width)
	line(strings.Replace(info, state, m.styles.state.wrap(state), 1))
	if lay.spaced {
		line("")
	}
	m.drawLanes(&b, lay)
	m.drawAxis(&b, lay)
	for _, l := range lay.limiting {
		line(truncate(scenarios.Escape(l), m.width))
	}
	if lay.legend {
		if lay.spaced {
			line("")
		}
		line(m.legend(m.width))
	}
	if lay.phases >= 0 {
		line(truncate(m.phasesLine(lay.phases, m.width), m.width))
	}
	if lay.status && m.status != "" {
		line(m.styles.faint.wrap(truncate(scenarios.Escape(m.status), m.width)))
	}
	// help.Model lets an item overflow when its ellipsis does not fit either.
	help := strings.Split(m.help.View(m.keys), "\n")
	for i := range help {
		help[i] = ansi.Truncate(help[i], m.width, "…")
	}
	b.WriteString(strings.Join(help, "\n"))
	return b.String()
}

// layout is how the view's columns and optional lines fit the terminal.
type layout struct {
	nameW    int       // lane name column
	cols     int       // time slices shown
	stats    []statCol // live figures, right of the lanes
	from     int64     // slice shown in the first column
	title    bool      // scenario name and description line
	legend   bool      // glyph legend line
	status   bool      // status message line
	spaced   bool      // blank lines between the parts
	limiting []string  // limitingLines, as room allows
	phases   int       // the lane whose fleet's phases are shown, -1 for none
	short    bool      // short lane names
	cells    []cell    // scratch for one row
	ruled    []bool    // columns holding a rule push
	snap     []sim.LaneSnapshot
}

// statCol is one live figure column.
type statCol struct {
	head  string
	width int
	value func(*sim.LaneSnapshot) string
}

func (m *Model) layout() layout {
	lay := layout{snap: m.snaps}
	lay.short = m.width < 110
	for _, s := range m.snaps {
		lay.nameW = max(lay.nameW, utf8.RuneCountInString(laneTitle(&s, lay.short)))
	}
	wide := m.width >= 110
	head := func(w, n string) string {
		if wide {
			return w
		}
		return n
	}
	count := func(f func(*sim.LaneSnapshot) int64) func(*sim.LaneSnapshot) string {
		return func(s *sim.LaneSnapshot) string { return strconv.FormatInt(f(s), 10) }
	}
	lay.stats = []statCol{
		{head: head("admitted", "adm"), value: count(func(s *sim.LaneSnapshot) int64 { return s.Admitted })},
		{head: head("refused", "ref"), value: count(func(s *sim.LaneSnapshot) int64 { return s.Refused })},
		{head: head("delayed", "del"), value: count(func(s *sim.LaneSnapshot) int64 { return s.Delayed })},
	}
	if wide {
		lay.stats = append(lay.stats,
			statCol{head: "shed", value: count(func(s *sim.LaneSnapshot) int64 { return s.Shed })},
			statCol{head: "dropped", value: count(func(s *sim.LaneSnapshot) int64 { return s.Dropped })})
	}
	lay.stats = append(lay.stats, statCol{head: head("max in window", "max/win"), value: func(s *sim.LaneSnapshot) string {
		if s.NotLimiting() {
			return fmt.Sprintf("%d -", s.Peak.Count) // limited nothing: not judged against the rate
		}
		ratio := sim.RatioText(s.Peak.Count, s.Peak.Limit, false)
		if !strings.Contains(ratio, ".") {
			ratio += ".0" // 1.0×, aligned with 1.9×
		}
		return fmt.Sprintf("%d %s×", s.Peak.Count, ratio)
	}})
	statsW := 0
	for i := range lay.stats {
		c := &lay.stats[i]
		c.width = utf8.RuneCountInString(c.head)
		for j := range m.snaps {
			c.width = max(c.width, utf8.RuneCountInString(c.value(&m.snaps[j])))
		}
		statsW += c.width + 1
	}
	statsW += len(" OVER")
	lay.cols = max(m.width-lay.nameW-1-utf8.RuneCountInString(separator)-statsW, 10)
	lay.from = int64(m.sim.Now()/m.timeline.width) - int64(lay.cols) + 1
	lay.cells = make([]cell, lay.cols)
	lay.ruled = m.ruleColumns(lay.from, lay.cols)

	// Lines: info, header, lanes, axis (2) and the help always; then the
	// title, the status, the legend and blank lines as room allows.
	helpLines := 1
	if m.help.ShowAll {
		helpLines = strings.Count(m.help.View(m.keys), "\n") + 1
	}
	spare := m.height - (1 + 1 + len(m.snaps) + 2 + helpLines)
	if lim := m.limitingLines(lay); spare >= len(lim)+1 {
		lay.limiting = lim
		spare -= len(lim)
	}
	lay.title = spare >= 1
	lay.status = spare >= 2
	lay.legend = spare >= 3
	lay.phases = -1
	if i := m.phaseLane(); i >= 0 && spare >= 4 {
		lay.phases, spare = i, spare-1 // a fleet's phases: one line, before the blank ones
	}
	lay.spaced = spare >= 5
	return lay
}

func laneTitle(s *sim.LaneSnapshot, short bool) string {
	if short {
		return sim.LaneShort(s.Lane, s.Name)
	}
	return s.Title()
}

// infoLine is the limit the rule keys change, as in force now, the clock, the
// speed and the state; state is the part to highlight.
func (m *Model) infoLine() (line, state string) {
	cfg := m.sim.Config()
	lim := m.sim.Rule(m.limit)
	state = "▶ running"
	switch {
	case m.finished:
		state = "■ finished"
	case m.paused:
		state = "‖ paused"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s · %s · speed %s · limit ", state, clockInfo(m.sim.Now(), cfg.Duration, m.sim.End(), m.finished),
		speedLabel(speeds[m.speed]))
	if n := len(cfg.Limits); n > 1 {
		fmt.Fprintf(&b, "%d of %d ", m.limit+1, n)
	}
	if lim.Concurrency > 0 {
		fmt.Fprintf(&b, "%s %d at once by %s", scenarios.Escape(lim.Name), lim.Concurrency, lim.Key)
	} else {
		fmt.Fprintf(&b, "%s %d per %s", scenarios.Escape(lim.Name), lim.Policy.Limit, formatTime(lim.Policy.Window))
	}
	if lim.Policy.Burst > 0 && lim.Policy.Burst != lim.Policy.Limit {
		fmt.Fprintf(&b, ", bursts of %d", lim.Policy.Burst)
	}
	if lim.Shadow {
		b.WriteString(" (shadow)")
	}
	if n := len(m.changes); n > 0 {
		fmt.Fprintf(&b, " · rules changed %d", n)
	}
	if n := len(m.bursts); n > 0 {
		fmt.Fprintf(&b, " · bursts fired %d", n)
	}
	b.WriteString(fleetInfo(cfg.Topology, m.sim.Now()))
	return b.String(), state
}

func speedLabel(tenths int64) string {
	if tenths%10 == 0 {
		return strconv.FormatInt(tenths/10, 10) + "×"
	}
	return "0." + strconv.FormatInt(tenths, 10) + "×"
}

// separator is what stands between a lane's timeline and its figures.
const separator = " │"

// drawLanes writes the stats header and one row per lane.
func (m *Model) drawLanes(b *strings.Builder, lay layout) {
	b.WriteString(strings.Repeat(" ", lay.nameW+1+lay.cols+utf8.RuneCountInString(separator)))
	for _, c := range lay.stats {
		b.WriteByte(' ')
		b.WriteString(m.styles.faint.wrap(padLeft(c.head, c.width)))
	}
	b.WriteByte('\n')
	for i := range lay.snap {
		s := &lay.snap[i]
		name := padRight(laneTitle(s, lay.short), lay.nameW)
		if s.OverLimit {
			name = m.styles.overRow.wrap(name)
		}
		b.WriteString(name)
		b.WriteByte(' ')
		m.timeline.fill(i, lay.from, lay.cells)
		m.drawCells(b, lay.cells, lay.ruled)
		b.WriteString(separator)
		for _, c := range lay.stats {
			b.WriteByte(' ')
			b.WriteString(padLeft(c.value(s), c.width))
		}
		if s.OverLimit {
			b.WriteString(" " + m.styles.over.wrap("OVER"))
		}
		b.WriteByte('\n')
	}
}

// drawCells writes one lane's cells, styling each run of alike cells at once.
func (m *Model) drawCells(b *strings.Builder, cells []cell, ruled []bool) {
	type look struct {
		mark  mark
		ruled bool // in the column of a rule push
	}
	run, n := look{}, 0
	flush := func() {
		if n == 0 {
			return
		}
		glyph, style := glyphs[run.mark], m.styles.mark[run.mark]
		if run.ruled {
			style = m.styles.ruled[run.mark]
			if run.mark == markNone {
				glyph = ruleGlyph
			}
		}
		b.WriteString(style.wrap(strings.Repeat(glyph, n)))
	}
	for j := range cells {
		l := look{markOf(&cells[j]), ruled[j]}
		if l != run {
			flush()
			run, n = l, 0
		}
		n++
	}
	flush()
}

// ruleColumns marks, of cols columns from slice from on, those holding a rule
// push: the scenario's scheduled ones and those of the rule keys.
func (m *Model) ruleColumns(from int64, cols int) []bool {
	ruled := make([]bool, cols)
	w := m.timeline.width
	for _, ch := range m.sim.Config().Rules {
		if j := int64(ch.At/w) - from; j >= 0 && j < int64(cols) {
			ruled[j] = true
		}
	}
	return ruled
}

// drawAxis writes the time axis under the lanes: a tick at every round time,
// labelled, a 'b' where a burst was fired, a '!' at every rule push, '░'
// while the store was down and an 'r' where the autoscaler changed the fleet.
func (m *Model) drawAxis(b *strings.Builder, lay layout) {
	w := m.timeline.width
	step := w
	for _, f := range []time.Duration{2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000} {
		if step >= 8*w {
			break
		}
		step = w * f
	}
	ticks := make([]rune, lay.cols)
	labels := make([]rune, lay.cols+8)
	for j := range labels {
		labels[j] = ' '
	}
	next := 0 // first free label column
	for j := range ticks {
		k := lay.from + int64(j)
		switch {
		case k < 0:
			ticks[j] = ' '
		case time.Duration(k)*w%step == 0:
			ticks[j] = '┬'
			label := []rune(formatTime(time.Duration(k) * w))
			if j >= next && j+len(label) <= len(ticks) {
				copy(labels[j:], label)
				next = j + len(label) + 1
			}
		default:
			ticks[j] = '─'
		}
		if m.sim != nil {
			ticks[j] = topologyTick(m.sim.Config().Topology, k, w, ticks[j])
		}
	}
	for _, bu := range m.bursts {
		if j := int64(bu.at/w) - lay.from; j >= 0 && j < int64(len(ticks)) {
			ticks[j] = 'b'
		}
	}
	for j, ruled := range lay.ruled {
		if ruled {
			ticks[j] = '!'
		}
	}
	pad := strings.Repeat(" ", lay.nameW+1)
	b.WriteString(pad + m.styles.faint.wrap(string(ticks)) + "\n")
	b.WriteString(strings.TrimRight(pad+string(labels), " ") + "\n")
}

func (m *Model) legend(width int) string {
	items := []struct {
		m    mark
		text string
	}{{markAdmit, sim.MarkAdmitted.String()}, {markRefuse, sim.MarkRefused.String()}, {markMixed, "both"}, {markWait, ""},
		{markShed, sim.MarkShed.String()}, {markDrop, sim.MarkDropped.String()}}
	var parts []string
	used := 0
	for _, it := range items {
		var s string
		plain := 0
		if it.m == markWait {
			s = m.styles.mark[markWait].wrap(strings.Repeat(glyphs[markWait], 2)) + m.styles.mark[markRelease].wrap(glyphs[markRelease]) + " " + sim.MarkDelayed.String()
			plain = 3 + 1 + len(sim.MarkDelayed.String())
		} else {
			s = m.styles.mark[it.m].wrap(glyphs[it.m]) + " " + it.text
			plain = 2 + len(it.text)
		}
		if used+plain+2 > width {
			break
		}
		parts = append(parts, s)
		used += plain + 2
	}
	if hasShadow(m.sim.Config()) {
		if it := glyphs[markShadow] + " would refuse (shadow)"; used+utf8.RuneCountInString(it)+2 <= width {
			parts = append(parts, m.styles.mark[markShadow].wrap(glyphs[markShadow])+" would refuse (shadow)")
			used += utf8.RuneCountInString(it) + 2
		}
	}
	if t := m.sim.Config().Topology; t != nil {
		for _, it := range topologyLegend(t) {
			if used+len(it)+2 > width {
				break
			}
			parts = append(parts, it)
			used += utf8.RuneCountInString(it) + 2
		}
	}
	const overText = " over the limit in some window"
	if width >= 110 && used+len("OVER"+overText) <= width {
		parts = append(parts, m.styles.over.wrap("OVER")+overText)
	} else if used+len("OVER >limit") <= width {
		parts = append(parts, m.styles.over.wrap("OVER")+" >limit")
	}
	line := strings.Join(parts, "  ")
	if len(m.sim.Config().Rules) > 0 {
		const rule = " rule push"
		if lipgloss.Width(line)+2+utf8.RuneCountInString(ruleGlyph+rule) <= width {
			line += "  " + m.styles.ruled[markNone].wrap(ruleGlyph) + rule
		}
	}
	return line
}

// formatTime writes a virtual time briefly: 0s, 250ms, 1.5s, 20s.
func formatTime(d time.Duration) string {
	switch {
	case d == 0:
		return "0s"
	case d < time.Second && d%time.Millisecond == 0:
		return strconv.FormatInt(d.Milliseconds(), 10) + "ms"
	}
	return strconv.FormatFloat(d.Round(time.Millisecond).Seconds(), 'f', -1, 64) + "s"
}

func truncate(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

func padLeft(s string, n int) string {
	return strings.Repeat(" ", max(n-utf8.RuneCountInString(s), 0)) + s
}

func padRight(s string, n int) string {
	return s + strings.Repeat(" ", max(n-utf8.RuneCountInString(s), 0))
}
