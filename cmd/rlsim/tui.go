package main

import (
	"context"
	"io"
	"os"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/spf13/cobra"

	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/tui"
)

type tuiOptions struct {
	Out io.Writer
	Ctx context.Context

	Arg       string // a file or a built-in's name; empty means the default scenario
	Seed      *uint64
	Lanes     string
	Sets      []string
	MaxEvents int64
	Config    configFlags
	Err       io.Writer // warnings

	// Play runs the view in the terminal; tests replace it.
	Play func(ctx context.Context, m *tui.Model, out io.Writer) error
}

// NewCmdTui builds "rlsim tui". runF, when not nil, replaces the run itself (tests).
func NewCmdTui(out io.Writer, runF func(*tuiOptions) error) *cobra.Command {
	opts := &tuiOptions{Out: out, Play: playInTerminal}
	var seed uint64
	cmd := &cobra.Command{
		Use:   "tui [FILE|NAME]",
		Short: "Watch the lanes live in the terminal",
		Long: `Play a scenario (a YAML file, or the name of a built-in one) live in the
terminal: one row per lane, virtual time flowing to the right edge, each
attempt drawn as admitted, refused, delayed, shed or dropped, with each lane's
live figures. With no argument, play the "demo" scenario. FILE and NAME are
read as by "rlsim run": write ./NAME for a file named like a built-in, and
builtin:NAME for the built-in.

Keys: space pauses, + and - change the speed (0.1× to 100× real time), → steps
one slice while paused, b fires a burst the size of the limit now, tab (or n
and p) switches to the next (previous) built-in scenario, r restarts, ? lists
every key and q quits. Set NO_COLOR for a monochrome view.

] and [ (or ↑ and ↓) raise and lower the limit ×1.25 and ÷1.25 (rounded,
by one at least, from 1 to a million), } and { its burst, from the present
on: a rule push, as a scenario's changes schedule them, marked down every
lane and by ! on the time axis. The burst is the token bucket's size, GCRA's
tolerance and the leaky bucket's queue depth; a burst equal to the limit
follows it. As with any push of a new limit, every key starts afresh. In a
chain of limits, c picks the one the keys change.

--seed, --lanes and --set apply to every scenario of the list, as rlsim run
applies them to every file; a built-in that a --set does not fit (one without
the limit or client group it names, or one the value makes invalid) is left
out of the list.

Played to its end without a burst or a rule change, a scenario ends with
exactly the figures "rlsim run" prints for it.`,
		Example: `  rlsim tui
  rlsim tui boundary-burst
  rlsim tui my-api.yaml --lanes fixed_window,sliding_log,token_bucket`,
		Args:              cobra.MaximumNArgs(1),
		ValidArgsFunction: completeBuiltinNames,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx, opts.Err = cmd.Context(), cmd.ErrOrStderr()
			arg, err := scenarioArg(args, opts.MaxEvents)
			if err != nil {
				return err
			}
			opts.Arg = arg
			if cmd.Flags().Changed("seed") {
				opts.Seed = &seed
			}
			if runF != nil {
				return runF(opts)
			}
			return tuiRun(opts)
		},
	}
	f := cmd.Flags()
	f.Uint64Var(&seed, "seed", 0, "seed of every random stream, replacing the file's")
	f.StringVar(&opts.Lanes, "lanes", "", lanesHelp("show"))
	f.StringArrayVar(&opts.Sets, "set", nil, "replace the scenario field at `PATH=VALUE` (e.g. limits[0].limit=20) in every scenario played; repeatable")
	f.Int64Var(&opts.MaxEvents, "max-events", defaultMaxEvents, "stop a scenario that reaches `N` events, as rlsim run does")
	opts.Config.add(f)
	_ = cmd.RegisterFlagCompletionFunc("lanes", completeLanes)
	return cmd
}

func tuiRun(opts *tuiOptions) error {
	list, err := playlist(opts)
	if err != nil {
		return err
	}
	ctx := ctxOf(opts.Ctx)
	m, err := tui.New(list, tui.Options{Renderer: terminalRenderer(opts.Out), Context: ctx, MaxEvents: opts.MaxEvents})
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		return badInput(err)
	}
	return opts.Play(ctx, m, opts.Out)
}

// playlist is the scenario asked for, then the other built-in comparisons in
// their listed order, so that tab moves on from the one asked for.
func playlist(opts *tuiOptions) ([]tui.Scenario, error) {
	cfg, err := opts.Config.load(opts.Err)
	if err != nil {
		return nil, err
	}
	ov := run.Overrides{Seed: opts.Seed, Lanes: opts.Lanes, Sets: opts.Sets, MaxEvents: opts.MaxEvents, Config: cfg}
	return tui.Playlist(opts.Arg, ov)
}

// terminalRenderer styles the view for out. On a terminal it asks the terminal
// for its background colour now, before the view takes the terminal over and
// would swallow the answer; rlsim tui is the only command that asks (see
// package initquiet).
func terminalRenderer(out io.Writer) *lipgloss.Renderer {
	if f, ok := fileOf(out); ok {
		out = f
	}
	r := lipgloss.NewRenderer(out)
	if isTerminal(out) {
		r.HasDarkBackground()
	}
	return r
}

// playInTerminal runs the view full screen until the user quits.
func playInTerminal(ctx context.Context, m *tui.Model, out io.Writer) error {
	if !isTerminal(out) {
		return badInputf("rlsim tui draws in a terminal, and its output is not one; rlsim run prints the same figures as text")
	}
	// Signals come through ctx alone (mainRun's handler): Bubble Tea's own turns
	// SIGTERM into a quit, exit status 0. A cancelled context kills the program,
	// which restores the terminal as a quit does.
	if f, ok := fileOf(out); ok {
		out = f
	}
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithOutput(out), tea.WithInput(os.Stdin), tea.WithAltScreen(),
		tea.WithoutSignalHandler())
	_, err := p.Run()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}
