package sim

// limitedNothing is true of a lane that let every attempt through at once: no
// refusal, shed, delay or drop.
func limitedNothing(attempts, admitted, refused, shed, delayed, dropped int64) bool {
	return attempts > 0 && admitted == attempts && refused == 0 && shed == 0 && delayed == 0 && dropped == 0
}

// LimitedNothing reports whether the lane let every attempt through at once: in
// this run it limited nothing, so its peak says nothing about the limit.
func (l *LaneResult) LimitedNothing() bool {
	return limitedNothing(l.Attempts, l.Admitted, l.Refused, l.Shed, l.Delayed, l.Dropped)
}

// NotLimiting reports whether the lane limited nothing and its limit is not a
// rate (a concurrency limiter bounds requests in flight): its peak is not judged against the rate
// limit, as nothing it did could have held it.
func (l *LaneResult) NotLimiting() bool {
	return l.LimitedNothing() && l.Lane.Info().Class == ConcurrencyLimiter
}

// NotLimiting is LaneResult.NotLimiting for the live figures so far.
func (s *LaneSnapshot) NotLimiting() bool {
	return limitedNothing(s.Attempts, s.Admitted, s.Refused, s.Shed, s.Delayed, s.Dropped) && s.Lane.Info().Class == ConcurrencyLimiter
}

// Over reports whether the lane's busiest window held more than the limit in
// force during it, judged against the lane: never a concurrency lane, whose
// limit is not the rate, nor a lane that was not limiting.
func (l *LaneResult) Over() bool {
	return overRate(l.Peak, l.Lane) && !l.NotLimiting()
}

// overRate reports whether peak held more than its limit and lane enforces a rate.
func overRate(peak WindowPeak, lane LaneKind) bool {
	return peak.Limit > 0 && peak.Count > peak.Limit && lane.Info().Class != ConcurrencyLimiter
}
