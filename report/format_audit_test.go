package report

import (
	"testing"
	"time"
)

// FormatDuration at each unit's edges: the last value of a unit and the first
// of the next, and a negative one.
func TestAuditFormatDurationUnitEdges(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{1, "1ns"}, {999, "999ns"}, {time.Microsecond, "1µs"},
		{1500, "1.5µs"}, {999 * time.Microsecond, "999µs"}, {time.Millisecond, "1ms"},
		{999 * time.Millisecond, "999ms"}, {time.Second, "1s"},
		{59994 * time.Millisecond, "59.99s"}, {time.Minute, "1m"}, {61 * time.Second, "1m1s"},
		{-1500 * time.Microsecond, "-1.5ms"},
	} {
		if got := FormatDuration(tc.d); got != tc.want {
			t.Errorf("FormatDuration(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

// percent of nothing is "-", not 0% or NaN%.
func TestAuditPercentOfNothing(t *testing.T) {
	if got := percent(0, 0); got != "-" {
		t.Errorf("percent(0, 0) = %q, want -", got)
	}
	if got := percent(3, 4); got != "75%" {
		t.Errorf("percent(3, 4) = %q, want 75%%", got)
	}
}
