// Package tui is rlsim's live lane view in the terminal, a Bubble Tea program.
//
// A Model plays one scenario at a time through the same engine as "rlsim run": a
// sim.Simulation advanced with RunUntil in paced virtual time, one frame per tick,
// with a trace sink that bins every attempt into time slices. Each lane is a row
// whose right edge is the present; its live figures come from Snapshot. Keys
// pause, change the speed, step, fire a burst, raise or lower a limit or its
// burst from the present on (a rule push, as a scenario schedules them), switch
// or restart the scenario.
package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/rlsim/rlsim/sim"
)

// Scenario is one world the view can play.
type Scenario struct {
	Name        string
	Description string
	Config      sim.Config
}

// Options adjust a Model. The zero value is ready to use.
type Options struct {
	// Renderer styles the view; nil means lipgloss's default renderer, which
	// follows the terminal's colours and NO_COLOR.
	Renderer *lipgloss.Renderer
	// Context, when cancelled, stops the setup of a scenario's simulation, which
	// takes seconds for millions of clients; nil means context.Background().
	Context context.Context
	// MaxEvents, when positive, is each playing's event budget, as in rlsim
	// run: the view stops, saying so, when a scenario reaches it.
	MaxEvents int64
}

// frame is the wall time between two ticks; each tick advances the virtual clock
// by frame times the speed.
const frame = time.Second / 30

// speeds are the playback speeds in tenths of real time, 0.1× to 100×.
var speeds = []int64{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000}

const normalSpeed = 3 // 1×

// Model is the live lane view. Create it with New; it implements tea.Model
// through its pointer and is not safe for concurrent use.
type Model struct {
	list    []Scenario
	current int

	sim       *sim.Simulation
	timeline  *timeline
	snaps     []sim.LaneSnapshot
	bursts    []firedBurst     // the bursts fired since the start, in time order
	changes   []sim.RuleChange // the rule changes pushed by keys since the start, in time order
	limit     int              // the limit of the chain the rule keys change
	finished  bool
	maxEvents int64 // the event budget of each playing; 0 means none

	speed  int // index into speeds
	paused bool
	gen    int // generation of the running tick loop; ticks of another are stale
	status string

	width, height int
	ctx           context.Context // stops a simulation's setup
	keys          keyMap
	help          help.Model
	styles        styles
}

// tickMsg asks the model to advance one frame; gen names the tick loop it belongs to.
type tickMsg struct{ gen int }

// New prepares a Model playing list[0]; tab and n/p move through the list. It
// fails when the list is empty or its first scenario is not valid.
func New(list []Scenario, opt Options) (*Model, error) {
	if len(list) == 0 {
		return nil, errors.New("no scenario to play")
	}
	r := opt.Renderer
	if r == nil {
		r = lipgloss.DefaultRenderer()
	}
	m := &Model{list: list, speed: normalSpeed, keys: newKeyMap(), styles: newStyles(r), width: 80, height: 24, ctx: opt.Context, maxEvents: opt.MaxEvents}
	if m.ctx == nil {
		m.ctx = context.Background()
	}
	m.help = newHelp(r)
	if err := m.start(0); err != nil {
		return nil, fmt.Errorf("%s: %w", list[0].Name, err)
	}
	return m, nil
}

// Init starts the clock.
func (m *Model) Init() tea.Cmd { return m.tick() }

func (m *Model) tick() tea.Cmd {
	gen := m.gen
	return tea.Tick(frame, func(time.Time) tea.Msg { return tickMsg{gen} })
}

// restartClock ends the running tick loop and, unless paused or finished,
// starts a new one.
func (m *Model) restartClock() tea.Cmd {
	m.gen++
	if m.paused || m.finished {
		return nil
	}
	return m.tick()
}

// Update applies a message: a tick advances the simulation one frame, a key
// runs its control, a resize re-lays the view.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.help.Width = msg.Width
	case tickMsg:
		if msg.gen != m.gen || m.paused || m.finished {
			return m, nil
		}
		m.advance(frame * time.Duration(speeds[m.speed]) / 10)
		if m.finished {
			return m, nil
		}
		return m, m.tick()
	case tea.KeyMsg:
		return m, m.press(msg)
	}
	return m, nil
}

func (m *Model) press(msg tea.KeyMsg) tea.Cmd {
	k := &m.keys
	switch {
	case key.Matches(msg, k.Quit):
		return tea.Quit
	case key.Matches(msg, k.Pause):
		if m.finished {
			return nil
		}
		m.paused, m.status = !m.paused, ""
		return m.restartClock()
	case key.Matches(msg, k.Faster):
		m.speed = min(m.speed+1, len(speeds)-1)
	case key.Matches(msg, k.Slower):
		m.speed = max(m.speed-1, 0)
	case key.Matches(msg, k.Step):
		if !m.paused {
			m.status = "step works while paused: press space first"
			return nil
		}
		// One slice, to the next slice boundary, so each step adds one column.
		w := m.timeline.width
		m.status = ""
		m.advance((m.sim.Now()/w+1)*w - m.sim.Now())
	case key.Matches(msg, k.Burst):
		return m.fireBurst()
	case key.Matches(msg, k.LimitUp):
		m.changeRule(knobLimit, true)
	case key.Matches(msg, k.LimitDown):
		m.changeRule(knobLimit, false)
	case key.Matches(msg, k.BurstUp):
		m.changeRule(knobBurst, true)
	case key.Matches(msg, k.BurstDown):
		m.changeRule(knobBurst, false)
	case key.Matches(msg, k.Choose):
		m.chooseLimit()
	case key.Matches(msg, k.Next):
		return m.switchTo(m.current + 1)
	case key.Matches(msg, k.Prev):
		return m.switchTo(m.current - 1)
	case key.Matches(msg, k.Restart):
		m.bursts, m.changes, m.paused = nil, nil, false
		if err := m.start(0); err != nil {
			m.status = err.Error()
			return nil
		}
		m.status = "restarted"
		return m.restartClock()
	case key.Matches(msg, k.Help):
		m.help.ShowAll = !m.help.ShowAll
	}
	return nil
}

