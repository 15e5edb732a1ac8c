package replay

import (
	"regexp"
	"strings"
	"testing"
)

// The fleet table: a row per lane with a fleet, lane and state left-aligned,
// the numbers right-aligned, each under its head; no table without a fleet.
func TestWriteFleetTable(t *testing.T) {
	r := &Result{Replicas: 3, Routing: "round_robin"}
	l := LimitResult{Lanes: []LaneResult{
		{Lane: "token_bucket", Fleet: &LaneFleet{Place: "local", Fleet: FleetPeak{Count: 30, Limit: 10}, BusiestReplica: 2, Replica: FleetPeak{Count: 10, Limit: 10}, Beyond: 20}},
		{Lane: "gcra"},
		{Lane: "fixed", Fleet: &LaneFleet{Place: "shared", Fleet: FleetPeak{Count: 10, Limit: 10}, BusiestReplica: 0, Replica: FleetPeak{Count: 4, Limit: 10}, Beyond: 0}},
	}}
	var b strings.Builder
	writeFleet(&b, r, l, 0)
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 5 || lines[1] != "through 3 replicas (round_robin): the most admitted in one window for one key, across the fleet and on the busiest replica" {
		t.Fatalf("got\n%s", b.String())
	}
	cells := regexp.MustCompile(`  +`)
	if got := strings.Join(cells.Split(lines[2], -1), "|"); got != "lane|state|fleet max|replica|replica max|admitted beyond limit" {
		t.Errorf("head %q", got)
	}
	for i, want := range []string{"token_bucket|local|" + FleetPeak{Count: 30, Limit: 10}.Cell() + "|2|" + FleetPeak{Count: 10, Limit: 10}.Cell() + "|20",
		"fixed|shared|" + FleetPeak{Count: 10, Limit: 10}.Cell() + "|0|" + FleetPeak{Count: 4, Limit: 10}.Cell() + "|0"} {
		if got := strings.Join(cells.Split(strings.TrimSpace(lines[3+i]), -1), "|"); got != want {
			t.Errorf("row %d %q, want %q", i, got, want)
		}
	}
	// Left-aligned: the state starts where its head does; right-aligned: a
	// number ends where its head does.
	if strings.Index(lines[3], "local") != strings.Index(lines[2], "state") || strings.Index(lines[4], "shared") != strings.Index(lines[2], "state") {
		t.Errorf("the state is not left-aligned:\n%s", b.String())
	}
	head, row := []rune(lines[2]), []rune(lines[4])
	end := strings.Index(lines[2], "replica max") + len("replica max") // the head is ASCII
	if cell := []rune(FleetPeak{Count: 4, Limit: 10}.Cell()); len(row) < end || string(row[end-len(cell):end]) != string(cell) || len(head) < end {
		t.Errorf("the replica max is not right-aligned:\n%s", b.String())
	}
	b.Reset()
	writeFleet(&b, r, LimitResult{Lanes: []LaneResult{{Lane: "gcra"}}}, 0)
	if b.Len() != 0 {
		t.Errorf("no lane with a fleet: %q", b.String())
	}
}
