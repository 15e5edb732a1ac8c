package sim

import (
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

// newRequestBlock is an empty block with room for requestBlockSize requests,
// allocated once, so the memory a run holds does not grow with its requests.
func newRequestBlock() *requestBlock {
	return &requestBlock{
		at:     make([]time.Duration, 0, requestBlockSize),
		client: make([]int32, 0, requestBlockSize),
		group:  make([]int32, 0, requestBlockSize),

		allowed: make([]bool, 0, requestBlockSize),
	}
}

func (b *requestBlock) add(at time.Duration, c, g int32) {
	b.at = append(b.at, at)
	b.client = append(b.client, c)
	b.group = append(b.group, g)
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
