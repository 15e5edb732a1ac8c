package sim

import (
	"time"

	"github.com/rlsim/rlsim/sim/engine"
	"github.com/rlsim/rlsim/sim/window"
)

// shardStore is the store a Store configures, as a real one behaves: its
// keys spread over shards (fleet.shardOf), each shard serving one call at a
// time at its Capacity, from a FIFO queue of at most QueueLimit waiting, and
// holding the limits' keys in at most MaxMemory (storeMemory). A call's
// latency is its round trips (drawn in call order from the lane's store
// stream, as latencyStore draws them), plus its wait in the queue, plus its
// service; past the timeout it fails when the timeout fires (hung), with its
// queue full or the store down it fails at once (refused). Changes alter the
// latency, capacity and availability over time.
//
// Each shard is simulated exactly in the order calls are sent (Lindley's
// recursion: a call starts when it arrives or when the call before it is done,
// whichever is later): a call arrives half its round trip after it is sent,
// and a racy check's write joins the queue when its read is sent, behind it.
// A timed-out call still takes its service (the store works on it; the
// caller has given up), and changes nothing. With unbounded capacity and
// memory it answers every call as latencyStore does.
type shardStore struct {
	f        *fleet
	rtt, svc engine.Stream
	stores   []storeState // Topology.Store, then each of Topology.Stores
	shards   []storeShard
	mem      *storeMemory // nil: unbounded and not counted
}

// storeState is one store's settings and its state now: its changes and
// outages applied so far.
type storeState struct {
	cfg      *Store
	downAt   int // the first outage not yet over
	changeAt int // the first change not yet applied
	capacity float64
	latency  Service
	down     bool
}

// storeShard is one shard's queue and figures.
type storeShard struct {
	store     int             // the store it is a shard of (shardStore.stores)
	busyUntil time.Duration   // when the last call queued is done
	starts    []time.Duration // start times of the calls that waited, in order, from head
	head      int
	sumWait   time.Duration
	served    int64
	latency   window.Histogram
	res       ShardResult
	series    shardSeries
}

func newShardStore(f *fleet, rtt, svc engine.Stream) *shardStore {
	s := &shardStore{f: f, rtt: rtt, svc: svc}
	for k := range f.storeCount() {
		cfg := f.storeCfg(k)
		s.stores = append(s.stores, storeState{cfg: cfg, capacity: cfg.Capacity, latency: cfg.Latency})
	}
	s.shards = make([]storeShard, f.shardCount())
	var bucket, duration time.Duration
	if f.lane != nil { // a bare store in tests has none
		bucket, duration = f.lane.m.bucket, f.lane.cfg.Duration
	}
	for i := range s.shards {
		s.shards[i].store = f.storeOfShard(i)
		s.shards[i].res.Store = f.storeName(s.shards[i].store)
		s.shards[i].series = newShardSeries(bucket, duration)
	}
	s.mem = newStoreMemory(f)
	return s
}

func (s *shardStore) call(at time.Duration, replica, c int32, trips int64) storeAnswer {
	shard := s.f.shardOf(c)
	sh := &s.shards[shard]
	st := &s.stores[sh.store]
	st.advance(at)
	if sh.res.Calls == 0 {
		sh.latency = window.NewHistogram() // a shard no call reaches keeps none
		sh.series.lat = window.NewHistogram()
	}
	sh.res.Calls++
	a := s.serve(st, sh, shard, at, replica, c, trips)
	sh.series.count(at, a, s.memoryOf(shard))
	return a
}

