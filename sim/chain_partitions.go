package sim

import (
	"math"
	"slices"
	"time"
)

// overAcquirer is a concurrency limiter that can count a request in flight past
// its limit (the algorithms package's AIMD, Vegas and Gradient2 can).
type overAcquirer interface {
	AcquireOver(now time.Duration)
}

// partitionedLimiter shares a concurrency limiter's limit among partitions of
// the clients (ConcurrencyPartition), as AbstractPartitionedLimiter does: the
// limiter adapts the limit from every completion; the partitions decide who may
// take a slot once the limit is full.
type partitionedLimiter struct {
	limiter concurrencyLimiter
	count   inFlighter
	over    overAcquirer
	share   []float64 // a partition's share; the last is the unknown partition's, 0
	busy    []int     // a partition's requests in flight
	partOf  []int     // a client group's partition
	results []PartitionResult
}

// newPartitioned partitions limiter by c's ConcurrencyPartitions, or returns
// nil when c has none.
func newPartitioned(c *Config, limiter concurrencyLimiter) *partitionedLimiter {
	if len(c.ConcurrencyPartitions) == 0 {
		return nil
	}
	n := len(c.ConcurrencyPartitions)
	p := &partitionedLimiter{limiter: limiter, count: limiter.(inFlighter), over: limiter.(overAcquirer),
		share: make([]float64, n+1), busy: make([]int, n+1), partOf: make([]int, len(c.Clients)),
		results: make([]PartitionResult, n+1)}
	of := map[string]int{}
	for i, part := range c.ConcurrencyPartitions {
		p.share[i] = part.Share
		p.results[i] = PartitionResult{Name: part.Name, Share: part.Share}
		for _, class := range part.Classes {
			of[class] = i
		}
	}
	p.results[n].Name = unknownPartition
	for g, grp := range c.Clients {
		i, ok := of[grp.Name]
		if !ok {
			i = n
		}
		p.partOf[g] = i
		p.results[i].Classes = append(p.results[i].Classes, grp.Name)
	}
	return p
}

// unknownPartition names the partition of the clients of no partition, as
// the library's AbstractPartitionedLimiter names its own.
const unknownPartition = "unknown"

// result is what each partition did so far, the unknown one only when a
// client group is in it.
func (p *partitionedLimiter) result() []PartitionResult {
	out := make([]PartitionResult, 0, len(p.results))
	for i, r := range p.results {
		if i == len(p.results)-1 && len(r.Classes) == 0 {
			break
		}
		r.Classes = slices.Clone(r.Classes)
		out = append(out, r)
	}
	return out
}

// limitOf is partition i's limit: max(1, ⌈⌊limit⌋ × share⌉), in floating point
// as the library's Partition.updateLimit computes it.
func (p *partitionedLimiter) limitOf(i int) int {
	return int(math.Max(1, math.Ceil(float64(int(p.limiter.Limit()))*p.share[i])))
}

// acquire admits a request of client group g at now, or refuses it: under the
// limit any request is admitted; at or over it, one whose partition is under
// its own limit.
func (p *partitionedLimiter) acquire(now time.Duration, g int) bool {
	i := p.partOf[g]
	res := &p.results[i]
	guaranteed := p.limitOf(i)
	if res.Admitted+res.Refused == 0 {
		res.Guaranteed = [2]int{guaranteed, guaranteed}
	}
	res.Guaranteed = [2]int{min(res.Guaranteed[0], guaranteed), max(res.Guaranteed[1], guaranteed)}
	if p.count.InFlight() >= int(p.limiter.Limit()) && p.busy[i] >= guaranteed {
		res.Refused++
		return false
	}
	p.over.AcquireOver(now)
	p.busy[i]++
	res.Admitted++
	res.MostInFlight = max(res.MostInFlight, p.busy[i])
	return true
}

// release is the completion at now, after latency, of a request of group g.
func (p *partitionedLimiter) release(now, latency time.Duration, g int) {
	p.busy[p.partOf[g]]--
	p.limiter.Release(now, latency)
}
