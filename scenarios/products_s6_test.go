package scenarios

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// A traefik section's average without a period is per 1s, Traefik's default
// period, whatever the chain's window; its burst then defaults to Traefik's 1.
func TestTraefikPeriodDefaultsToASecond(t *testing.T) {
	src := "duration: 1s\nlimits: [{key: ip, limit: 10, window: 1m}]\nlanes: [{name: edge, algorithm: traefik, traefik: {average: 100}}]\n" +
		"clients: [{arrivals: [{kind: burst, count: 1}]}]\n"
	s, err := Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := algorithms.Policy{Limit: 100, Window: time.Second, Burst: 1}
	if o := s.Config.Overrides; len(o) != 1 || o[0].Policy != want {
		t.Errorf("overrides %+v, want the lane's policy %+v", o, want)
	}
}

// A lane's start reads full as the default (none), empty as 0 tokens and a
// number as itself.
func TestLaneStartLevels(t *testing.T) {
	for _, tc := range []struct {
		start string
		want  int64 // -1: none (full)
	}{{"full", -1}, {"empty", 0}, {"0", 0}, {"3", 3}} {
		src := "duration: 1s\nlimits: [{key: ip, limit: 10, window: 1s}]\nlanes: [{name: tb, algorithm: token_bucket, start: " + tc.start + "}]\n" +
			"clients: [{arrivals: [{kind: burst, count: 1}]}]\n"
		s, err := Parse("t.yaml", []byte(src))
		if err != nil {
			t.Fatalf("start %s: %v", tc.start, err)
		}
		var got int64 = -1
		if len(s.Config.Variants) == 1 && s.Config.Variants[0].Options.Start != nil {
			got = *s.Config.Variants[0].Options.Start
		}
		if got != tc.want {
			t.Errorf("start %s: level %d, want %d (-1: full, no start set)", tc.start, got, tc.want)
		}
	}
}
