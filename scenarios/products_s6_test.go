package scenarios

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
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

// The scenario's start places the clock's and the calendar's windows: a
// daily quota of 1 starting one second before midnight UTC refuses a second
// request at 0.5s and admits one at 1.5s, the next day; from midnight it
// refuses both.
func TestStartPlacesCalendarWindows(t *testing.T) {
	run := func(start, lane string) sim.LaneResult {
		src := "duration: 2s\n" + start + "limits: [{key: ip, limit: 1, window: 24h}]\nlanes: [" + lane + "]\n" +
			"clients: [{arrivals: [{kind: burst, at: 0s, count: 1}, {kind: burst, at: 500ms, count: 1}, {kind: burst, at: 1500ms, count: 1}]}]\n"
		s, err := Parse("t.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		r, err := sim.Run(context.Background(), *s.Config, sim.Options{})
		if err != nil {
			t.Fatal(err)
		}
		assertRoundTrip(t, s)
		return r.Lanes[0]
	}
	if l := run("start: 2026-12-01T23:59:59Z\n", "aws_quota"); l.Admitted != 2 || l.Refused != 1 {
		t.Errorf("a day's quota of 1 from 23:59:59: admitted %d refused %d, want 2 and 1 (the day turns at 1s)", l.Admitted, l.Refused)
	}
	if l := run("", "aws_quota"); l.Admitted != 1 || l.Refused != 2 {
		t.Errorf("a day's quota of 1 from midnight: admitted %d refused %d, want 1 and 2", l.Admitted, l.Refused)
	}
	if _, err := Parse("t.yaml", []byte("start: yesterday\nclients: [{arrivals: [{kind: burst, count: 1}]}]\n")); err == nil ||
		!strings.Contains(err.Error(), "t.yaml:1: start:") {
		t.Errorf("start: yesterday: %v, want an error at t.yaml:1 start", err)
	}
	if _, err := Parse("t.yaml", []byte("start: 2300-01-01T00:00:00Z\nclients: [{arrivals: [{kind: burst, count: 1}]}]\n")); err == nil ||
		!strings.Contains(err.Error(), "1970 to 2161") {
		t.Errorf("start in 2300: %v, want refused", err)
	}
}
