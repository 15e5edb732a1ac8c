package scenarios

import (
	"strings"
	"testing"
)

// An override's burst is 0 or more: 0 (the default) is the limit, as the
// field's doc says; a negative burst is refused at its line.
func TestOverrideBurstZeroIsTheLimit(t *testing.T) {
	const clients = "clients:\n  - arrivals: [{kind: constant, rate: 5/s}]\n"
	s, err := Parse("o.yaml", []byte("overrides:\n  - lane: gcra\n    limit: 20\n    burst: 0\n"+clients))
	if err != nil {
		t.Fatalf("burst 0: %v", err)
	}
	if o := s.Config.Overrides; len(o) != 1 || o[0].Policy.Limit != 20 || o[0].Policy.EffectiveBurst() != 20 {
		t.Errorf("overrides %+v, want one of 20 with burst 20", o)
	}
	_, err = Parse("o.yaml", []byte("overrides:\n  - lane: gcra\n    limit: 20\n    burst: -1\n"+clients))
	if err == nil || !strings.Contains(err.Error(), "o.yaml:4: overrides[0].burst") {
		t.Errorf("burst -1: %v", err)
	}
}
