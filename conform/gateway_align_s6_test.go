package conform

import (
	"testing"
	"time"
)

// A gateway schedule starts on the next multiple of the limit's window on the
// Unix clock when the window divides a minute (a minute itself included: a
// 1m window starts on a whole minute), else on the next whole second.
func TestGatewayAlignWindowDividingAMinute(t *testing.T) {
	for _, tc := range []struct {
		window, want time.Duration
	}{
		{time.Second, time.Second},
		{20 * time.Second, 20 * time.Second},
		{time.Minute, time.Minute},
		{90 * time.Second, time.Second}, // longer than a minute
		{7 * time.Second, time.Second},  // does not divide a minute
		{0, time.Second},
	} {
		if got := gatewayAlign(tc.window); got != tc.want {
			t.Errorf("gatewayAlign(%v) = %v, want %v", tc.window, got, tc.want)
		}
	}
}
