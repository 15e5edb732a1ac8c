package sim

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// TestStoreMemoryMatchesAModel's model with keys shared between clients:
// the second limit is keyed by an address each of three groups' clients
// share with one client of each other group, so a call writes a key of its own
// and one others write too, and the least recently written key is often a
// tie between the two limits' keys a call wrote together (the model evicts
// the lower id, the first limit's, as evictOne does taking a later limit's
// only when strictly older). One shard, so every key lives on the caller's.
func TestStoreMemoryMatchesAModelWithSharedKeys(t *testing.T) {
	for _, lane := range []LaneKind{LaneTokenBucket, LaneFixedWindow, LaneSlidingLog} {
		t.Run(fmt.Sprint(lane), func(t *testing.T) {
			maxMem := 30 * modelBytes(lane, 1)
			var groups []ClientGroup
			for g := range 3 {
				groups = append(groups, ClientGroup{Name: fmt.Sprint("g", g), Count: 20, Identity: Identity{IP: "10.0.0.{i}"},
					Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 2, Per: time.Second}}}})
			}
			cfg := Config{Duration: 5 * time.Second, Lanes: []LaneKind{lane}, Seed: 7,
				Limits: []Limit{{Key: KeyUser, Policy: algorithms.Policy{Limit: 5, Window: time.Second}, State: StateShared},
					{Key: KeyIP, Policy: algorithms.Policy{Limit: 5, Window: time.Second}, State: StateShared}},
				Clients:  groups,
				Topology: &Topology{Replicas: replicas(2), Store: Store{MaxMemory: maxMem, Eviction: EvictLRU}}}
			s, err := New(cfg, Options{})
			if err != nil {
				t.Fatal(err)
			}
			f := s.lanes[0].fleet
			rec := &recordingStore{store: f.store}
			f.store = rec
			res, err := s.RunToEnd(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			users, ips := map[int32]bool{}, map[int32]bool{}
			m := newMemModel()
			for j, c := range rec.clients {
				u, ip := f.lane.pop.keyOf[0][c], f.lane.pop.keyOf[1][c]
				users[u], ips[ip] = true, true
				ok := m.write(lane, []int64{int64(u), 1<<32 | int64(ip)}, rec.at[j], maxMem, true, 5)
				if ok == rec.failed[j] {
					t.Fatalf("call %d at %v: failed %v, the model refuses %v", j, rec.at[j], rec.failed[j], !ok)
				}
			}
			if len(users) != 60 || len(ips) != 20 {
				t.Fatalf("%d user keys and %d address keys called, want 60 and 20", len(users), len(ips))
			}
			sh := res.Lanes[0].Topology.Shards[0]
			if sh.KeysPeak != m.keys || sh.MemoryPeak != m.peak || sh.Evictions != m.evictions {
				t.Errorf("keys %d bytes %d evictions %d, the model %d %d %d", sh.KeysPeak, sh.MemoryPeak, sh.Evictions, m.keys, m.peak, m.evictions)
			}
			if m.evictions == 0 {
				t.Error("no eviction: the test shows nothing")
			}
		})
	}
}

// memLimit.logWrite, by its doc comment, for a key held all along: the
// writes in the window ending at t estimated as a sliding window counter does
// (this window's, the write itself included, plus the last window's weighted
// by the part of it still in the window), at least 1, at most the limit; a key
// not held starts with none. The oracle counts the key's own list of writes by
// window, for random gaps from a hundredth of a window to four windows.
func TestLogWriteCountsThisWindowAndTheLastOnly(t *testing.T) {
	const w = time.Second
	rng := rand.New(rand.NewPCG(12, 10))
	for _, limit := range []int64{3, 1000} {
		ml := &memLimit{window: w, limit: limit, bytes: []int64{1}, logCur: []int64{0}, logPrev: []int64{0}, logWin: []int64{0}}
		var writes []time.Duration
		now := time.Duration(0)
		for range 5000 {
			now += time.Duration(1 + rng.Int64N(int64(w)/2))
			if rng.IntN(20) == 0 {
				now += time.Duration(rng.Int64N(int64(3 * w)))
			}
			cur, prev := int64(1), int64(0)
			for _, at := range writes {
				switch at / w {
				case now / w:
					cur++
				case now/w - 1:
					prev++
				}
			}
			want := max(1, min(limit, cur+int64(float64(prev)*(1-float64(now%w)/float64(w)))))
			if len(writes) == 0 {
				ml.bytes[0] = 0 // not held before its first write
			}
			n, c, p, win := ml.logWrite(0, now)
			if n != want || c != cur || p != prev || win != int64(now/w) {
				t.Fatalf("limit %d, write %d at %v: logWrite = %d (cur %d prev %d window %d), want %d (cur %d prev %d window %d)",
					limit, len(writes), now, n, c, p, win, want, cur, prev, now/w)
			}
			ml.logCur[0], ml.logPrev[0], ml.logWin[0], ml.bytes[0] = c, p, win, 1
			writes = append(writes, now)
		}
	}
}
