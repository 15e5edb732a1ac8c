package scenarios

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/contention"
	"github.com/rlsim/rlsim/sim"
)

func TestBuiltinsParseAndRoundTrip(t *testing.T) {
	list := Builtins()
	if len(list) == 0 || list[0].Name != DefaultName {
		t.Fatalf("Builtins() = %v, want %s first", list, DefaultName)
	}
	for _, b := range list {
		t.Run(b.Name, func(t *testing.T) {
			if b.Description == "" || strings.Contains(b.Description, "\n") {
				t.Errorf("description = %q, want one line", b.Description)
			}
			s, err := LoadBuiltin(b.Name)
			if err != nil {
				t.Fatal(err)
			}
			assertRoundTrip(t, s)
		})
	}
}

// assertRoundTrip checks that load → save → load gives the same scenario.
func assertRoundTrip(t *testing.T, s *Scenario) {
	t.Helper()
	out, err := Marshal(s)
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	again, err := Parse(s.File, out)
	if err != nil {
		t.Fatalf("Parse(Marshal(s)): %v\n%s", err, out)
	}
	if !reflect.DeepEqual(again.Config, s.Config) || !reflect.DeepEqual(again.Contention, s.Contention) ||
		again.Description != s.Description || !sameChecks(again.Checks, s.Checks) {
		t.Errorf("round trip changed the scenario:\nbefore %+v %+v\nafter  %+v %+v\nYAML:\n%s",
			s.Config, s.Contention, again.Config, again.Contention, out)
	}
}

func TestDefaultsMakeAShortFileWhole(t *testing.T) {
	s, err := Parse("short.yaml", []byte("clients:\n  - arrivals:\n      - kind: constant\n        rate: 20/s\n"))
	if err != nil {
		t.Fatal(err)
	}
	c := s.Config
	if c.Duration != DefaultDuration || c.Seed != DefaultSeed {
		t.Errorf("duration, seed = %v, %d; want %v, %d", c.Duration, c.Seed, DefaultDuration, DefaultSeed)
	}
	if len(c.Limits) != 1 || c.Limits[0].Key != sim.KeyGlobal || c.Limits[0].Policy.Limit != defaultLimit ||
		c.Limits[0].Policy.Window != defaultWindow {
		t.Errorf("limits = %+v, want one global limit of %d per %v", c.Limits, defaultLimit, defaultWindow)
	}
	if len(c.Lanes) != 0 {
		t.Errorf("lanes = %v, want none (all eight)", c.Lanes)
	}
	g := c.Clients[0]
	if g.Count != 1 || g.Cost != 1 || g.Retry.Kind != sim.RetryNone || g.Name != "group0" {
		t.Errorf("client group = %+v, want one client of cost 1 named group0 that does not retry", g)
	}
	if s.Name != "short" || c.Name != "short" {
		t.Errorf("name = %q, config name %q; want short", s.Name, c.Name)
	}
}

func TestDurationsAndRates(t *testing.T) {
	durations := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"250ms", 250 * time.Millisecond, true},
		{"1.5s", 1500 * time.Millisecond, true},
		{"2m", 2 * time.Minute, true},
		{"1h30m", 90 * time.Minute, true},
		{"0", 0, true},
		{"10", 0, false},
		{"1.5", 0, false},
		{"soon", 0, false},
	}
	for _, tc := range durations {
		t.Run("duration "+tc.in, func(t *testing.T) {
			got, err := parseDuration(tc.in)
			if (err == nil) != tc.ok || got != tc.want {
				t.Errorf("parseDuration(%q) = %v, %v; want %v, ok=%v", tc.in, got, err, tc.want, tc.ok)
			}
			if tc.ok {
				if back, _ := parseDuration(formatDuration(got)); back != got {
					t.Errorf("formatDuration(%v) = %q, reads back as %v", got, formatDuration(got), back)
				}
			}
		})
	}
	rates := []struct {
		in   string
		want sim.Rate
		ok   bool
	}{
		{"10/s", sim.Rate{Count: 10, Per: time.Second}, true},
		{"100/1m", sim.Rate{Count: 100, Per: time.Minute}, true},
		{"5 per 2s", sim.Rate{Count: 5, Per: 2 * time.Second}, true},
		{"3/250ms", sim.Rate{Count: 3, Per: 250 * time.Millisecond}, true},
		{"1/10s", sim.Rate{Count: 1, Per: 10 * time.Second}, true},
		{"10", sim.Rate{}, false},
		{"0/s", sim.Rate{}, false},
		{"-1/s", sim.Rate{}, false},
		{"1.5/s", sim.Rate{}, false},
		{"10/0s", sim.Rate{}, false},
		{"10/fortnight", sim.Rate{}, false},
	}
	for _, tc := range rates {
		t.Run("rate "+tc.in, func(t *testing.T) {
			got, err := parseRate(tc.in)
			if (err == nil) != tc.ok || got != tc.want {
				t.Errorf("parseRate(%q) = %v, %v; want %v, ok=%v", tc.in, got, err, tc.want, tc.ok)
			}
			if tc.ok {
				if back, _ := parseRate(formatRate(got)); back != got {
					t.Errorf("formatRate(%v) = %q, reads back as %v", got, formatRate(got), back)
				}
			}
		})
	}
}

