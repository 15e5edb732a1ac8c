package sim

// CriticalityResult is the outcome of the client groups of one criticality
// (ClientGroup.Criticality) in a lane.
type CriticalityResult struct {
	Criticality Criticality
	Offered     int64 // attempts, retries included
	Served      int64 // attempts the backend answered 200 (a request succeeds once)
	Refused     int64 // 429: refused by a limit
	Shed        int64 // 503 of every kind: shedders, the backend's queue or outage, a concurrency lane
	// ShedByShedders counts the 503s of the load shedders (Backend.Shedding).
	ShedByShedders int64
}

// criticalityResults sums the per-group outcomes classes (and byGroup, the
// attempts the shedders shed per group, nil when none) by criticality, most
// critical first, one entry per criticality some group has; nil when every
// group is critical and no shedder shed (byGroup nil).
func criticalityResults(groups []ClientGroup, classes []ClassResult, byGroup []int64) []CriticalityResult {
	any := byGroup != nil
	for _, g := range groups {
		any = any || g.Criticality != Critical
	}
	if !any {
		return nil
	}
	var out []CriticalityResult
	for _, c := range criticalities {
		r, seen := CriticalityResult{Criticality: c}, false
		for g := range groups {
			if groups[g].Criticality != c || g >= len(classes) {
				continue
			}
			seen = true
			cl := classes[g]
			r.Offered += cl.Attempts
			r.Served += cl.Succeeded
			r.Refused += cl.Refused
			r.Shed += cl.Shed
			if byGroup != nil {
				r.ShedByShedders += byGroup[g]
			}
		}
		if seen {
			out = append(out, r)
		}
	}
	return out
}
