package window

import "time"

// The kernel of a lane with one key and requests of one cost (a global limit,
// say) hands its decisions to the cross-check in runs (CheckRun), not one by
// one: while nothing but the common case can arise in a whole run (the key's
// log is its window, or has parted and is a recentLog of full size; the
// window keeps more than fit in the key's record; the key has been over the
// limit before or cannot go over it), the run is checked in one loop whose
// state stays in registers, as far as the key's ring has room for (the rest
// in the next loop, the ring emptied meanwhile), up to a decision on which a
// shared log would part. Otherwise each decision goes through Verdict. Either way the
// verdicts, windows and times over the limit are those of one call per decision (TestCheckRunIsOneCheckPerDecision).

// Batch is a run of decisions on the key of a one-key lane, in time order:
// the first N of At, when, and of Admitted, whether the lane admitted the
// request at once.
type Batch struct {
	At       [BatchSize]time.Duration
	Admitted [BatchSize]bool
	N        int
}

// BatchSize is how many decisions a Batch holds.
const BatchSize = 64

// CheckRun is Verdict for the decisions from, from+1, … of b, on key, every
// request of cost Unit (not 0); allowed[i] is set to the cross-check's verdict
// on decision i.
func (p *Tracker) CheckRun(key int32, b *Batch, from int, allowed *[BatchSize]bool) {
	for i := from; i < b.N; {
		if n := p.checkRunInLine(key, b, i, allowed); n > 0 {
			i += n
			continue
		}
		allowed[i] = p.Verdict(key, b.At[i], p.unit, b.Admitted[i])
		i++
	}
}

// checkRunInLine checks decisions from, from+1, … of b (see CheckRun) in one
// loop when nothing but the common case can arise in them, and returns how
// many it checked: as many as the key's ring has room for (all, or the first
// ones: the ring is emptied as the run goes, and the next run has room for
// more), none, or, while the key's log is its window, those before the first
// on which the lane and the log disagree (the log parts).
func (p *Tracker) checkRunInLine(key int32, b *Batch, from int, allowed *[BatchSize]bool) int {
	k := &p.keys[key]
	end := b.N
	if room := int(k.size - k.n); end-from > room {
		end = from + max(room, 0)
	}
	if end <= from {
		return 0
	}
	m, last := int32(end-from), b.At[end-1]
	if p.pendingKey != 0 || p.unit == 0 || k.size == 0 || k.n+m > k.size || k.n <= inline ||
		p.slab.at(k, k.n-inline-1).at+p.window <= last || // the ring would go back to the slab
		k.span == 0 && p.timed && k.sum+int64(m)*p.unit > p.limit {
		return 0
	}
	if k.log == 0 {
		return p.checkSharedRun(key, k, b, from, end, allowed)
	}
	r := &p.recent[k.log-1]
	if int64(r.size) < p.most {
		return 0 // the log may grow
	}
	if int64(r.size) == p.most {
		p.growRecent(r, 2*r.size) // room for the slot the loop writes whatever the verdict
	}
	span := p.spanOf(k) // nil while the key has never been over the limit (and cannot be in this run)
	window, ring := p.slab.entries[k.off:k.off+k.size], p.logSlab.entries[r.off:r.off+r.size]
	mask, logMask := k.size-1, int64(r.size-1)
	head, n, sum, made := k.head, k.n, k.sum, r.made
	for i := from; i < end; i++ {
		t := b.At[i&(BatchSize-1)]
		head, n, sum = p.expireRun(window, mask, span, head, n, sum, t)
		// The verdict, and the admission written whatever it is (in the slot
		// of an admission older than the most-th latest, which nothing reads
		// again: the ring holds more than most), counted only when admitted:
		// no branch on a verdict that is as often one as the other.
		ok := made < p.most || ring[(made-p.most)&logMask]+p.window <= t
		ring[made&logMask] = t
		made += int64(b2i(ok))
		allowed[i&(BatchSize-1)] = ok
		// The lane's admission, likewise written to the free slot after the
		// window's latest whether or not the lane admitted the request.
		if span != nil {
			span.pass(sum > p.limit, t) // advance (no admission: the time up to t at the same sum)
		}
		window[(head+n)&mask] = admission{t, p.unit}
		add := b2i(b.Admitted[i&(BatchSize-1)])
		n += int32(add)
		sum += int64(add) * p.unit
		p.noteRunBest(key, sum, window[head].at)
	}
	k.head, k.n, k.sum, r.made = head, n, sum, made
	k.first[0] = window[head]
	return end - from
}

// checkSharedRun is checkRunInLine for key (window k) while its log is its
// window, decisions from up to end: it stops before the first decision the
// lane and the log disagree on.
func (p *Tracker) checkSharedRun(key int32, k *keyWindow, b *Batch, from, end int, allowed *[BatchSize]bool) int {
	span := p.spanOf(k)
	window, mask := p.slab.entries[k.off:k.off+k.size], k.size-1
	head, n, sum := k.head, k.n, k.sum
	i := from
	for ; i < end; i++ {
		t, adds := b.At[i&(BatchSize-1)], b.Admitted[i&(BatchSize-1)]
		head, n, sum = p.expireRun(window, mask, span, head, n, sum, t)
		ok := p.unit <= p.limit-sum
		if ok != adds {
			break // the log parts: check does it
		}
		allowed[i&(BatchSize-1)] = ok
		if adds {
			if span != nil {
				span.pass(sum > p.limit, t) // advance
			}
			window[(head+n)&mask] = admission{t, p.unit}
			n++
			sum += p.unit
			p.noteRunBest(key, sum, window[head].at)
		}
	}
	k.head, k.n, k.sum = head, n, sum
	k.first[0] = window[head]
	return i - from
}

// expireRun drops, from a run's window (its ring window with mask, its head,
// count n and sum, span timing it), the admissions that left it by t, and
// returns the new head, count and sum.
func (p *Tracker) expireRun(window []admission, mask int32, span *overSpan, head, n int32, sum int64, t time.Duration) (int32, int32, int64) {
	for ; n > 0 && window[head].at+p.window <= t; n-- {
		if span != nil {
			span.pass(sum > p.limit, window[head].at+p.window)
		}
		sum -= p.unit
		head = (head + 1) & mask
	}
	return head, n, sum
}

// noteRunBest is noteBest in a run: key's window holds sum since oldest. Field
// by field: no write barrier, no call in the loop.
func (p *Tracker) noteRunBest(key int32, sum int64, oldest time.Duration) {
	if sum > p.best.Count {
		p.best.Count, p.best.Start, p.best.End = sum, oldest, oldest+p.window
		p.bestID = key
	}
}

// b2i is 1 for true, 0 for false, without a branch.
func b2i(b bool) int {
	var i int
	if b {
		i = 1
	}
	return i
}
