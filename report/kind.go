package report

import (
	"encoding/csv"
	"io"
	"slices"

	"github.com/rlsim/rlsim/report/chart"
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
)

// kind renders one kind of run, a limiter comparison or a contention study, in
// every medium. Each writer reads a Run through it, so that a kind of run is one
// implementation beside the others rather than a branch in every writer.
type kind interface {
	// writeTable writes the run's tables and findings, fitted to width columns
	// (0: everything).
	writeTable(w io.Writer, width int)
	// fillJSON fills the run's kind, seed and the fields of its kind.
	fillJSON(doc *jsonRun)
	// csvColumns is the header of the kind's CSV rows, with the columns of a
	// topology or not (when some run of the document has one); writeCSV writes the rows.
	csvColumns(topology bool) []string
	writeCSV(cw *csv.Writer, scenario string, topology bool)
	// fillPage fills the page's summary, findings, verdicts and tables.
	fillPage(hp *htmlPageData)
	// figures are the plots worth drawing.
	figures() []*chart.Figure
	// seed is the seed the run used.
	seed() uint64
}

// Seed is the seed o ran with: the one that runs it again.
func (o Run) Seed() uint64 { return o.kind().seed() }

// kind is what renders o: a contention study when its scenario is one, else a
// limiter comparison.
func (o Run) kind() kind {
	if o.Contention != nil || (o.Scenario != nil && o.Scenario.Contention != nil) {
		return study{o}
	}
	return comparison{o}
}

// CheckCSV refuses, before they run, scenarios whose runs cannot share one CSV
// document because their kinds have different columns.
func CheckCSV(list []*scenarios.Scenario) error {
	var first []string
	for _, s := range list {
		cols := Run{Scenario: s}.kind().csvColumns(false)
		if first == nil {
			first = cols
		} else if !slices.Equal(first, cols) {
			return run.BadInputf("--format csv: a contention study and a limiter comparison have different columns; run them separately")
		}
	}
	return nil
}
