package sim

import (
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// ResponseHeaders at its edges: Retry-After only when positive and not Never,
// a nanosecond a whole second; remaining never below 0; a quota index outside
// the limits sends no quota; a shadow limit is left out; times rounded up.
func TestAuditResponseHeadersEdges(t *testing.T) {
	limits := []Limit{{Name: "a", Policy: algorithms.Policy{Limit: 10, Window: 1500 * time.Millisecond}}}
	for _, tc := range []struct {
		name       string
		quota      int
		remaining  int64
		reset, ra  time.Duration
		shadow     bool
		retryAfter string
		rateLimit  string
		policy     string
	}{
		{"no wait", 0, 3, 0, 0, false, "", `"a";r=3;t=0`, `"a";q=10;w=2`},
		{"a ns of wait", 0, 3, 1, 1, false, "1", `"a";r=3;t=1`, `"a";q=10;w=2`},
		{"exactly a second", 0, 3, time.Second, time.Second, false, "1", `"a";r=3;t=1`, `"a";q=10;w=2`},
		{"never", 0, 0, time.Second, algorithms.Never, false, "", `"a";r=0;t=1`, `"a";q=10;w=2`},
		{"a negative wait", 0, 0, time.Second, -1, false, "", `"a";r=0;t=1`, `"a";q=10;w=2`},
		{"overdrawn", 0, -5, time.Second, 0, false, "", `"a";r=0;t=1`, `"a";q=10;w=2`},
		{"no quota", -1, 3, time.Second, 0, false, "", "", `"a";q=10;w=2`},
		{"quota past the limits", 1, 3, time.Second, 0, false, "", "", `"a";q=10;w=2`},
		{"a shadow limit", 0, 3, time.Second, time.Second, true, "1", "", ""},
	} {
		ls := append([]Limit(nil), limits...)
		ls[0].Shadow = tc.shadow
		h := ResponseHeaders(HeadersDraft, ls, tc.quota, tc.remaining, tc.reset, tc.ra)
		if h.RetryAfter != tc.retryAfter || h.RateLimit != tc.rateLimit || h.RateLimitPolicy != tc.policy {
			t.Errorf("%s: Retry-After %q, RateLimit %q, RateLimit-Policy %q; want %q, %q, %q",
				tc.name, h.RetryAfter, h.RateLimit, h.RateLimitPolicy, tc.retryAfter, tc.rateLimit, tc.policy)
		}
		if got := strings.Contains(strings.Join(h.Lines, "\n"), "Retry-After: "); got != (tc.retryAfter != "") {
			t.Errorf("%s: lines %q carry Retry-After %v, want %v", tc.name, h.Lines, got, tc.retryAfter != "")
		}
	}
	legacy := ResponseHeaders(HeadersLegacy, limits, 0, -2, 1, 0)
	if want := []string{"X-RateLimit-Limit: 10", "X-RateLimit-Remaining: 0", "X-RateLimit-Reset: 1"}; strings.Join(legacy.Lines, "|") != strings.Join(want, "|") {
		t.Errorf("legacy, overdrawn, reset 1ns: %q, want %q", legacy.Lines, want)
	}
}
