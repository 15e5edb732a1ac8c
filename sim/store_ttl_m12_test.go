package sim

import (
	"fmt"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// Each key of the store's memory expires at its TTL (docs/scenarios.md,
// "Store memory"): a fixed window's counter at the end of its window, a
// sliding window counter's at the end of the window after its last write's,
// the others (token bucket, GCRA, sliding log) a window after their last
// write. A write at that instant finds the key gone. One client writes its key
// every gap, each family on both sides of each edge; the shard's Expired is
// the count of writes that found the previous one's TTL run out, by the
// table.
func TestStoreKeysExpireExactlyAtTheirTTL(t *testing.T) {
	const w = time.Second
	ttl := map[LaneKind]func(last time.Duration) time.Duration{
		LaneFixedWindow:          func(last time.Duration) time.Duration { return (last/w + 1) * w },
		LaneSlidingWindowCounter: func(last time.Duration) time.Duration { return (last/w + 2) * w },
		LaneTokenBucket:          func(last time.Duration) time.Duration { return last + w },
		LaneGCRA:                 func(last time.Duration) time.Duration { return last + w },
		LaneSlidingLog:           func(last time.Duration) time.Duration { return last + w },
	}
	ms := time.Millisecond
	for lane, expires := range ttl {
		for _, gap := range []time.Duration{500 * ms, 999 * ms, w, 1001 * ms, 1500 * ms, 2*w - ms, 2 * w, 2*w + ms} {
			t.Run(fmt.Sprintf("%v every %v", lane, gap), func(t *testing.T) {
				cfg := Config{Duration: 9 * time.Second, Lanes: []LaneKind{lane}, Seed: 1,
					Limits: []Limit{{Key: KeyUser, Policy: algorithms.Policy{Limit: 100, Window: w}, State: StateShared}},
					Clients: []ClientGroup{{Name: "one", Count: 1,
						Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 1, Per: gap}}}}},
					Topology: &Topology{Replicas: replicas(1), Store: Store{MaxMemory: 1 << 20}}}
				res := mustRun(t, cfg, Options{})
				top := res.Lanes[0].Topology
				want := int64(0)
				var writes int64
				for at := time.Duration(0); at < cfg.Duration; at += gap {
					if at > 0 && expires(at-gap) <= at {
						want++
					}
					writes++
				}
				if top == nil || len(top.Shards) != 1 {
					t.Fatalf("topology %+v, want one shard", top)
				}
				if got := top.Shards[0].Expired; got != want {
					t.Errorf("expired %d of %d writes, want %d (by the TTL table)", got, writes, want)
				}
				if got := res.Lanes[0].Attempts; got != writes {
					t.Errorf("%d attempts, want %d (one write each)", got, writes)
				}
			})
		}
	}
}
