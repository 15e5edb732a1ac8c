package report

import (
	"strings"
	"testing"

	"github.com/rlsim/rlsim/sim"
)

// The load balancer's 503s with no replica in its rotation have a figure of
// their own, per class, apart from the backend's: healthSite with a second
// class and a backend of one server, no queue, that sheds some attempts of
// its own. Recounted from the trace, per class: a shed no replica answered
// (replica empty) is the load balancer's, one a replica passed on the
// backend's; the caught table's "503 no replica" and "503 other" columns and
// the health finding's classes say the same.
func TestNoHealthy503sHaveTheirOwnFigure(t *testing.T) {
	src := strings.Replace(healthSite, "clients:\n", "backend:\n  capacity: 1\n  service:\n    mean: 150ms\nclients:\n  - name: bots\n    identity:\n      endpoint: /api\n    arrivals:\n      - kind: constant\n        start: 30ms\n        rate: 5/s\n", 1)
	o, log := runYAML(t, src)
	res := *o.Result
	type key struct {
		lane  int
		class string
	}
	balancer, backend := map[key]int64{}, map[key]int64{}
	for _, rec := range log {
		if rec.Event != sim.TraceShed {
			continue
		}
		if rec.Replica < 0 {
			balancer[key{rec.LaneIndex, rec.Class}]++
		} else {
			backend[key{rec.LaneIndex, rec.Class}]++
		}
	}
	seen := 0
	for i, l := range res.Lanes {
		var sum int64
		for _, c := range l.Classes {
			k := key{i, c.Name}
			if c.ShedNoHealthy != balancer[k] || c.ShedOther != backend[k] {
				t.Errorf("%s %s: 503 no replica %d, other %d; the trace %d and %d", l.Name, c.Name, c.ShedNoHealthy, c.ShedOther, balancer[k], backend[k])
			}
			sum += c.ShedNoHealthy
			if c.ShedNoHealthy > 0 && c.ShedOther > 0 {
				seen++
			}
		}
		if sum != l.Topology.Health.NoHealthy {
			t.Errorf("%s: the classes' %d, the health check's %d", l.Name, sum, l.Topology.Health.NoHealthy)
		}
	}
	if seen == 0 {
		t.Fatal("no class met both kinds of 503: the test shows nothing")
	}
	var text strings.Builder
	writeCaught(&text, res, 200)
	for i, l := range res.Lanes {
		for _, c := range l.Classes {
			row := rowOf(text.String(), l.Title(), c.Name, i == 0)
			if !strings.Contains(row, " "+count(c.ShedNoHealthy)+" ") || !strings.Contains(text.String(), "503 no replica") {
				t.Errorf("%s %s: caught row %q has no %d under 503 no replica", l.Name, c.Name, row, c.ShedNoHealthy)
			}
		}
	}
	finding := ""
	for _, f := range o.Findings() {
		if strings.Contains(f, "the load balancer answered 503 to") {
			finding = f
		}
	}
	c := res.Lanes[0].Classes
	if want := "(" + c[0].Name + " " + count(c[0].ShedNoHealthy) + ", " + c[1].Name + " " + count(c[1].ShedNoHealthy) + ")"; !strings.Contains(finding, want) {
		t.Errorf("finding %q, want the classes %s", finding, want)
	}
}

// rowOf is the line of the caught table for lane and class (the lane's name
// on its first class's row only; both lanes name their first class).
func rowOf(table, lane, class string, _ bool) string {
	current := ""
	for _, line := range strings.Split(table, "\n") {
		if strings.HasPrefix(line, lane+" ") {
			current = lane
		} else if !strings.HasPrefix(line, " ") {
			current = ""
		}
		if current == lane && strings.Contains(line, " "+class+" ") {
			return line
		}
	}
	return ""
}
