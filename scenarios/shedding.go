package scenarios

import (
	"cmp"

	"github.com/rlsim/rlsim/sim"
)

// shedding is the backend's load shedders of ss; nil when ss is.
func shedding(ss *sheddingSpec) *sim.Shedding {
	if ss == nil {
		return nil
	}
	s := &sim.Shedding{RetryAfter: durOr(ss.RetryAfter, 0)}
	if f := ss.FleetUsage; f != nil {
		keep, _ := sim.ParseCriticality(cmp.Or(f.Keep, sim.Critical.String()))
		s.FleetUsage = &sim.FleetUsage{Reserve: f.Reserve, Keep: keep}
	}
	if u := ss.Utilisation; u != nil {
		s.Utilisation = &sim.UtilisationShedding{Threshold: u.Threshold, QueueAge: durOr(u.QueueAge, 0), Escalate: durOr(u.Escalate, 0)}
	}
	return s
}

// sheddingToFile writes s as the file's shedding section; nil when s is.
func sheddingToFile(s *sim.Shedding) *sheddingSpec {
	if s == nil {
		return nil
	}
	ss := &sheddingSpec{RetryAfter: optDur(s.RetryAfter)}
	if f := s.FleetUsage; f != nil {
		ss.FleetUsage = &fleetUsageSpec{Reserve: f.Reserve, Keep: f.Keep.String()}
	}
	if u := s.Utilisation; u != nil {
		ss.Utilisation = &utilisationSpec{Threshold: u.Threshold, QueueAge: optDur(u.QueueAge), Escalate: optDur(u.Escalate)}
	}
	return ss
}
