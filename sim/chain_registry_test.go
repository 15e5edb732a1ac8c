package sim

import (
	"errors"
	"slices"
	"testing"
)

// Every row of the registry is whole and consistent: its kind is its index, its
// names are unique, it has exactly the builder of its class, its settings come
// with defaults and checks, and its short title fits the TUI's narrow column.
func TestRegistryRowsAreWhole(t *testing.T) {
	names := map[string]bool{}
	for i, l := range Lanes() {
		if int(l.Kind) != i+1 {
			t.Errorf("row %d (%s): kind %d, want its index %d", i+1, l.Name, l.Kind, i+1)
		}
		if l.Name == "" || l.Title == "" || l.Short == "" || len(l.Short) > 12 {
			t.Errorf("%v: name %q, title %q, short %q: want all set, short at most 12 bytes", l.Kind, l.Name, l.Title, l.Short)
		}
		if names[l.Name] {
			t.Errorf("%s is named twice", l.Name)
		}
		names[l.Name] = true
		builders := map[LaneClass]bool{RateLimiter: l.rate != nil, ConcurrencyLimiter: l.concurrency != nil, ClientGate: l.gate != nil}
		for c, has := range builders {
			if has != (c == l.Class) {
				t.Errorf("%s of class %d: has builder of class %d = %v", l.Name, l.Class, c, has)
			}
		}
		// A product lane's settings default to the product's own defaults (their
		// zero values); a textbook lane's are filled by its defaults.
		if (l.Settings != "") != (l.check != nil) || (l.Settings != "" && l.Product == "") != (l.defaults != nil) {
			t.Errorf("%s: settings %q, check set %v, defaults set %v: want all or none (a product: no defaults)", l.Name, l.Settings, l.check != nil, l.defaults != nil)
		}
		if (l.Class == ConcurrencyLimiter) != (l.shedRetryAfter != nil) {
			t.Errorf("%s: a concurrency limiter, and only one, says its 503's Retry-After", l.Name)
		}
		if k, ok := ParseLane(l.Name); !ok || k != l.Kind || k.String() != l.Name || k.Title() != l.Title {
			t.Errorf("ParseLane(%q) = %v, %v; want %v, true, and back to the same name and title", l.Name, k, ok, l.Kind)
		}
	}
}

// The default set is the eight lanes of the design, in canonical order: adding
// a lane outside it leaves every default output as it was.
func TestDefaultLanesAreTheEight(t *testing.T) {
	want := []LaneKind{LaneFixedWindow, LaneSlidingLog, LaneSlidingWindowCounter, LaneTokenBucket,
		LaneLeakyBucket, LaneGCRA, LaneAIMD, LaneClientThrottle}
	if got := DefaultLanes(); !slices.Equal(got, want) {
		t.Errorf("DefaultLanes() = %v, want %v", got, want)
	}
	var textbook []string
	for _, name := range LanesOf(RateLimiter) {
		if k, _ := ParseLane(name); k.Info().Product == "" {
			textbook = append(textbook, name)
		}
	}
	if len(textbook) != 6 || slices.Contains(textbook, "vegas") || slices.Contains(textbook, "aimd") {
		t.Errorf("the textbook rate limiters are %v, want the six per-key limiters", textbook)
	}
}

// A lane kind outside the registry has a name that says so, and is refused.
func TestUnknownLaneKind(t *testing.T) {
	k := LaneKind(LaneKinds())
	if want := "LaneKind(" + itoa(LaneKinds()) + ")"; k.String() != want || k.Title() != want {
		t.Errorf("String, Title of an unknown kind = %q, %q; want %q", k.String(), k.Title(), want)
	}
	if k.known() || LaneDefault.known() {
		t.Error("known() is true of LaneDefault or a kind past the registry")
	}
}

// The lanes' settings are checked with their defaults filled in, at the field
// that is wrong, whether or not the lane runs.
func TestLaneSettingsChecks(t *testing.T) {
	cases := []struct {
		name  string
		set   func(c *Config)
		field string
	}{
		{"aimd min above the default max", func(c *Config) { c.AIMD.Min = 2000 }, "aimd.min"},
		{"aimd initial below min", func(c *Config) { c.AIMD.Min, c.AIMD.Initial = 5, 2 }, "aimd.initial"},
		{"aimd backoff 1", func(c *Config) { c.AIMD.Backoff = 1 }, "aimd.backoff"},
		{"vegas initial above the default max", func(c *Config) { c.Vegas.Initial = 5000 }, "vegas.initial"},
		{"vegas max below 1", func(c *Config) { c.Vegas.Max = 0.5 }, "vegas.max"},
		{"vegas smoothing above 1", func(c *Config) { c.Vegas.Smoothing = 1.5 }, "vegas.smoothing"},
		{"throttle server not a rate limiter", func(c *Config) { c.Throttle.Server = LaneVegas }, "throttle.server"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := mixedWorld()
			c.Lanes = []LaneKind{LaneTokenBucket}
			tc.set(&c)
			var fes FieldErrors
			if err := c.Validate(); !errors.As(err, &fes) || len(fes) != 1 || fes[0].Field != tc.field {
				t.Fatalf("Validate() = %v, want one problem at %s", err, tc.field)
			}
		})
	}
	c := mixedWorld()
	c.Lanes = []LaneKind{LaneVegas}
	if err := c.Validate(); err != nil {
		t.Errorf("a vegas lane with default settings: Validate() = %v, want nil", err)
	}
}
