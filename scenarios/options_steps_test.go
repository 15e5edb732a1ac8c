package scenarios

import (
	"strings"
	"testing"
)

// refill: stepwise and align: calendar from a file, verdicts by hand. t=0 is
// 09:00:20 UTC; one request per minute; requests at 10s, 30s, 45s and 70s.
//   - fixed_window on the clock, [0, 60s), [60s, 120s): admit, refuse,
//     refuse, admit.
//   - on the calendar, windows at each UTC minute, t = 40s, 100s: the first
//     [−20s, 40s) holds 10s and refuses 30s, [40s, 100s) holds 45s and refuses
//     70s.
//   - the stepwise bucket on the clock, a step at 60s: admit, refuse, refuse,
//     admit.
//   - on the calendar, steps at 40s and 100s: admit, refuse, admit, refuse.
//   - from the first request, 10s: steps at 70s, 130s: admit, refuse, refuse,
//     admit (the step at 70s is there for the request at 70s).
func TestStepwiseAndCalendarFromAFile(t *testing.T) {
	src := `start: 2026-12-01T09:00:20Z
duration: 2m
limits: [{key: ip, limit: 1, window: 1m}]
lanes:
  - fixed_window
  - {name: cal, algorithm: fixed_window, align: calendar}
  - {name: steps, algorithm: token_bucket, refill: stepwise}
  - {name: steps-cal, algorithm: token_bucket, refill: stepwise, align: calendar}
  - {name: steps-first, algorithm: token_bucket, refill: stepwise, align: first}
clients:
  - name: a
    identity: {ip: a}
    arrivals: [{kind: burst, at: 10s, count: 1}, {kind: burst, at: 30s, count: 1}, {kind: burst, at: 45s, count: 1}, {kind: burst, at: 70s, count: 1}]
`
	s, err := Parse("steps.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	assertRoundTrip(t, s)
	log, _ := runVerdicts(t, *s.Config)
	for lane, want := range map[string]string{
		"fixed_window": "10s a admit; 30s a ip; 45s a ip; 1m10s a admit",
		"cal":          "10s a admit; 30s a ip; 45s a admit; 1m10s a ip",
		"steps":        "10s a admit; 30s a ip; 45s a ip; 1m10s a admit",
		"steps-cal":    "10s a admit; 30s a ip; 45s a admit; 1m10s a ip",
		"steps-first":  "10s a admit; 30s a ip; 45s a ip; 1m10s a admit",
	} {
		if got := strings.Join(log[lane], "; "); got != want {
			t.Errorf("lane %s: verdicts %s, want %s", lane, got, want)
		}
	}
}

// A stepwise refill or an alignment a lane cannot apply is reported at its
// field's line, with the reason.
func TestStepOptionsErrorsAtTheirLines(t *testing.T) {
	src := `limits: [{key: ip, limit: 1, window: 1m}]
lanes:
  - {name: g, algorithm: gcra, refill: stepwise}
  - {name: s, algorithm: sliding_window_counter, align: calendar}
  - {name: t, algorithm: token_bucket, align: first}
  - {name: u, algorithm: token_bucket, refill: stepwis}
clients:
  - {arrivals: [{kind: burst, at: 1s, count: 1}]}
`
	_, err := Parse("f.yaml", []byte(src))
	if err == nil {
		t.Fatal("Parse: no error")
	}
	for _, want := range []string{
		"f.yaml:3: lanes[0].refill: gcra has no refill to make stepwise",
		"f.yaml:4: lanes[1].align: sliding_window_counter cannot align its windows",
		"f.yaml:5: lanes[2].align: a token bucket that refills continuously has no steps to align",
		`f.yaml:6: lanes[3].refill: unknown value "stepwis"`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("errors:\n%v\nwant one saying %q", err, want)
		}
	}
}
