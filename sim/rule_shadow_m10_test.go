package sim

import (
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// shadowWorld has a tight limit and a loose one behind it, both global, and
// a burst at 1ms of 12 requests.
func shadowWorld() Config {
	return Config{
		Duration: time.Second, Seed: 3, HeaderStyle: HeadersDraft,
		Lanes: chainLanes,
		Limits: []Limit{
			{Name: "tight", Key: KeyGlobal, Policy: algorithms.Policy{Limit: 1, Window: 10 * time.Second}},
			{Name: "loose", Key: KeyGlobal, Policy: algorithms.Policy{Limit: 4, Window: 10 * time.Second}},
		},
		Clients: []ClientGroup{{Count: 1, Arrivals: []Arrival{{Kind: ArrivalBurst, Count: 12, At: time.Millisecond}}}},
	}
}

// A limit a rule push makes a shadow before any traffic is, to every lane,
// a shadow limit from the start: the same refusals and would-be refusals,
// and the headers of the first refusal no longer quote it (a shadow limit
// sends no headers); a push that enforces a shadow limit again is the
// enforced limit.
func TestRulePushedShadowIsAShadowLimit(t *testing.T) {
	pushed := shadowWorld()
	pushed.Rules = []RuleChange{{At: 0, Limit: 0, Shadow: true}}
	from := shadowWorld()
	from.Limits[0].Shadow = true
	enforcedAgain := from
	enforcedAgain.Limits = append([]Limit(nil), from.Limits...)
	enforcedAgain.Rules = []RuleChange{{At: 0, Limit: 0, Shadow: false}}
	for _, tc := range []struct {
		name      string
		a, b      Config
		quoted    string // a limit the first refusal's policy header names
		notQuoted string // one it does not name, if any
	}{
		{"pushed to shadow", pushed, from, "loose", "tight"},
		{"pushed back to enforced", enforcedAgain, shadowWorld(), "tight", ""},
	} {
		a, b := mustRun(t, tc.a, Options{}), mustRun(t, tc.b, Options{})
		for j := range a.Lanes {
			x, y := &a.Lanes[j], &b.Lanes[j]
			if x.Refused != y.Refused || x.ShadowRefused != y.ShadowRefused || x.Headers.RateLimitPolicy != y.Headers.RateLimitPolicy {
				t.Errorf("%s, %v: refused %d, shadow %d, policy %q; want %d, %d, %q", tc.name, x.Lane,
					x.Refused, x.ShadowRefused, x.Headers.RateLimitPolicy, y.Refused, y.ShadowRefused, y.Headers.RateLimitPolicy)
			}
			if p := x.Headers.RateLimitPolicy; !strings.Contains(p, `"`+tc.quoted+`"`) || tc.notQuoted != "" && strings.Contains(p, `"`+tc.notQuoted+`"`) {
				t.Errorf("%s, %v: first refusal's RateLimit-Policy %q, want %q quoted and %q not", tc.name, x.Lane, p, tc.quoted, tc.notQuoted)
			}
		}
	}
}
