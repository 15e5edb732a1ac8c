package sim

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// Each zero field with a documented default takes it (world_config.go's doc
// comments), and each field given is kept: a test row per field.
func TestGapsWithDefaultsEachField(t *testing.T) {
	base := func() Config {
		return Config{Duration: 2 * time.Second,
			Limits:  []Limit{{Key: KeyUser, Policy: algorithms.Policy{Limit: 10, Window: time.Second}}},
			Clients: []ClientGroup{{Count: 1, Arrivals: []Arrival{{Kind: ArrivalBurst, Count: 1}}}}}
	}
	for _, tc := range []struct {
		name string
		mod  func(*Config)
		ok   func(Config) bool
	}{
		{"drain 0 is the duration", nil, func(c Config) bool { return c.Drain == 2*time.Second }},
		{"drain given is kept", func(c *Config) { c.Drain = 3 * time.Second }, func(c Config) bool { return c.Drain == 3*time.Second }},
		{"no lanes are the default lanes", nil, func(c Config) bool { return slices.Equal(c.Lanes, DefaultLanes()) }},
		{"lanes given are kept", func(c *Config) { c.Lanes = []LaneKind{LaneGCRA} }, func(c Config) bool { return slices.Equal(c.Lanes, []LaneKind{LaneGCRA}) }},
		{"a limit's name defaults to its key", nil, func(c Config) bool { return c.Limits[0].Name == KeyUser.String() }},
		{"a limit's name given is kept", func(c *Config) { c.Limits[0].Name = "x" }, func(c Config) bool { return c.Limits[0].Name == "x" }},
		{"bucket given is kept", func(c *Config) { c.Bucket = 7 * time.Millisecond }, func(c Config) bool { return c.Bucket == 7*time.Millisecond }},
		{"bucket 0 is set", nil, func(c Config) bool { return c.Bucket > 0 }},
		{"a group's name defaults to clients", nil, func(c Config) bool { return c.Clients[0].Name == "clients" }},
		{"a group's name given is kept", func(c *Config) { c.Clients[0].Name = "u" }, func(c Config) bool { return c.Clients[0].Name == "u" }},
		{"cost 0 is 1", nil, func(c Config) bool { return c.Clients[0].Cost == 1 }},
		{"cost given is kept", func(c *Config) { c.Clients[0].Cost = 3 }, func(c Config) bool { return c.Clients[0].Cost == 3 }},
		{"aimd defaults", nil, func(c Config) bool {
			return c.AIMD == AIMDSettings{Initial: 10, Min: 1, Max: 1000, Target: 100 * time.Millisecond, Backoff: 0.9}
		}},
		{"aimd target is twice the service", func(c *Config) { c.Backend = &Backend{Capacity: 1, Service: Service{Mean: 30 * time.Millisecond}} },
			func(c Config) bool { return c.AIMD.Target == 60*time.Millisecond }},
		{"aimd fields given are kept", func(c *Config) {
			c.AIMD = AIMDSettings{Initial: 4, Min: 2, Max: 8, Target: time.Second, Backoff: 0.5, RetryAfter: time.Second}
		}, func(c Config) bool {
			return c.AIMD == AIMDSettings{Initial: 4, Min: 2, Max: 8, Target: time.Second, Backoff: 0.5, RetryAfter: time.Second}
		}},
		{"throttle defaults", nil, func(c Config) bool {
			return c.Throttle == ThrottleSettings{K: 2, Period: 2 * time.Minute, Server: LaneTokenBucket}
		}},
		{"throttle fields given are kept", func(c *Config) { c.Throttle = ThrottleSettings{K: 3, Period: 24 * time.Second, Server: LaneGCRA} },
			func(c Config) bool {
				return c.Throttle == ThrottleSettings{K: 3, Period: 24 * time.Second, Server: LaneGCRA}
			}},
		{"vegas defaults", nil, func(c Config) bool {
			v := c.Vegas
			return v.Initial == 20 && v.Max == 1000 && v.Smoothing == 1 && v.ProbeMultiplier == 30
		}},
		{"vegas fields given are kept", func(c *Config) {
			c.Vegas = VegasSettings{Initial: 5, Max: 50, Smoothing: 0.5, ProbeMultiplier: 7, RetryAfter: time.Second}
		}, func(c Config) bool {
			return c.Vegas == VegasSettings{Initial: 5, Max: 50, Smoothing: 0.5, ProbeMultiplier: 7, RetryAfter: time.Second}
		}},
	} {
		c := base()
		if tc.mod != nil {
			tc.mod(&c)
		}
		if got := c.withDefaults(); !tc.ok(got) {
			t.Errorf("%s: withDefaults = %+v", tc.name, got)
		}
	}
	c := base()
	if c.End() != 4*time.Second {
		t.Errorf("End() with drain 0 = %v, want twice the duration, 4s", c.End())
	}
	c.Drain = time.Second
	if c.End() != 3*time.Second {
		t.Errorf("End() with drain 1s = %v, want 3s", c.End())
	}
}

