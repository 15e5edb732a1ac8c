package sim

import (
	"time"

	"github.com/rlsim/rlsim/sim/engine"
)

// latencyStore is the store a Store configures: unbounded capacity, every
// round trip drawn from one distribution (Store.Latency), down in scheduled
// outages (a call then fails at once, connection refused), cut off from some
// replicas in partitions (refused at once, or hung until the timeout), and a
// call slower than Store.Timeout given up on (it fails when the timeout fires). It holds
// nothing of its own beyond the limits' states (which live with the limits).
type latencyStore struct {
	cfg    *Store
	rtt    engine.Stream // round trips, drawn in call order
	downAt int           // the first outage not yet over
}

func newLatencyStore(cfg *Store, rtt engine.Stream) *latencyStore {
	return &latencyStore{cfg: cfg, rtt: rtt}
}

// call draws the check's round trips, the read's then the write's: a failure
// (outage, timeout) changes nothing at the store.
func (s *latencyStore) call(at time.Duration, replica, _ int32, trips int64) storeAnswer {
	if s.down(at) {
		return storeAnswer{trips: 1, failure: storeRefused, outcome: StoreDown}
	}
	if len(s.cfg.Partitions) > 0 {
		if cut, hung := cut(s.cfg.Partitions, replica, at); hung {
			return storeAnswer{roundTrip: s.cfg.Timeout, trips: 1, failure: storeTimedOut, outcome: StoreTimedOut}
		} else if cut {
			return storeAnswer{trips: 1, failure: storeRefused, outcome: StoreDown}
		}
	}
	read, write := s.roundTrip(), time.Duration(0)
	if trips > 1 {
		write = s.roundTrip()
	}
	total := later(read, write)
	if t := s.cfg.Timeout; t > 0 && total > t {
		return storeAnswer{roundTrip: t, trips: trips, failure: storeTimedOut, outcome: StoreTimedOut}
	}
	return storeAnswer{reach: read / 2, write: later(read, write/2), roundTrip: total, trips: trips, outcome: StoreAnswered}
}

// sync fails in an outage; it costs no time.
func (s *latencyStore) sync(at time.Duration, _ int) bool { return !s.down(at) }

func (s *latencyStore) account(*TopologyResult) {}

// down reports whether the store is in an outage at t; t never goes back.
func (s *latencyStore) down(t time.Duration) bool {
	o := s.cfg.Outages
	for s.downAt < len(o) && o[s.downAt].To <= t {
		s.downAt++
	}
	return s.downAt < len(o) && o[s.downAt].From <= t
}

// roundTrip draws one store round trip.
func (s *latencyStore) roundTrip() time.Duration {
	l := s.cfg.Latency
	if l.Mean <= 0 {
		return 0
	}
	if l.Kind == ServiceExponential {
		return s.rtt.Exp(l.Mean)
	}
	return l.Mean
}
