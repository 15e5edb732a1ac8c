// Package output is the table of the output formats of rlsim run and rlsim
// sweep (--format), read by the commands for the flag's help, its completion,
// the check of its value and the choice of writer, and the writing of a
// result: the chosen format on standard output and, with --out, the report
// folder beside it. Run, Sweep, Merge and Seeds run what rlsim run, rlsim
// sweep, rlsim sweep merge and rlsim run --seeds write, and write it.
//
// A new format is a row of Formats and its writers in package report.
package output

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"

	"github.com/rlsim/rlsim/report"
	sweepreport "github.com/rlsim/rlsim/report/sweep"
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/run/sweep"
	"github.com/rlsim/rlsim/scenarios"
)

// Format is one value of --format. A writer is nil where the format does not
// apply; width is the terminal's width in columns, 0 for the full layout.
type Format struct {
	Name        string
	Aliases     []string // other names it answers to (table, its name before text)
	Description string
	// Check, when not nil, refuses before they run scenarios the format cannot
	// hold together.
	Check func(list []*scenarios.Scenario) error
	Runs  func(w io.Writer, runs []report.Run, width int) error
	Sweep func(w io.Writer, sweeps []sweepreport.Report, width int) error
}

// Formats are the output formats, the default first.
var Formats = []Format{
	{Name: "text", Aliases: []string{"table"}, Description: "aligned columns fitted to the terminal, with findings in plain words",
		Runs: report.WriteTableFit, Sweep: sweepreport.WriteTableFit},
	{Name: "json", Description: "one versioned JSON document (docs/output.md)",
		Runs:  func(w io.Writer, runs []report.Run, _ int) error { return report.WriteJSON(w, runs) },
		Sweep: func(w io.Writer, sweeps []sweepreport.Report, _ int) error { return sweepreport.WriteJSON(w, sweeps) }},
	{Name: "csv", Description: "one CSV document for a spreadsheet (docs/output.md)", Check: report.CheckCSV,
		Runs:  func(w io.Writer, runs []report.Run, _ int) error { return report.WriteCSV(w, runs) },
		Sweep: func(w io.Writer, sweeps []sweepreport.Report, _ int) error { return sweepreport.WriteCSV(w, sweeps) }},
}

// Default is the name of the format used when none is asked for.
var Default = Formats[0].Name

// Use is what a command writes: runs or sweeps. A format applies to a use
// when it has a writer for it.
type Use int

const (
	ForRuns Use = iota
	ForSweeps
)

func (f Format) appliesTo(u Use) bool {
	if u == ForSweeps {
		return f.Sweep != nil
	}
	return f.Runs != nil
}

// Names are the names of the formats that apply to u, in the table's order.
func Names(u Use) []string {
	var names []string
	for _, f := range Formats {
		if f.appliesTo(u) {
			names = append(names, f.Name)
		}
	}
	return names
}

// Completions are the formats that apply to u as a shell completes them:
// each name with its description.
func Completions(u Use) []string {
	var out []string
	for _, f := range Formats {
		if f.appliesTo(u) {
			out = append(out, f.Name+"\t"+f.Description)
		}
	}
	return out
}

// Help is the --format flag's help for u: "output format: text, json or csv".
func Help(u Use) string {
	names := Names(u)
	last := len(names) - 1
	return "output format: " + strings.Join(names[:last], ", ") + " or " + names[last]
}

// Named is the format called name that applies to u, or an *run.InputError
// for the flag naming the choices.
func Named(u Use, name string) (Format, error) {
	for _, f := range Formats {
		if (f.Name == name || slices.Contains(f.Aliases, name)) && f.appliesTo(u) {
			return f, nil
		}
	}
	return Format{}, run.BadInputf("--format: unknown value %q (want %s)", name, strings.Join(Names(u), ", "))
}

// CheckRun refuses, naming the flag, what rlsim run cannot do over seeds
// seeds: fewer than 1 or more than sweep.MaxSeeds, a trace of several runs,
// and a format that does not apply; a spread over seeds is a sweep of one point.
func CheckRun(format, trace string, seeds int) error {
	if seeds < 1 || seeds > sweep.MaxSeeds {
		return run.BadInputf("--seeds: want 1 to %d, got %d", sweep.MaxSeeds, seeds)
	}
	if seeds > 1 && trace != "" {
		return run.BadInputf("--trace: traces one run; --seeds %d makes %d of each scenario", seeds, seeds)
	}
	use := ForRuns
	if seeds > 1 {
		use = ForSweeps
	}
	_, err := Named(use, format)
	return err
}

// CheckSweep refuses, all at once, a format that is no sweep's and a --where
// without the --find that says what to pick.
func CheckSweep(format, find string, where []string) error {
	_, err := Named(ForSweeps, format)
	if find == "" && len(where) > 0 {
		err = errors.Join(err, run.BadInputf("--where: needs --find 'min PATH' (or max) to say what to pick"))
	}
	return err
}

// Sweeps writes sweeps in the format named format to out and, with dir, their
// report there; nothing reaches out unless the report is written whole. The
// table fits width columns (0: the full layout).
func Sweeps(out io.Writer, format, dir string, width int, sweeps []sweepreport.Report) error {
	f, err := Named(ForSweeps, format)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := f.Sweep(&buf, sweeps, width); err != nil {
		return err
	}
	if dir != "" {
		d, err := report.CreateDir(dir)
		if err != nil {
			return err
		}
		defer d.Abort() // after Commit, a no-op
		if err := sweepreport.WriteDir(d, sweeps); err != nil {
			return err
		}
		if err := d.Commit(); err != nil {
			return err
		}
	}
	_, err = out.Write(buf.Bytes())
	return err
}
