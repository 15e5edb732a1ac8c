package sweep

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The sweep table's heads stand over their columns: the varied paths, then
// lane and class, then the figures; each row's cells under them.
func TestSweepTableHeadsOverTheirCells(t *testing.T) {
	s := objectiveSweep(t, []float64{1}, []float64{1}, "min limits[0].limit")
	heads, rows := tableCells(t, s, "limits[0].limit  ")
	if len(heads) < 4 || heads[0] != "limits[0].limit" || heads[1] != "lane" || heads[2] != "class" {
		t.Fatalf("heads %q, want limits[0].limit, lane, class, then the figures", heads)
	}
	var got []string
	for _, r := range rows {
		if len(r) != len(heads) {
			t.Fatalf("row %q under heads %q", r, heads)
		}
		got = append(got, r[0]+" "+r[1]+" "+r[2])
	}
	if want := "10 token bucket all|10 token bucket users|10 fixed window all|10 fixed window users"; strings.Join(got, "|") != want {
		t.Errorf("rows %q, want %q", strings.Join(got, "|"), want)
	}
}

// tableCells is s's terminal table split into cells: its heads (the line
// starting head) and the rows under them, up to the first blank line.
func tableCells(t *testing.T, s Report, head string) (heads []string, rows [][]string) {
	t.Helper()
	var b bytes.Buffer
	if err := s.writeTable(&b, 0); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	at := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, head) })
	if at < 0 {
		t.Fatalf("no table head %q:\n%s", head, b.String())
	}
	cells := regexp.MustCompile(`  +`)
	heads = cells.Split(strings.TrimSpace(lines[at]), -1)
	for _, l := range lines[at+1:] {
		if strings.TrimSpace(l) == "" {
			break
		}
		rows = append(rows, cells.Split(strings.TrimSpace(l), -1))
	}
	return heads, rows
}
