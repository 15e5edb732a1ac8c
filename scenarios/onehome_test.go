package scenarios

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// TestSemanticRulesLiveInSim holds each rule between a file's fields to one
// home, sim: the file's problem is the one sim's validation reports for the same
// Config built by hand, word for word, and the format's own checks (decoding and
// building, without sim) find nothing. A rule copied back into this package
// fails the second half; one moved here only fails the first.
func TestSemanticRulesLiveInSim(t *testing.T) {
	const client = "clients:\n  - arrivals:\n      - {kind: constant, rate: 5/s}\n"
	base := func() sim.Config {
		return sim.Config{Duration: DefaultDuration, Seed: DefaultSeed,
			Limits: []sim.Limit{{Name: "global", Key: sim.KeyGlobal, Policy: algorithms.Policy{Limit: defaultLimit, Window: defaultWindow}}},
			Clients: []sim.ClientGroup{{Name: "group0", Count: 1, Cost: 1,
				Arrivals: []sim.Arrival{{Kind: sim.ArrivalConstant, Rate: sim.Rate{Count: 5, Per: time.Second}}}}}}
	}
	group := func(c *sim.Config) *sim.ClientGroup { return &c.Clients[0] }
	backend := func(c *sim.Config, at ...time.Duration) {
		c.Backend = &sim.Backend{Capacity: 1, Service: sim.Service{Mean: time.Millisecond}}
		for _, a := range at {
			c.Backend.Changes = append(c.Backend.Changes, sim.BackendChange{At: a, Capacity: 1})
		}
	}
	const changes = "backend:\n  service: {mean: 1ms}\n  changes:\n"
	tests := []struct {
		name      string
		yaml      string
		path      string // the file's path of the problem
		field     string // sim's
		mod       func(*sim.Config)
		msg       string
		anyConfig bool // Validate refuses it too, not only ValidateScenario
	}{
		{"bucket past the duration", "duration: 2s\nbucket: 3s\n" + client, "bucket", "bucket",
			func(c *sim.Config) { c.Duration, c.Bucket = 2*time.Second, 3*time.Second }, "3s is longer than the duration 2s", true},
		{"two limits of one name", "limits: [{limit: 10}, {limit: 20}]\n" + client, "limits[1].name", "limits[1].name",
			func(c *sim.Config) {
				c.Limits = append(c.Limits, sim.Limit{Key: sim.KeyGlobal, Policy: algorithms.Policy{Limit: 20, Window: time.Second}})
			},
			`"global" also names limits[0]; give each limit its own name`, false},
		{"no clients", "duration: 5s\n", "clients", "clients",
			func(c *sim.Config) { c.Duration, c.Clients = 5*time.Second, nil }, "at least one client group is needed (or a contention section)", true},
		{"two groups of one name", "clients:\n  - {name: a, arrivals: [{kind: burst, count: 1}]}\n  - {name: a, arrivals: [{kind: burst, count: 1}]}\n",
			"clients[1].name", "clients[1].name", func(c *sim.Config) {
				c.Clients = []sim.ClientGroup{{Name: "a", Count: 1, Cost: 1, Arrivals: []sim.Arrival{{Kind: sim.ArrivalBurst, Count: 1}}}}
				c.Clients = append(c.Clients, c.Clients[0])
			}, `"a" is also the name of clients[0]`, true},
		{"a cost above the burst", "limits: [{limit: 10}]\nclients:\n  - cost: 11\n    arrivals: [{kind: constant, rate: 5/s}]\n",
			"clients[0].cost", "clients[0].cost", func(c *sim.Config) { group(c).Cost = 11 },
			"11 is more than the burst 10 of limits[0] (global): no request could ever be admitted", true},
		{"an unknown placeholder", client + "    identity: {ip: 'n-{n}'}\n", "clients[0].identity.ip", "clients[0].identity.ip",
			func(c *sim.Config) { group(c).Identity.IP = "n-{n}" },
			"unknown placeholder {n} (want {i}, the client's index, or {g}, the group name)", true},
		{"no arrival", "clients:\n  - arrivals: []\n", "clients[0].arrivals", "clients[0].arrivals",
			func(c *sim.Config) { group(c).Arrivals = nil }, "at least one arrival process is needed", true},
		{"a stop at the start", "clients:\n  - arrivals:\n      - {kind: constant, rate: 5/s, start: 2s, stop: 2s}\n",
			"clients[0].arrivals[0].stop", "clients[0].arrivals[0].stop", func(c *sim.Config) {
				group(c).Arrivals[0].Start, group(c).Arrivals[0].Stop = 2*time.Second, 2*time.Second
			}, "2s is not after start 2s", true},
		{"a start at the end", "duration: 2s\nclients:\n  - arrivals:\n      - {kind: constant, rate: 5/s, start: 2s}\n",
			"clients[0].arrivals[0].start", "clients[0].arrivals[0].start", func(c *sim.Config) {
				c.Duration, group(c).Arrivals[0].Start = 2*time.Second, 2*time.Second
			}, "2s is not before the scenario's duration 2s", false},
		{"a stop past the end", "duration: 2s\nclients:\n  - arrivals:\n      - {kind: constant, rate: 5/s, stop: 3s}\n",
			"clients[0].arrivals[0].stop", "clients[0].arrivals[0].stop", func(c *sim.Config) {
				c.Duration, group(c).Arrivals[0].Stop = 2*time.Second, 3*time.Second
			}, "3s is after the scenario's duration 2s", false},
		{"a burst at the end", "duration: 2s\nclients:\n  - arrivals:\n      - {kind: burst, count: 1, at: 2s}\n",
			"clients[0].arrivals[0].at", "clients[0].arrivals[0].at", func(c *sim.Config) {
				c.Duration, group(c).Arrivals[0] = 2*time.Second, sim.Arrival{Kind: sim.ArrivalBurst, Count: 1, At: 2 * time.Second}
			}, "2s is not before the scenario's duration 2s", false},
		{"a cap below the base", client + "    retry: {kind: exponential, base: 2s, cap: 1s}\n", "clients[0].retry.cap", "clients[0].retry.cap",
			func(c *sim.Config) {
				group(c).Retry = sim.Retry{Kind: sim.RetryExponential, Base: 2 * time.Second, Cap: time.Second}
			}, "1s is below base 2s", true},
		{"immediate retries without a maximum", client + "    retry: {kind: immediate, max_attempts: 0}\n",
			"clients[0].retry.max_attempts", "clients[0].retry.max_attempts",
			func(c *sim.Config) { group(c).Retry = sim.Retry{Kind: sim.RetryImmediate} },
			"must be positive for immediate retries without a round trip (rtt): a refused client would retry forever at the same instant", true},
		{"a Retry-After jitter without honouring it", client + "    retry: {kind: fixed, delay: 1s, retry_after_jitter: 1s}\n",
			"clients[0].retry.retry_after_jitter", "clients[0].retry.retry_after_jitter", func(c *sim.Config) {
				group(c).Retry = sim.Retry{Kind: sim.RetryFixed, Delay: time.Second, RetryAfterJitter: time.Second}
			}, "needs honor_retry_after: true", true},
		{"two backend changes at one instant", client + changes + "    - {at: 1s, capacity: 1}\n    - {at: 1s, capacity: 1}\n",
			"backend.changes[1].at", "backend.changes[1].at", func(c *sim.Config) { backend(c, time.Second, time.Second) },
			"1s is not after the previous change at 1s", true},
		{"a backend change at the end", "duration: 2s\n" + client + changes + "    - {at: 2s, capacity: 1}\n",
			"backend.changes[0].at", "backend.changes[0].at", func(c *sim.Config) {
				c.Duration = 2 * time.Second
				backend(c, 2*time.Second)
			}, "2s is not before the scenario's duration 2s", false},
		{"no lanes", "lanes: []\n" + client, "lanes", "lanes", func(c *sim.Config) { c.Lanes = []sim.LaneKind{} },
			"at least one lane is needed (leave lanes out for all eight)", true},
		{"a lane's settings of another algorithm", "lanes: [{algorithm: gcra, aimd: {initial: 5}}]\n" + client,
			"lanes[0].aimd", "variants[0].aimd", func(c *sim.Config) {
				c.Lanes, c.Variants = []sim.LaneKind{sim.LaneGCRA}, []sim.Variant{{AIMD: &sim.AIMDSettings{Initial: 5}}}
			}, "a lane of gcra has no aimd settings", true},
		{"a lane's name out of form", "lanes: [{name: Fast, algorithm: gcra}]\n" + client,
			"lanes[0].name", "variants[0].name", func(c *sim.Config) {
				c.Lanes, c.Variants = []sim.LaneKind{sim.LaneGCRA}, []sim.Variant{{Name: "Fast"}}
			}, sim.LaneNameProblem(sim.LaneGCRA, "Fast"), true},
		{"an override of no limit", "overrides: [{lane: gcra, limit_index: 3, limit: 5}]\n" + client,
			"overrides[0].limit_index", "overrides[0].limit_index", func(c *sim.Config) {
				c.Overrides = []sim.LaneOverride{{Lane: sim.LaneGCRA, Limit: 3, Policy: algorithms.Policy{Limit: 5}}}
			}, "the chain has 1 limit(s), so 3 names none", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("f.yaml", []byte(tc.yaml))
			var errs Errors
			if !errors.As(err, &errs) || len(errs) != 1 {
				t.Fatalf("Parse = %v, want one problem", err)
			}
			if e := errs[0]; e.Path != tc.path || e.Msg != tc.msg || (e.Line == 0) != (tc.path == "clients") {
				t.Errorf("Parse = %v, want f.yaml:LINE: %s: %s", e, tc.path, tc.msg)
			}
			if got := formatProblems(t, tc.yaml); len(got) > 0 {
				t.Errorf("the format's own checks report %v: the rule is sim's alone", got)
			}
			c := base()
			tc.mod(&c)
			for _, v := range []struct {
				name  string
				err   error
				wants bool
			}{{"ValidateScenario", c.ValidateScenario(), true}, {"Validate", c.Validate(), tc.anyConfig}} {
				want := sim.FieldError{Field: tc.field, Problem: tc.msg}
				var fes sim.FieldErrors
				errors.As(v.err, &fes)
				if has := containsError(fes, want); has != v.wants {
					t.Errorf("%s() = %v, want it to hold %q: %v", v.name, v.err, want.Error(), v.wants)
				}
			}
		})
	}
}

