package sim

// checkShedding reports what is wrong with the load shedders s of a backend at path.
func checkShedding(ck *checker, path string, s *Shedding) {
	if s.FleetUsage == nil && s.Utilisation == nil {
		ck.add(path, "names no shedder: give fleet_usage, utilisation or both")
	}
	if s.RetryAfter < 0 {
		ck.add(path+".retry_after", "must not be negative, got %v", s.RetryAfter)
	}
	ck.atMostTime(path+".retry_after", s.RetryAfter)
	if f := s.FleetUsage; f != nil {
		if !(f.Reserve > 0 && f.Reserve < 1) {
			ck.add(path+".fleet_usage.reserve", "%v is not a share of the capacity in (0, 1)", f.Reserve)
		}
		if !criticalityEnum.valid(f.Keep) {
			ck.add(path+".fleet_usage.keep", "unknown criticality %v", f.Keep)
		}
	}
	if u := s.Utilisation; u != nil {
		p := path + ".utilisation"
		if u.Threshold != 0 && !(u.Threshold > 0 && u.Threshold <= 1) {
			ck.add(p+".threshold", "%v is not a share of busy workers in (0, 1]", u.Threshold)
		}
		if u.QueueAge < 0 {
			ck.add(p+".queue_age", "must not be negative, got %v", u.QueueAge)
		}
		if u.Threshold == 0 && u.QueueAge == 0 {
			ck.add(p, "watches nothing: give threshold, queue_age or both")
		}
		if u.Escalate < 0 {
			ck.add(p+".escalate", "must not be negative, got %v", u.Escalate)
		}
		ck.atMostTime(p+".queue_age", u.QueueAge)
		ck.atMostTime(p+".escalate", u.Escalate)
	}
}

// checkCriticality reports a criticality of a client group outside the names.
func checkCriticality(ck *checker, path string, c Criticality) {
	if !criticalityEnum.valid(c) {
		ck.add(path+".criticality", "unknown criticality %v", c)
	}
}
