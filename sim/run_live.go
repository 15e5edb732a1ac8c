package sim

import "time"

// MaxInject is the most requests one Inject may add: a burst far larger than
// any limit worth watching, far below what would stall a live view.
const MaxInject = 1_000_000

// Inject adds, in every lane identically, n new requests of client (a global
// client index) spread evenly over [Now, Now+spread), the k-th at
// Now + spread×k/n: a burst fired from a live view. They are that client's
// requests, counted, retried and keyed as its own. It reports a FieldErrors
// naming "inject" when the burst is invalid and then adds nothing.
func (s *Simulation) Inject(client, n int, spread time.Duration) error {
	var ck checker
	clients := 0
	if len(s.lanes) > 0 {
		clients = s.lanes[0].pop.clients()
	}
	if client < 0 || client >= clients {
		ck.add("inject.client", "must name a client (0 to %d), got %d", clients-1, client)
	}
	if n < 1 || n > MaxInject {
		ck.add("inject.count", "must be 1 to %d, got %d", MaxInject, n)
	}
	if spread < 0 || s.now+spread > s.End() {
		ck.add("inject.spread", "must be 0 to %v (the time left), got %v", s.End()-s.now, spread)
	}
	if len(ck.errs) > 0 {
		return ck.errs
	}
	for _, l := range s.lanes {
		for k := range int64(n) {
			l.eng.Schedule(s.now+scale(spread, k, int64(n)), evInject, int32(client), 0)
		}
	}
	return nil
}

// ChangeRate makes every client of group send at rate from Now on: each
// constant-rate component restarts its even spacing at its next pending
// arrival, and each Poisson component draws its next gaps at the new mean. Other
// components (bursts, on/off, idle-then-burst) keep their shape. Every lane
// changes alike, so the lanes still see the same arrivals. It reports a
// FieldErrors naming "rate" when the change is invalid and then changes nothing.
func (s *Simulation) ChangeRate(group int, rate Rate) error {
	var ck checker
	if group < 0 || group >= len(s.cfg.Clients) {
		ck.add("rate.group", "must name a client group (0 to %d), got %d", len(s.cfg.Clients)-1, group)
	}
	if rate.Count < 1 || rate.Per <= 0 {
		ck.add("rate", "must be a positive count per a positive period, got %d per %v", rate.Count, rate.Per)
	}
	if len(ck.errs) > 0 {
		return ck.errs
	}
	grp := s.cfg.Clients[group]
	arrivals := append([]Arrival(nil), grp.Arrivals...)
	for j := range arrivals {
		a := &arrivals[j]
		switch a.Kind {
		case ArrivalPoisson:
			a.Rate = rate
		case ArrivalConstant:
			s.restartConstant(group, j, a, rate)
		}
	}
	grp.Arrivals = arrivals
	// Copy on write: the caller's Config shares the groups' backing arrays.
	s.cfg.Clients = append([]ClientGroup(nil), s.cfg.Clients...)
	s.cfg.Clients[group] = grp
	for _, l := range s.lanes {
		l.pop.groups = s.cfg.Clients
	}
	return nil
}

// restartConstant moves constant component j of group to rate from its next
// pending arrival on. Every client of a group shares a constant component's
// schedule, so the pending arrival is the same for all; a component that has
// sent its last arrival is left as it is.
func (s *Simulation) restartConstant(group, j int, a *Arrival, rate Rate) {
	if len(s.lanes) == 0 {
		a.Rate = rate
		return
	}
	pop := s.lanes[0].pop
	first := firstOfGroup(pop, group)
	st := s.lanes[0].arrivalOf(int32(first), int32(j))
	if st.k == 0 {
		return // it never started before the end
	}
	pending := constantAt(a, st.k-1)
	if pending <= s.now {
		return // its last arrival is behind: nothing is pending
	}
	a.Start, a.Rate = pending, rate
	for _, l := range s.lanes {
		for c := first; c < pop.clients() && int(pop.groupOf[c]) == group; c++ {
			l.arrivalOf(int32(c), int32(j)).k = 1
		}
	}
}

// constantAt is the time of arrival k of a constant-rate component.
func constantAt(a *Arrival, k int64) time.Duration {
	if g := gap(a.Rate); g > 0 {
		return a.Start + time.Duration(k)*g
	}
	return a.Start + scale(a.Rate.Per, k, a.Rate.Count)
}

// firstOfGroup is the index of the first client of group; clients are numbered
// group after group.
func firstOfGroup(pop *population, group int) int {
	c := 0
	for g := range group {
		c += pop.groups[g].Count
	}
	return c
}

// arrivalOf is client c's progress through its arrival component comp in lane l.
func (l *lane) arrivalOf(c, comp int32) *arrivalState {
	if comp == 0 {
		return &l.arrivals[c]
	}
	return &l.extras[l.pop.extraComp[c]+comp-1]
}
