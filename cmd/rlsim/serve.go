package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/web"
)

type serveOptions struct {
	Out io.Writer
	Ctx context.Context

	Arg       string // a file or a built-in's name; empty means the default scenario
	Addr      string
	Seed      *uint64
	Lanes     string
	Sets      []string
	MaxEvents int64
	Config    configFlags
	Err       io.Writer // warnings

	// Ready, when not nil, is told the URL once the server listens (tests).
	Ready func(url string)
}

// defaultAddr is loopback: the playground is for the person at this machine.
const defaultAddr = "127.0.0.1:8080"

// NewCmdServe builds "rlsim serve". runF, when not nil, replaces the run itself (tests).
func NewCmdServe(out io.Writer, runF func(*serveOptions) error) *cobra.Command {
	opts := &serveOptions{Out: out}
	var seed uint64
	cmd := &cobra.Command{
		Use:   "serve [FILE|NAME]",
		Short: "Play with the lanes live in the browser",
		Long: `Serve the browser playground on this machine and print its URL: the lanes
of a scenario (a YAML file, or the name of a built-in one) live, with play,
pause, step and speed, a burst to fire, sliders for the first limit's limit,
window and burst and for the clients' rate (each taking effect at the present
virtual time), a hover on any mark for the request and the headers a server
would send, and an editor for the scenario with each problem at its line. With
no argument, play the "demo" scenario; the page lists every built-in.

The page is served from the binary: it fetches nothing from the network. It
listens on loopback (127.0.0.1) unless --addr says otherwise, answers only
requests that name the address it serves, never another site's, and plays at
most ` + fmt.Sprintf("%d pages at once, each within the --max-events budget and %d MB\nof memory (%d MB in all, whatever the pages do)",
			web.DefaultMaxSessions, web.DefaultMaxSessionBytes>>20, web.Options{}.WorstCase()>>20) + `: a burst, rule or
rate that would take a page over it is refused there with a message.

Played to its end without a change, a scenario ends with exactly the figures
"rlsim run" prints for it. Ctrl-C stops the server.`,
		Example: `  rlsim serve
  rlsim serve boundary-burst
  rlsim serve my-api.yaml --addr 127.0.0.1:9000`,
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
			return serveRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Addr, "addr", defaultAddr, "listen on `HOST:PORT`; a non-loopback host serves other machines too")
	f.Uint64Var(&seed, "seed", 0, "seed of every random stream, replacing the file's")
	f.StringVar(&opts.Lanes, "lanes", "", lanesHelp("show"))
	f.StringArrayVar(&opts.Sets, "set", nil, "replace the scenario field at `PATH=VALUE` (e.g. limits[0].limit=20) in the scenario asked for; repeatable")
	f.Int64Var(&opts.MaxEvents, "max-events", defaultMaxEvents, "stop a page's run that reaches `N` events, as rlsim run does")
	opts.Config.add(f)
	_ = cmd.RegisterFlagCompletionFunc("lanes", completeLanes)
	return cmd
}

func serveRun(opts *serveOptions) error {
	cfg, err := opts.Config.load(opts.Err)
	if err != nil {
		return err
	}
	ov := run.Overrides{Seed: opts.Seed, Lanes: opts.Lanes, Sets: opts.Sets, MaxEvents: opts.MaxEvents, Config: cfg}
	first, err := web.LoadFirst(opts.Arg, ov)
	if err != nil {
		return err
	}
	// A URL line that cannot be written stops the server: nobody would know
	// where it serves.
	ctx, stop := context.WithCancel(ctxOf(opts.Ctx))
	defer stop()
	var lost error
	err = web.ListenAndServe(ctx, opts.Addr, web.Options{First: first, Overrides: ov}, func(url string) {
		if _, err := fmt.Fprintf(opts.Out, "rlsim playground: %s (Ctrl-C stops it)\n", url); err != nil {
			lost = err
			stop()
			return
		}
		if opts.Ready != nil {
			opts.Ready(url)
		}
	})
	if lost != nil {
		return run.CouldNotFinish(fmt.Errorf("rlsim serve: writing its address failed, so it stopped: %w", lost))
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(opts.Out, "rlsim playground: stopped")
	return nil
}
