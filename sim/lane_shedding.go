package sim

import "time"

// shedders is a lane's load shedders (Backend.Shedding) and what they shed.
type shedders struct {
	cfg        *Shedding
	retryAfter time.Duration
	fleet      instantLevel
	util       instantLevel
	since      time.Duration // when the utilisation shedder's overload began; -1 when not overloaded
	by         [len(ShedderNames)]int64
	byGroup    []int64 // per client group: attempts a shedder shed
	// perGroup is, per shedder and client group, the attempts it shed.
	perGroup [len(ShedderNames)][]int64
}

// instantLevel is a shedder's level (how many criticalities it sheds) at one
// instant: within an instant it never falls.
type instantLevel struct {
	at    time.Duration
	level int
}

// raise is level at now, at least the level reached earlier at now.
func (il *instantLevel) raise(now time.Duration, level int) int {
	if il.at == now {
		level = max(level, il.level)
	}
	il.at, il.level = now, level
	return level
}

// newShedders is the shedders of backend b for groups client groups; nil without any.
func newShedders(b *Backend, groups int) *shedders {
	if b == nil || b.Shedding == nil || b.Shedding.FleetUsage == nil && b.Shedding.Utilisation == nil {
		return nil
	}
	s := &shedders{cfg: b.Shedding, retryAfter: b.Shedding.RetryAfter, since: -1, byGroup: make([]int64, groups),
		fleet: instantLevel{at: -1}, util: instantLevel{at: -1}}
	if s.retryAfter == 0 {
		s.retryAfter = b.RetryAfter
	}
	for i := range s.perGroup {
		s.perGroup[i] = make([]int64, groups)
	}
	return s
}

// shedding reports whether a load shedder shed request r on its way to the
// backend, answering it 503.
func (l *lane) shedding(r int32) bool {
	s := l.sheds
	if s == nil {
		return false
	}
	now, b := l.eng.Now(), l.backend
	rank := l.pop.groups[l.pop.groupOf[l.reqs.all[r].client]].Criticality.rank()
	if f := s.cfg.FleetUsage; f != nil {
		over := 0
		if float64(b.inFlight()) >= (1-f.Reserve)*float64(b.capacity) {
			over = 1
		}
		if s.fleet.raise(now, over) > 0 && rank > f.Keep.rank() {
			return l.shedBy(r, 0)
		}
	}
	if u := s.cfg.Utilisation; u != nil {
		if level := s.util.raise(now, s.utilisationLevel(l, u, now)); level > 0 && rank >= len(criticalities)-level {
			return l.shedBy(r, 1)
		}
	}
	return false
}

// utilisationLevel is how many criticalities, least critical first, the
// utilisation shedder u sheds at now: none unless overloaded, one at once,
// one more after each Escalate of overload, at most all but critical_plus.
func (s *shedders) utilisationLevel(l *lane, u *UtilisationShedding, now time.Duration) int {
	b := l.backend
	over := u.Threshold > 0 && float64(b.busy) >= u.Threshold*float64(b.capacity)
	if u.QueueAge > 0 && b.n > 0 && now-l.reqs.all[b.queue[b.head]].entered >= u.QueueAge {
		over = true
	}
	if !over {
		s.since = -1
		return 0
	}
	if s.since < 0 {
		s.since = now
	}
	step := u.Escalate
	if step <= 0 {
		step = time.Second
	}
	return int(min(int64(len(criticalities)-1), 1+int64((now-s.since)/step)))
}

// shedBy answers request r 503 from shedder i.
func (l *lane) shedBy(r int32, i int) bool {
	s := l.sheds
	s.by[i]++
	g := l.pop.groupOf[l.reqs.all[r].client]
	s.byGroup[g]++
	s.perGroup[i][g]++
	l.shedder = ShedderNames[i]
	l.shed(r, s.retryAfter)
	l.shedder = ""
	return true
}

// sheddingResult is what the lane's shedders shed, per shedder, and the
// outcomes per criticality of classes (the lane's per-group results): nil
// for both when the scenario has no shedder and every group is critical.
// It sets each class's ShedBy (per shedder) and ShedOther (its 503s of
// neither a shedder, the lane's concurrency limit nor the load balancer).
func (l *lane) sheddingResult(classes []ClassResult) ([]LimitCount, []CriticalityResult) {
	var by []LimitCount
	var byGroup []int64
	s := l.sheds
	if s != nil {
		byGroup = s.byGroup
	}
	for g := range classes {
		classes[g].ShedOther = classes[g].Shed - classes[g].ShedByLane - classes[g].ShedNoHealthy
		if s != nil && g < len(byGroup) {
			classes[g].ShedOther -= byGroup[g]
		}
	}
	if s == nil {
		return nil, criticalityResults(l.pop.groups, classes, nil)
	}
	for i, name := range ShedderNames {
		if i == 0 && s.cfg.FleetUsage != nil || i == 1 && s.cfg.Utilisation != nil {
			by = append(by, LimitCount{Limit: name, Count: s.by[i]})
			for g := range classes {
				classes[g].ShedBy = append(classes[g].ShedBy, LimitCount{Limit: name, Count: s.perGroup[i][g]})
			}
		}
	}
	return by, criticalityResults(l.pop.groups, classes, byGroup)
}

// liveCriticality is the outcomes per criticality so far (as
// LaneResult.Criticality), from the live per-class counts.
func (l *lane) liveCriticality() []CriticalityResult {
	var byGroup []int64
	if l.sheds != nil {
		byGroup = l.sheds.byGroup
	}
	return criticalityResults(l.pop.groups, l.m.classes, byGroup)
}
