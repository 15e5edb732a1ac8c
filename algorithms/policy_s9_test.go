package algorithms

import (
	"strings"
	"testing"
	"time"
)

// Policy.Validate refuses a limit or window of 0 or below and a negative
// burst, naming each, every problem at once; the smallest legal policy passes.
func TestPolicyValidateBounds(t *testing.T) {
	if err := (Policy{Limit: 1, Window: 1, Burst: 0}).Validate(); err != nil {
		t.Errorf("limit 1, window 1ns, burst 0: %v, want nil", err)
	}
	for _, c := range []struct {
		p    Policy
		want []string
	}{
		{Policy{Limit: 0, Window: time.Second}, []string{"limit must be positive, got 0"}},
		{Policy{Limit: 1, Window: 0}, []string{"window must be positive, got 0s"}},
		{Policy{Limit: 1, Window: -1}, []string{"window must be positive, got -1ns"}},
		{Policy{Limit: 1, Window: time.Second, Burst: -1}, []string{"burst must not be negative, got -1"}},
		{Policy{Limit: -1, Window: 0, Burst: -1}, []string{"limit must be positive", "window must be positive", "burst must not be negative"}},
	} {
		err := c.p.Validate()
		for _, w := range c.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%+v: %v, want %q", c.p, err, w)
			}
		}
	}
}