func containsError(fes sim.FieldErrors, want sim.FieldError) bool {
	for _, fe := range fes {
		if reflect.DeepEqual(fe, want) {
			return true
		}
	}
	return false
}

// formatProblems is what decoding and building src finds, without sim's validation.
func formatProblems(t *testing.T, src string) Errors {
	t.Helper()
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(src), &root); err != nil {
		t.Fatal(err)
	}
	errs := &errorList{file: "f.yaml"}
	var f fileSpec
	d := &decoder{errs: errs, lines: map[string]int{}}
	d.decode(root.Content[0], reflect.ValueOf(&f).Elem(), "", "")
	b := &builder{errs: errs, lines: d.lines, bad: map[string]bool{}}
	b.build(&f, &Scenario{Name: "f"})
	if err := errs.err(); err != nil {
		return err.(Errors)
	}
	return nil
}

// TestFormatAndSimProblemsAtOnce: a file with a problem of the format still
// gets sim's problems elsewhere in it, each at its line, but not those that
// follow from the format's (an arrival whose kind is in error).
func TestFormatAndSimProblemsAtOnce(t *testing.T) {
	src := "durration: 5s\nbucket: 20s\nclients:\n  - arrivals:\n      - {kind: burts, rate: 5/s}\n  - arrivals: []\n"
	_, err := Parse("f.yaml", []byte(src))
	var got []string
	var errs Errors
	errors.As(err, &errs)
	for _, e := range errs {
		got = append(got, fmt.Sprintf("%d %s", e.Line, e.Path))
	}
	want := []string{"1 durration", "2 bucket", "5 clients[0].arrivals[0].kind", "6 clients[1].arrivals"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Parse = %v\nwant problems at %q", err, want)
	}
}
