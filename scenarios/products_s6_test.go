package scenarios

import (
	"strings"
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

// A chain policy a product cannot say is reported at each product lane's own
// line, every one of them, naming the limit and the product's reason.
func TestProductCannotSayThePolicyAtItsLane(t *testing.T) {
	src := "duration: 1s\nlimits: [{key: ip, limit: 10, window: 2s}]\nlanes:\n  - nginx\n  - {name: w, algorithm: aws_waf}\n  - token_bucket\n" +
		"clients: [{arrivals: [{kind: burst, count: 1}]}]\n"
	_, err := Parse("t.yaml", []byte(src))
	if err == nil {
		t.Fatal("an nginx and an AWS WAF lane of 10 per 2s accepted")
	}
	for _, want := range []string{"t.yaml:4: lanes[0]: limits[0] of the chain (10 per 2s): nginx:", "t.yaml:5: lanes[1]: limits[0] of the chain (10 per 2s): aws waf:"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("errors\n%v\nlack %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "lanes[2]") {
		t.Errorf("the token bucket, which can say it, is reported: %v", err)
	}
}
