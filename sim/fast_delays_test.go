package sim

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// TestLaneDelaysReadTheRegistry checks each rate-limiter row's fastDelays
// against its table: declared exactly when the algorithm gives its verdict
// and delay alone (a Queue), and then the lane shares no requests, even
// where it admits by its verdict alone (Traefik).
func TestLaneDelaysReadTheRegistry(t *testing.T) {
	delaying := 0
	for _, info := range Lanes() {
		if info.Class != RateLimiter || info.fast&fastNone != 0 {
			continue
		}
		d, err := newDecider(plainRule(info.Kind), policyFor(info.Kind, algorithms.Policy{Limit: 3, Window: time.Second}), 1)
		if err != nil {
			t.Fatal(err)
		}
		q, ok := d.(interface{ queues() bool })
		got, want := ok && q.queues(), info.fast&fastDelays != 0
		if got != want {
			t.Errorf("lane %s: its table gives a verdict and delay alone (a Queue): %v, but it declares fastDelays %v", info.Name, got, want)
		}
		if want && info.fast.shares() {
			t.Errorf("lane %s declares fastDelays and may share requests", info.Name)
		}
		delaying += b2i(want)
	}
	if delaying < 3 {
		t.Errorf("%d lanes declare fastDelays, want leaky_bucket, nginx and traefik at least", delaying)
	}
}
