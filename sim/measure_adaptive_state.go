package sim

import "time"

// AdaptiveState is an adaptive lane's state over time, one point per
// Result.Bucket (point i starts at i × Bucket), sampled at every change: the
// concurrency limiters' (AIMD, Vegas, Gradient2) limit and requests in flight after every
// admission, shed and completion; client throttling's drop probability at every
// send decision. It is nil for a lane without such state.
type AdaptiveState struct {
	Points []AdaptivePoint
}

// AdaptivePoint is one bucket of an adaptive lane's state.
//
// For a concurrency limiter, Limit is the limit on requests in flight at the
// bucket's end, LimitMin the lowest it was during the bucket (its value on
// entry included), so a cut shows as LimitMin below the previous point's Limit;
// InFlightMax is the most requests in flight (admitted, not yet completed).
//
// For client throttling, aggregated over clients: Decisions is how many send
// decisions (attempts) clients made in the bucket, DropProbability the mean over
// them of the drop probability the deciding client's throttle had (so the
// dropped share expected), DropProbabilityMax the highest; 0 for a bucket
// without decisions.
type AdaptivePoint struct {
	Start              time.Duration
	Limit, LimitMin    float64
	InFlightMax        int
	Decisions          int64
	DropProbability    float64
	DropProbabilityMax float64
}

// adaptiveSampler builds a lane's AdaptiveState as the run goes.
type adaptiveSampler struct {
	bucket    time.Duration
	points    []AdaptivePoint
	dropSum   []float64
	concurr   bool
	lastLimit float64
	lastIn    int
}

func newAdaptiveSampler(bucket time.Duration, conc concurrencyLimiter) *adaptiveSampler {
	a := &adaptiveSampler{bucket: bucket, concurr: conc != nil}
	if conc != nil {
		a.lastLimit = conc.Limit()
		a.conc(0, conc)
	}
	return a
}

// at is the point of bucket t falls in, the buckets before it filled with the
// state carried over.
func (a *adaptiveSampler) at(t time.Duration) *AdaptivePoint {
	i := int(t / a.bucket)
	for len(a.points) <= i {
		a.points = append(a.points, AdaptivePoint{Start: time.Duration(len(a.points)) * a.bucket,
			Limit: a.lastLimit, LimitMin: a.lastLimit, InFlightMax: a.lastIn})
		a.dropSum = append(a.dropSum, 0)
	}
	return &a.points[i]
}

// conc samples a concurrency limiter's state at now, after a change.
func (a *adaptiveSampler) conc(now time.Duration, c concurrencyLimiter) {
	limit, in := c.Limit(), 0
	if f, ok := c.(inFlighter); ok {
		in = f.InFlight()
	}
	p := a.at(now)
	a.lastLimit, a.lastIn = limit, in
	p.Limit = limit
	p.LimitMin = min(p.LimitMin, limit)
	p.InFlightMax = max(p.InFlightMax, in)
}

// concPassed is conc at now after a request entered (the limiter's limit
// limitIn, held in flight) and again after it left at once (limitOut, left in
// flight), in one look-up of the bucket.
func (a *adaptiveSampler) concPassed(now time.Duration, limitIn float64, held int, limitOut float64, left int) {
	p := a.at(now)
	a.lastLimit, a.lastIn = limitOut, left
	p.Limit = limitOut
	p.LimitMin = min(p.LimitMin, limitIn, limitOut)
	p.InFlightMax = max(p.InFlightMax, held, left)
}

// drop samples a client's drop probability p at a send decision at now.
func (a *adaptiveSampler) drop(now time.Duration, prob float64) {
	pt := a.at(now)
	pt.Decisions++
	a.dropSum[int(now/a.bucket)] += prob
	pt.DropProbabilityMax = max(pt.DropProbabilityMax, prob)
}

// state is the AdaptiveState so far, padded with carried-over state to n points.
func (a *adaptiveSampler) state(n int) *AdaptiveState {
	if a == nil {
		return nil
	}
	if n > 0 {
		a.at(time.Duration(n-1) * a.bucket)
	}
	s := &AdaptiveState{Points: append([]AdaptivePoint(nil), a.points...)}
	for i := range s.Points {
		if d := s.Points[i].Decisions; d > 0 {
			s.Points[i].DropProbability = a.dropSum[i] / float64(d)
		}
	}
	return s
}

// dropProber is a client gate that keeps each client's drop probability at its
// latest send decision (the adaptive throttle does).
type dropProber interface{ lastDrop(c int32) float64 }
