package sim

// A stub of the store's shards until they land (sim/topo_store_shards.go
// defines these): one shard holding every key. Delete at the merge.

// shardOf is the shard client c's keys live on.
func (f *fleet) shardOf(c int32) int { return 0 }

// shardCount is how many shards the store has.
func (f *fleet) shardCount() int { return 1 }
