package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/scenarios"
)

// Played to its end, stripe-four-limiters shows its concurrency limit's most
// of one key in flight and who was served by criticality, as rlsim run
// measures them; the info line gives the concurrency limit as places, not a
// rate, and the rule keys refuse to change it, saying why.
func TestViewShowsConcurrencyAndCriticality(t *testing.T) {
	m := newModel(t, builtins(t, "stripe-four-limiters"), 200, 30)
	send(m, keys("c", "]")...)
	if view := m.View(); !strings.Contains(view, "limit 2 of 2 in-flight 10 at once by user") ||
		!strings.Contains(view, "no change: in-flight bounds requests in flight (10 at once), not a rate") {
		t.Errorf("with the concurrency limit chosen, the view says:\n%s", view)
	}
	playToEnd(t, m)
	l := m.sim.Result().Lanes[0]
	view := m.View()
	want := fmt.Sprintf("token bucket · most of one key in flight: in-flight %d of 10 · served/offered by criticality: ", l.InFlight[0].Count)
	var per []string
	for _, c := range l.Criticality {
		per = append(per, fmt.Sprintf("%s %d/%d", c.Criticality, c.Served, c.Offered))
	}
	if want += strings.Join(per, ", "); !strings.Contains(view, want) {
		t.Errorf("the view has no line %q:\n%s", want, view)
	}
}

// A partitioned AIMD lane shows what each partition did so far, as its
// result says; a terminal without the room drops the line, not the lanes.
func TestViewShowsPartitions(t *testing.T) {
	s, err := scenarios.Parse("p.yaml", []byte(`duration: 2s
lanes: [{name: parted, algorithm: aimd, partitions: [{name: live, classes: [live], share: 0.9}]}]
aimd: {initial: 10, min: 10, max: 10}
clients:
  - {name: live, count: 10, arrivals: [{kind: poisson, rate: 10/s}]}
  - {name: batch, count: 5, arrivals: [{kind: poisson, rate: 50/s}]}
backend: {capacity: 20, queue: 10, service: {mean: 100ms}}
`))
	if err != nil {
		t.Fatal(err)
	}
	list := []Scenario{{Name: s.Name, Config: *s.Config}}
	m := newModel(t, list, 200, 30)
	playToEnd(t, m)
	p := m.sim.Result().Lanes[0].Partitions
	want := fmt.Sprintf("parted · partitions: live %d in, %d refused, %d at once of %d guaranteed; unknown %d in, %d refused, %d at once of 1 guaranteed",
		p[0].Admitted, p[0].Refused, p[0].MostInFlight, p[0].Guaranteed[0], p[1].Admitted, p[1].Refused, p[1].MostInFlight)
	if view := m.View(); !strings.Contains(view, want) || p[1].Refused == 0 {
		t.Errorf("the view has no line %q (or unknown was never refused):\n%s", want, view)
	}
	small := newModel(t, list, 200, 7)
	playToEnd(t, small)
	if view := small.View(); strings.Contains(view, "partitions:") || !strings.Contains(view, "parted") {
		t.Errorf("in 7 lines the view shows:\n%s", view)
	}
}
