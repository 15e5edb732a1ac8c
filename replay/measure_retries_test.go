package replay

import (
	"fmt"
	"math"
	"testing"
	"time"
)

func at(d time.Duration) int64 { return int64(d) }

// A retry is the first later request of the same method and path within
// retryWithin of a refusal (60s inclusive); a refused retry repeated chains.
func TestMeasureRetriesWithinTheWindow(t *testing.T) {
	s := time.Second
	k := []obs{
		{at: at(0), req: 1, status: 429},
		{at: at(1 * s), req: 2, status: 200},     // another path: not a retry
		{at: at(60 * s), req: 1, status: 503},    // exactly 60s later: the retry, refused again
		{at: at(61 * s), req: 1, status: 429},    // the second retry, refused again
		{at: at(121*s + 1), req: 1, status: 200}, // 60s and 1ns after: a first attempt
		{at: at(130 * s), req: 3, status: 503},   // refused, never repeated
		{at: at(131 * s), req: 3, status: 200},   // the retry of 130s
	}
	st := measure("k", k, 200*s)
	got := fmt.Sprintf("refused %d repeated %d retries %v first %d longest %d statuses %v delays %v first2 %v",
		st.Refused, st.Repeated, st.Retries, st.First, st.longest, st.statuses, st.delays, st.first2)
	// The chain is 0 → 60s (exactly the window) → 61s; 121s+1ns is 60s and 1ns
	// after the 429 at 61s, past the window: a first attempt. The 503 at 130s
	// is repeated at 131s.
	want := "refused 4 repeated 3 retries true first 4 longest 3 statuses [true true] delays [1m0s 1s 1s] first2 [[1m0s 1s]]"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if st.Requests != len(k) || st.RateAll != float64(len(k)-1)/131 {
		t.Errorf("requests %d rate %v", st.Requests, st.RateAll)
	}
}

func TestMeasureRetriesNeedHalfTheRefusals(t *testing.T) {
	s := time.Second
	// Two refusals, one repeated: half, so the key retries.
	half := measure("h", []obs{{at: 0, req: 1, status: 429}, {at: at(s), req: 1, status: 200}, {at: at(2 * s), req: 2, status: 429}, {at: at(100 * s), req: 9}}, 100*s)
	// Three refusals, one repeated: under half.
	under := measure("u", []obs{{at: 0, req: 1, status: 429}, {at: at(s), req: 1, status: 200}, {at: at(2 * s), req: 2, status: 429}, {at: at(3 * s), req: 3, status: 503}, {at: at(100 * s), req: 9}}, 100*s)
	none := measure("n", []obs{{at: 0, req: 1, status: 200}, {at: at(s), req: 1, status: 200}}, 100*s)
	if !half.Retries || under.Retries || none.Retries {
		t.Errorf("retries: half %v, under half %v, no refusal %v; want true false false", half.Retries, under.Retries, none.Retries)
	}
	if !half.statuses[0] || half.statuses[1] {
		t.Errorf("a 429 repeated: statuses %v", half.statuses)
	}
}

func TestRateOf(t *testing.T) {
	for _, c := range []struct {
		n           int
		first, last int64
		span        time.Duration
		want        float64
	}{
		{0, 0, 0, time.Second, 0},
		{1, 5, 5, 4 * time.Second, 0.25},
		{3, 7, 7, 2 * time.Second, 1.5},
		{3, 0, int64(4 * time.Second), time.Hour, 0.5},
		{2, int64(time.Second), int64(1500 * time.Millisecond), time.Hour, 2},
	} {
		if got := rateOf(c.n, c.first, c.last, c.span); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("rateOf(%d, %d, %d, %v) = %v, want %v", c.n, c.first, c.last, c.span, got, c.want)
		}
	}
}
