package sweep

import (
	"strings"
	"testing"
)

// TestVaryDurationStepMustBePositive: a duration range, like a number range,
// wants a positive step; 0 and a negative step are refused, not divided by.
func TestVaryDurationStepMustBePositive(t *testing.T) {
	for _, arg := range []string{"x=1s..2s/0s", "x=1s..2s/-1s"} {
		_, err := ParseVary(arg)
		if err == nil || !strings.Contains(err.Error(), "want from <= to and a positive step") {
			t.Errorf("ParseVary(%q) = %v, want a positive step asked for", arg, err)
		}
	}
	if v, err := ParseVary("x=1s..2s/500ms"); err != nil || len(v.Values) != 3 {
		t.Errorf("ParseVary(x=1s..2s/500ms) = %+v, %v; want 3 values", v, err)
	}
}
