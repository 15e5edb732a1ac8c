package tui

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
)

// ShortHelp's bindings are display-only copies: their help changes, the real
// bindings' does not, and they match the same keys.
func TestPromiseShortHelpCopies(t *testing.T) {
	k := newKeyMap()
	var got []string
	for _, b := range k.ShortHelp() {
		got = append(got, b.Help().Key+" "+b.Help().Desc)
	}
	want := []string{"space pause", "+/- speed", "→ step", "b burst", "tab next", "r restart", "q quit", "? more"}
	if !slices.Equal(got, want) {
		t.Errorf("ShortHelp = %q, want %q", got, want)
	}
	if k.Pause.Help().Desc != "pause or resume" || k.Faster.Help().Key != "+" || k.Help.Help().Desc != "all keys" {
		t.Errorf("the real bindings' help changed: %q %q %q", k.Pause.Help().Desc, k.Faster.Help().Key, k.Help.Help().Desc)
	}
	real := []key.Binding{k.Pause, k.Faster, k.Step, k.Burst, k.Next, k.Restart, k.Quit, k.Help}
	for i, b := range k.ShortHelp() {
		if !slices.Equal(b.Keys(), real[i].Keys()) {
			t.Errorf("ShortHelp[%d] %q has keys %q, want %q", i, got[i], b.Keys(), real[i].Keys())
		}
	}
	if !key.Matches(keyMsg("space"), k.ShortHelp()[0]) || !key.Matches(keyMsg("tab"), k.ShortHelp()[4]) {
		t.Errorf("the pause copy does not match space, or next's tab")
	}
}

// FullHelp is every key, once, in three columns of five.
func TestPromiseFullHelpEveryKey(t *testing.T) {
	k := newKeyMap()
	cols := k.FullHelp()
	seen := map[string]bool{}
	for _, col := range cols {
		if len(col) != 5 {
			t.Errorf("a column of %d keys, want 5", len(col))
		}
		for _, b := range col {
			h := b.Help().Key
			if seen[h] {
				t.Errorf("%s twice", h)
			}
			seen[h] = true
		}
	}
	if len(cols) != 3 || len(seen) != 15 {
		t.Errorf("%d columns, %d keys; want 3 and all 15", len(cols), len(seen))
	}
}

// The controls' edges: no pause or rule change once finished; r restarts
// from nothing; c names the limit the rule keys now change; b fires the
// first limit's size whichever limit the keys are on.
func TestPromiseControlEdges(t *testing.T) {
	m := pausedAt(t, twoLimits(t), 5)
	send(m, keyMsg("c"))
	if m.status != "the rule keys now change limit 2 of 2, per-user" {
		t.Errorf("c: status %q", m.status)
	}
	send(m, keyMsg("b"))
	if len(m.bursts) != 1 || m.bursts[0].count != m.sim.Rule(0).Policy.Limit || m.bursts[0].count == m.sim.Rule(1).Policy.Limit {
		t.Errorf("b on limit 2: bursts %+v, want the first limit's %d", m.bursts, m.sim.Rule(0).Policy.Limit)
	}
	send(m, keyMsg("]"))
	if len(m.changes) != 1 || m.changes[0].Limit != 1 {
		t.Fatalf("] on limit 2: changes %+v", m.changes)
	}
	send(m, keyMsg("c"))
	if m.status != "the rule keys now change limit 1 of 2, global" || m.limit != 0 {
		t.Errorf("c again: status %q, limit %d", m.status, m.limit)
	}
	send(m, keyMsg("r"))
	if m.status != "restarted" || len(m.bursts) != 0 || len(m.changes) != 0 || m.paused || m.sim.Now() != 0 {
		t.Errorf("r: status %q, %d bursts, %d changes, paused %v, now %v", m.status, len(m.bursts), len(m.changes), m.paused, m.sim.Now())
	}
	m.advance(1 << 62)
	if !m.finished {
		t.Fatal("not finished")
	}
	gen := m.gen
	if cmd := send(m, keyMsg("space")); cmd != nil || m.paused || m.gen != gen {
		t.Errorf("space after the end: a command %v, paused %v, gen %d (was %d)", cmd != nil, m.paused, m.gen, gen)
	}
	send(m, keyMsg("]"))
	if m.status != "no change: the run is over; r plays it again" || len(m.changes) != 0 {
		t.Errorf("] after the end: status %q, changes %d", m.status, len(m.changes))
	}
	send(m, keyMsg("?"))
	if !m.help.ShowAll || !strings.Contains(m.View(), "next limit of the chain") {
		t.Errorf("? does not show every key")
	}
}
