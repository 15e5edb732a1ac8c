package report

import (
	"context"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// The health check example of docs/scenarios.md, its phases worked out by
// hand: replica 1 cut off the store 5s–10s, so its probe at 5s is refused
// (the store refusing, health failing closed: one failure, it stays in) and
// the probes at 10s are answered; the store down 20s–50s, so the probes at 20s
// and 25s fail and both replicas leave at 25s (unhealthy after 2), none left;
// the probe at 50s is answered (the store back), the store restarts at 55s,
// and the third pass in a row, at 60s, brings both back (healthy after 3).
func TestPhaseFindingTellsTheHealthExampleInOrder(t *testing.T) {
	doc, err := os.ReadFile("../docs/scenarios.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```yaml\n(description: a health check behind a shared limit that fails closed.*?)```").FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/scenarios.md has no health check example")
	}
	o, _ := runYAML(t, string(m[1]))
	res, findings := *o.Result, o.Findings()
	// The store failing, as the timeline shades it: 5s–10s and 20s–50s, from
	// each stretch's first failure to the answer that ended it.
	for _, l := range res.Lanes {
		if l.Topology == nil {
			continue // aimd: no fleet
		}
		got := failingSpans(l, runSpan(res))
		want := []sim.Span{{From: 5 * time.Second, To: 10 * time.Second}, {From: 20 * time.Second, To: 50 * time.Second}}
		if !slices.Equal(got, want) {
			t.Errorf("%s: store failing %v, want %v", l.Name, got, want)
		}
	}
	want := "in order: t=5s the store refusing calls; t=5s health failing closed; t=10s the store answering again; " +
		"t=20s the store refusing calls; t=20s health failing closed; t=25s replicas 0 and 1 out of the rotation; " +
		"t=25s no replica left in the rotation: 503 for everyone; t=50s the store answering again; " +
		"t=55s the store restarting empty; t=60s replicas 0 and 1 back in the rotation"
	for _, f := range findings {
		if strings.HasSuffix(f, want) {
			return
		}
	}
	t.Errorf("no finding says %q:\n%s", want, strings.Join(findings, "\n"))
}

// A saturated shard answers some calls between its timeouts and refusals; its
// stretch of failures lasts until it answers every call for a second, so the
// phases name each kind of failure once, not a phase a call (hot-key-shard
// flapped past the 256 phases kept before).
func TestPhasesOfASaturatedShardDoNotFlap(t *testing.T) {
	s, err := scenarios.LoadBuiltin("hot-key-shard")
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(context.Background(), *s.Config, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range res.Lanes {
		kinds := map[sim.PhaseKind]int{}
		for _, p := range l.Topology.Phases {
			kinds[p.Kind]++
		}
		if l.Topology.PhasesCut || kinds[sim.PhaseStoreTimeouts] != 1 || kinds[sim.PhaseStoreRefusing] != 1 || kinds[sim.PhaseStoreAnswering] != 0 {
			t.Errorf("%s: phases %v (cut %v): want one stretch, its timeouts and refusals named once, never ending", l.Name, kinds, l.Topology.PhasesCut)
		}
	}
}

// addSpan keeps spans in order and merges those that overlap or touch.
func TestAddSpanMerges(t *testing.T) {
	s := func(a, b int) sim.Span { return sim.Span{From: time.Duration(a), To: time.Duration(b)} }
	var got []sim.Span
	for _, x := range []sim.Span{s(10, 20), s(30, 40), s(0, 5), s(18, 31), s(50, 60), s(60, 70)} {
		got = addSpan(got, x)
	}
	if want := []sim.Span{s(0, 5), s(10, 40), s(50, 70)}; !slices.Equal(got, want) {
		t.Errorf("merged %v, want %v", got, want)
	}
}
