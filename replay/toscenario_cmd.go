package replay

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/rlsim/rlsim/run"
)

// DeriveOptions are the derivation --to-scenario asks for, or every bad
// flag's error at once, each naming its flag; given says which flags were
// set on the command line (the replay's own are refused beside --to-scenario).
func (opts Flags) DeriveOptions(given func(flag string) bool) (DeriveOptions, error) {
	var errs []error
	o := DeriveOptions{Format: opts.LogFormat, Groups: opts.Groups, MaxEvents: opts.MaxEvents}
	key, err := ParseKey(opts.Key)
	if err != nil {
		errs = append(errs, fmt.Errorf("--key: %v", err))
	}
	o.Key = key
	if opts.Groups < 1 || opts.Groups > MaxGroups {
		errs = append(errs, fmt.Errorf("--groups: want 1 to %d, got %d", MaxGroups, opts.Groups))
	}
	if opts.MaxEvents < 0 {
		errs = append(errs, fmt.Errorf("--max-events: must not be negative, got %d", opts.MaxEvents))
	}
	fields, err := ParseFields(opts.Fields)
	if err != nil {
		errs = append(errs, fmt.Errorf("--fields: %v", err))
	}
	ro := Options{Fields: fields, Format: opts.LogFormat}
	errs = append(errs, opts.customFormat(&ro, err == nil)...)
	o.Fields, o.Format, o.LogFormat = ro.Fields, ro.Format, ro.LogFormat
	if o.Location, err = time.LoadLocation(opts.TZ); err != nil {
		errs = append(errs, fmt.Errorf("--tz: unknown zone %q", opts.TZ))
	}
	if !slices.Contains(Formats, opts.LogFormat) {
		errs = append(errs, fmt.Errorf("--log-format: unknown %q (want %s)", opts.LogFormat, strings.Join(Formats, ", ")))
	}
	for _, f := range []string{"limit", "scenario", "lane", "vary", "find", "where", "out", "format", "late", "strict", "legit-below", "top"} {
		if given(f) {
			errs = append(errs, fmt.Errorf("--%s: replays the log; --to-scenario derives a scenario instead (give one or the other)", f))
		}
	}
	return o, errors.Join(errs...)
}

// ScenarioCommand is how rlsim replay --to-scenario runs.
type ScenarioCommand struct {
	Stdin io.Reader // the log named "-"
	Out   io.Writer // the scenario, when To is "-"
	Err   io.Writer // the fit and what was derived (stderr)
	To    string    // "-" or the file to write
}

// Run derives a scenario from the logs names and writes it to c.To, never
// over a file whose first line is not ScenarioMarker (one rlsim did not
// write); the fit goes to c.Err. Bad input is an *run.InputError.
func (c ScenarioCommand) Run(ctx context.Context, names []string, o DeriveOptions) error {
	if c.To != "-" {
		if err := replaceable(c.To); err != nil {
			return run.BadInput(err)
		}
	}
	inputs, _, closeInputs, err := OpenInputs(names, c.Stdin)
	defer closeInputs()
	if err != nil {
		return err
	}
	o.Names = names
	d, err := Derive(ctx, inputs, o)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return err
		}
		return run.BadInput(err)
	}
	fmt.Fprintf(c.Err, "rlsim replay: %d keys into %d client groups, about %d events; fit: %s\n",
		len(d.Fit.LogRates), len(d.Groups), d.Estimate, d.Fit.Line())
	if d.Retries > 0 {
		fmt.Fprintf(c.Err, "rlsim replay: fit to first attempts only (without the log's %d retries): %s\n", d.Retries, d.FirstFit.Line())
	}
	if d.Capped {
		fmt.Fprintf(c.Err, "rlsim replay: the log covers more than %v: the scenario runs its first %v\n", MaxDerivedDuration, MaxDerivedDuration)
	}
	if c.To == "-" {
		_, err = c.Out.Write(d.YAML)
		return err
	}
	return os.WriteFile(c.To, d.YAML, 0o644)
}

// replaceable refuses a file that exists and was not written by --to-scenario.
func replaceable(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("--to-scenario %s: %v", path, err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return fmt.Errorf("--to-scenario %s: is a folder", path)
	}
	line, _ := bufio.NewReader(io.LimitReader(f, 4096)).ReadString('\n')
	if !strings.HasPrefix(line, ScenarioMarker) {
		return fmt.Errorf("--to-scenario %s: the file exists and rlsim did not write it (its first line is not %q): remove it or name another", path, ScenarioMarker)
	}
	return nil
}
