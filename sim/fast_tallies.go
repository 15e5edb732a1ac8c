package sim

// Deferred client tallies. With millions of clients, the one thing a kernel
// request touches that is its client's own is the client's tally (requests
// started, succeeded), 16 bytes in an array of hundreds of megabytes: a cache
// miss per request, which holds up the decision that follows it. Where nothing
// in the kernel reads a tally before the run's end (tallyFits), the kernel
// writes each request's client and verdict to a small buffer in order and adds
// the buffer to the tallies when it is full and whenever the kernel returns:
// the additions, independent of each other, overlap their misses, and a lane
// looks the same at every stop.

// tallyBufferSize is how many requests the buffer holds: 8 KiB, in the cache.
const tallyBufferSize = 1 << 10

// tallyFits reports whether the kernel may defer the lane's client tallies:
// its clients' state leaves the cache (cold), and no part of the kernel's
// world reads a tally while it runs — no concurrency limiter, queue, client
// gate, shared store or columns, each of which reads a request's number.
func (l *lane) tallyFits() bool {
	return !tallyOff && l.cold && l.quick != nil && l.conc == nil && l.kern.gate == nil &&
		!l.kern.store && l.cols == nil && !l.delaysInKernel()
}

// deferTally counts a request of client c, admitted or not, in the buffer.
func (l *lane) deferTally(c int32, admitted int64) {
	if len(l.kern.tallies) == cap(l.kern.tallies) {
		l.settleTallies()
	}
	l.kern.tallies = append(l.kern.tallies, uint64(c)<<1|uint64(admitted))
}

// settleTallies adds the buffer to the clients' tallies and empties it.
func (l *lane) settleTallies() {
	for _, t := range l.kern.tallies {
		cs := &l.clients[t>>1]
		cs.requests++
		cs.succeeded += int32(t & 1)
	}
	l.kern.tallies = l.kern.tallies[:0]
}

// settleRequest, before the kernel hands a request of client c to the
// general path, settles the tallies deferred and counts the request in its
// client's (the general path reads its number there and counts its success).
func (l *lane) settleRequest(run *kernelRun, c int32) {
	if run.tally {
		l.settleTallies()
		l.clients[c].requests++
	}
}
