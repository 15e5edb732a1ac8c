package algorithms

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestConstructorsReject(t *testing.T) {
	newAll := map[string]func(Policy) error{
		"fixed window":           func(p Policy) error { _, err := NewFixedWindow(p); return err },
		"sliding log":            func(p Policy) error { _, err := NewSlidingLog(p); return err },
		"sliding window counter": func(p Policy) error { _, err := NewSlidingWindowCounter(p); return err },
		"token bucket":           func(p Policy) error { _, err := NewTokenBucket(p); return err },
		"gcra":                   func(p Policy) error { _, err := NewGCRA(p); return err },
		"leaky bucket":           func(p Policy) error { _, err := NewLeakyBucket(p); return err },
	}
	tests := []struct {
		name   string
		policy Policy
		only   []string // constructors that must refuse it; nil means all
		want   []string // every one of these in the error
	}{
		{"all at once", Policy{Limit: 0, Window: -1, Burst: -1}, nil,
			[]string{"limit must be positive", "window must be positive", "burst must not be negative"}},
		{"scaled burst overflows", Policy{Limit: 1, Window: math.MaxInt64 / 2, Burst: 3},
			[]string{"token bucket", "gcra", "leaky bucket"}, []string{"overflows"}},
		{"sliding log too long", Policy{Limit: 1<<30 + 1, Window: time.Second},
			[]string{"sliding log"}, []string{"limit 1073741825 is above 1073741824", "16 bytes per admitted unit and key"}},
		{"huge limit names itself, not a wrapped size", Policy{Limit: 1 << 62, Window: time.Second, Burst: 1},
			[]string{"sliding log"}, []string{"limit 4611686018427387904 is above"}},
		{"largest burst overflows, named as written", Policy{Limit: 1, Window: 100 * time.Millisecond, Burst: math.MaxInt64},
			[]string{"token bucket", "gcra", "leaky bucket"}, []string{"burst 9223372036854775807 at 1 per 100ms overflows"}},
	}
	for _, tt := range tests {
		for name, build := range newAll {
			must := tt.only == nil || strings.Contains(strings.Join(tt.only, ","), name)
			t.Run(tt.name+"/"+name, func(t *testing.T) {
				err := build(tt.policy)
				if !must {
					if err != nil {
						t.Fatalf("New(%+v) = %v, want no error", tt.policy, err)
					}
					return
				}
				if err == nil {
					t.Fatalf("New(%+v) = nil error", tt.policy)
				}
				for _, w := range append(tt.want, name) {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("New(%+v) = %q, want it to mention %q", tt.policy, err, w)
					}
				}
			})
		}
	}
}

func TestDecidePanicsOnNonPositiveCost(t *testing.T) {
	tb := must(NewTokenBucket(Policy{Limit: 1, Window: time.Second}))
	defer func() {
		if r, _ := recover().(string); !strings.Contains(r, "TokenBucket.Decide") {
			t.Errorf("Decide(cost 0) panicked with %q, want a message naming TokenBucket.Decide", r)
		}
	}()
	var s TokenBucketState
	tb.Decide(&s, 0, 0)
}
