package sim

import (
	"reflect"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// discardTrace is a trace sink that keeps nothing: asking for a trace turns the
// quick and direct paths off, so a run with it decides through decideChain.
type discardTrace struct{}

func (discardTrace) Record(*TraceRecord) error { return nil }

// TestDirectPathDecidesAsTheChain runs the six lanes with a direct path, over
// traffic that is refused and retries at the Retry-After given, with and
// without a trace: the results must be equal, verdict hash included.
func TestDirectPathDecidesAsTheChain(t *testing.T) {
	for _, kind := range []LaneKind{LaneTokenBucket, LaneGCRA, LaneFixedWindow, LaneSlidingLog, LaneSlidingWindowCounter, LaneLeakyBucket} {
		t.Run(kind.String(), func(t *testing.T) {
			cfg := poisson100(20 * time.Second)
			cfg.Lanes = []LaneKind{kind}
			cfg.Limits[0].Policy = algorithms.Policy{Limit: 300, Window: time.Second, Burst: 40}
			cfg.Clients[0].Retry = Retry{Kind: RetryFixed, Delay: 50 * time.Millisecond, MaxAttempts: 3,
				HonorRetryAfter: true, RetryAfter: RetryAfterExact}
			direct := mustRun(t, cfg, Options{}).Lanes[0]
			chain := mustRun(t, cfg, Options{Trace: discardTrace{}}).Lanes[0]
			if direct.Refused == 0 || direct.Admitted == 0 || (kind == LaneLeakyBucket && direct.Delayed == 0) {
				t.Fatalf("admitted %d (%d late), refused %d: want each, to test every path", direct.Admitted, direct.Delayed, direct.Refused)
			}
			if !reflect.DeepEqual(direct, chain) {
				t.Errorf("untraced (direct path) result differs from traced (chain):\n%+v\n%+v", direct, chain)
			}
		})
	}
}

// TestDirectPathOf checks that each per-key lane's table gets a direct path:
// the five Admitters' and the leaky bucket's.
func TestDirectPathOf(t *testing.T) {
	p := algorithms.Policy{Limit: 10, Window: time.Second}
	for _, info := range Lanes() {
		if info.Class != RateLimiter {
			continue
		}
		d, err := newDecider(plainRule(info.Kind), policyFor(info.Kind, p), 1)
		if err != nil {
			t.Fatal(err)
		}
		path := directPathOf(d)
		if got, want := path.known(), info.fast&fastDirect != 0; got != want {
			t.Errorf("directPathOf(%v).known() = %v, want %v (as its row declares)", info.Kind, got, want)
		}
	}
	if got := directPathOf(nil); got.known() {
		t.Errorf("directPathOf(nil).known() = true, want false")
	}
}
