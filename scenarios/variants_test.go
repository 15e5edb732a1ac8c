package scenarios

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

const variantsBase = `limits:
  - limit: 10
    window: 1s
    burst: 8
  - key: user
    limit: 3
aimd:
  initial: 4
  target: 100ms
clients:
  - name: users
    cost: 2
    arrivals:
      - kind: constant
        rate: 20/s
backend:
  service:
    mean: 10ms
`

func TestParseVariants(t *testing.T) {
	s, err := Parse("v.yaml", []byte(variantsBase+`lanes:
  - token_bucket
  - {name: tb-burst-20, algorithm: token_bucket, limits: [{burst: 20}, {limit: 5, window: 2s}]}
  - {name: aimd-halves, algorithm: aimd, aimd: {backoff: 0.5}}
  - {algorithm: gcra}
overrides:
  - {lane: tb-burst-20, limit_index: 1, limit: 7}
  - {lane: token_bucket, limit: 10, burst: 2}
checks:
  - {lane: tb-burst-20, metric: success_rate, op: ">=", value: 50%}
`))
	if err != nil {
		t.Fatal(err)
	}
	c := s.Config
	second := time.Second
	wantLanes := []sim.LaneKind{sim.LaneTokenBucket, sim.LaneTokenBucket, sim.LaneAIMD, sim.LaneGCRA}
	wantVariants := []sim.Variant{{}, {Name: "tb-burst-20"}, {Name: "aimd-halves", AIMD: &sim.AIMDSettings{Backoff: 0.5}}, {}}
	wantOverrides := []sim.LaneOverride{
		{Lane: sim.LaneTokenBucket, Name: "tb-burst-20", Limit: 1, Policy: algorithms.Policy{Limit: 7, Window: second}},
		{Lane: sim.LaneTokenBucket, Policy: algorithms.Policy{Limit: 10, Window: second, Burst: 2}},
		{Lane: sim.LaneTokenBucket, Name: "tb-burst-20", Policy: algorithms.Policy{Limit: 10, Window: second, Burst: 20}},
		{Lane: sim.LaneTokenBucket, Name: "tb-burst-20", Limit: 1, Policy: algorithms.Policy{Limit: 5, Window: 2 * second}},
	}
	if !reflect.DeepEqual(c.Lanes, wantLanes) || !reflect.DeepEqual(c.Variants, wantVariants) || !reflect.DeepEqual(c.Overrides, wantOverrides) {
		t.Errorf("lanes %v\nvariants %+v\noverrides %+v\nwant %v\n%+v\n%+v", c.Lanes, c.Variants, c.Overrides, wantLanes, wantVariants, wantOverrides)
	}
	if got := c.LaneNames(); !reflect.DeepEqual(got, []string{"token_bucket", "tb-burst-20", "aimd-halves", "gcra"}) {
		t.Errorf("lane names %v", got)
	}
	if s.Checks[0].Lane != "tb-burst-20" {
		t.Errorf("the check names lane %q, want tb-burst-20", s.Checks[0].Lane)
	}
	assertRoundTrip(t, s)
}

