package sim

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// alone is what lane i of r measured, under the name it would have run under
// alone, for comparing a variant with a plain run of its settings.
func alone(r Result, i int) LaneResult {
	l := r.Lanes[i]
	l.Name = l.Lane.String()
	return l
}

// TestVariantIsTheLaneWithItsSettings is the variant's reference twin: a
// variant decides every attempt as a plain run of its kind with the variant's
// settings as the Config's, and a variant with only a name as the plain lane.
func TestVariantIsTheLaneWithItsSettings(t *testing.T) {
	burst := func(b int64) algorithms.Policy { return algorithms.Policy{Limit: 10, Window: time.Second, Burst: b} }
	cases := []struct {
		name    string
		variant func(c *Config) // adds the variant as the second lane
		plain   func(c *Config) // the plain run it must equal, one lane
	}{
		{"name only", func(c *Config) {
			c.Lanes = []LaneKind{LaneTokenBucket, LaneTokenBucket}
			c.Variants = []Variant{{}, {Name: "tb-copy"}}
		}, func(c *Config) { c.Lanes = []LaneKind{LaneTokenBucket} }},
		{"burst 20", func(c *Config) {
			c.Lanes = []LaneKind{LaneTokenBucket, LaneTokenBucket}
			c.Variants = []Variant{{}, {Name: "tb_burst_20"}}
			c.Overrides = []LaneOverride{{Name: "tb_burst_20", Policy: burst(20)}}
		}, func(c *Config) { c.Lanes, c.Limits[0].Policy = []LaneKind{LaneTokenBucket}, burst(20) }},
		{"aimd backoff", func(c *Config) {
			c.Lanes = []LaneKind{LaneAIMD, LaneAIMD}
			c.Variants = []Variant{{}, {Name: "aimd-halves", AIMD: &AIMDSettings{Backoff: 0.5}}}
		}, func(c *Config) { c.Lanes, c.AIMD = []LaneKind{LaneAIMD}, AIMDSettings{Initial: 4, Backoff: 0.5} }},
		{"throttle over gcra", func(c *Config) {
			c.Lanes = []LaneKind{LaneClientThrottle, LaneClientThrottle}
			c.Variants = []Variant{{}, {Name: "throttle-gcra", Throttle: &ThrottleSettings{Server: LaneGCRA}}}
		}, func(c *Config) {
			c.Lanes, c.Throttle = []LaneKind{LaneClientThrottle}, ThrottleSettings{Server: LaneGCRA, K: 1.5}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			world := func() Config {
				c := mixedWorld()
				c.AIMD = AIMDSettings{Initial: 4}
				c.Throttle = ThrottleSettings{K: 1.5}
				return c
			}
			v, p := world(), world()
			tc.variant(&v)
			tc.plain(&p)
			var log traceLog
			got := mustRun(t, v, Options{Trace: &log})
			want := mustRun(t, p, Options{})
			name := v.LaneName(1)
			if got.Lanes[1].Name != name {
				t.Errorf("lane 1 is named %q, want %q", got.Lanes[1].Name, name)
			}
			if g, w := alone(got, 1), want.Lanes[0]; g.Verdicts != w.Verdicts || g.Admitted != w.Admitted || g.Refused != w.Refused || g.Shed != w.Shed {
				t.Errorf("the variant admitted %d, refused %d, shed %d (verdicts %x); alone with its settings %d, %d, %d (%x)",
					g.Admitted, g.Refused, g.Shed, g.Verdicts, w.Admitted, w.Refused, w.Shed, w.Verdicts)
			}
			for _, r := range log.recs {
				if r.LaneName != v.LaneName(r.LaneIndex) || r.Lane != v.Lanes[r.LaneIndex] {
					t.Fatalf("trace record of lane %d (%v) is named %q", r.LaneIndex, r.Lane, r.LaneName)
				}
			}
		})
	}
}

