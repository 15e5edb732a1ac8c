package conform

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

func sampleRun() Run {
	c := LaneCheck{Lane: sim.LaneGCRA, Script: "gcra", Policy: algorithms.Policy{Limit: 10, Window: time.Second},
		OnStoreError: sim.FailClosed,
		Tally: Tally{Attempts: 9, Agreed: 4, DifferedWithin: 1, Differed: 1, RetryAfterDiffered: 1, StoreErrors: 2,
			Unexplained: 1, Restarts: 1, ExactAdmitted: 5, RealAdmitted: 3, RoundTrip: time.Millisecond, RoundTripMax: 3 * time.Millisecond},
		Diffs: []Diff{
			{Outcome: Differed, Attempt: Attempt{At: time.Second, Key: "global", Cost: 1, RetryAfter: algorithms.Never},
				Answer: Answer{Now: time.Second, Admitted: true}, Twin: Attempt{Admitted: true}, Explained: true},
			{Outcome: StoreError, Attempt: Attempt{At: 2 * time.Second, Key: "global", Cost: 1, Admitted: true},
				Answer: Answer{Err: errors.New("connection refused")}},
		}}
	return Run{Scenario: "s", Seed: 3, Redis: "r:1", Options: CheckOptions{Replay: Replay{Clock: ClockDriver, Scale: 10}, Tolerance: 50 * time.Millisecond},
		Checks: []LaneCheck{c}}
}

// TestWriteChecksTellsEveryCount checks the table and the differences read
// what the comparison counted.
func TestWriteChecksTellsEveryCount(t *testing.T) {
	r := sampleRun()
	var b bytes.Buffer
	if err := WriteChecks(&b, r.Checks, r.Options); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"clock driver, time scale 10; tolerance 50ms",
		"gcra  gcra    9         4       1                          1         1                     1            2 (fail closed: 0 admitted; redis restarted 1×, state lost)  5/3",
		"t=1s key global cost 1 (client 0, request 0, attempt 0): exact lane refuse (Retry-After never); redis admit, decided at t=1s; exact algorithm at that instant admit: explained by the clock",
		"redis store error (connection refused), so the fail mode's refuse (no Retry-After)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestWriteJSONRoundTrips checks the JSON carries the counts and differences.
func TestWriteJSONRoundTrips(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, sampleRun()); err != nil {
		t.Fatal(err)
	}
	var got runJSON
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	l := got.Lanes[0]
	if got.ToleranceNS != int64(50*time.Millisecond) || l.Attempts != 9 || l.Unexplained != 1 || l.StoreErrors != 2 ||
		l.OnStoreError != "closed" || len(l.Diffs) != 2 || l.Diffs[0].ExactRetryAfterNS != -1 ||
		l.Diffs[1].StoreError != "connection refused" || len(got.Races) != 0 {
		t.Errorf("decoded %+v", got)
	}
}

// TestWriteRaceTellsTheSpread checks the race table's runs and its mean and
// range over them.
func TestWriteRaceTellsTheSpread(t *testing.T) {
	peak := func(n int64) Peak { return Peak{Count: n, Limit: 10, Ratio: float64(n) / 10} }
	r := Race{Lane: sim.LaneGCRA, Replicas: 1, Scale: 10, Runs: []RaceRun{
		{Seed: 1, RoundTrip: time.Millisecond, StoreLatency: 10 * time.Millisecond, MaxLag: 2 * time.Millisecond,
			MeasuredRacy: peak(30), SimulatedRacy: peak(20), MeasuredAtomic: peak(20), SimulatedAtomic: peak(20)},
		{Seed: 2, MeasuredRacy: peak(50), SimulatedRacy: peak(40), MeasuredAtomic: peak(18), SimulatedAtomic: peak(20)},
	}}
	var b bytes.Buffer
	if err := WriteRace(&b, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"race: lane gcra, 1 replica behind round robin",
		"1             1     1ms         10ms           2ms           30 (3.00×)",
		"4.00× (3.00–5.00×)  3.00× (2.00–4.00×)  1.90× (1.80–2.00×)  2.00× (2.00–2.00×)",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, b.String())
		}
	}
}

// TestAnInvalidAnswerIsToldAsSuch checks the table counts answers outside the
// calling convention among the unexplained, and the difference says why, in
// text and JSON, never "explained by the clock".
func TestAnInvalidAnswerIsToldAsSuch(t *testing.T) {
	r := sampleRun()
	c := &r.Checks[0]
	c.Unexplained, c.Invalid, c.InvalidReason = 2, 1, "admitted is 7, want 1 or 0"
	c.Diffs = []Diff{{Outcome: Invalid, Attempt: Attempt{At: time.Second, Key: "global", Cost: 1, Admitted: true},
		Answer: Answer{Now: time.Second, Invalid: "admitted is 7, want 1 or 0"}}}
	var b bytes.Buffer
	if err := WriteChecks(&b, r.Checks, r.Options); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"  2 (1 answers outside the calling convention)  2 (fail closed",
		"exact lane admit; redis an answer outside the calling convention (admitted is 7, want 1 or 0): unexplained\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), "explained by the clock") {
		t.Errorf("an invalid answer told as explained by the clock:\n%s", b.String())
	}
	b.Reset()
	if err := WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	var got runJSON
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if l := got.Lanes[0]; l.Invalid != 1 || l.Diffs[0].Invalid != "admitted is 7, want 1 or 0" || l.Diffs[0].Explained {
		t.Errorf("decoded %+v", l)
	}
}
