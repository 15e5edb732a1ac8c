package sim

import "hash/fnv"

// buildShards maps every client to its shard of the store: the FNV-1a hash
// of its key of the first shared limit counting it, modulo the shards of
// that limit's store, as a Redis Cluster hash tag puts every key of one
// client in one slot. A client no shared limit counts calls no shard; it
// maps to shard 0. With named stores (Topology.Stores) the shards are
// numbered store after store: Topology.Store's first, then each of Stores'.
func (f *fleet) buildShards() {
	if len(f.topo.Stores) > 0 {
		f.buildStoreShards()
	}
	n := f.shardCount()
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
			k := f.storeIndex(lim.Store)
			f.shardOfClient[c] = uint16(f.firstShard(k) + int(h.Sum64()%uint64(f.storeShards(k))))
			break
		}
	}
}

// buildStoreShards numbers the named stores' shards and finds the store
// health probes call: that of the first shared limit counting them.
func (f *fleet) buildStoreShards() {
	f.shardBase = make([]int, f.storeCount()+1)
	for k := range f.storeCount() {
		f.shardBase[k+1] = f.shardBase[k] + f.storeShards(k)
	}
	hc := f.topo.WithHealthDefaults().Health
	for _, lim := range f.lane.cfg.Limits {
		if hc != nil && lim.State == StateShared && (lim.Endpoint == "" || lim.Endpoint == hc.Endpoint) {
			f.probeShard = f.firstShard(f.storeIndex(lim.Store))
			break
		}
	}
}

// shardOf is the shard of the store that holds client c's keys; a health
// probe's (c < 0) are on the first shard of the store they call.
func (f *fleet) shardOf(c int32) int {
	if c < 0 {
		return f.probeShard
	}
	if f.shardOfClient == nil {
		return 0
	}
	return int(f.shardOfClient[c])
}

// shardCount is how many shards the stores have together (at least 1).
func (f *fleet) shardCount() int {
	if f.shardBase != nil {
		return f.shardBase[len(f.shardBase)-1]
	}
	return max(1, f.topo.Store.Shards)
}

// storeCount is how many stores the topology has: Store and each of Stores.
func (f *fleet) storeCount() int { return 1 + len(f.topo.Stores) }

// storeCfg is store k's settings: Store for 0, else Stores[k-1]'s.
func (f *fleet) storeCfg(k int) *Store {
	if k == 0 {
		return &f.topo.Store
	}
	return &f.topo.Stores[k-1].Store
}

// storeName is store k's name: "" for Store.
func (f *fleet) storeName(k int) string {
	if k == 0 {
		return ""
	}
	return f.topo.Stores[k-1].Name
}

// storeIndex is the index of the store named name ("" is Store's, 0).
func (f *fleet) storeIndex(name string) int {
	for k, s := range f.topo.Stores {
		if s.Name == name {
			return k + 1
		}
	}
	return 0
}

// storeShards is how many shards store k has (at least 1).
func (f *fleet) storeShards(k int) int { return max(1, f.storeCfg(k).Shards) }

// firstShard is the index of store k's first shard.
func (f *fleet) firstShard(k int) int {
	if f.shardBase == nil {
		return 0
	}
	return f.shardBase[k]
}

// storeOfShard is the store shard i belongs to.
func (f *fleet) storeOfShard(i int) int {
	for k := f.storeCount() - 1; k > 0; k-- {
		if i >= f.firstShard(k) {
			return k
		}
	}
	return 0
}