const okClient = `
clients:
  - arrivals:
      - kind: constant
        rate: 5/s
`

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want []string // each error line, in order
	}{
		{
			name: "unknown field with a suggestion",
			yaml: "durration: 5s\n" + okClient,
			want: []string{`f.yaml:1: durration: unknown field; did you mean "duration"?`},
		},
		{
			name: "wrong type",
			yaml: "seed: many\n" + okClient,
			want: []string{`f.yaml:1: seed: want a whole number from 0 to 18446744073709551615, got "many"`},
		},
		{
			name: "duration without unit",
			yaml: "duration: 10\n" + okClient,
			want: []string{`f.yaml:1: duration: "10" has no unit: want a duration like 250ms, 1.5s or 2m`},
		},
		{
			name: "unknown jitter with a suggestion",
			yaml: okClient + "    retry:\n      kind: exponential\n      jitter: fulll\n",
			want: []string{`f.yaml:8: clients[0].retry.jitter: unknown value "fulll" (want none, full, equal, decorrelated); did you mean "full"?`},
		},
		{
			name: "contention schedule and backoffs",
			yaml: "contention:\n  clients: [1]\n  jitters: [no_backof]\n  schedule: brookr\n",
			want: []string{
				`f.yaml:3: contention.jitters[0]: unknown value "no_backof" (want none, full, equal, decorrelated, no_backoff); did you mean "no_backoff"?`,
				`f.yaml:4: contention.schedule: unknown value "brookr" (want base_first, brooker); did you mean "brooker"?`,
			},
		},
		{
			name: "no_backoff is not a client's jitter",
			yaml: okClient + "    retry:\n      kind: exponential\n      jitter: no_backoff\n",
			want: []string{`f.yaml:8: clients[0].retry.jitter: unknown value "no_backoff" (want none, full, equal, decorrelated)`},
		},
		{
			name: "unknown lane",
			yaml: "lanes: [gcra, token_buckt]\n" + okClient,
			want: []string{`f.yaml:1: lanes[1]: unknown value "token_buckt" (want ` + strings.Join(sim.LaneNames(), ", ") + `); did you mean "token_bucket"?`},
		},
		{
			name: "every error at once",
			yaml: "duration: -1s\nlanes: [gcra, gcra]\nlimits:\n  - limit: 0\n    key: nat\n" + okClient,
			want: []string{
				`f.yaml:1: duration: must be positive, got -1s`,
				`f.yaml:2: lanes[1]: gcra is also lanes[0]; to run an algorithm twice give one a name of its own: {name: gcra_2, algorithm: gcra}`,
				`f.yaml:4: limits[0].limit: must be positive, got 0`,
				`f.yaml:5: limits[0].key: unknown value "nat" (want global, ip, user, api_key, tenant, endpoint)`,
			},
		},
		{
			name: "contradictions",
			yaml: "lanes: [gcra, gcra]\n" + okClient + "    retry:\n      kind: exponential\n      base: 2s\n      cap: 1s\n      retry_after_jitter: 1s\n",
			want: []string{
				`f.yaml:1: lanes[1]: gcra is also lanes[0]; to run an algorithm twice give one a name of its own: {name: gcra_2, algorithm: gcra}`,
				`f.yaml:10: clients[0].retry.cap: 1s is below base 2s`,
				`f.yaml:11: clients[0].retry.retry_after_jitter: needs honor_retry_after: true`,
			},
		},
		{
			name: "field the kind does not use",
			yaml: "clients:\n  - arrivals:\n      - kind: burst\n        rate: 5/s\n",
			want: []string{
				`f.yaml:3: clients[0].arrivals[0]: missing field count, which kind burst needs`,
				`f.yaml:4: clients[0].arrivals[0].rate: not used by kind burst (it uses count, at, spread)`,
			},
		},
		{
			name: "cost above every burst",
			yaml: "limits:\n  - limit: 10\nclients:\n  - cost: 20\n    arrivals:\n      - kind: constant\n        rate: 5/s\n",
			want: []string{`f.yaml:4: clients[0].cost: 20 is more than the burst 10 of limits[0] (global): no request could ever be admitted`},
		},
		{
			name: "missing clients",
			yaml: "duration: 5s\n",
			want: []string{`f.yaml: clients: at least one client group is needed (or a contention section)`},
		},
		{
			name: "contention with simulation fields",
			yaml: "contention:\n  clients: [10]\n" + okClient,
			want: []string{`f.yaml:4: clients: not used by a contention study (the file has a contention section)`},
		},
		{
			name: "not YAML",
			yaml: "clients: [\n",
			want: []string{`f.yaml:1: not valid YAML: did not find expected node content`},
		},
		{
			// yaml.v3 prints no line for an error on the first line; rlsim finds it.
			name: "not YAML on the first line",
			yaml: "description: a: b\n" + okClient,
			want: []string{`f.yaml:1: not valid YAML: mapping values are not allowed in this context`},
		},
		{
			name: "bad placeholder",
			yaml: okClient + "    identity:\n      user: u-{n}\n",
			want: []string{`f.yaml:7: clients[0].identity.user: unknown placeholder {n} (want {i}, the client's index, or {g}, the group name)`},
		},
		{
			name: "immediate retries without a maximum",
			yaml: okClient + "    retry:\n      kind: immediate\n",
			want: []string{`f.yaml:6: clients[0].retry.max_attempts: must be positive for immediate retries without a round trip (rtt): a refused client would retry forever at the same instant`},
		},
		{
			name: "change out of order",
			yaml: okClient + "backend:\n  service: {mean: 10ms}\n  changes:\n    - {at: 2s, capacity: 0}\n    - {at: 1s, capacity: 1}\n",
			want: []string{`f.yaml:10: backend.changes[1].at: 1s is not after the previous change at 2s`},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("f.yaml", []byte(tc.yaml))
			var errs Errors
			if !errors.As(err, &errs) {
				t.Fatalf("Parse error = %v, want Errors", err)
			}
			var got []string
			for _, e := range errs {
				got = append(got, e.Error())
			}
			// An unknown field's message also lists the valid fields; compare up to that.
			for i := range got {
				if j := strings.Index(got[i], " (fields here:"); j >= 0 {
					got[i] = got[i][:j]
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := Load("no/such/file.yaml")
	var fe *FieldError
	if !errors.As(err, &fe) || err.Error() != "no/such/file.yaml: no such file" {
		t.Errorf("Load error = %v, want a FieldError saying no such file", err)
	}
}

func TestCheckBudget(t *testing.T) {
	s, err := LoadBuiltin("steady-overload")
	if err != nil {
		t.Fatal(err)
	}
	est := s.Config.EstimateEvents()
	tests := []struct {
		budget int64
		refuse bool
	}{{est, false}, {est - 1, true}, {1, true}}
	for _, tc := range tests {
		err := s.CheckBudget(tc.budget)
		var be *BudgetError
		if errors.As(err, &be) != tc.refuse {
			t.Errorf("CheckBudget(%d) with estimate %d = %v, want refused=%v", tc.budget, est, err, tc.refuse)
		}
		if tc.refuse && be.Estimate != est {
			t.Errorf("BudgetError.Estimate = %d, want %d", be.Estimate, est)
		}
	}
}

func TestParseLanes(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		err  string
	}{
		{"gcra,token_bucket", []string{"gcra", "token_bucket"}, ""},
		{" fixed_window , ", []string{"fixed_window"}, ""},
		{"tb-20,gcra", []string{"tb-20", "gcra"}, ""}, // a variant's name: SelectLanes judges it
		{"gcra,gcra", nil, "gcra is named twice"},
		{"", nil, "no lanes named"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseLanes(tc.in)
			if !reflect.DeepEqual(got, tc.want) || (err == nil) != (tc.err == "") ||
				(err != nil && !strings.Contains(err.Error(), tc.err)) {
				t.Errorf("ParseLanes(%q) = %v, %v; want %v, error containing %q", tc.in, got, err, tc.want, tc.err)
			}
		})
	}
}

func TestJSONSchema(t *testing.T) {
	type object struct {
		Enum       []string
		Properties map[string]struct{ Enum []string }
	}
	var s struct {
		Properties map[string]struct {
			Items struct {
				Enum       []string
				Properties map[string]json.RawMessage
				AnyOf      []object
			}
		}
	}
	if err := json.Unmarshal(JSONSchema(), &s); err != nil {
		t.Fatalf("JSONSchema is not JSON: %v", err)
	}
	lane := s.Properties["lanes"].Items.AnyOf
	if len(lane) != 2 || !reflect.DeepEqual(lane[0].Enum, sim.LaneNames()) || !reflect.DeepEqual(lane[1].Properties["algorithm"].Enum, sim.LaneNames()) {
		t.Errorf("a lane is %+v, want a name of %v or a mapping whose algorithm is one", lane, sim.LaneNames())
	}
	for _, f := range fieldNames(reflect.TypeFor[clientSpec]()) {
		if _, ok := s.Properties["clients"].Items.Properties[f]; !ok {
			t.Errorf("schema of clients lacks %s", f)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, b := range Builtins() {
		data, _ := BuiltinSource(b.Name)
		f.Add(data)
	}
	f.Add([]byte("a: &a [*a, *a]\n"))
	f.Add([]byte(okClient + "lanes: [gcra]\nbackend: {service: {mean: 1ms}}\n"))
	f.Add([]byte(okClient + "lanes: [gcra, {name: g-2, algorithm: gcra, limits: [{burst: 3}]}, {name: a, algorithm: aimd, aimd: {min: 2}}]\n" +
		"overrides: [{lane: g-2, limit: 4}]\nbackend: {service: {mean: 1ms}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse("fuzz.yaml", data)
		if err != nil {
			return
		}
		assertRoundTrip(t, s)
		assertRunStarts(t, s)
	})
}

// assertRunStarts holds Parse to the promise of validate: a file it accepts is
// one a run starts and ends, here under a small event budget.
func assertRunStarts(t *testing.T, s *Scenario) {
	t.Helper()
	var be *sim.BudgetError
	if s.Contention != nil {
		c := *s.Contention
		c.MaxEvents = 20_000
		if _, err := contention.Run(context.Background(), c); err != nil && !errors.As(err, &be) {
			t.Fatalf("a parsed study does not run: %v", err)
		}
		return
	}
	if _, err := sim.Run(context.Background(), *s.Config, sim.Options{MaxEvents: 20_000}); err != nil && !errors.As(err, &be) {
		t.Fatalf("a parsed scenario does not run: %v", err)
	}
}

func TestTooManyProblemsAreCut(t *testing.T) {
	var b strings.Builder
	for i := range 2 * maxErrors {
		fmt.Fprintf(&b, "field%d: 1\n", i)
	}
	_, err := Parse("f.yaml", []byte(b.String()))
	var errs Errors
	if !errors.As(err, &errs) || len(errs) != maxErrors+1 || errs[maxErrors].Msg != fmt.Sprintf("and %d more problems", maxErrors+1) {
		t.Errorf("got %d problems, last %v; want %d and a count of the rest", len(errs), errs[len(errs)-1], maxErrors)
	}
}

// sameChecks compares checks but for the lines they were read from.
func sameChecks(a, b []Check) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		x.Line, y.Line = 0, 0
		if x != y {
			return false
		}
	}
	return true
}
