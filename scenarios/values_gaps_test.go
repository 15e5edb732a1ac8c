package scenarios

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// Durations are written without trailing zero units, and read back as
// themselves.
func TestGapsDurationCanonicalText(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0s"},
		{time.Nanosecond, "1ns"},
		{250 * time.Millisecond, "250ms"},
		{1500 * time.Millisecond, "1.5s"},
		{time.Second, "1s"},
		{time.Minute, "1m"},
		{90 * time.Second, "1m30s"},
		{time.Hour, "1h"},
		{2 * time.Hour, "2h"},
		{24 * time.Hour, "24h"},
		{90 * time.Minute, "1h30m"},
		{time.Hour + time.Second, "1h0m1s"},
		{time.Hour + time.Minute + time.Second, "1h1m1s"},
		{time.Hour + 500*time.Millisecond, "1h0m0.5s"},
		{10 * time.Minute, "10m"},
	} {
		got, err := Duration(tc.d).MarshalYAML()
		if err != nil || got != tc.want {
			t.Errorf("Duration(%v).MarshalYAML() = %v, %v; want %q", tc.d, got, err, tc.want)
		}
		if back, err := parseDuration(tc.want); err != nil || back != tc.d {
			t.Errorf("parseDuration(%q) = %v, %v; want %v", tc.want, back, err, tc.d)
		}
	}
}

// Rates are written count/period, a period of one unit as the bare unit, and
// read back as themselves.
func TestGapsRateCanonicalText(t *testing.T) {
	for _, tc := range []struct {
		r    sim.Rate
		want string
	}{
		{sim.Rate{Count: 10, Per: time.Second}, "10/s"},
		{sim.Rate{Count: 100, Per: time.Minute}, "100/m"},
		{sim.Rate{Count: 1, Per: time.Hour}, "1/h"},
		{sim.Rate{Count: 3, Per: time.Millisecond}, "3/ms"},
		{sim.Rate{Count: 5, Per: 250 * time.Millisecond}, "5/250ms"},
		{sim.Rate{Count: 7, Per: 2 * time.Hour}, "7/2h"},
		{sim.Rate{Count: 7, Per: 90 * time.Minute}, "7/1h30m"},
		{sim.Rate{Count: 2, Per: 2 * time.Second}, "2/2s"},
		{sim.Rate{Count: 2, Per: time.Nanosecond}, "2/1ns"},
	} {
		got, err := Rate(tc.r).MarshalYAML()
		if err != nil || got != tc.want {
			t.Errorf("Rate(%v).MarshalYAML() = %v, %v; want %q", tc.r, got, err, tc.want)
		}
		if back, err := parseRate(tc.want); err != nil || back != tc.r {
			t.Errorf("parseRate(%q) = %v, %v; want %v", tc.want, back, err, tc.r)
		}
	}
}

const gapsClients = "clients:\n  - arrivals:\n      - {kind: burst, count: 1}\n"

func gapsLimits(n int) string {
	s := "limits:\n"
	for i := range n {
		s += "  - {name: l" + string(rune('0'+i)) + ", limit: 10, window: 2s, burst: 3}\n"
	}
	return s
}

// An override's limit_index names a limit of the chain, 0 to len-1: len is
// reported at its line (and does not panic), len-1 is accepted.
func TestGapsOverrideLimitIndexAtLen(t *testing.T) {
	for _, tc := range []struct {
		limits, index int
		want          string // "" for none
	}{
		{1, 0, ""},
		{1, 1, "f.yaml:4: overrides[0].limit_index: the chain has 1 limit(s), so 1 names none"},
		{2, 1, ""},
		{2, 2, "f.yaml:5: overrides[0].limit_index: the chain has 2 limit(s), so 2 names none"},
	} {
		src := gapsLimits(tc.limits) + "overrides:\n  - {lane: gcra, limit_index: " + string(rune('0'+tc.index)) + ", limit: 5}\n" + gapsClients
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("%d limit(s), limit_index %d: Parse panics: %v", tc.limits, tc.index, p)
				}
			}()
			s, err := Parse("f.yaml", []byte(src))
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("%d limit(s), limit_index %d: Parse = %v, want nil", tc.limits, tc.index, err)
			case tc.want == "" && s.Config.Overrides[0].Limit != tc.index:
				t.Errorf("%d limit(s), limit_index %d: override of limit %d", tc.limits, tc.index, s.Config.Overrides[0].Limit)
			case tc.want == "" && s.Config.Overrides[0].Policy.Window != 2*time.Second:
				t.Errorf("%d limit(s), limit_index %d: window %v, want the replaced limit's 2s", tc.limits, tc.index, s.Config.Overrides[0].Policy.Window)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("%d limit(s), limit_index %d: Parse = %v, want %q", tc.limits, tc.index, err, tc.want)
			}
		}()
	}
}

