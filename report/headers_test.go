package report

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// The timeline's tooltip shows the headers sim writes, in the run's style.
func TestTickHeadersAreSimsHeaders(t *testing.T) {
	limits := []sim.Limit{{Name: "global", Policy: algorithms.Policy{Limit: 10, Window: time.Second}}}
	refusal := Tick{Event: sim.TraceRefuse, Limit: "global", Answered: true, Remaining: 0, Reset: 300 * time.Millisecond, RetryAfter: 200 * time.Millisecond}
	shed := Tick{Event: sim.TraceShed, RetryAfter: 1500 * time.Millisecond}
	for _, tt := range []struct {
		style sim.HeaderStyle
		tick  Tick
		want  string
	}{
		{sim.HeadersDraft, refusal, "RateLimit-Policy: \"global\";q=10;w=1\nRateLimit: \"global\";r=0;t=1\nRetry-After: 1"},
		{sim.HeadersLegacy, refusal, "X-RateLimit-Limit: 10\nX-RateLimit-Remaining: 0\nX-RateLimit-Reset: 1\nRetry-After: 1"},
		{sim.HeadersDraft, shed, "RateLimit-Policy: \"global\";q=10;w=1\nRetry-After: 2"},
	} {
		if got := tickHeaders(sim.Result{Limits: limits, HeaderStyle: tt.style}, tt.tick, 0); got != tt.want {
			t.Errorf("%v %v: headers\n%s\nwant\n%s", tt.style, tt.tick.Event, got, tt.want)
		}
	}
}
