package replay

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/rlsim/rlsim/run"
)

// RunShard replays shard o.Shard of the logs names ("-" is c.Stdin) with o,
// which f resolved to, and writes its partial result (WritePartial) to
// c.Out instead of the tables: the warnings go to c.Warn as Run's do.
func (c Command) RunShard(ctx context.Context, names []string, f Flags, o Options) error {
	if o.Shard.Count == 0 {
		return errors.New("replay: RunShard without a shard")
	}
	if err := CheckShardable(o.Limits); err != nil {
		return run.BadInput(err)
	}
	var sizes []PartialInput
	for _, name := range names {
		size := int64(-1)
		if name != "-" {
			st, err := os.Stat(name)
			if err != nil {
				return run.BadInputf("%s: %v", name, errors.Unwrap(err))
			}
			size = st.Size()
		}
		sizes = append(sizes, PartialInput{Name: exact(name), Size: size})
	}
	res, err := c.replay(ctx, names, o)
	if err != nil {
		return err
	}
	return WritePartial(c.Out, res, o.Shard, sizes, f, o)
}

// RunMerge merges the partials paths (MergePartials) and writes what Run
// writes for one pass over the logs: the warnings, the report folder, the
// output in c.Format. c.Find is taken from the partials (--find was given to
// the shards).
func (c Command) RunMerge(paths []string) error {
	m, err := MergePartials(paths)
	if err != nil {
		return err
	}
	c.warn(m.Result)
	outs, err := Render(m.Result, m.Options, m.Find, c.Width)
	if err != nil {
		return err
	}
	if c.Dir != "" {
		if err := outs.WriteDir(c.Dir, m.Result, m.Options.Sweep); err != nil {
			return err
		}
	}
	_, err = c.Out.Write(outs.Format(c.Format))
	return err
}

func (c Command) warn(r *Result) {
	if c.Warn != nil {
		for _, w := range r.Warnings {
			fmt.Fprintf(c.Warn, "rlsim replay: warning: %s\n", w)
		}
	}
}
