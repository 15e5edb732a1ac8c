package replay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/rlsim/rlsim/run"
)

// Command is how rlsim replay runs: what it reads and writes, on which
// clock, and the output it was asked for.
type Command struct {
	Stdin    io.Reader        // the log named "-"
	Out      io.Writer        // the output, in Format
	Warn     io.Writer        // warnings; nil: none
	Progress io.Writer        // the progress line; nil: none
	Clock    func() time.Time // the wall clock that times the progress line
	Width    int              // the text's width in columns, 0 for the full layout
	Format   string           // text, json or csv (Flags.Options checked it)
	Find     bool             // whether --find asked for each lane's pick
	Dir      string           // the report folder (Outputs.WriteDir), "" for none
}

// Run replays the logs names ("-" is c.Stdin) with o and writes the result:
// the warnings, then the report folder, then the output. A log that cannot be
// opened or replayed is an *run.InputError, unless ctx was cancelled.
func (c Command) Run(ctx context.Context, names []string, o Options) error {
	res, err := c.replay(ctx, names, o)
	if err != nil {
		return err
	}
	outs, err := Render(res, o, c.Find, c.Width)
	if err != nil {
		return err
	}
	if c.Dir != "" {
		if err := outs.WriteDir(c.Dir, res, o.Sweep); err != nil {
			return err
		}
	}
	_, err = c.Out.Write(outs.Format(c.Format))
	return err
}

// replay replays the logs names with o, the progress line drawn as it goes,
// and writes to c.Warn the config's warnings, the format detected and the
// replay's warnings: what Run and RunShard share.
func (c Command) replay(ctx context.Context, names []string, o Options) (*Result, error) {
	if c.Warn != nil {
		for _, w := range o.ConfigWarnings {
			fmt.Fprintf(c.Warn, "warning: %s\n", w) // as rlsim run --config warns
		}
	}
	inputs, total, closeInputs, err := OpenInputs(names, c.Stdin)
	defer closeInputs()
	if err != nil {
		return nil, err
	}
	if c.Progress != nil {
		update, clear := Progress(c.Progress, total, c.Clock)
		o.Progress = update
		defer clear()
	}
	res, err := Replay(ctx, inputs, o)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return nil, err
		}
		return nil, run.BadInput(err)
	}
	if c.Warn != nil && o.Format == "auto" && res.Format != "" {
		fmt.Fprintf(c.Warn, "rlsim replay: read as %s (detected from the first line that shows a format; --log-format names one)\n", res.Format)
	}
	c.warn(res)
	return res, nil
}
