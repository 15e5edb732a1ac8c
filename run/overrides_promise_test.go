package run

import (
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// duration: the cap of 100 years (sim.MaxTime) holds at exactly its value;
// 0 overrides nothing; below 0 and past the cap are refused as input errors.
func TestOverridesDurationCap(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string // "" for no error
	}{
		{0, ""},
		{time.Nanosecond, ""},
		{sim.MaxTime, ""},
		{sim.MaxTime + time.Nanosecond, "--duration: "},
		{-time.Nanosecond, "--duration: must be positive, got -1ns"},
	} {
		err := Overrides{Duration: tc.d}.duration()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("duration(%v) = %v, want nil", tc.d, err)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want) || !IsBadInput(err)):
			t.Errorf("duration(%v) = %v, want an input error %q", tc.d, err, tc.want)
		}
	}
	if err := (Overrides{Duration: sim.MaxTime + time.Nanosecond}).duration(); err == nil || !strings.Contains(err.Error(), "is more than 100 years (876000h)") {
		t.Errorf("a duration past the cap: %v, want it to say more than 100 years (876000h)", err)
	}
}

// lanes: none asked for is no selection; a bad list names the flag.
func TestOverridesLanes(t *testing.T) {
	if got, err := (Overrides{}).lanes(); got != nil || err != nil {
		t.Errorf("lanes() of no --lanes = %q, %v; want nil, nil", got, err)
	}
	if _, err := (Overrides{Lanes: ",,"}).lanes(); err == nil || !strings.HasPrefix(err.Error(), "--lanes: ") || !IsBadInput(err) {
		t.Errorf("lanes() of --lanes ,, = %v, want an input error naming --lanes", err)
	}
}

// SuggestedBudget rounds up to two significant digits, and leaves a value
// already of two digits as it is.
func TestSuggestedBudgetTwoDigits(t *testing.T) {
	for _, tc := range []struct{ n, want int64 }{
		{0, 0}, {7, 7}, {99, 99}, {100, 100}, {101, 110}, {109, 110}, {110, 110}, {999, 1000}, {1001, 1100}, {123_456, 130_000},
	} {
		if got := SuggestedBudget(tc.n); got != tc.want {
			t.Errorf("SuggestedBudget(%d) = %d, want %d", tc.n, got, tc.want)
		}
	}
}
