package sim

import (
	"fmt"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// cappedDurations is every duration checkCaps holds to MaxTime, each with the field
// path its error names and how to set it on a config that has the field.
func cappedDurations() []struct {
	field string
	set   func(*Config, time.Duration)
} {
	g := func(c *Config) *ClientGroup { return &c.Clients[0] }
	a := func(c *Config) *Arrival { return &c.Clients[0].Arrivals[0] }
	return []struct {
		field string
		set   func(*Config, time.Duration)
	}{
		{"duration", func(c *Config, d time.Duration) { c.Duration = d }},
		{"drain", func(c *Config, d time.Duration) { c.Drain = d }},
		{"bucket", func(c *Config, d time.Duration) { c.Bucket = d }},
		{"limits[1].window", func(c *Config, d time.Duration) { c.Limits[1].Policy.Window = d }},
		{"overrides[0].window", func(c *Config, d time.Duration) { c.Overrides[0].Policy.Window = d }},
		{"backend.service.mean", func(c *Config, d time.Duration) { c.Backend.Service.Mean = d }},
		{"backend.codel.target", func(c *Config, d time.Duration) { c.Backend.CoDel.Target = d }},
		{"backend.codel.interval", func(c *Config, d time.Duration) { c.Backend.CoDel.Interval = d }},
		{"backend.changes[1].at", func(c *Config, d time.Duration) { c.Backend.Changes[1].At = d }},
		{"backend.changes[1].service.mean", func(c *Config, d time.Duration) { c.Backend.Changes[1].Service.Mean = d }},
		{"clients[0].arrivals[0].start", func(c *Config, d time.Duration) { a(c).Start = d }},
		{"clients[0].arrivals[0].stop", func(c *Config, d time.Duration) { a(c).Stop = d }},
		{"clients[0].arrivals[0].at", func(c *Config, d time.Duration) { a(c).At = d }},
		{"clients[0].arrivals[0].spread", func(c *Config, d time.Duration) { a(c).Spread = d }},
		{"clients[0].arrivals[0].on", func(c *Config, d time.Duration) { a(c).On = d }},
		{"clients[0].arrivals[0].off", func(c *Config, d time.Duration) { a(c).Off = d }},
		{"clients[0].arrivals[0].idle", func(c *Config, d time.Duration) { a(c).Idle = d }},
		{"clients[0].arrivals[0].rate", func(c *Config, d time.Duration) { a(c).Rate.Per = d }},
		{"clients[0].retry.delay", func(c *Config, d time.Duration) { g(c).Retry.Delay = d }},
		{"clients[0].retry.base", func(c *Config, d time.Duration) { g(c).Retry.Base = d }},
		{"clients[0].retry.cap", func(c *Config, d time.Duration) { g(c).Retry.Cap = d }},
		{"clients[0].retry.retry_after_jitter", func(c *Config, d time.Duration) { g(c).Retry.RetryAfterJitter = d }},
		{"clients[0].rtt", func(c *Config, d time.Duration) { g(c).RTT = d }},
		{"clients[0].deadline", func(c *Config, d time.Duration) { g(c).Deadline = d }},
		{"clients[0].timeout", func(c *Config, d time.Duration) { g(c).Timeout = d }},
	}
}

// capsConfig has one of every field capped, each zero (so under its cap).
func capsConfig() Config {
	return Config{
		Limits:    []Limit{{}, {Policy: algorithms.Policy{}}},
		Overrides: []LaneOverride{{}},
		Clients:   []ClientGroup{{Arrivals: []Arrival{{}}}},
		Backend:   &Backend{CoDel: &CoDel{}, Changes: make([]BackendChange, 2)},
	}
}

// Every capped duration is checked on its own value and named by its own
// path: MaxTime passes, a nanosecond more is one error at that field and no
// other, with the cap in its words.
func TestEveryCappedDurationNamesItself(t *testing.T) {
	for _, tc := range cappedDurations() {
		for _, d := range []time.Duration{MaxTime, MaxTime + 1} {
			c := capsConfig()
			tc.set(&c, d)
			var ck checker
			checkCaps(&ck, c)
			if d == MaxTime {
				// (A duration of MaxTime has a drain of as much: too long a
				// run, an error of its own, tested elsewhere.)
				if len(ck.errs) != 0 && !(tc.field == "duration" && len(ck.errs) == 1 && ck.errs[0].Problem[:8] == "duration") {
					t.Errorf("%s = MaxTime: %v, want no error", tc.field, ck.errs)
				}
				continue
			}
			want := FieldError{Field: tc.field, Problem: fmt.Sprintf("must be at most 100 years (876000h), got %v", d)}
			if len(ck.errs) != 1 || ck.errs[0] != want {
				t.Errorf("%s = MaxTime+1: %+v, want [%+v]", tc.field, ck.errs, want)
			}
		}
	}
}
