package algorithms

import (
	"testing"
	"time"
)

// AIMDConfig's doc comment puts the cut strictly inside (0, 1): a backoff of 1
// would never cut, so NewAIMD refuses it like any value outside.
func TestAIMDBackoffWithinOpenInterval(t *testing.T) {
	for _, tc := range []struct {
		backoff float64
		ok      bool
	}{{0.5, true}, {0.999, true}, {1, false}, {1.5, false}, {-0.1, false}} {
		_, err := NewAIMD(AIMDConfig{Initial: 10, Min: 1, Max: 100, Target: time.Millisecond, Backoff: tc.backoff})
		if (err == nil) != tc.ok {
			t.Errorf("NewAIMD(backoff %v) error = %v, want accepted %v", tc.backoff, err, tc.ok)
		}
	}
}