// advance runs the simulation d further in virtual time, to its end at most.
func (m *Model) advance(d time.Duration) {
	if m.finished {
		return
	}
	to := min(m.sim.Now()+d, m.sim.End())
	if err := m.sim.RunUntil(to); err != nil {
		m.status = err.Error()
		var be *sim.BudgetError
		if errors.As(err, &be) {
			m.finished = true
			m.status = fmt.Sprintf("%v; lift the budget with --max-events", err)
			m.snaps = m.sim.Snapshot()
			return
		}
	}
	m.snaps = m.sim.Snapshot()
	if m.sim.Done() || m.sim.Now() >= m.sim.End() {
		m.finished = true
		m.status = "finished: these are the figures rlsim run " + m.list[m.current].Name + " prints"
		if played := m.interventions(); played != "" {
			m.status = fmt.Sprintf("finished, with %s: r plays it again as rlsim run does", played)
		}
	}
}

func (m *Model) switchTo(i int) tea.Cmd {
	n := len(m.list)
	i = (i%n + n) % n
	prev := m.current
	m.current, m.bursts, m.changes, m.limit, m.paused = i, nil, nil, 0, false
	if err := m.start(0); err != nil {
		m.current = prev
		m.status = fmt.Sprintf("%s: %v", m.list[i].Name, err)
		_ = m.start(0)
	} else {
		m.status = ""
	}
	return m.restartClock()
}

// start builds the current scenario's simulation, with the bursts fired and
// the rule changes pushed so far, and runs it to virtual time until: the replay
// is exact, as runs are deterministic.
func (m *Model) start(until time.Duration) error {
	sc := m.list[m.current]
	cfg := sc.Config
	if len(m.bursts) > 0 {
		cfg = m.withBursts(cfg)
	}
	tl := newTimeline(sim.ColumnWidth(cfg))
	s, err := sim.NewContext(m.ctx, cfg, sim.Options{Trace: tl, MaxEvents: m.maxEvents})
	if err != nil {
		return err
	}
	tl.setLanes(s.Config().Lanes)
	if err := replayChanges(s, m.changes); err != nil {
		return err
	}
	if until > s.Now() {
		if err := s.RunUntil(until); err != nil {
			return err
		}
	}
	m.sim, m.timeline, m.snaps = s, tl, s.Snapshot()
	m.finished = false
	m.keys.Choose.SetEnabled(len(s.Config().Limits) > 1)
	return nil
}

// burstClass names the client group a burst adds.
const burstClass = "burst (b)"

// fireBurst adds, at the present, a new client sending a burst the size of the
// first limit now, counted against the same keys as the scenario's first client, so
// each lane's reaction to a sudden burst on a busy key shows. The simulation
// cannot take new clients while it runs, so it is rebuilt with the burst and
// replayed to the present.
func (m *Model) fireBurst() tea.Cmd {
	now := m.sim.Now()
	if now >= m.sim.Config().Duration {
		m.status = fmt.Sprintf("no burst: new requests stop at t=%s, the end of the scenario's traffic", formatTime(m.sim.Config().Duration))
		return nil
	}
	b := firedBurst{at: now, count: m.sim.Rule(0).Policy.Limit}
	m.bursts = append(m.bursts, b)
	if err := m.start(now); err != nil {
		m.bursts = m.bursts[:len(m.bursts)-1]
		m.status = "no burst: " + err.Error()
		_ = m.start(now)
		return nil
	}
	m.status = fmt.Sprintf("burst of %d fired at t=%s", b.count, formatTime(now))
	return m.restartClock() // the run may have finished before the burst
}

// withBursts is cfg with one client group per burst fired.
func (m *Model) withBursts(cfg sim.Config) sim.Config {
	cur := m.sim.Config() // defaults applied: the first group's name and identity
	id := cur.Clients[0].IdentityOf(0)
	spread := 3 * sim.ColumnWidth(cfg) // a few columns wide, so the reaction is visible
	cfg.Clients = append([]sim.ClientGroup(nil), cfg.Clients...)
	for _, b := range m.bursts {
		cfg.Clients = append(cfg.Clients, sim.ClientGroup{
			Name: burstClass, Count: 1, Identity: id,
			Arrivals: []sim.Arrival{{Kind: sim.ArrivalBurst, At: b.at, Count: int(b.count),
				Spread: min(spread, cur.Duration-b.at)}},
		})
	}
	return cfg
}

// firedBurst is a burst fired by the b key: count requests from virtual time at.
type firedBurst struct {
	at    time.Duration
	count int64
}

// interventions says what the keys changed in the run, or "" if nothing:
// "2 bursts fired and 3 rule changes".
func (m *Model) interventions() string {
	var parts []string
	if n := len(m.bursts); n > 0 {
		parts = append(parts, plural(n, "burst", "bursts")+" fired")
	}
	if n := len(m.changes); n > 0 {
		parts = append(parts, plural(n, "rule change", "rule changes"))
	}
	return strings.Join(parts, " and ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
