package replay

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// Product lanes shard and merge as the textbook ones: nginx's delays
// (the "would delay" column) and Traefik's included, byte for byte.
func TestShardMergeProductLanes(t *testing.T) {
	var log bytes.Buffer
	writeShardLog(&log, 4000, 5, false)
	f := shardFlags(false)
	f.Vary, f.Find = "", ""
	f.Limits = []string{"key=ip limit=4/1m burst=2", "key=user limit=3/1s"} // nginx says per second or minute
	f.Lanes = []string{"nginx", "traefik", "token_bucket"}
	for _, n := range []int{2, 3} {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			whole, merged, m := onePassAndMerge(t, log.Bytes(), f, n)
			if !bytes.Equal(whole.Text, merged.Text) || !bytes.Equal(whole.JSON, merged.JSON) || !bytes.Equal(whole.CSV, merged.CSV) {
				t.Errorf("the merge of %d shards differs from one pass:\n%s", n, firstDiff(whole.Text, merged.Text))
			}
			if !strings.Contains(string(merged.Text), "would delay") || m.Result.Limits[0].Lanes[0].Delayed == 0 {
				t.Errorf("the log makes nginx delay nothing: the test shows nothing")
			}
		})
	}
}

// A fleet's figures and a scenario's own lane names are not merged: --shard
// refuses them, naming why.
func TestShardRefusesFleetsAndOwnLaneNames(t *testing.T) {
	f := shardFlags(false)
	f.Vary, f.Find, f.Shard, f.Replicas = "", "", "0/2", 3
	if _, err := f.Options(); err == nil || !strings.Contains(err.Error(), "--shard: a fleet's figures") {
		t.Errorf("--shard with --replicas 3: %v", err)
	}
}