// A lane's limits[j] is its policy for limit j of the chain: j = len-1 is
// accepted, keeping every field left out; j = len is reported at its path.
func TestGapsLaneLimitsAtLen(t *testing.T) {
	lane := "lanes:\n  - name: b20\n    algorithm: token_bucket\n    limits:\n      - {burst: 5}\n      - {limit: 4}\n"
	s, err := Parse("f.yaml", []byte(gapsLimits(2)+lane+gapsClients))
	if err != nil {
		t.Fatalf("two limits, lanes[0].limits[1]: Parse = %v", err)
	}
	want := []algorithms.Policy{{Limit: 10, Window: 2 * time.Second, Burst: 5}, {Limit: 4, Window: 2 * time.Second, Burst: 3}}
	if len(s.Config.Overrides) != 2 {
		t.Fatalf("overrides %+v, want two", s.Config.Overrides)
	}
	for i, o := range s.Config.Overrides {
		if o.Limit != i || o.Policy != want[i] || o.Name != "b20" {
			t.Errorf("override %d = %+v, want b20's for limit %d with %+v", i, o, i, want[i])
		}
	}
	_, err = Parse("f.yaml", []byte(gapsLimits(1)+lane+gapsClients))
	var errs Errors
	if !errors.As(err, &errs) || len(errs) != 1 || errs[0].Path != "lanes[0].limits[1]" || errs[0].Line != 8 {
		t.Errorf("one limit, lanes[0].limits[1]: Parse = %v, want one problem at f.yaml:8: lanes[0].limits[1]", err)
	}
}

// A file written by Marshal holds each value in its canonical text, and reads
// back as the same configuration: whole hours as 1h, a minute's rate as /m,
// a backend change that leaves its service out still leaving it out.
func TestGapsMarshalCanonicalValues(t *testing.T) {
	src := "duration: 1h\ndrain: 90m\nlimits:\n  - {limit: 100, window: 1h30m}\n" +
		"clients:\n  - arrivals:\n      - {kind: constant, rate: 100/m}\n" +
		"backend:\n  capacity: 2\n  service: {mean: 20ms}\n  changes:\n    - {at: 30m, capacity: 4}\n"
	s, err := Parse("f.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if ch := s.Config.Backend.Changes[0]; ch.Service != (sim.Service{}) || ch.At != 30*time.Minute || ch.Capacity != 4 {
		t.Errorf("the change = %+v, want at 30m, capacity 4, service left out", ch)
	}
	out, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	text := string(out)
	for _, want := range []string{"duration: 1h\n", "drain: 1h30m\n", "window: 1h30m\n", "rate: 100/m\n", "at: 30m\n", "mean: 20ms\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("Marshal lacks %q:\n%s", want, text)
		}
	}
	if strings.Count(text, "mean:") != 1 {
		t.Errorf("Marshal writes a service for the change that left it out:\n%s", text)
	}
	again, err := Parse("f.yaml", out)
	if err != nil {
		t.Fatalf("Parse(Marshal(s)): %v\n%s", err, out)
	}
	a, b := *s.Config, *again.Config
	if a.Duration != b.Duration || a.Drain != b.Drain || a.Limits[0].Policy != b.Limits[0].Policy ||
		a.Clients[0].Arrivals[0].Rate != b.Clients[0].Arrivals[0].Rate || a.Backend.Changes[0] != b.Backend.Changes[0] {
		t.Errorf("round trip changed the configuration:\nbefore %+v\nafter  %+v\n%s", a, b, out)
	}
}
