package sim

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// TestOwnCheckMeasuresAsAKeptLog runs worlds whose sliding-log lane is its own
// cross-check, and again with the check keeping its own log (as every other
// lane's does), and wants the same result, disagreement included; a rule push
// (live or configured) that makes the lane and the check differ is counted
// either way.
func TestOwnCheckMeasuresAsAKeptLog(t *testing.T) {
	tighter := RuleChange{At: 1500 * time.Millisecond, Policy: algorithms.Policy{Limit: 2, Window: time.Second, Burst: 2}}
	tests := []struct {
		name  string
		rules []RuleChange
		live  bool
		own   bool // the lane starts as its own check
		wantD bool // the check disagrees somewhere
	}{
		{"alone", nil, false, true, false},
		{"rule push", []RuleChange{tighter}, false, true, true},
		{"live rule push", nil, true, true, true},
		{"shadow push", []RuleChange{{At: time.Second, Shadow: true}}, false, true, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := liveWorld(Arrival{Kind: ArrivalPoisson, Rate: Rate{Count: 8, Per: time.Second}})
			cfg.Limits = cfg.Limits[:1]
			cfg.Lanes = []LaneKind{LaneSlidingLog, LaneTokenBucket}
			cfg.Rules = tc.rules
			run := func(keepLog bool) Result {
				s, err := New(cfg, Options{})
				if err != nil {
					t.Fatal(err)
				}
				if got := s.lanes[0].m.ownCheck; got != tc.own {
					t.Fatalf("sliding-log lane is its own check: %v, want %v", got, tc.own)
				}
				if s.lanes[1].m.ownCheck {
					t.Fatalf("token-bucket lane is its own check")
				}
				if keepLog {
					s.lanes[0].unshareCheck()
				}
				if tc.live {
					if err := s.RunUntil(tighter.At - time.Millisecond); err != nil {
						t.Fatal(err)
					}
					if err := s.ChangeRule(tighter); err != nil {
						t.Fatal(err)
					}
				}
				r, err := s.RunToEnd(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				return r
			}
			own, kept := run(false), run(true)
			if !reflect.DeepEqual(own, kept) {
				t.Errorf("own check measured\n%+v\nwant, with a log of its own,\n%+v", own.Lanes[0], kept.Lanes[0])
			}
			if d := own.Lanes[0].SlidingLogDisagreement; (d > 0) != tc.wantD {
				t.Errorf("disagreement %v, want > 0: %v", d, tc.wantD)
			}
		})
	}
}
