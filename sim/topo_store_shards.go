package sim

import "hash/fnv"

// buildShards maps every client to its shard of the store: the FNV-1a hash
// of its key of the first shared limit counting it, modulo the shards, as a
// Redis Cluster hash tag puts every key of one client in one slot. A client no
// shared limit counts calls no shard; it maps to shard 0.
func (f *fleet) buildShards() {
	n := f.topo.Store.Shards
	if n <= 1 {
		return
	}
	pop := f.lane.pop
	f.shardOfClient = make([]uint16, pop.clients())
	for c := range f.shardOfClient {
		for i, lim := range f.lane.cfg.Limits {
			if lim.State != StateShared || pop.skips(i, int32(c)) {
				continue
			}
			h := fnv.New64a()
			h.Write([]byte(pop.keys[i].name(pop.keyOf[i][c])))
			f.shardOfClient[c] = uint16(h.Sum64() % uint64(n))
			break
		}
	}
}

// shardOf is the shard of the store that holds client c's keys; a health
// probe's (c < 0) are on shard 0.
func (f *fleet) shardOf(c int32) int {
	if f.shardOfClient == nil || c < 0 {
		return 0
	}
	return int(f.shardOfClient[c])
}

// shardCount is how many shards the store has (at least 1).
func (f *fleet) shardCount() int { return max(1, f.topo.Store.Shards) }
