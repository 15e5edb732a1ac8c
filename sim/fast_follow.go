package sim

import (
	"slices"
	"time"
)

// requestBlock is a run of new requests in the order a leader handled them.
type requestBlock struct {
	at     []time.Duration
	client []int32
	group  []int32
	// allowed is the leader's cross-check verdict on each request: whether
	// an exact sliding log of its first limit admits it.
	allowed []bool
}

// requestBlockSize is how many requests a block holds: 17 bytes each, so a
// block stays in the processor's second-level cache while followers read it.
const requestBlockSize = 1 << 14

// firstBlockSize is the room a block starts with: enough for a short run's
// requests (a sweep runs thousands of runs); a longer run's block grows once,
// to requestBlockSize, and is used again after that, so the memory a run
// holds does not grow with its requests.
const firstBlockSize = 1 << 12

// newRequestBlock is an empty block with room for firstBlockSize requests.
func newRequestBlock() *requestBlock {
	return &requestBlock{
		at:     make([]time.Duration, 0, firstBlockSize),
		client: make([]int32, 0, firstBlockSize),
		group:  make([]int32, 0, firstBlockSize),

		allowed: make([]bool, 0, firstBlockSize),
	}
}

func (b *requestBlock) add(at time.Duration, c, g int32) {
	if len(b.at) == cap(b.at) {
		b.grow()
	}
	b.at = append(b.at, at)
	b.client = append(b.client, c)
	b.group = append(b.group, g)
}

// grow gives the block room for requestBlockSize requests (allowed's too,
// which the leader's cross-check fills beside it).
func (b *requestBlock) grow() {
	n := requestBlockSize - len(b.at)
	b.at, b.client, b.group = slices.Grow(b.at, n), slices.Grow(b.client, n), slices.Grow(b.group, n)
	b.allowed = slices.Grow(b.allowed, n)
}

func (b *requestBlock) reset() {
	b.at, b.client, b.group, b.allowed = b.at[:0], b.client[:0], b.group[:0], b.allowed[:0]
}

// follow handles the requests of b, as the lane's kernel would handle them
// from its own arrivals.
func (l *lane) follow(b *requestBlock) {
	if len(b.at) == 0 {
		return
	}
	run := kernelRun{verdicts: l.m.verdicts, tally: l.tallyFits()}
	if !l.m.peak.Checked() {
		run.given = b.allowed // the leader's cross-check is this lane's (given)
	}
	for i, at := range b.at {
		l.eng.AdvanceTo(at)
		run.request = i
		l.kernelRequest(&run, b.client[i], &l.kern.classes[b.group[i]], at)
	}
	l.flushKernel(&run)
	l.events += int64(len(b.at))
}
