package conform

import (
	"strings"
	"testing"
)

// The gateway text names the statuses that count as refusals: the lane's,
// 429 and 503. A lane refusing with 429 or 503 adds none to those two; any
// other status is named as the lane's beside them.
func TestRefusalStatusesNamedOnce(t *testing.T) {
	for _, lane := range []int{429, 503} {
		if got := refusals(lane); !strings.HasPrefix(got, "status 429 or 503") || strings.Contains(got, "(the lane's),") {
			t.Errorf("refusals(%d) = %q, want the two statuses alone, the lane's among them", lane, got)
		}
	}
	if got := refusals(403); !strings.HasPrefix(got, "status 403 (the lane's), 429 or 503") {
		t.Errorf("refusals(403) = %q, want 403 named as the lane's beside 429 and 503", got)
	}
}

// A Clock names itself; one of no known kind is Clock(n), as a Stringer of
// an enumeration does, not a panic.
func TestClockStringOfAnUnknownClock(t *testing.T) {
	for c, want := range map[Clock]string{ClockScheduled: "scheduled", ClockDriver: "driver", ClockServer: "server", ClockServer + 1: "Clock(3)", 200: "Clock(200)"} {
		if got := c.String(); got != want {
			t.Errorf("Clock(%d).String() = %q, want %q", int(c), got, want)
		}
	}
}
