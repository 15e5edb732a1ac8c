package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/rlsim/rlsim/run"
)

// Exit statuses.
const (
	exitOK          = 0
	exitCheckFailed = 1   // the run finished and a check failed, or conform found differences
	exitBadInput    = 2   // a scenario, flag or argument the user can fix
	exitUnfinished  = 3   // it could not finish: an output not written, a server gone, a dependency failed
	exitInterrupted = 130 // Ctrl-C, as shells report SIGINT
)

// mainRun runs the command line args, writing to stdout and stderr, and returns the
// exit status. It is the only place that knows about signals.
func mainRun(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signalContext()
	defer stop()
	var progress io.Writer
	if isTerminal(stderr) {
		progress = stderr
	}
	out := &checkedWriter{w: stdout}
	root := NewCmdRoot(out, progress)
	root.SetArgs(args)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	if msg, failed := out.failure(); failed && ctx.Err() == nil {
		fmt.Fprintln(stderr, msg)
		return exitUnfinished
	}
	if err == nil {
		return exitOK
	}
	fmt.Fprintln(stderr, strings.TrimRight(message(err), "\n"))
	if status := exitStatus(err); status != exitInterrupted {
		return status
	}
	return signalStatus(ctx)
}

// isTerminal reports whether w is a character device, such as a terminal: progress
// is drawn only there, never into a pipe or a file.
func isTerminal(w io.Writer) bool {
	f, ok := fileOf(w)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// NewCmdRoot builds the rlsim command tree. Results go to out; progress, when not
// nil, receives a live progress line.
func NewCmdRoot(out, progress io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "rlsim",
		Short: "Simulate API rate limiters side by side",
		Long: `rlsim replays a scenario (clients, their retries, the service behind the limit)
on a virtual clock through eight limiting strategies side by side, and shows what
each one did: what it admitted, refused, shed and delayed, the most it admitted in
any window, and what the retries cost.

Start with "rlsim run" (a demo), "rlsim scenarios" (the built-in library) and
"rlsim scenarios show NAME" (a starting point for your own file).

Exit status:
  0    done
  1    the run finished and a check failed: a scenario's checks (rlsim run
       prints which), a --fail-on of rlsim diff that held, or conform found
       differences
  2    bad input: a scenario, config, flag, argument or output path to fix
  3    could not finish: an output that cannot be written, a server that went
       away or stopped answering, a dependency that failed
  130, 143, 129  Ctrl-C, SIGTERM or SIGHUP stopped it`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.Version = currentVersion().String()
	root.SetVersionTemplate("{{.Version}}\n")
	wrapHelp(root)
	root.SetOut(out)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return badInput(err) })
	// Every command inherits this; a command with a PersistentPreRunE of its own
	// would hide it (TestNoCommandHidesTheRootHook).
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error { return finiteFlags(cmd.Flags()) }
	root.AddCommand(
		NewCmdRun(out, progress, nil),
		NewCmdValidate(out, nil),
		NewCmdScenarios(out, nil),
		NewCmdSchema(out, nil),
		NewCmdVersion(out, nil),
		NewCmdTui(out, nil),
		NewCmdServe(out, nil),
		NewCmdConform(out, nil),
		NewCmdSweep(out, progress, nil),
		NewCmdReplay(out, progress, nil),
		NewCmdImport(out, nil),
		NewCmdDiff(out, nil),
	)
	strictHelpAndCompletion(root)
	usageOnBadArgs(root)
	return root
}

// finiteFlags refuses, all at once, every number flag given NaN or an
// infinity: pflag reads them as numbers, and no flag of rlsim means anything
// by them. It covers every float flag of every command, present and future;
// what a finite value means is each command's to check.
func finiteFlags(flags *pflag.FlagSet) error {
	var errs []error
	flags.Visit(func(f *pflag.Flag) {
		if !strings.HasPrefix(f.Value.Type(), "float") {
			return
		}
		values := []string{f.Value.String()}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			values = sv.GetSlice()
		}
		for _, v := range values {
			if x, err := strconv.ParseFloat(v, 64); err == nil && (math.IsNaN(x) || math.IsInf(x, 0)) {
				errs = append(errs, fmt.Errorf("--%s: want a finite number, got %s", f.Name, v))
			}
		}
	})
	return badInput(errors.Join(errs...))
}

// badInput marks an error the user can fix by changing the input: exit status 2.
func badInput(err error) error { return run.BadInput(err) }

func badInputf(format string, args ...any) error { return run.BadInputf(format, args...) }

func exitStatus(err error) int {
	var ue *run.UnfinishedError
	switch {
	case errors.Is(err, context.Canceled):
		return exitInterrupted
	case errors.As(err, &ue):
		return exitUnfinished
	case run.IsBadInput(err), strings.HasPrefix(err.Error(), "unknown command"), strings.HasPrefix(err.Error(), "accepts "),
		strings.HasPrefix(err.Error(), "requires "):
		return exitBadInput
	case run.IsCheckFailed(err):
		return exitCheckFailed
	}
	return exitUnfinished
}

func message(err error) string {
	if errors.Is(err, context.Canceled) {
		return "rlsim: interrupted; nothing was written"
	}
	msg := err.Error()
	if strings.HasPrefix(msg, "unknown command") || strings.HasPrefix(msg, "unknown flag") ||
		strings.HasPrefix(msg, "unknown shorthand flag") {
		msg += "\nRun 'rlsim --help' for usage."
	}
	return msg
}
