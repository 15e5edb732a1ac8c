package sim

import (
	"context"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// AIMD with no backend to push back admits everything: it is not limiting, and the
// live figures say so as the result does; a token bucket that refuses is limiting.
func TestNotLimitingAgreesLiveAndAtTheEnd(t *testing.T) {
	cfg := Config{
		Duration: 2 * time.Second, Lanes: []LaneKind{LaneAIMD, LaneTokenBucket},
		Limits:  []Limit{{Policy: algorithms.Policy{Limit: 5, Window: time.Second}}},
		Clients: []ClientGroup{{Count: 1, Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 20, Per: time.Second}}}}},
	}
	s, err := New(cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.RunToEnd(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	snaps := s.Snapshot()
	for i, want := range []bool{true, false} {
		l := &r.Lanes[i]
		if l.NotLimiting() != want || snaps[i].NotLimiting() != want {
			t.Errorf("%s: NotLimiting result %v, live %v; want %v (admitted %d of %d, refused %d)",
				l.Lane.Title(), l.NotLimiting(), snaps[i].NotLimiting(), want, l.Admitted, l.Attempts, l.Refused)
		}
		if over := l.Peak.Count > l.Peak.Limit; snaps[i].OverLimit != (over && !want) {
			t.Errorf("%s: live OverLimit %v with peak %d of %d", l.Lane.Title(), snaps[i].OverLimit, l.Peak.Count, l.Peak.Limit)
		}
	}
}
