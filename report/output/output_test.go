package output

import (
	"errors"
	"slices"
	"testing"

	"github.com/rlsim/rlsim/run"
)

// TestFormatsTable: the table is what the commands' help, completion and
// checks read, so each row must be whole and the words built from it must be
// the ones the docs show.
func TestFormatsTable(t *testing.T) {
	if got, want := Names(ForRuns), []string{"text", "json", "csv"}; !slices.Equal(got, want) {
		t.Errorf("Names() = %q, want %q", got, want)
	}
	if Default != "text" {
		t.Errorf("Default = %q, want text", Default)
	}
	if got, want := Help(ForRuns), "output format: text, json or csv"; got != want {
		t.Errorf("Help() = %q, want %q", got, want)
	}
	for i, f := range Formats {
		if f.Description == "" || f.Runs == nil || f.Sweep == nil {
			t.Errorf("Formats[%d] (%s): a description and both writers wanted: %+v", i, f.Name, f)
		}
		got, err := Named(ForRuns, f.Name)
		if err != nil || got.Name != f.Name {
			t.Errorf("Named(%q) = %q, %v", f.Name, got.Name, err)
		}
		if c := Completions(ForRuns)[i]; c != f.Name+"\t"+f.Description {
			t.Errorf("Completions()[%d] = %q", i, c)
		}
	}
	if !slices.Equal(Names(ForSweeps), Names(ForRuns)) || Help(ForSweeps) != Help(ForRuns) {
		t.Errorf("sweeps offer %q, runs %q: every format applies to both", Names(ForSweeps), Names(ForRuns))
	}
	if got := Formats[2].Check; got == nil {
		t.Errorf("csv has no check of the scenarios it holds together")
	}
}

func TestNamedRefusesUnknownFormat(t *testing.T) {
	_, err := Named(ForRuns, "xml")
	var ie *run.InputError
	if err == nil || !errors.As(err, &ie) {
		t.Fatalf("Named(xml) = %v, want an *run.InputError", err)
	}
	if got, want := err.Error(), `--format: unknown value "xml" (want text, json, csv)`; got != want {
		t.Errorf("Named(xml) = %q, want %q", got, want)
	}
}

// TestFormatForRunsOnly: a format without a sweep writer is neither offered
// nor accepted for a sweep, and still is for runs.
func TestFormatForRunsOnly(t *testing.T) {
	saved := Formats
	defer func() { Formats = saved }()
	Formats = append(slices.Clip(saved), Format{Name: "md", Description: "markdown", Runs: saved[0].Runs})
	if got, want := Help(ForSweeps), "output format: text, json or csv"; got != want {
		t.Errorf("Help(ForSweeps) = %q, want %q", got, want)
	}
	if got, want := Help(ForRuns), "output format: text, json, csv or md"; got != want {
		t.Errorf("Help(ForRuns) = %q, want %q", got, want)
	}
	if _, err := Named(ForRuns, "md"); err != nil {
		t.Errorf("Named(ForRuns, md): %v", err)
	}
	_, err := Named(ForSweeps, "md")
	if want := `--format: unknown value "md" (want text, json, csv)`; err == nil || err.Error() != want {
		t.Errorf("Named(ForSweeps, md) = %v, want %q", err, want)
	}
	if got := len(Completions(ForSweeps)); got != 3 {
		t.Errorf("Completions(ForSweeps) has %d, want 3", got)
	}
}
