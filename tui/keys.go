package tui

import (
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
)

// keyMap is the view's controls, as data: the help line is drawn from it.
type keyMap struct {
	Pause, Faster, Slower, Step, Burst, Next, Prev, Restart, Help, Quit key.Binding
	// The rule keys: a rule push for the chosen limit of the chain, at the present.
	LimitUp, LimitDown, BurstUp, BurstDown, Choose key.Binding
}

func newKeyMap() keyMap {
	return keyMap{
		Pause:   key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "pause or resume")),
		Faster:  key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+", "faster, to 100×")),
		Slower:  key.NewBinding(key.WithKeys("-", "_"), key.WithHelp("-", "slower, to 0.1×")),
		Step:    key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→", "step (paused)")),
		Burst:   key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "fire a burst")),
		Next:    key.NewBinding(key.WithKeys("tab", "n"), key.WithHelp("tab/n", "next scenario")),
		Prev:    key.NewBinding(key.WithKeys("shift+tab", "p"), key.WithHelp("p", "previous scenario")),
		Restart: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "restart")),
		Help:    key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "all keys")),
		Quit:    key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),

		LimitUp:   key.NewBinding(key.WithKeys("]", "up"), key.WithHelp("]/↑", "limit ×1.25 from now")),
		LimitDown: key.NewBinding(key.WithKeys("[", "down"), key.WithHelp("[/↓", "limit ÷1.25 from now")),
		BurstUp:   key.NewBinding(key.WithKeys("}"), key.WithHelp("}", "burst ×1.25 from now")),
		BurstDown: key.NewBinding(key.WithKeys("{"), key.WithHelp("{", "burst ÷1.25 from now")),
		Choose:    key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "next limit of the chain")),
	}
}

// ShortHelp is the help line: the keys a first-time user needs, briefly. Its
// bindings are display-only copies; Update matches the real ones.
func (k keyMap) ShortHelp() []key.Binding {
	short := func(b key.Binding, keys, desc string) key.Binding {
		b.SetHelp(keys, desc)
		return b
	}
	return []key.Binding{
		short(k.Pause, "space", "pause"), short(k.Faster, "+/-", "speed"), short(k.Step, "→", "step"),
		short(k.Burst, "b", "burst"), short(k.Next, "tab", "next"), short(k.Restart, "r", "restart"),
		k.Quit, short(k.Help, "?", "more"),
	}
}

// FullHelp is every key, in columns.
func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Pause, k.Step, k.Faster, k.Slower, k.Help},
		{k.Burst, k.Restart, k.Next, k.Prev, k.Quit},
		{k.LimitUp, k.LimitDown, k.BurstUp, k.BurstDown, k.Choose},
	}
}

func newHelp(r *lipgloss.Renderer) help.Model {
	h := help.New()
	h.ShortSeparator = "  "
	keyStyle := r.NewStyle().Bold(true)
	faint := r.NewStyle().Faint(true)
	h.Styles = help.Styles{
		ShortKey: keyStyle, ShortDesc: faint, ShortSeparator: faint, Ellipsis: faint,
		FullKey: keyStyle, FullDesc: faint, FullSeparator: faint,
	}
	return h
}