// TestVariantsDiffer: two token buckets that differ only in burst admit a burst
// of 30 at once as their bursts say, side by side in one run.
func TestVariantsDiffer(t *testing.T) {
	cfg := Config{Duration: 2 * time.Second, Lanes: []LaneKind{LaneTokenBucket, LaneTokenBucket},
		Variants: []Variant{{Name: "burst-5"}, {Name: "burst-20"}},
		Limits:   []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 10, Window: time.Second}}},
		Overrides: []LaneOverride{{Name: "burst-5", Policy: algorithms.Policy{Limit: 10, Window: time.Second, Burst: 5}},
			{Name: "burst-20", Policy: algorithms.Policy{Limit: 10, Window: time.Second, Burst: 20}}},
		Clients: []ClientGroup{{Count: 1, Arrivals: []Arrival{{Kind: ArrivalBurst, At: time.Second, Count: 30}}}}}
	r := mustRun(t, cfg, Options{})
	for i, want := range []int64{5, 20} {
		if l := r.Lanes[i]; l.Admitted != want || l.Policy.Burst != want || l.Title() != cfg.Variants[i].Name {
			t.Errorf("lane %d (%s): admitted %d with burst %d, want %d", i, l.Title(), l.Admitted, l.Policy.Burst, want)
		}
	}
}

func TestValidateVariants(t *testing.T) {
	tb := []LaneKind{LaneTokenBucket, LaneTokenBucket}
	cases := []struct {
		name string
		set  func(c *Config)
		want string
	}{
		{"two lanes one name", func(c *Config) { c.Lanes = tb }, "lanes[1]: token_bucket is also lanes[0]: give each lane its own name"},
		{"a variant named as its twin", func(c *Config) { c.Lanes, c.Variants = tb, []Variant{{Name: "x"}, {Name: "x"}} },
			"lanes[1]: x is also lanes[0]"},
		{"a capital", func(c *Config) { c.Lanes, c.Variants = tb, []Variant{{}, {Name: "Burst"}} },
			`variants[1].name: "Burst": a lane's name is lower case letters, digits, '_' and '-', starting with a letter`},
		{"a comma", func(c *Config) { c.Lanes, c.Variants = tb, []Variant{{}, {Name: "a,b"}} }, `variants[1].name: "a,b"`},
		{"too long", func(c *Config) { c.Lanes, c.Variants = tb, []Variant{{}, {Name: strings.Repeat("a", MaxLaneName+1)}} },
			"variants[1].name: 33 bytes long; at most 32"},
		{"another algorithm's name", func(c *Config) { c.Lanes, c.Variants = tb, []Variant{{}, {Name: "gcra"}} },
			"variants[1].name: gcra names another algorithm; a token_bucket lane needs a name of its own"},
		{"more variants than lanes", func(c *Config) { c.Lanes, c.Variants = tb[:1], []Variant{{}, {Name: "b"}} },
			"variants: 2 variants for 1 lanes"},
		{"settings of another kind", func(c *Config) {
			c.Lanes, c.Variants = tb, []Variant{{}, {Name: "b", AIMD: &AIMDSettings{Initial: 3}}}
		}, "variants[1].aimd: a lane of token_bucket has no aimd settings"},
		{"settings out of range", func(c *Config) {
			c.Lanes, c.Variants = []LaneKind{LaneAIMD, LaneAIMD}, []Variant{{}, {Name: "b", AIMD: &AIMDSettings{Backoff: 2}}}
		}, "variants[1].aimd.backoff: must be in (0, 1)"},
		{"a throttle over a concurrency limiter", func(c *Config) {
			c.Lanes = []LaneKind{LaneClientThrottle, LaneClientThrottle}
			c.Variants = []Variant{{}, {Name: "b", Throttle: &ThrottleSettings{Server: LaneAIMD}}}
		}, "variants[1].throttle.server"},
		{"an override of no lane", func(c *Config) {
			c.Lanes, c.Variants = tb, []Variant{{}, {Name: "b"}}
			c.Overrides = []LaneOverride{{Name: "c", Policy: algorithms.Policy{Limit: 1, Window: time.Second}}}
		}, "overrides[0].lane: no lane is named c (the lanes: token_bucket, b)"},
		{"an override below a variant's costs", func(c *Config) {
			c.Lanes, c.Variants = tb, []Variant{{}, {Name: "b"}}
			c.Clients[0].Cost = 3
			c.Overrides = []LaneOverride{{Name: "b", Policy: algorithms.Policy{Limit: 10, Window: time.Second, Burst: 2}}}
		}, "overrides[0].burst: 2 is below the cost 3 of clients[0]: no request of theirs could ever be admitted in lane b"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := mixedWorld()
			tc.set(&c)
			err := c.Validate()
			var fes FieldErrors
			if !errors.As(err, &fes) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Validate() = %v, want %q", err, tc.want)
			}
		})
	}
}
