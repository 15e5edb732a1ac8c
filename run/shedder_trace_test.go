package run

import "testing"

// The trace names the shedder of every shed it made, and only of those: its
// shed events with a shedder are the lane's ShedBy, and their classes those
// the shedder sheds (fleet_usage keeps critical shoppers).
func TestTraceNamesTheShedder(t *testing.T) {
	r, rows := traceRows(t, "botnet-under-the-limit", "backend.shedding={fleet_usage: {reserve: 0.2}}", "lanes=[token_bucket]",
		"clients[1].count=5000", "backend.capacity=20", "backend.queue=200", "clients[0].count=300")
	var shed int64
	for _, row := range rows {
		if row["shedder"] == "" {
			continue
		}
		if row["event"] != "shed" || row["shedder"] != "fleet_usage" || row["class"] == "shoppers" {
			t.Fatalf("a %s event of %s names the shedder %q", row["event"], row["class"], row["shedder"])
		}
		shed++
	}
	if want := r.Lanes[0].ShedBy[0].Count; shed != want || shed == 0 {
		t.Errorf("%d shed events name a shedder, the lane counts %d", shed, want)
	}
}
