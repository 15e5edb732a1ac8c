package sim

import (
	"math"
	"time"
)

// codel is RFC 8289's CoDel state for a backend's queue (see CoDel): its §5
// pseudocode with requests for packets, a request's sojourn the time since it
// entered the backend, and "bytes() <= MAXPACKET" read as "no other request
// waits" once it is taken.
type codel struct {
	target, interval time.Duration
	firstAbove       time.Duration // 0: the sojourn is below target (first_above_time)
	dropNext         time.Duration // drop_next
	count, lastCount int
	dropping         bool
}

// CoDel's defaults, RFC 8289 §4.2 and §4.3.
const (
	coDelTarget   = 5 * time.Millisecond
	coDelInterval = 100 * time.Millisecond
)

func newCoDel(c CoDel) *codel {
	q := &codel{target: c.Target, interval: c.Interval}
	if q.target == 0 {
		q.target = coDelTarget
	}
	if q.interval == 0 {
		q.interval = coDelInterval
	}
	return q
}

// controlLaw is t + interval/√count (RFC 8289 §5, control_law).
func (q *codel) controlLaw(t time.Duration, count int) time.Duration {
	return later(t, time.Duration(float64(q.interval)/math.Sqrt(float64(count))))
}

// doDequeue takes the next waiting request of b (ok=false when none waits)
// and says whether CoDel may drop it (RFC 8289 §5, dodequeue).
func (q *codel) doDequeue(now time.Duration, b *backend, l *lane) (r int32, ok, okToDrop bool) {
	if b.n == 0 {
		q.firstAbove = 0
		return 0, false, false
	}
	r = b.pop()
	sojourn := now - l.reqs.all[r].entered
	switch {
	case sojourn < q.target || b.n == 0:
		q.firstAbove = 0
	case q.firstAbove == 0:
		q.firstAbove = later(now, q.interval)
	case now >= q.firstAbove:
		okToDrop = true
	}
	return r, true, okToDrop
}

// dequeue is RFC 8289 §5's dequeue: the request a free server of b takes,
// every request CoDel drops on the way answered 503 (backend.drop).
func (q *codel) dequeue(now time.Duration, b *backend, l *lane) (int32, bool) {
	r, ok, okToDrop := q.doDequeue(now, b, l)
	if q.dropping {
		if !okToDrop {
			q.dropping = false
		}
		for now >= q.dropNext && q.dropping {
			b.drop(l, r)
			q.count++
			if r, ok, okToDrop = q.doDequeue(now, b, l); !okToDrop {
				q.dropping = false
			} else {
				q.dropNext = q.controlLaw(q.dropNext, q.count)
			}
		}
	} else if okToDrop {
		b.drop(l, r)
		r, ok, _ = q.doDequeue(now, b, l)
		q.dropping = true
		delta := q.count - q.lastCount
		q.count = 1
		if delta > 1 && now-q.dropNext < 16*q.interval {
			q.count = delta
		}
		q.dropNext = q.controlLaw(now, q.count)
		q.lastCount = q.count
	}
	return r, ok
}
