package scenarios

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

const setBase = `limits:
  - limit: 10
    window: 1s
clients:
  - name: users
    arrivals:
      - kind: constant
        rate: 5/s
  - name: abuser
    arrivals:
      - kind: constant
        rate: 50/s
`

func TestSetOverridesTheFile(t *testing.T) {
	tests := []struct {
		name  string
		sets  []string
		check func(s *Scenario) string // "" when right
	}{
		{"a number in a list entry", []string{"limits[0].limit=20"}, func(s *Scenario) string {
			if got := s.Config.Limits[0].Policy.Limit; got != 20 {
				return "limit " + itoa(got)
			}
			return ""
		}},
		{"a field the file left out, under a section it left out", []string{"clients[1].retry.kind=exponential", "clients[1].retry.jitter=full"}, func(s *Scenario) string {
			if got := s.Config.Clients[1].Retry.Kind.String(); got != "exponential" {
				return "retry " + got
			}
			if got := s.Config.Clients[1].Retry.Jitter.String(); got != "full" {
				return "jitter " + got
			}
			return ""
		}},
		{"a flow list", []string{"lanes=[gcra, token_bucket]"}, func(s *Scenario) string {
			if len(s.Config.Lanes) != 2 || s.Config.Lanes[0].String() != "gcra" {
				return "lanes " + itoa(int64(len(s.Config.Lanes)))
			}
			return ""
		}},
		{"an op is plain text, not YAML's block indicator", []string{`checks=[{metric: peak_ratio, op: "<", value: 2}]`, "checks[0].op=>="}, func(s *Scenario) string {
			if s.Checks[0].Op != ">=" {
				return "op " + s.Checks[0].Op
			}
			return ""
		}},
		{"a client's service factor, with a backend set too", []string{"backend.service.mean=10ms", "clients[1].service_factor=2.5"}, func(s *Scenario) string {
			if got := s.Config.Clients[1].ServiceFactor; got != 2.5 || s.Config.Backend == nil {
				return "service factor " + strconv.FormatFloat(got, 'g', -1, 64)
			}
			return ""
		}},
		{"the last set wins", []string{"seed=3", "seed=4"}, func(s *Scenario) string {
			if s.Config.Seed != 4 {
				return "seed " + itoa(int64(s.Config.Seed))
			}
			return ""
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Parse("f.yaml", []byte(setBase), mustSets(t, tc.sets...)...)
			if err != nil {
				t.Fatal(err)
			}
			if msg := tc.check(s); msg != "" {
				t.Error(msg)
			}
		})
	}
}

