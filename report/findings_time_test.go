package report

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// runJSON runs a scenario file's text and returns its first lane's JSON and its findings.
func runJSON(t *testing.T, src string) (map[string]any, []string) {
	t.Helper()
	s, err := scenarios.Parse("time.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(context.Background(), *s.Config, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteJSON(&b, []Run{{Scenario: s, Result: &res}}); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Runs []struct {
			Lanes []map[string]any `json:"lanes"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	return out.Runs[0].Lanes[0], Findings(res)
}

func hasLine(lines []string, want string) bool {
	for _, l := range lines {
		if strings.Contains(l, want) {
			return true
		}
	}
	return false
}

// Three requests at 0 on one server of 1s with a 1.5s deadline: they finish
// at 1s, 2s and 3s, so two are abandoned and their 2s of service wasted.
func TestDeadlineInTheJSONAndTheFindings(t *testing.T) {
	lane, found := runJSON(t, "duration: 5s\nlimits: [{limit: 100}]\nlanes: [token_bucket]\n"+
		"clients: [{name: late, deadline: 1500ms, arrivals: [{kind: burst, count: 3}]}]\n"+
		"backend: {capacity: 1, queue: 10, service: {mean: 1s}}\n")
	if lane["abandoned"] != 2.0 || lane["wasted_work_s"] != 2.0 || lane["gave_up"] != 2.0 {
		t.Errorf("abandoned %v wasted %v gave up %v, want 2, 2, 2", lane["abandoned"], lane["wasted_work_s"], lane["gave_up"])
	}
	if c := lane["classes"].([]any)[0].(map[string]any); c["abandoned"] != 2.0 {
		t.Errorf("class abandoned %v, want 2", c["abandoned"])
	}
	if want := "under token bucket clients abandoned 2 of 3 requests at their deadline; the backend still spent 2s of work"; !hasLine(found, want) {
		t.Errorf("findings %q lack %q", found, want)
	}
}

// One request at 0 on one server of 300ms, a timeout of 200ms and fixed
// retries 50ms apart, at most 3 attempts: each attempt is given up, and the
// server serves all three, 900ms wasted (sim's TestTimeoutRetriesAndWastes
// derives the steps).
func TestTimeoutInTheJSONAndTheFindings(t *testing.T) {
	lane, found := runJSON(t, "duration: 2s\nlimits: [{limit: 100}]\nlanes: [token_bucket]\n"+
		"clients: [{name: impatient, timeout: 200ms, arrivals: [{kind: burst, count: 1}], retry: {kind: fixed, delay: 50ms, max_attempts: 3}}]\n"+
		"backend: {capacity: 1, queue: 10, service: {mean: 300ms}}\n")
	if lane["timed_out"] != 3.0 || lane["wasted_work_s"] != 0.9 || lane["gave_up"] != 1.0 || lane["attempts"] != 3.0 {
		t.Errorf("timed out %v wasted %v gave up %v attempts %v, want 3, 0.9, 1, 3", lane["timed_out"], lane["wasted_work_s"], lane["gave_up"], lane["attempts"])
	}
	if c := lane["classes"].([]any)[0].(map[string]any); c["timed_out"] != 3.0 {
		t.Errorf("class timed out %v, want 3", c["timed_out"])
	}
	if want := "under token bucket clients gave up 3 of 3 attempts at their timeout; the backend still spent 900ms of work"; !hasLine(found, want) {
		t.Errorf("findings %q lack %q", found, want)
	}
}

// A budget of ratio 0.5 over 10 requests at 0, nine refused for the hour:
// five retries (10×1000 tokens, 2000 each), nine retries denied.
func TestRetryBudgetInTheJSONAndTheFindings(t *testing.T) {
	lane, found := runJSON(t, "duration: 1s\nlimits: [{limit: 1, window: 1h}]\nlanes: [fixed_window]\n"+
		"clients: [{rtt: 40ms, arrivals: [{kind: burst, count: 10}], retry: {kind: immediate, budget: {ratio: 0.5, min_per_second: 0}}}]\n")
	if lane["retries_denied"] != 9.0 || lane["attempts"] != 15.0 {
		t.Errorf("retries denied %v attempts %v, want 9 and 15", lane["retries_denied"], lane["attempts"])
	}
	if want := "under fixed window retry budgets refused 9 retries, 15 attempts sent for 10 requests"; !hasLine(found, want) {
		t.Errorf("findings %q lack %q", found, want)
	}
}

// CoDel on 30 requests at 0, one server of 10ms: two dropped (by hand in
// sim's TestCoDelDropsByItsControlLaw).
func TestCoDelInTheJSONAndTheFindings(t *testing.T) {
	lane, found := runJSON(t, "duration: 1s\nlimits: [{limit: 1000}]\nlanes: [token_bucket]\n"+
		"clients: [{arrivals: [{kind: burst, count: 30}]}]\n"+
		"backend: {capacity: 1, queue: 100, codel: {target: 5ms, interval: 100ms}, service: {mean: 10ms}}\n")
	if b := lane["backend"].(map[string]any); b["dropped"] != 2.0 || b["served"] != 28.0 {
		t.Errorf("backend %v, want 2 dropped and 28 served", b)
	}
	if want := "under token bucket CoDel dropped 2 waiting requests with 503"; !hasLine(found, want) {
		t.Errorf("findings %q lack %q", found, want)
	}
}

// None of the three lines without the features.
func TestNoTimeFindingsWithoutThem(t *testing.T) {
	lane, found := runJSON(t, "duration: 1s\nlimits: [{limit: 5}]\nlanes: [token_bucket]\nclients: [{arrivals: [{kind: burst, count: 10}]}]\n")
	for _, k := range []string{"abandoned", "wasted_work_s", "retries_denied"} {
		if _, ok := lane[k]; ok {
			t.Errorf("JSON has %s without a deadline or a budget", k)
		}
	}
	if hasLine(found, "deadline") || hasLine(found, "retry budgets") || hasLine(found, "CoDel") {
		t.Errorf("findings %q speak of features not in use", found)
	}
}

// The same scenario and seed give byte-identical JSON with round trips,
// deadlines, budgets, LIFO and CoDel all in play; another seed differs.
func TestTimeFeaturesDeterministic(t *testing.T) {
	src := "duration: 5s\nlimits: [{key: user, limit: 5}]\nlanes: [token_bucket, gcra, aimd]\n" +
		"clients:\n  - count: 5\n    rtt: 30ms\n    deadline: 1s\n    arrivals: [{kind: poisson, rate: 12/s}]\n" +
		"    retry: {kind: exponential, base: 50ms, cap: 400ms, jitter: full, budget: {ratio: 0.2, min_per_second: 2}}\n" +
		"backend: {capacity: 2, queue: 20, discipline: lifo, codel: {}, service: {mean: 40ms, distribution: exponential}}\n"
	render := func(seed string) []byte {
		s, err := scenarios.Parse("det.yaml", []byte("seed: "+seed+"\n"+src))
		if err != nil {
			t.Fatal(err)
		}
		res, err := sim.Run(context.Background(), *s.Config, sim.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := WriteJSON(&b, []Run{{Scenario: s, Result: &res}}); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	a, b, c := render("4"), render("4"), render("5")
	if !bytes.Equal(a, b) {
		t.Error("two runs of one scenario and seed gave different JSON")
	}
	if bytes.Equal(a, c) {
		t.Error("another seed gave the same JSON: the features draw nothing from the seed?")
	}
	for _, k := range []string{`"abandoned"`, `"retries_denied"`} {
		if !bytes.Contains(a, []byte(k)) {
			t.Errorf("the run shows no %s: the test does not exercise it", k)
		}
	}
}
