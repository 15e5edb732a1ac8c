package sim

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// recordingStore passes calls to a store and records them and their answers.
type recordingStore struct {
	store
	at      []time.Duration
	clients []int32
	failed  []bool
}

func (s *recordingStore) call(at time.Duration, replica, c int32, trips int64) storeAnswer {
	a := s.store.call(at, replica, c, trips)
	s.at, s.clients, s.failed = append(s.at, at), append(s.clients, c), append(s.failed, a.failure != storeAnswered)
	return a
}

// memModel is the test's own model of a shard's memory: keys by limit and
// key (limit<<32 | key), the bytes and TTL of docs/scenarios.md's table, the
// least recently written key evicted first (the lower id of a tie).
type memModel struct {
	last               map[int64]time.Duration
	entries            map[int64]int64
	writes             map[int64][]time.Duration // a log's writes, by key, since it was created
	used, peak, keys   int64
	evictions, refused int64
}

func newMemModel() memModel {
	return memModel{last: map[int64]time.Duration{}, entries: map[int64]int64{}, writes: map[int64][]time.Duration{}}
}

func modelBytes(lane LaneKind, n int64) int64 {
	switch lane {
	case LaneTokenBucket:
		return 120
	case LaneSlidingLog:
		return 88 + 32*n
	}
	return 72
}

func modelExpired(lane LaneKind, last, now time.Duration) bool {
	if lane == LaneFixedWindow {
		return now >= (last/time.Second+1)*time.Second
	}
	return now >= last+time.Second
}

// logEntries is the entries of a log written at now, as the docs estimate
// them from its writes: those in now's one-second window, this one included,
// plus those of the second before weighted by the part of it still in the
// window, between 1 and the limit.
func (m *memModel) logEntries(k int64, now time.Duration, limit int64) int64 {
	cur, prev := int64(1), int64(0)
	for _, w := range m.writes[k] {
		switch w / time.Second {
		case now / time.Second:
			cur++
		case now/time.Second - 1:
			prev++
		}
	}
	n := cur + int64(float64(prev)*(1-float64(now%time.Second)/float64(time.Second)))
	return max(1, min(n, limit))
}

func (m *memModel) forget(lane LaneKind, key int64) {
	m.used -= modelBytes(lane, m.entries[key])
	delete(m.last, key)
	delete(m.entries, key)
	delete(m.writes, key)
}

// write is the model's write of one call's keys at now; false when refused.
func (m *memModel) write(lane LaneKind, keys []int64, now time.Duration, maxMem int64, lru bool, limit int64) bool {
	for key, l := range m.last {
		if modelExpired(lane, l, now) {
			m.forget(lane, key)
		}
	}
	need, ns := int64(0), map[int64]int64{}
	for _, k := range keys {
		ns[k] = 1
		if lane == LaneSlidingLog {
			ns[k] = m.logEntries(k, now, limit)
		}
		need += modelBytes(lane, ns[k])
		if _, ok := m.last[k]; ok {
			need -= modelBytes(lane, m.entries[k])
		}
	}
	for maxMem > 0 && m.used+need > maxMem {
		if !lru {
			m.refused++
			return false
		}
		oldest := int64(-1)
		for key, l := range m.last {
			if ns[key] == 0 && (oldest < 0 || l < m.last[oldest] || l == m.last[oldest] && key < oldest) {
				oldest = key
			}
		}
		m.forget(lane, oldest)
		m.evictions++
	}
	for _, k := range keys {
		if _, ok := m.last[k]; ok {
			m.used -= modelBytes(lane, m.entries[k])
		}
		m.used += modelBytes(lane, ns[k])
		m.last[k], m.entries[k] = now, ns[k]
		if lane == LaneSlidingLog {
			m.writes[k] = append(m.writes[k], now)
		}
	}
	m.peak = max(m.peak, m.used)
	m.keys = max(m.keys, int64(len(m.last)))
	return true
}

// modelSeries is the model's shard per bucket: the most keys and bytes
// held after a write in it, a bucket without one holding what the latest
// write left.
type modelSeries struct {
	keys, bytes []int64
	last        int      // the bucket of the latest write (-1 before the first)
	now         [2]int64 // what the latest write left
}

func (ms *modelSeries) fill(n int) {
	for len(ms.keys) < n {
		ms.keys, ms.bytes = append(ms.keys, ms.now[0]), append(ms.bytes, ms.now[1])
	}
}

// wrote records that a write in bucket i left the shard holding keys and bytes.
func (ms *modelSeries) wrote(i int, keys, bytes int64) {
	ms.fill(i + 1)
	if ms.last != i { // the bucket's first write: what it carried over goes
		ms.keys[i], ms.bytes[i] = keys, bytes
	}
	ms.keys[i], ms.bytes[i], ms.last, ms.now = max(ms.keys[i], keys), max(ms.bytes[i], bytes), i, [2]int64{keys, bytes}
}

