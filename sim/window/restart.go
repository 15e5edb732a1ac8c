package window

import "time"

// A rule push that gives a limit a new policy starts every key of it afresh
// (RuleChange), so the limit's windows start afresh too: no window is judged
// across the push. Before it, each window is held against the old limit;
// after it, against the new one. Otherwise a limit raised from 10 to 16 reads
// 2.6× OVER in the window across the push, where before it a sliding log held
// 10 and after it a fresh one held 16. A tracker's worst window is then the
// one furthest over its own limit (Worst).

// Restart starts every key's window (and the cross-check's log) afresh at at,
// where a rule push gives the limit window and limit. The time each key held
// more than the old limit up to at is kept; the worst window so far is kept
// beside the new ones (Worst). Nothing may be pending (Allow without its Add):
// a push applies between decisions.
func (p *Tracker) Restart(at, window time.Duration, limit int64) {
	p.closeSpans(at)
	p.earlier, p.earlierID = p.worstSoFar()
	p.best, p.bestID = Peak{}, -1
	for i := range p.keys {
		p.keys[i] = keyWindow{span: p.keys[i].span}
	}
	p.slab.reset()
	p.logSlab.reset()
	p.logs, p.freeLog, p.recent = p.logs[:0], p.freeLog[:0], p.recent[:0]
	p.pending, p.pendingKey = admission{}, 0
	p.window, p.limit = window, limit
	p.setUnit()
}

// closeSpans times, for every key that has held more than the limit, how long
// its window stays over it up to at (as overLimit does up to the end), and
// moves its span to at.
func (p *Tracker) closeSpans(at time.Duration) {
	for i := range p.keys {
		k := &p.keys[i]
		if k.span == 0 {
			continue
		}
		s := &p.spans[k.span-1]
		sum := k.sum
		for j := int32(0); j < k.n && sum > p.limit; j++ {
			a := p.slab.entry(k, j)
			s.pass(true, min(a.at+p.window, at))
			sum -= a.cost
		}
		s.pass(sum > p.limit, at)
	}
}

// reset empties the slab, keeping its memory.
func (s *slab[T]) reset() {
	s.entries = s.entries[:0]
	for i := range s.free {
		s.free[i] = s.free[i][:0]
	}
}

// Worst is the window furthest over its limit: the most admitted in one
// window, each window held against the limit in force while it lasted, with
// key naming the key it was. Its Limit and Ratio are that limit's.
func (p *Tracker) Worst(key func(int32) string) Peak {
	w, id := p.worstSoFar()
	if id >= 0 {
		w.Key = key(id)
	}
	if w.Limit > 0 {
		w.Ratio = float64(w.Count) / float64(w.Limit)
	}
	return w
}

// worstSoFar is worst's window and its key's id (-1 for none): the worse of
// the windows before the last restart and since; of two as far over their
// limits, the one with more admitted, then the earlier.
func (p *Tracker) worstSoFar() (Peak, int32) {
	now, then := p.best, p.earlier
	now.Limit = p.limit
	switch {
	case then.Count == 0:
		return now, p.bestID
	case now.Count == 0, then.FurtherOver(now), !now.FurtherOver(then) && then.Count >= now.Count:
		return then, p.earlierID
	}
	return now, p.bestID
}