// serve is shard sh's answer, of store st, to a call sent at at.
func (s *shardStore) serve(st *storeState, sh *storeShard, shard int, at time.Duration, replica, c int32, trips int64) storeAnswer {
	if st.isDown(at) {
		sh.res.Refused++
		return storeAnswer{trips: 1, failure: storeRefused, outcome: StoreDown}
	}
	if ps := s.stores[0].cfg.Partitions; len(ps) > 0 {
		if cut, hung := cut(ps, replica, at); hung {
			sh.res.TimedOut++
			return storeAnswer{roundTrip: st.cfg.Timeout, trips: 1, failure: storeTimedOut, outcome: StoreTimedOut}
		} else if cut {
			sh.res.Refused++
			return storeAnswer{trips: 1, failure: storeRefused, outcome: StoreDown}
		}
	}
	read, write := s.roundTrip(st), time.Duration(0)
	if trips > 1 {
		write = s.roundTrip(st)
	}
	q1, ok := s.queue(st, sh, later(at, read/2))
	if !ok {
		sh.res.Refused++
		sh.res.QueueFull++
		return storeAnswer{trips: 1, failure: storeRefused, outcome: StoreQueueFull}
	}
	var q2 time.Duration
	if trips > 1 {
		if q2, ok = s.queue(st, sh, later(at, later(later(read, q1), write/2))); !ok {
			sh.res.Refused++
			sh.res.QueueFull++
			return storeAnswer{trips: trips, failure: storeRefused, roundTrip: later(read, q1), outcome: StoreQueueFull}
		}
	}
	total := later(later(read, write), later(q1, q2))
	if t := st.cfg.Timeout; t > 0 && total > t {
		sh.res.TimedOut++
		sh.latency.Add(t)
		return storeAnswer{roundTrip: t, trips: trips, failure: storeTimedOut, outcome: StoreTimedOut}
	}
	sh.latency.Add(total)
	if s.mem != nil && !s.mem.write(shard, c, at) {
		sh.res.RefusedWrites++
		return storeAnswer{roundTrip: total, trips: trips, failure: storeRefused, outcome: StoreOutOfMemory}
	}
	return storeAnswer{reach: later(read/2, q1), write: later(later(read, write/2), later(q1, q2)), roundTrip: total, trips: trips, outcome: StoreAnswered}
}

// queue has a call arriving at shard sh at a wait its turn and be served: it
// returns the wait plus the service, or ok false when the queue is full.
func (s *shardStore) queue(st *storeState, sh *storeShard, a time.Duration) (d time.Duration, ok bool) {
	if st.capacity <= 0 {
		return 0, true
	}
	for sh.head < len(sh.starts) && sh.starts[sh.head] <= a {
		sh.head++
	}
	if sh.head > 64 && sh.head*2 > len(sh.starts) {
		sh.starts = sh.starts[:copy(sh.starts, sh.starts[sh.head:])]
		sh.head = 0
	}
	waiting := len(sh.starts) - sh.head
	if st.cfg.QueueLimit > 0 && waiting >= st.cfg.QueueLimit {
		return 0, false
	}
	start := max(a, sh.busyUntil)
	sh.busyUntil = later(start, s.service(st))
	if start > a {
		sh.starts = append(sh.starts, start)
		sh.res.PeakQueue = max(sh.res.PeakQueue, waiting+1)
	}
	sh.sumWait += start - a
	sh.served++
	return sh.busyUntil - a, true
}

// service draws one call's service time at st's current capacity.
func (s *shardStore) service(st *storeState) time.Duration {
	mean := time.Duration(float64(time.Second)/st.capacity + 0.5)
	if st.cfg.Service == ServiceExponential {
		return s.svc.Exp(mean)
	}
	return mean
}

// roundTrip draws one round trip at st's current latency, as latencyStore does.
func (s *shardStore) roundTrip(st *storeState) time.Duration {
	l := st.latency
	if l.Mean <= 0 {
		return 0
	}
	if l.Kind == ServiceExponential {
		return s.rtt.Exp(l.Mean)
	}
	return l.Mean
}

// advance applies the changes due by t; t never goes back.
func (s *storeState) advance(t time.Duration) {
	ch := s.cfg.Changes
	for s.changeAt < len(ch) && ch[s.changeAt].At <= t {
		c := ch[s.changeAt]
		if c.Capacity > 0 {
			s.capacity = c.Capacity
		}
		if c.Latency.Mean > 0 {
			s.latency = c.Latency
		}
		s.down = c.Down
		s.changeAt++
	}
}

// isDown reports whether the store is down at t: in an outage, or by a change.
func (s *storeState) isDown(t time.Duration) bool {
	o := s.cfg.Outages
	for s.downAt < len(o) && o[s.downAt].To <= t {
		s.downAt++
	}
	return s.down || (s.downAt < len(o) && o[s.downAt].From <= t)
}

// sync fails when the store is down; it costs no time and takes no queue.
func (s *shardStore) sync(at time.Duration, _ int) bool {
	st := &s.stores[0]
	st.advance(at)
	return !st.isDown(at)
}

func (s *shardStore) account(r *TopologyResult) {
	if !s.f.shared {
		return
	}
	d := s.f.lane.cfg.Duration.Seconds()
	for i := range s.shards {
		sh := &s.shards[i]
		res := sh.res
		if d > 0 {
			res.MeanQueue = sh.sumWait.Seconds() / d
		}
		if sh.served > 0 {
			res.MeanWait = sh.sumWait.Seconds() / float64(sh.served)
		}
		res.Latency = Percentiles(sh.latency.Percentiles())
		if s.mem != nil {
			s.mem.account(i, &res)
		}
		res.Series = sh.series.result(len(s.f.lane.m.series))
		r.Shards = append(r.Shards, res)
	}
}
