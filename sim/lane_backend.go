package sim

import (
	"time"

	"github.com/rlsim/rlsim/sim/engine"
	"github.com/rlsim/rlsim/sim/window"
)

// backend is the service behind a lane's limiter: servers working in parallel on
// a bounded FIFO queue. It keeps the integrals needed for utilisation.
type backend struct {
	cfg      *Backend
	seed     uint64
	capacity int
	service  Service
	busy     int
	queue    []int32 // ring of waiting requests
	head, n  int

	lastT               time.Duration
	busyTime, availTime time.Duration // server-nanoseconds
	maxInFlight         int
	maxQueue            int
	codel               *codel // nil without Backend.CoDel
	dropped             int64  // requests CoDel dropped
}

func newBackend(cfg *Backend, seed uint64) *backend {
	b := &backend{
		cfg: cfg, seed: seed, capacity: cfg.Capacity, service: cfg.Service,
		queue: make([]int32, cfg.QueueSize),
	}
	if cfg.CoDel != nil {
		b.codel = newCoDel(*cfg.CoDel)
	}
	return b
}

func (b *backend) inFlight() int { return b.busy + b.n }

// account integrates busy and available server time up to now.
func (b *backend) account(now time.Duration) {
	dt := now - b.lastT
	b.busyTime += dt * time.Duration(b.busy)
	b.availTime += dt * time.Duration(b.capacity)
	b.lastT = now
}

// arrive takes request r: start it, queue it, or shed it.
func (b *backend) arrive(l *lane, r int32) {
	b.account(l.eng.Now())
	switch {
	case b.capacity > 0 && b.busy < b.capacity:
		b.serve(l, r)
	case b.capacity > 0 && b.n < len(b.queue):
		b.queue[(b.head+b.n)%len(b.queue)] = r
		b.n++
		b.maxQueue = max(b.maxQueue, b.n)
	default:
		l.backendShed(r, b.cfg.RetryAfter)
		return
	}
	b.maxInFlight = max(b.maxInFlight, b.inFlight())
	l.m.inFlight(l.eng.Now(), b.inFlight())
}

// serve starts work on r. Its service time is drawn from a stream of its own
// (client, request, attempt), so every lane gives the same attempt the same
// time, and scaled by its group's ServiceFactor.
func (b *backend) serve(l *lane, r int32) {
	b.busy++
	req := &l.reqs.all[r]
	d := b.service.Mean
	if b.service.Kind == ServiceExponential {
		rnd := engine.NewStream(b.seed, uint64(req.client), uint64(req.num), uint64(req.attempt))
		d = rnd.Exp(b.service.Mean)
	}
	d = scaled(d, l.pop.groups[l.pop.groupOf[req.client]].ServiceFactor)
	req.service = d
	l.eng.Schedule(later(l.eng.Now(), d), evComplete, r, 0)
}

// complete finishes r and starts the next waiting request.
func (b *backend) complete(l *lane, r int32) {
	b.account(l.eng.Now())
	b.busy--
	l.succeed(r)
	b.startWaiting(l)
	l.m.inFlight(l.eng.Now(), b.inFlight())
}

func (b *backend) startWaiting(l *lane) {
	for b.n > 0 && b.busy < b.capacity {
		r, ok := b.next(l)
		if !ok {
			return
		}
		b.serve(l, r)
	}
}

// pop takes the next waiting request in the queue's discipline: the oldest
// (FIFO) or the newest (LIFO).
func (b *backend) pop() int32 {
	if b.cfg.Discipline == QueueLIFO {
		b.n--
		return b.queue[(b.head+b.n)%len(b.queue)]
	}
	r := b.queue[b.head]
	b.head = (b.head + 1) % len(b.queue)
	b.n--
	return r
}

// next is the waiting request a free server takes: pop's, or, under CoDel,
// the first CoDel does not drop (each dropped one answered 503); ok=false when
// CoDel dropped every one.
func (b *backend) next(l *lane) (r int32, ok bool) {
	if b.codel == nil {
		return b.pop(), true
	}
	return b.codel.dequeue(l.eng.Now(), b, l)
}

// drop answers 503 to waiting request r, which CoDel dropped.
func (b *backend) drop(l *lane, r int32) {
	b.dropped++
	l.backendShed(r, b.cfg.RetryAfter)
}

// change applies the i-th scheduled change. Going to zero capacity is an outage:
// the waiting requests are answered 503 at once; requests in service finish.
func (b *backend) change(l *lane, i int) {
	b.account(l.eng.Now())
	ch := b.cfg.Changes[i]
	b.capacity = ch.Capacity
	if ch.Service.Mean > 0 {
		b.service = ch.Service
	}
	if b.capacity == 0 {
		for b.n > 0 {
			l.backendShed(b.pop(), b.cfg.RetryAfter)
		}
	}
	b.startWaiting(l)
}

func (b *backend) stats(now time.Duration, latency *window.Histogram) BackendStats {
	b.account(now)
	s := BackendStats{
		Served: latency.Count(), Latency: Percentiles(latency.Percentiles()),
		MaxInFlight: b.maxInFlight, MaxQueue: b.maxQueue, Dropped: b.dropped,
	}
	if b.availTime > 0 {
		s.Utilisation = float64(b.busyTime) / float64(b.availTime)
	}
	return s
}
