package conform

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

// round_trip_p50_ns and round_trip_max_ns carry the median and the largest
// round trip, each its own.
func TestWriteJSONRoundTrips_s5(t *testing.T) {
	r := sampleRun()
	r.Checks[0].RoundTrip, r.Checks[0].RoundTripMax = 2*time.Millisecond, 7*time.Millisecond
	var b bytes.Buffer
	if err := WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Lanes []struct {
			P50 int64 `json:"round_trip_p50_ns"`
			Max int64 `json:"round_trip_max_ns"`
		} `json:"lanes"`
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Lanes) != 1 {
		t.Fatalf("decoded %d lanes, want 1", len(got.Lanes))
	}
	l := got.Lanes[0]
	if want := int64(2 * time.Millisecond); l.P50 != want {
		t.Errorf("round_trip_p50_ns = %d, want %d", l.P50, want)
	}
	if want := int64(7 * time.Millisecond); l.Max != want {
		t.Errorf("round_trip_max_ns = %d, want %d", l.Max, want)
	}
}
