package sim

import "fmt"

// MaxConcurrencyPartitions bounds Config.ConcurrencyPartitions.
const MaxConcurrencyPartitions = 64

// shareSlack is how far the partitions' shares may sum past 1 in floating
// point (0.1 + 0.2 + 0.7 is 1.0000000000000002): the library's own check is
// exact, and would refuse that sum.
const shareSlack = 1e-9

// checkPartitions checks c's concurrency partitions: named apart, a share in
// [0, 1] each and at most 1 in all, each of at least one class, every class a
// client group's and in one partition only.
func checkPartitions(ck *checker, c *Config) {
	checkPartitionList(ck, "partitions", c.ConcurrencyPartitions, c)
}

// checkVariantPartitions checks lane i's own partitions, if it has some: only a
// concurrency lane can.
func checkVariantPartitions(ck *checker, path string, c *Config, i int) {
	parts := c.Variants[i].Partitions
	if parts == nil {
		return
	}
	if info := c.Lanes[i].Info(); info.Class != ConcurrencyLimiter {
		ck.add(path+".partitions", "a lane of %s has no concurrency limit to partition (aimd, vegas and gradient2 have)", info.Name)
		return
	}
	checkPartitionList(ck, path+".partitions", *parts, c)
}

// checkPartitionList checks the partitions parts, at path.
func checkPartitionList(ck *checker, at string, parts []ConcurrencyPartition, c *Config) {
	if len(parts) > MaxConcurrencyPartitions {
		ck.add(at, "at most %d partitions, got %d", MaxConcurrencyPartitions, len(parts))
		return
	}
	groups := map[string]bool{}
	for _, g := range c.Clients {
		groups[g.Name] = true
	}
	names, classes := map[string]bool{}, map[string]string{}
	sum := 0.0
	for i, p := range parts {
		path := fmt.Sprintf("%s[%d]", at, i)
		switch {
		case p.Name == "":
			ck.add(path+".name", "a partition needs a name")
		case names[p.Name]:
			ck.add(path+".name", "%q names two partitions", p.Name)
		}
		names[p.Name] = true
		if !(p.Share >= 0 && p.Share <= 1) {
			ck.add(path+".share", "must be within [0, 1], got %v", p.Share)
		} else {
			sum += p.Share
		}
		if len(p.Classes) == 0 {
			ck.add(path+".classes", "a partition needs at least one class of clients")
		}
		for j, class := range p.Classes {
			cpath := fmt.Sprintf("%s.classes[%d]", path, j)
			switch {
			case !groups[class]:
				ck.add(cpath, "%q is no client group's name", class)
			case classes[class] != "":
				ck.add(cpath, "%q is already in partition %q", class, classes[class])
			default:
				classes[class] = p.Name
			}
		}
	}
	if sum > 1+shareSlack {
		ck.add(at, "the shares sum to %v, more than 1", sum)
	}
}