func TestVariantErrors(t *testing.T) {
	cases := []struct {
		name, lanes string
		extra       string
		want        string
	}{
		{"unknown algorithm", `[{name: a, algorithm: tokn_bucket}]`, "",
			`v.yaml:19: lanes[0].algorithm: unknown value "tokn_bucket"`},
		{"no algorithm", `[{name: a}]`, "", "v.yaml:19: lanes[0]: missing field algorithm"},
		{"unknown field", `[{name: a, algorithm: gcra, burst: 3}]`, "", `v.yaml:19: lanes[0].burst: unknown field`},
		{"a name twice", `[{name: a, algorithm: gcra}, {name: a, algorithm: token_bucket}]`, "",
			"v.yaml:19: lanes[1]: a is also lanes[0]; to run an algorithm twice give one a name of its own"},
		{"a name that is another algorithm's", `[{name: gcra, algorithm: token_bucket}]`, "",
			"v.yaml:19: lanes[0].name: gcra names another algorithm; a token_bucket lane needs a name of its own"},
		{"a badly formed name", `[{name: "Tb 20", algorithm: token_bucket}]`, "",
			`v.yaml:19: lanes[0].name: "Tb 20": a lane's name is lower case letters`},
		{"a limit beyond the chain", `[{name: a, algorithm: gcra, limits: [{}, {}, {burst: 3}]}]`, "",
			"v.yaml:19: lanes[0].limits[2]: the chain has 2 limit(s), so this entry has none to change"},
		{"a burst below the cost", "\n  - {name: a, algorithm: gcra, limits: [{burst: 1}]}", "",
			"v.yaml:20: lanes[0].limits[0].burst: 1 is below the cost 2 of clients[0]: no request of theirs could ever be admitted in lane a"},
		{"settings its algorithm does not read", "\n  - {name: a, algorithm: gcra, aimd: {initial: 3}}", "",
			"v.yaml:20: lanes[0].aimd: a lane of gcra has no aimd settings"},
		{"settings out of range", "\n  - aimd\n  - name: a\n    algorithm: aimd\n    aimd:\n      backoff: 1.5\n", "",
			"v.yaml:24: lanes[1].aimd.backoff: must be in (0, 1)"},
		{"an override of no lane", `[{name: tb-20, algorithm: token_bucket}]`, "overrides:\n  - {lane: tb-2O, limit: 3}\n",
			`v.yaml:21: overrides[0].lane: no lane is named tb-2O (the lanes: tb-20); did you mean "tb-20"?`},
		{"a check of no lane", `[{name: tb-20, algorithm: token_bucket}]`, "checks:\n  - {lane: token_bucket, metric: success_rate, op: \">=\", value: 1%}\n",
			"v.yaml:21: checks[0].lane: token_bucket is not a lane this scenario runs (tb-20)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := variantsBase + "lanes: " + tc.lanes + "\n" + tc.extra
			_, err := Parse("v.yaml", []byte(src))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Parse = %v, want %q\n%s", err, tc.want, src)
			}
		})
	}
}

func TestSetReachesAVariant(t *testing.T) {
	src := variantsBase + "lanes:\n  - token_bucket\n  - {name: tb-20, algorithm: token_bucket, limits: [{burst: 20}]}\n"
	set, err := ParseSet("lanes[1].limits[0].burst=50")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse("v.yaml", []byte(src), set)
	if err != nil {
		t.Fatal(err)
	}
	if o := s.Config.Overrides; len(o) != 1 || o[0].Name != "tb-20" || o[0].Policy.Burst != 50 {
		t.Errorf("overrides %+v, want tb-20's burst 50", o)
	}
	set, _ = ParseSet("lanes[0].limits[0].burst=50")
	if _, err := Parse("v.yaml", []byte(src), set); err == nil || !strings.Contains(err.Error(), "lanes[0]: the file writes \"token_bucket\" here, not a mapping of fields") {
		t.Errorf("a set into a lane written as a name: %v", err)
	}
}

func TestSelectLanes(t *testing.T) {
	src := variantsBase + "lanes:\n  - token_bucket\n  - {name: tb-20, algorithm: token_bucket, limits: [{burst: 20}]}\n  - {name: aimd-b, algorithm: aimd, aimd: {backoff: 0.5}}\n"
	cases := []struct {
		names     []string
		lanes     []sim.LaneKind
		variants  []sim.Variant
		overrides int
		err       string
	}{
		{[]string{"tb-20"}, []sim.LaneKind{sim.LaneTokenBucket}, []sim.Variant{{Name: "tb-20"}}, 1, ""},
		{[]string{"gcra", "token_bucket"}, []sim.LaneKind{sim.LaneGCRA, sim.LaneTokenBucket}, nil, 0, ""},
		{[]string{"aimd-b", "tb-20"}, []sim.LaneKind{sim.LaneAIMD, sim.LaneTokenBucket},
			[]sim.Variant{{Name: "aimd-b", AIMD: &sim.AIMDSettings{Backoff: 0.5}}, {Name: "tb-20"}}, 1, ""},
		{[]string{"tb-2"}, nil, nil, 0, `unknown lane "tb-2" (want token_bucket, tb-20, aimd-b, fixed_window`},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.names, ","), func(t *testing.T) {
			s, err := Parse("v.yaml", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			err = SelectLanes(s.Config, tc.names)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("SelectLanes = %v, want %q", err, tc.err)
				}
				return
			}
			c := s.Config
			if err != nil || !reflect.DeepEqual(c.Lanes, tc.lanes) || !reflect.DeepEqual(c.Variants, tc.variants) || len(c.Overrides) != tc.overrides {
				t.Errorf("SelectLanes = %v: lanes %v, variants %+v, %d overrides; want %v, %+v, %d", err, c.Lanes, c.Variants, len(c.Overrides), tc.lanes, tc.variants, tc.overrides)
			}
			if err := c.Validate(); err != nil {
				t.Errorf("the lanes selected do not validate: %v", err)
			}
		})
	}
}
