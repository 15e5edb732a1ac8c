package sim

// ConcurrencyPartition guarantees a share of a concurrency lane's limit (AIMD,
// Vegas, Gradient2) to the clients of some classes, as Netflix
// concurrency-limits' AbstractPartitionedLimiter partitions its limit (v0.5.4;
// its README's example gives live traffic 90% and batch 10%). A partition's
// limit is max(1, ⌈limit × Share⌉). While fewer than ⌊limit⌋ requests are in
// flight every request is admitted, whatever its partition, so a partition may
// burst into capacity another leaves idle; once the limit is full a request is
// admitted only while its partition has fewer than its own limit in flight.
// Clients of no partition share an unknown partition of share 0 (limit 1).
type ConcurrencyPartition struct {
	Name    string
	Classes []string // the client groups' names (ClientGroup.Name) in the partition
	Share   float64  // in [0, 1]; the shares sum to at most 1
}

// PartitionResult is what one partition of a concurrency lane's limit
// (ConcurrencyPartition) did: the attempts of its classes the limit admitted
// and refused (503, counted in their classes' ShedByLane), the most of them in
// flight at once, and its share. Guaranteed is the fewest and the most
// places, max(1, ⌈⌊limit⌋ × Share⌉), it was guaranteed when one of its
// attempts arrived, as the lane's limit adapted; both 0 when none arrived. The
// clients of no partition are in one named "unknown" of share 0, listed
// only when a client group is in it.
type PartitionResult struct {
	Name         string
	Classes      []string
	Share        float64
	Admitted     int64
	Refused      int64
	MostInFlight int
	Guaranteed   [2]int
}
