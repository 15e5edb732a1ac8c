package report

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
)

// TestKinds checks that each kind of run answers for itself: its seed, its CSV
// header, and CheckCSV refusing only a mix of kinds.
func TestKinds(t *testing.T) {
	comparison, study := sample(), sampleContention()
	if got, want := comparison.Seed(), comparison.Result.Seed; got != want {
		t.Errorf("comparison Seed() = %d, want the result's %d", got, want)
	}
	if got, want := study.Seed(), study.Scenario.Contention.Seed; got != want {
		t.Errorf("study Seed() = %d, want the study's %d", got, want)
	}
	if cols := comparison.kind().csvColumns(false); !slices.Equal(cols, csvColumns(false)) {
		t.Errorf("comparison CSV columns %v, want %v", cols, csvColumns(false))
	}
	if cols := study.kind().csvColumns(true); !slices.Equal(cols, csvContentionColumns) {
		t.Errorf("study CSV columns %v, want %v", cols, csvContentionColumns)
	}
	for _, tc := range []struct {
		name string
		list []*scenarios.Scenario
		ok   bool
	}{
		{"one comparison", []*scenarios.Scenario{comparison.Scenario}, true},
		{"two studies", []*scenarios.Scenario{study.Scenario, study.Scenario}, true},
		{"a mix", []*scenarios.Scenario{comparison.Scenario, study.Scenario}, false},
	} {
		err := CheckCSV(tc.list)
		var ie *run.InputError
		if tc.ok != (err == nil) || (err != nil && (!errors.As(err, &ie) || !strings.Contains(err.Error(), "--format csv: "))) {
			t.Errorf("%s: CheckCSV = %v, want ok %v (else bad input naming --format csv)", tc.name, err, tc.ok)
		}
	}
}

// TestCSVHasEveryLaneColumnOnce checks the one column table: a CSV header is
// named once, and every column is shown somewhere.
func TestCSVHasEveryLaneColumnOnce(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range laneColumns {
		if c.csv != "" && seen[c.csv] {
			t.Errorf("CSV column %q is defined twice", c.csv)
		}
		seen[c.csv] = true
		if c.csv == "" && c.term == nil && c.html == nil {
			t.Errorf("column %q is shown nowhere", c.head)
		}
		if (c.term != nil || c.html != nil) && (c.text == nil || c.sort == nil) {
			t.Errorf("column %q is shown in a table without its text and sort key", c.head)
		}
		if c.csv != "" && c.lane == nil {
			t.Errorf("CSV column %q has no value for a lane", c.csv)
		}
	}
}
