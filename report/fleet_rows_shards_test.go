package report

import "testing"

// A replica's row has a slice for every shard of the lane's stores, named
// stores included: incident-0341's contract opens its breakers on shard 1
// (store abuse), which a row of topology.store's one shard drew a row lower,
// under the next replica's label.
func TestFleetRowsSliceEveryShardOfTheLane(t *testing.T) {
	sc, r := runBuiltin(t, "incident-0341", nil)
	rows, _ := fleetRows(r, sc.Config.Topology)
	breakers := 0
	for _, row := range rows {
		if want := max(1, len(r.Lanes[row.Lane].Topology.Shards)); row.Shards != want {
			t.Errorf("%s: %d slices, want %d (the lane's shards)", row.Label, row.Shards, want)
		}
		for _, s := range row.Spans {
			if s.Shard >= row.Shards {
				t.Errorf("%s: a span on shard %d drawn outside its %d slices", row.Label, s.Shard, row.Shards)
			}
			if s.Shard >= 0 {
				breakers++
			}
		}
	}
	if breakers == 0 {
		t.Error("no breaker span: the contract's breakers open in incident-0341")
	}
}
