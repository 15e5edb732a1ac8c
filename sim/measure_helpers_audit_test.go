package sim

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// ColumnWidth rounds a tenth of the window down to 1, 2 or 5 times a power of
// ten, never under 1ms: each step's edge and a ns below it.
func TestAuditColumnWidthEdges(t *testing.T) {
	for _, tc := range []struct {
		window, want time.Duration
	}{
		{10 * time.Second, time.Second},               // a tenth of exactly 1s
		{10*time.Second - 10, 500 * time.Millisecond}, // a tenth just under 1s
		{5 * time.Second, 500 * time.Millisecond},     // exactly 5×100ms
		{5*time.Second - 10, 200 * time.Millisecond},
		{2 * time.Second, 200 * time.Millisecond}, // exactly 2×100ms
		{2*time.Second - 10, 100 * time.Millisecond},
		{10 * time.Millisecond, time.Millisecond}, // a tenth of exactly 1ms
		{9 * time.Millisecond, time.Millisecond},  // a tenth under 1ms: 1ms
		{time.Nanosecond, time.Millisecond},
	} {
		cfg := Config{Limits: []Limit{{Policy: algorithms.Policy{Window: tc.window}}}}
		if got := ColumnWidth(cfg); got != tc.want {
			t.Errorf("window %v: column %v, want %v", tc.window, got, tc.want)
		}
	}
	if got := ColumnWidth(Config{}); got != 100*time.Millisecond {
		t.Errorf("no limit: column %v, want a tenth of 1s", got)
	}
}

// A wait of nothing is a Retry-After of 0; a nanosecond is a whole second.
func TestAuditHeaderRetryAfterZero(t *testing.T) {
	if got := HeaderRetryAfter(0); got != 0 {
		t.Errorf("HeaderRetryAfter(0) = %v, want 0", got)
	}
	if got := HeaderRetryAfter(2*time.Second - 1); got != 2*time.Second {
		t.Errorf("HeaderRetryAfter(2s-1ns) = %v, want 2s", got)
	}
	if got := HeaderRetryAfter(2 * time.Second); got != 2*time.Second {
		t.Errorf("HeaderRetryAfter(2s) = %v, want 2s", got)
	}
}

// RatioText: a zero limit reads "-"; fixed keeps two decimals.
func TestAuditRatioTextFixedAndZero(t *testing.T) {
	for _, tc := range []struct {
		count, limit int64
		fixed        bool
		want         string
	}{
		{5, 0, false, "-"}, {5, 0, true, "-"},
		{20, 10, true, "2.00"}, {10, 10, true, "1.00"}, {10, 10, false, "1"},
		{0, 10, false, "0"}, {0, 10, true, "0.00"}, {15, 10, true, "1.50"}, {15, 10, false, "1.5"},
	} {
		if got := RatioText(tc.count, tc.limit, tc.fixed); got != tc.want {
			t.Errorf("RatioText(%d, %d, %v) = %q, want %q", tc.count, tc.limit, tc.fixed, got, tc.want)
		}
	}
}

// A lane's name: at most MaxLaneName bytes of lower case letters, digits, '_'
// and '-', starting with a letter; its own kind's name, never another's.
func TestAuditLaneNameProblem(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{strings.Repeat("a", MaxLaneName), true},
		{strings.Repeat("a", MaxLaneName+1), false},
		{"a", true}, {"a1", true}, {"a_", true}, {"a-b", true},
		{"1a", false}, {"_a", false}, {"-a", false}, {"A", false}, {"aB", false}, {"a b", false}, {"a.b", false},
		{"token_bucket", true}, // its own kind's name
		{"gcra", false},        // another kind's
	} {
		if got := LaneNameProblem(LaneTokenBucket, tc.name); (got == "") != tc.ok {
			t.Errorf("LaneNameProblem(token_bucket, %q) = %q, want ok %v", tc.name, got, tc.ok)
		}
	}
}

// Every lane's short title fits a narrow terminal: at most 12 bytes.
func TestAuditShortTitlesAtMost12Bytes(t *testing.T) {
	for _, l := range Lanes() {
		if len(l.Short) == 0 || len(l.Short) > 12 {
			t.Errorf("lane %s: short title %q is %d bytes, want 1 to 12", l.Name, l.Short, len(l.Short))
		}
	}
}

// A Config may run MaxLanes lanes and not one more.
func TestAuditMaxLanes(t *testing.T) {
	for _, n := range []int{MaxLanes, MaxLanes + 1} {
		c := auditConfig()
		c.Lanes, c.Variants = make([]LaneKind, n), make([]Variant, n)
		for i := range n {
			c.Lanes[i], c.Variants[i].Name = LaneTokenBucket, fmt.Sprintf("tb%d", i)
		}
		err := c.Validate()
		if n == MaxLanes && err != nil {
			t.Errorf("%d lanes: Validate() = %v, want nil", n, err)
		}
		if n > MaxLanes && (err == nil || !strings.Contains(err.Error(), fmt.Sprintf("lanes: %d lanes; at most %d", n, MaxLanes))) {
			t.Errorf("%d lanes: Validate() = %v, want too many lanes", n, err)
		}
	}
}