func TestSetErrorsNameTheFileAndTheFlag(t *testing.T) {
	tests := []struct {
		name string
		sets []string
		want []string // every line of the error
	}{
		{"a value the field refuses", []string{"limits[0].limit=abc"},
			[]string{`f.yaml (--set limits[0].limit=abc): limits[0].limit: want a whole number, got "abc"`}},
		{"an unknown field", []string{"limits[0].limt=3"},
			[]string{`f.yaml (--set limits[0].limt=3): limits[0].limt: unknown field; did you mean "limit"? (fields here: name, key, limit, concurrency, window, burst, headers, enforce, endpoint, changes, state, local_limit, sync_interval, on_store_error, fallback, store)`}},
		{"an entry the list lacks", []string{"clients[2].count=1"},
			[]string{"f.yaml (--set clients[2].count=1): clients[2]: no such entry: the list has 2"}},
		{"a field under a value", []string{"limits[0].window.x=1"},
			[]string{"f.yaml (--set limits[0].window.x=1): limits[0].window holds a value, not fields; x is not there"}},
		{"an enum, with a suggestion", []string{"clients[0].retry.kind=exponentail"},
			[]string{`f.yaml (--set clients[0].retry.kind=exponentail): clients[0].retry.kind: unknown value "exponentail" (want none, immediate, fixed, exponential); did you mean "exponential"?`}},
		{"a section it creates that lacks a required field", []string{"backend.queue=3"},
			[]string{"f.yaml (--set backend.queue=3): backend: missing field service (the service time of one request)"}},
		{"a flow list that is not YAML", []string{"lanes=[gcra"},
			[]string{"f.yaml (--set lanes=[gcra): the value is not valid YAML: line 1: did not find expected ',' or ']'"}},
		{"a field under a scalar the file wrote", []string{"clients[0].name.first=x"},
			[]string{"f.yaml (--set clients[0].name.first=x): clients[0].name holds a value, not fields; first is not there"}},
		{"a set in error adds nothing to the file", []string{"backend.service.meen=1s", "backend.changes[0].at=1s"}, []string{
			`f.yaml (--set backend.service.meen=1s): backend.service.meen: unknown field; did you mean "mean"? (fields here: mean, distribution)`,
			"f.yaml (--set backend.changes[0].at=1s): backend.changes[0]: no such entry: the list has 0"}},
		{"a problem of the limit holding the value", []string{"limits[0].burst=9223372036854775807"}, []string{
			"f.yaml:2: limits[0]: token bucket: burst 9223372036854775807 at 1 per 100ms overflows exact int64 arithmetic (9223372036854775808 × 100000000 ns); use a smaller burst or a window with a larger common divisor (with --set limits[0].burst=9223372036854775807)"}},
		{"a problem of a field the value is compared with", []string{"clients[0].retry={kind: exponential, cap: 1s}", "clients[0].retry.base=2s"}, []string{
			"f.yaml (--set clients[0].retry={kind: exponential, cap: 1s}): clients[0].retry.cap: 1s is below base 2s (with --set clients[0].retry.base=2s)"}},
		{"a problem with the value as the measure", []string{"clients[0].arrivals[0].start=2s", "duration=1s"}, []string{
			"f.yaml (--set clients[0].arrivals[0].start=2s): clients[0].arrivals[0].start: 2s is not before the scenario's duration 1s (with --set duration=1s)"}},
		{"a problem elsewhere naming the value's field and what holds it", []string{"limits[0].burst=1", "clients[0].cost=2"}, []string{
			"f.yaml (--set clients[0].cost=2): clients[0].cost: 2 is more than the burst 1 of limits[0] (global): no request could ever be admitted (with --set limits[0].burst=1)"}},
		{"every problem at once", []string{"limits[0].limit=-1", "duration=0s"},
			[]string{"f.yaml (--set limits[0].limit=-1): limits[0].limit: must be positive, got -1", "f.yaml (--set duration=0s): duration: must be positive, got 0s"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("f.yaml", []byte(setBase), mustSets(t, tc.sets...)...)
			var es Errors
			if !errors.As(err, &es) {
				t.Fatalf("error %v, want Errors", err)
			}
			got := strings.Split(err.Error(), "\n")
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("error:\n%s\nwant:\n%s", err, strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestParseSet(t *testing.T) {
	tests := []struct {
		arg, wantErr string
		want         []step
	}{
		{arg: "limits[0].limit=2", want: []step{{field: "limits"}, {index: 0}, {field: "limit"}}},
		{arg: "a[1][2]=x", want: []step{{field: "a"}, {index: 1}, {index: 2}}},
		{arg: "seed=", want: []step{{field: "seed"}}},
		{arg: "seed", wantErr: "--set seed: want path=value, e.g. limits[0].limit=20"},
		{arg: "=3", wantErr: "--set =3: the path is empty"},
		{arg: "a..b=1", wantErr: `--set a..b=1: path "a..b": a field name is missing before ".b"`},
		{arg: "a[x]=1", wantErr: `--set a[x]=1: path "a[x]": index "x" is not a whole number from 0`},
		{arg: "a[-1]=1", wantErr: `--set a[-1]=1: path "a[-1]": index "-1" is not a whole number from 0`},
		{arg: "a[1=1", wantErr: `--set a[1=1: path "a[1": [ without ]`},
		{arg: "a.=1", wantErr: `--set a.=1: path "a.": want .field or [index] at "."`},
		{arg: "a[0]b=1", wantErr: `--set a[0]b=1: path "a[0]b": want .field or [index] at "b"`},
	}
	for _, tc := range tests {
		t.Run(tc.arg, func(t *testing.T) {
			s, err := ParseSet(tc.arg)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(s.steps) != len(tc.want) {
				t.Fatalf("steps %+v, want %+v", s.steps, tc.want)
			}
			for i := range s.steps {
				if s.steps[i] != tc.want[i] {
					t.Errorf("step %d = %+v, want %+v", i, s.steps[i], tc.want[i])
				}
			}
		})
	}
}

// FuzzSetPath: any path either parses into steps that print back as the path,
// or is refused; applying it to a scenario never panics.
func FuzzSetPath(f *testing.F) {
	for _, p := range []string{"limits[0].limit", "clients[1].retry.kind", "a[1][2]", "a..b", "[0]", "x[", "lanes"} {
		f.Add(p, "20")
	}
	for _, p := range []string{"topology", "clients", "clients[0].name", "limits[0]", "seed"} {
		f.Add(p, "") // empty: the field goes
	}
	f.Fuzz(func(t *testing.T, path, value string) {
		s, err := ParseSet(path + "=" + value)
		if err != nil {
			return
		}
		if got := printPath(s.steps); got != path && !strings.Contains(path, "=") {
			t.Fatalf("path %q parsed as %q", path, got)
		}
		_, _ = Parse("f.yaml", []byte(setBase), s)
	})
}

func printPath(steps []step) string {
	var b strings.Builder
	for i, st := range steps {
		if st.field == "" {
			b.WriteString("[" + itoa(int64(st.index)) + "]")
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(st.field)
	}
	return b.String()
}

func mustSets(t *testing.T, args ...string) []Set {
	t.Helper()
	var sets []Set
	for _, a := range args {
		s, err := ParseSet(a)
		if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, s)
	}
	return sets
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestSetOnAFileThatIsNoMapping(t *testing.T) {
	_, err := Parse("f.yaml", []byte("hello\n"), mustSets(t, "seed=3")...)
	want := "f.yaml (--set seed=3): the file is \"hello\", not a mapping of fields"
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "f.yaml:1: want a mapping of fields") {
		t.Errorf("error:\n%v\nwant it to hold %q and the file's own problem", err, want)
	}
}

// An empty value means absent, as docs/scenarios.md says: --set topology=
// removes the section (an empty topology: in the file is an error), and an
// empty field the file left out stays out.
func TestSetEmptyRemovesTheField(t *testing.T) {
	const withTopology = setBase + `topology:
  replicas: 4
  routing: round_robin
`
	tests := []struct {
		name  string
		base  string
		sets  []string
		check func(s *Scenario) string
	}{
		{"a section", withTopology, []string{"topology="}, func(s *Scenario) string {
			if s.Config.Topology != nil {
				return "topology still set"
			}
			return ""
		}},
		{"a field of a section", withTopology, []string{"topology.routing="}, func(s *Scenario) string {
			if s.Config.Topology == nil || s.Config.Topology.Replicas[0].Count != 4 {
				return "topology lost its replicas"
			}
			if got := s.Config.Topology.Routing; got != 0 {
				return "routing " + got.String()
			}
			return ""
		}},
		{"a section the file leaves out", setBase, []string{"topology="}, func(s *Scenario) string {
			if s.Config.Topology != nil {
				return "topology set"
			}
			return ""
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Parse("f.yaml", []byte(tc.base), mustSets(t, tc.sets...)...)
			if err != nil {
				t.Fatal(err)
			}
			if msg := tc.check(s); msg != "" {
				t.Error(msg)
			}
		})
	}
}
