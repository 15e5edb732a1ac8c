package scenarios

import (
	"strings"
	"testing"
)

// TestArrivalAndBurstBoundaries walks the boundaries convert draws, each at the
// instant itself: an arrival's stop must be after its start (equal is an empty
// arrival), and a burst must be before the duration (at it, it never fires).
func TestArrivalAndBurstBoundaries(t *testing.T) {
	for _, tt := range []struct {
		sets []string
		want string // "" = valid
	}{
		{[]string{"clients[0].arrivals[0].start=2s", "clients[0].arrivals[0].stop=2s"}, "clients[0].arrivals[0].stop: 2s is not after start 2s"},
		{[]string{"clients[0].arrivals[0].start=2s", "clients[0].arrivals[0].stop=2.000000001s"}, ""},
		{[]string{"clients[1].arrivals[1].at=10s"}, "clients[1].arrivals[1].at: 10s is not before the scenario's duration 10s"},
		{[]string{"clients[1].arrivals[1].at=9.999999999s"}, ""},
	} {
		var sets []Set
		for _, a := range tt.sets {
			s, err := ParseSet(a)
			if err != nil {
				t.Fatal(err)
			}
			sets = append(sets, s)
		}
		_, err := LoadBuiltin("demo", sets...)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("demo with %v: %v, want valid", tt.sets, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("demo with %v: error %v, want one saying %q", tt.sets, err, tt.want)
		}
	}
}

// TestBackendChangesStrictlyInOrder: two backend changes at one instant are
// refused (which would win?), a nanosecond apart they are not.
func TestBackendChangesStrictlyInOrder(t *testing.T) {
	for _, tt := range []struct {
		at, want string
	}{
		{"10s", "backend.changes[1].at: 10s is not after the previous change at 10s"},
		{"10.000000001s", ""},
	} {
		s, err := ParseSet("backend.changes[1].at=" + tt.at)
		if err != nil {
			t.Fatal(err)
		}
		_, err = LoadBuiltin("downstream-slowdown", s)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("downstream-slowdown with changes[1].at=%s: %v, want valid", tt.at, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("downstream-slowdown with changes[1].at=%s: error %v, want one saying %q", tt.at, err, tt.want)
		}
	}
}

// TestSetIndexIsCanonical: an index is written as Go writes the number, so
// clients[01] is refused rather than read as clients[1].
func TestSetIndexIsCanonical(t *testing.T) {
	for _, arg := range []string{"clients[01].name=x", "clients[+1].name=x", "clients[ 1].name=x"} {
		if _, err := ParseSet(arg); err == nil || !strings.Contains(err.Error(), "is not a whole number from 0") {
			t.Errorf("ParseSet(%q) = %v, want the index refused", arg, err)
		}
	}
	if _, err := ParseSet("clients[10].name=x"); err != nil {
		t.Errorf("ParseSet(clients[10].name=x) = %v, want nil", err)
	}
}