// Item 8: the keys held, the memory peak, the evictions and the refused
// writes of every shard are what the test's own model of the store computes
// from the calls made, for three algorithms' keys, under both policies.
func TestStoreMemoryMatchesAModel(t *testing.T) {
	for _, lane := range []LaneKind{LaneTokenBucket, LaneFixedWindow, LaneSlidingLog} {
		for _, lru := range []bool{false, true} {
			for _, limits := range []int{1, 2} {
				t.Run(fmt.Sprintf("%v lru=%v limits=%d", lane, lru, limits), func(t *testing.T) {
					maxMem := 25 * modelBytes(lane, 1) * int64(limits) // about 25 clients' keys a shard, of some 40 each holds at a time
					ev := EvictNone
					if lru {
						ev = EvictLRU
					}
					cfg := Config{Duration: 5 * time.Second, Lanes: []LaneKind{lane}, Seed: 5,
						Limits: []Limit{{Key: KeyUser, Policy: algorithms.Policy{Limit: 5, Window: time.Second}, State: StateShared},
							{Key: KeyIP, Policy: algorithms.Policy{Limit: 5, Window: time.Second}, State: StateShared}}[:limits],
						Clients: []ClientGroup{{Count: 120, Identity: Identity{IP: "10.0.0.{i}"},
							Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 3, Per: time.Second}}}}},
						Topology: &Topology{Replicas: replicas(2), Store: Store{Shards: 3, MaxMemory: maxMem, Eviction: ev}}}
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
					models := make([]memModel, 3)
					for i := range models {
						models[i] = newMemModel()
					}
					held := []modelSeries{{last: -1}, {last: -1}, {last: -1}}
					for j, c := range rec.clients {
						var keys []int64
						for i := range limits {
							keys = append(keys, int64(i)<<32|int64(f.lane.pop.keyOf[i][c]))
						}
						m := &models[f.shardOf(c)]
						ok := m.write(lane, keys, rec.at[j], maxMem, lru, 5)
						if ok == rec.failed[j] {
							t.Fatalf("call %d at %v: failed %v, the model refuses %v", j, rec.at[j], rec.failed[j], !ok)
						}
						held[f.shardOf(c)].wrote(int(rec.at[j]/res.Bucket), int64(len(m.last)), m.used)
					}
					busy := 0
					for i, sh := range res.Lanes[0].Topology.Shards {
						m := models[i]
						if sh.KeysPeak != m.keys || sh.MemoryPeak != m.peak || sh.Evictions != m.evictions || sh.RefusedWrites != m.refused {
							t.Errorf("shard %d: keys %d bytes %d evictions %d refused %d, the model %d %d %d %d",
								i, sh.KeysPeak, sh.MemoryPeak, sh.Evictions, sh.RefusedWrites, m.keys, m.peak, m.evictions, m.refused)
						}
						if m.evictions+m.refused > 0 {
							busy++
						}
						held[i].fill(len(sh.Series))
						for b, p := range sh.Series {
							if p.Keys != held[i].keys[b] || p.Memory != held[i].bytes[b] {
								t.Fatalf("shard %d bucket %d: %d keys %d bytes, the model %d and %d", i, b, p.Keys, p.Memory, held[i].keys[b], held[i].bytes[b])
							}
						}
					}
					if busy == 0 {
						t.Error("no shard filled: the test shows nothing")
					}
				})
			}
		}
	}
}

// An evicted key's state starts afresh: two users taking turns on a store
// with room for one key each evict the other's at every call, so neither is
// ever limited (20 admitted of 20, where 5 a second each admits 10); with
// room for both, the limit holds; under noeviction the second user's every
// call fails (closed: refused).
func TestEvictedKeysForgetTheirCount(t *testing.T) {
	run := func(maxMem int64, ev Eviction) LaneResult {
		cfg := Config{Duration: time.Second, Lanes: []LaneKind{LaneFixedWindow},
			Limits: []Limit{{Key: KeyUser, Policy: algorithms.Policy{Limit: 5, Window: time.Second}, State: StateShared, OnStoreError: FailClosed}},
			Clients: []ClientGroup{
				{Name: "a", Count: 1, Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 10, Per: time.Second}, Stop: time.Second}}},
				{Name: "b", Count: 1, Arrivals: []Arrival{{Kind: ArrivalConstant, Start: 50 * time.Millisecond, Rate: Rate{Count: 10, Per: time.Second}, Stop: time.Second}}}},
			Topology: &Topology{Replicas: replicas(1), Store: Store{MaxMemory: maxMem, Eviction: ev}}}
		return mustRun(t, cfg, Options{}).Lanes[0]
	}
	if l := run(BytesCounterKey, EvictLRU); l.Admitted != 20 || l.Topology.Shards[0].Evictions != 19 {
		t.Errorf("room for one key, allkeys-lru: admitted %d evictions %d, want 20 and 19", l.Admitted, l.Topology.Shards[0].Evictions)
	}
	if l := run(2*BytesCounterKey, EvictLRU); l.Admitted != 10 || l.Topology.Shards[0].Evictions != 0 {
		t.Errorf("room for two keys: admitted %d evictions %d, want 10 and 0", l.Admitted, l.Topology.Shards[0].Evictions)
	}
	if l := run(BytesCounterKey, EvictNone); l.Admitted != 5 || l.Topology.Shards[0].RefusedWrites != 10 || l.Topology.StoreErrors != 10 {
		t.Errorf("room for one key, noeviction: admitted %d refused writes %d errors %d, want 5, 10, 10", l.Admitted, l.Topology.Shards[0].RefusedWrites, l.Topology.StoreErrors)
	}
}
