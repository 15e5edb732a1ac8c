package scenarios

import "github.com/rlsim/rlsim/sim"

// storeSystem sets a store's shards, capacity, queue, changes and memory from
// st, reporting the fields given without the one they qualify.
func storeSystem(b *builder, path string, st *storeSpec, s *sim.Store) {
	path += "."
	if st.Capacity == 0 && st.Service != "" {
		b.addf(path+"service", "is only used with a capacity")
	}
	if st.Capacity == 0 && st.QueueLimit != nil {
		b.addf(path+"queue_limit", "is only used with a capacity")
	}
	if st.MaxMemory == 0 && st.Eviction != "" {
		b.addf(path+"eviction", "is only used with a maxmemory")
	}
	if st.Shards != nil {
		s.Shards = *st.Shards
	}
	s.Capacity = st.Capacity
	if st.Service != "" {
		s.Service, _ = sim.ParseService(st.Service)
	}
	if st.QueueLimit != nil {
		s.QueueLimit = *st.QueueLimit
	}
	for _, ch := range st.Changes {
		c := sim.StoreChange{At: durOr(ch.At, 0), Capacity: ch.Capacity, Down: ch.Down}
		if ch.Latency != nil {
			c.Latency = latency(ch.Latency)
		}
		s.Changes = append(s.Changes, c)
	}
	s.MaxMemory = st.MaxMemory
	if st.Eviction != "" {
		s.Eviction, _ = sim.ParseEviction(st.Eviction)
	}
}

func latency(l *latencySpec) sim.Service {
	v := sim.Service{Mean: durOr(l.Mean, 0)}
	if l.Distribution != "" {
		v.Kind, _ = sim.ParseService(l.Distribution)
	}
	return v
}

// storeSystemToFile writes s's shards, capacity, queue, changes and memory into st.
func storeSystemToFile(s sim.Store, st *storeSpec) {
	if s.Shards > 1 {
		n := s.Shards
		st.Shards = &n
	}
	st.Capacity = s.Capacity
	if s.Capacity > 0 {
		st.Service = s.Service.String()
	}
	if s.QueueLimit > 0 {
		q := s.QueueLimit
		st.QueueLimit = &q
	}
	for _, ch := range s.Changes {
		cs := storeChangeSpec{At: dur(ch.At), Capacity: ch.Capacity, Down: ch.Down}
		if ch.Latency != (sim.Service{}) {
			cs.Latency = &latencySpec{Mean: dur(ch.Latency.Mean), Distribution: ch.Latency.Kind.String()}
		}
		st.Changes = append(st.Changes, cs)
	}
	st.MaxMemory = s.MaxMemory
	if s.MaxMemory > 0 {
		st.Eviction = s.Eviction.String()
	}
}
