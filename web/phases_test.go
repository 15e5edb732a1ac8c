package web

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/rlsim/rlsim/scenarios"
)

// healthExample is the health check example of docs/scenarios.md.
func healthExample(t *testing.T) *scenarios.Scenario {
	t.Helper()
	return healthExampleWith(t, "")
}

// healthExampleWith is the health check example of docs/scenarios.md with
// prefix (YAML lines, such as a lanes field) before its own lines.
func healthExampleWith(t *testing.T, prefix string) *scenarios.Scenario {
	t.Helper()
	doc, err := os.ReadFile("../docs/scenarios.md")
	if err != nil {
		t.Fatal(err)
	}
	src := regexp.MustCompile("(?s)```yaml\n(description: a health check behind a shared limit that fails closed.*?)```").FindSubmatch(doc)
	if src == nil {
		t.Fatal("docs/scenarios.md has no health check example")
	}
	sc, err := scenarios.Parse("health.yaml", append([]byte(prefix), src[1]...))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// A frame carries the fleet's phases of the first lane with one: at 30s of
// the health example (by hand, as report's phase finding), the store down
// since 20s and both replicas out since 25s, none left; the latest phases
// with their times; without a topology, none.
func TestFrameCarriesTheFleetPhases(t *testing.T) {
	sess, err := newSession(context.Background(), healthExample(t), 0, "rlsim run")
	if err != nil {
		t.Fatal(err)
	}
	sess.advance(30 * time.Second)
	fl := sess.frame().Fleet
	if fl == nil {
		t.Fatal("no fleet in the frame")
	}
	if fl.Now != "the store failing, 2 replicas out, no healthy replica" || fl.Total != 8 || len(fl.Phases) != 8 {
		t.Fatalf("fleet %+v", fl)
	}
	if last := fl.Phases[7]; last.At != int64(25*time.Second) || last.Text != "no replica in the rotation: 503 for everyone" {
		t.Errorf("the latest phase %+v", last)
	}
	plain, err := newSession(context.Background(), builtin(t, "demo"), 0, "rlsim run")
	if err != nil {
		t.Fatal(err)
	}
	if f := plain.frame(); f.Fleet != nil {
		t.Errorf("demo, no topology, has a fleet %+v", f.Fleet)
	}
}

// The page shows the fleet's state and its phases as the frames carry them,
// and its clock is of the scenario's duration, 60s (not the 120s its drain
// could run to), drained at the end; the demo shows no fleet.
func TestBrowserShowsTheFleetPhases(t *testing.T) {
	t.Parallel() // in tabs of their own; the draw-time test runs alone
	p := openPage(t, Options{First: healthExample(t)})
	if got := eval[string](t, p, `document.getElementById("end").textContent`); got != "1min" {
		t.Errorf("the clock is of %q, want the duration, 1min", got)
	}
	p.ctl(t, fastest)
	p.run(t, chromedp.Click("#play"))
	p.waitFor(t, `document.body.dataset.finished === "true"`)
	if hidden := eval[bool](t, p, `document.getElementById("fleet").hidden`); hidden {
		t.Fatal("the fleet is hidden")
	}
	items := eval[[]string](t, p, `[...document.querySelectorAll("#phases li")].map(li => li.textContent)`)
	total := eval[int](t, p, `rlsim.state.frame.fleet.total`)
	if len(items) != min(total, maxFramePhases) || !strings.HasSuffix(strings.Join(items, "|"), "t=60s replica 0 back in the rotation|t=60s replica 1 back in the rotation") {
		t.Errorf("%d phases listed of %d: %q", len(items), total, items)
	}
	if got := eval[string](t, p, `document.getElementById("fleet-now").textContent`); got != "all well" {
		t.Errorf("fleet now %q, want all well", got)
	}
	want := ""
	if eval[int64](t, p, `rlsim.state.frame.now`) > int64(60*time.Second) {
		want = ", drained" // the probes ran on into the drain
	}
	if got := eval[string](t, p, `document.getElementById("drain").textContent`); got != want {
		t.Errorf("after the clock %q, want %q", got, want)
	}
}