// A variant's settings replace the Config's field by field: each field the
// variant sets is its own, each it leaves zero is the Config's.
func TestGapsVariantSettingsEachField(t *testing.T) {
	cfgAIMD := AIMDSettings{Initial: 4, Min: 2, Max: 8, Target: time.Second, Backoff: 0.5, RetryAfter: time.Second}
	cfgThrottle := ThrottleSettings{K: 3, Period: 24 * time.Second, Server: LaneGCRA}
	cfgVegas := VegasSettings{Initial: 5, Max: 50, Smoothing: 0.5, ProbeMultiplier: 7, RetryAfter: time.Second}
	check := func(t *testing.T, name string, base, over any, got any) {
		t.Helper()
		b, o, g := reflect.ValueOf(base), reflect.ValueOf(over), reflect.ValueOf(got)
		for i := range o.NumField() {
			want := b.Field(i)
			if !o.Field(i).IsZero() {
				want = o.Field(i)
			}
			if !reflect.DeepEqual(g.Field(i).Interface(), want.Interface()) {
				t.Errorf("%s: field %s = %v, want %v", name, o.Type().Field(i).Name, g.Field(i), want)
			}
		}
	}
	// One field set at a time, each to a value unlike the Config's.
	aimdOne := []AIMDSettings{{Initial: 6}, {Min: 3}, {Max: 9}, {Target: 2 * time.Second}, {Backoff: 0.7}, {RetryAfter: 3 * time.Second}}
	throttleOne := []ThrottleSettings{{K: 4}, {Period: 48 * time.Second}, {Server: LaneSlidingLog}}
	vegasOne := []VegasSettings{{Initial: 6}, {Max: 60}, {Smoothing: 0.25}, {ProbeMultiplier: 9}, {RetryAfter: 2 * time.Second}}
	for _, a := range aimdOne {
		c := Config{Lanes: []LaneKind{LaneGCRA, LaneAIMD}, AIMD: cfgAIMD, Variants: []Variant{{}, {Name: "a2", AIMD: &a}}}
		got := c.laneConfig(1).AIMD
		check(t, "aimd", cfgAIMD, a, got)
		if c.laneConfig(0).AIMD != cfgAIMD {
			t.Errorf("a lane without a variant's settings: %+v, want the Config's", c.laneConfig(0).AIMD)
		}
	}
	for _, th := range throttleOne {
		c := Config{Lanes: []LaneKind{LaneClientThrottle}, Throttle: cfgThrottle, Variants: []Variant{{Throttle: &th}}}
		check(t, "throttle", cfgThrottle, th, c.laneConfig(0).Throttle)
	}
	for _, v := range vegasOne {
		c := Config{Lanes: []LaneKind{LaneVegas}, Vegas: cfgVegas, Variants: []Variant{{Vegas: &v}}}
		check(t, "vegas", cfgVegas, v, c.laneConfig(0).Vegas)
	}
}

// A rule push with the zero Policy keeps each lane's policy, and one that only
// sets enforcement to what it was keeps the state: every decision is as
// without the push, in a lane under an override too. So does a push of the
// policy a lane already has.
func TestGapsRulePushZeroPolicyKeepsEverything(t *testing.T) {
	cfg := Config{
		Duration: 2 * time.Second, Lanes: []LaneKind{LaneFixedWindow, LaneGCRA, LaneTokenBucket, LaneSlidingLog},
		Limits:    []Limit{{Key: KeyUser, Policy: algorithms.Policy{Limit: 10, Window: time.Second}}},
		Overrides: []LaneOverride{{Lane: LaneGCRA, Policy: algorithms.Policy{Limit: 3, Window: time.Second}}},
		Clients:   []ClientGroup{{Count: 2, Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 15, Per: time.Second}}}}},
	}
	without := gapsRun(t, cfg)
	cfg.Rules = []RuleChange{{At: 700 * time.Millisecond}}
	with := gapsRun(t, cfg)
	for i := range without.Lanes {
		a, b := without.Lanes[i], with.Lanes[i]
		if a.Verdicts != b.Verdicts || a.Admitted != b.Admitted || a.Peak != b.Peak || a.Policy != b.Policy {
			t.Errorf("%s: with a zero push admitted %d, peak %+v, policy %+v; without %d, %+v, %+v",
				a.Name, b.Admitted, b.Peak, b.Policy, a.Admitted, a.Peak, a.Policy)
		}
	}
	// A push of the policy a lane already has is no change of policy: its keys
	// are not started afresh.
	cfg.Overrides = nil
	without = gapsRun(t, Config{Duration: cfg.Duration, Lanes: cfg.Lanes, Limits: cfg.Limits, Clients: cfg.Clients})
	cfg.Rules = []RuleChange{{At: 700 * time.Millisecond, Policy: cfg.Limits[0].Policy}}
	same := gapsRun(t, cfg)
	for i := range without.Lanes {
		a, b := without.Lanes[i], same.Lanes[i]
		if a.Verdicts != b.Verdicts || a.Admitted != b.Admitted || a.Peak != b.Peak {
			t.Errorf("%s: with a push of its own policy admitted %d, peak %+v; without %d, %+v", a.Name, b.Admitted, b.Peak, a.Admitted, a.Peak)
		}
	}
	if with.Lanes[1].Policy.Limit != 3 {
		t.Errorf("gcra's policy %+v, want its override's limit 3", with.Lanes[1].Policy)
	}
}

