package report

import (
	"bytes"
	"encoding/csv"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// TestContentionCSVRoundTrip: a contention study's CSV has its columns and a
// row per cell of the sweep, each field read back as the cell's figure.
func TestContentionCSVRoundTrip(t *testing.T) {
	r := sampleContention()
	var b bytes.Buffer
	if err := WriteCSV(&b, []Run{r}); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1+len(r.Contention.Rows) || !slices.Equal(recs[0], csvContentionColumns) {
		t.Fatalf("CSV head %v and %d rows, want %v and %d", recs[0], len(recs)-1, csvContentionColumns, len(r.Contention.Rows))
	}
	num := func(s string) float64 {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	for i, row := range r.Contention.Rows {
		rec := recs[i+1]
		if rec[0] != r.Scenario.Name || rec[1] != strconv.FormatUint(r.Scenario.Contention.Seed, 10) ||
			rec[2] != strconv.Itoa(row.Clients) || rec[3] != row.Jitter.String() {
			t.Errorf("row %d: %v, want %s, seed %d, %d clients, %s", i, rec[:4], r.Scenario.Name, r.Scenario.Contention.Seed, row.Clients, row.Jitter)
		}
		got := []float64{num(rec[4]), num(rec[5]), num(rec[6]), num(rec[7]), num(rec[8]), num(rec[9])}
		want := []float64{row.Calls, row.Completion.Seconds(), row.CallsLow, row.CallsHigh, row.CompletionLow.Seconds(), row.CompletionHigh.Seconds()}
		if !slices.Equal(got, want) {
			t.Errorf("row %d: calls, completion, calls low, high, completion low, high = %v, want %v", i, got, want)
		}
	}
}

// TestStoreChangeWords: a change is its instant and, down, "down"; up, its
// round trip and capacity when it sets them, then "up".
func TestStoreChangeWords(t *testing.T) {
	for _, c := range []struct {
		ch   sim.StoreChange
		want string
	}{
		{sim.StoreChange{At: 2 * time.Second, Down: true, Capacity: 5}, "t=2s down"},
		{sim.StoreChange{At: 3 * time.Second}, "t=3s up"},
		{sim.StoreChange{At: 3 * time.Second, Latency: sim.Service{Mean: 4 * time.Millisecond}}, "t=3s 4ms round trip up"},
		{sim.StoreChange{At: time.Second, Capacity: 250.25}, "t=1s 250.2 calls/s up"},
		{sim.StoreChange{At: time.Second, Capacity: 0.5}, "t=1s 0.5 calls/s up"},
		{sim.StoreChange{At: time.Second, Capacity: 100, Latency: sim.Service{Mean: time.Millisecond}}, "t=1s 1ms round trip 100 calls/s up"},
	} {
		if got := changeWords(c.ch); got != c.want {
			t.Errorf("changeWords(%+v) = %q, want %q", c.ch, got, c.want)
		}
	}
}