// Arrivals start in [Start, Stop), Stop 0 being the Duration: none starts at
// the Duration itself. Retries still run until the run's end, Duration +
// Drain, one due exactly then included; MaxAttempts 0 retries until then.
func TestGapsInstantsAtTheEnd(t *testing.T) {
	arrive := func(stop time.Duration) int64 {
		cfg := Config{Duration: time.Second, Lanes: []LaneKind{LaneFixedWindow},
			Limits: []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 1000, Window: time.Second}}},
			Clients: []ClientGroup{{Count: 1, Arrivals: []Arrival{
				{Kind: ArrivalConstant, Rate: Rate{Count: 10, Per: time.Second}, Stop: stop}}}}}
		return gapsRun(t, cfg).Lanes[0].Unique
	}
	if n := arrive(0); n != 10 {
		t.Errorf("10/s for 1s, stop 0: %d requests, want 10 (at 0, 100ms, …, 900ms)", n)
	}
	if n := arrive(time.Second); n != 10 {
		t.Errorf("10/s, stop at the duration: %d requests, want 10", n)
	}
	if n := arrive(500 * time.Millisecond); n != 5 {
		t.Errorf("10/s, stop 500ms: %d requests, want 5", n)
	}
	if n := arrive(500*time.Millisecond + 1); n != 6 {
		t.Errorf("10/s, stop 500ms+1ns: %d requests, want 6", n)
	}
	retries := func(maxAttempts int, drain time.Duration) LaneResult {
		cfg := Config{Duration: time.Second, Drain: drain, Lanes: []LaneKind{LaneFixedWindow},
			Limits: []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 1, Window: time.Hour}}},
			Clients: []ClientGroup{{Count: 1, Retry: Retry{Kind: RetryFixed, Delay: 100 * time.Millisecond, MaxAttempts: maxAttempts},
				Arrivals: []Arrival{{Kind: ArrivalBurst, Count: 2}}}}}
		return gapsRun(t, cfg).Lanes[0]
	}
	for _, tc := range []struct {
		max                      int
		drain                    time.Duration
		attempts, gaveUp, pendin int64
	}{
		{0, time.Second, 2 + 20, 0, 1},     // the second retries at 100ms, …, 2s (the end)
		{0, time.Second - 1, 2 + 19, 0, 1}, // the one due at 2s is past the end
		{3, time.Second, 2 + 2, 1, 0},      // three attempts in all, then it gives up
		{21, time.Second, 2 + 20, 1, 0},    // the 21st and last attempt is the one at the end
	} {
		l := retries(tc.max, tc.drain)
		if l.Attempts != tc.attempts || l.GaveUp != tc.gaveUp || l.Pending != tc.pendin || l.Unique != 2 {
			t.Errorf("max_attempts %d, drain %v: %d attempts, %d gave up, %d pending, %d unique; want %d, %d, %d, 2",
				tc.max, tc.drain, l.Attempts, l.GaveUp, l.Pending, l.Unique, tc.attempts, tc.gaveUp, tc.pendin)
		}
	}
}

// A client honouring Retry-After reads, by default (RetryAfter's zero value),
// the header's whole seconds rounded up; RetryAfterExact reads the limiter's
// exact wait. A 1.5s wait is a retry at 2s, or at 1.5s.
func TestGapsRetryAfterModeDefault(t *testing.T) {
	for _, tc := range []struct {
		mode RetryAfterMode
		want time.Duration
	}{{RetryAfterHeader, 2 * time.Second}, {RetryAfterExact, 1500 * time.Millisecond}} {
		cfg := Config{Duration: 3 * time.Second, Lanes: []LaneKind{LaneFixedWindow},
			Limits: []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 1, Window: 1500 * time.Millisecond}}},
			Clients: []ClientGroup{{Count: 1, Arrivals: []Arrival{{Kind: ArrivalBurst, Count: 2}},
				Retry: Retry{Kind: RetryFixed, Delay: time.Millisecond, MaxAttempts: 5, HonorRetryAfter: true, RetryAfter: tc.mode}}}}
		l := gapsRun(t, cfg).Lanes[0]
		c := l.Classes[0]
		if c.Succeeded != 2 || c.TimeToSuccess.Max != tc.want || l.Attempts != 3 {
			t.Errorf("mode %d: %d succeeded, %d attempts, slowest success after %v; want 2, 3, %v", tc.mode, c.Succeeded, l.Attempts, c.TimeToSuccess.Max, tc.want)
		}
		if l.RetryAfter.Given != 1 || l.RetryAfter.RetriedAt != 1 || l.RetryAfter.SucceededAt != 1 {
			t.Errorf("mode %d: retry-after stats %+v, want 1 given, retried at and succeeded at", tc.mode, l.RetryAfter)
		}
	}
}
