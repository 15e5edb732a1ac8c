package sim

import (
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim/window"
)

// metrics is what a lane measures as it runs. Its memory grows with clients, keys
// and the window, never with the number of requests.
type metrics struct {
	counts    LaneResult // the plain counters
	refusedBy []int64
	// classRefusedBy is, per class g and limit i, at g×len(refusedBy)+i, the
	// class's attempts the limit refused.
	classRefusedBy []int64
	shadowBy       []int64
	classes        []ClassResult
	delays         window.Histogram
	latency        window.Histogram
	peak           *window.Tracker // the first limit's keys: the lane's admissions (Add)
	series         []Point
	bucket         time.Duration
	cur            int           // index of the bucket last used
	curEnd         time.Duration // and its end

	headers    Headers
	headersSet bool

	slog      *window.Tracker // the same tracker, as an exact sliding log (Allow)
	decisions int64
	disagreed int64

	// later holds admissions counted at an instant still ahead, for every
	// tracker of the lane (see topo_moments.go). An admission a store decided
	// is counted at its decision instant (decidedAt), and its request's store
	// call says so when it reaches the backend (fleet.takePeak); acting is true
	// while the lane acts on such an answer, whose cross-check was made at the
	// store too.
	later  laterAdds
	acting bool

	// verdicts folds every decision (time, class, verdict) into one hash, so two
	// lanes can be compared attempt by attempt without keeping the attempts.
	verdicts uint64
	// toSuccess holds, per class, the time from a request's first attempt to its
	// success; a class's histogram is allocated at its first success.
	toSuccess []window.Histogram
}

// Verdict codes folded into metrics.verdicts.
const (
	foldAdmit = iota + 1
	foldRefuse
	foldShed
	foldDelay
	foldDrop
)

// fold mixes one decision into the verdict hash (FNV-1a over the three words).
func (m *metrics) fold(now time.Duration, g int32, verdict uint64) {
	m.verdicts = foldVerdict(m.verdicts, now, g, verdict)
}

// foldVerdict is hash h with one decision folded in (see metrics.verdicts).
func foldVerdict(h uint64, now time.Duration, g int32, verdict uint64) uint64 {
	const prime = 1099511628211
	h = (h ^ uint64(now)) * prime
	h = (h ^ uint64(g)) * prime
	return (h ^ verdict) * prime
}

// maxSeriesRoom is the most points a lane's series makes room for at once;
// a longer series grows by append.
const maxSeriesRoom = 4096

// seriesRoom is the room a lane's series starts with: a bucket for each
// stretch of the run's duration, at most maxSeriesRoom (a drain, which
// lasts only while requests are pending, grows it by append), and none for
// a population without clients (probeLanes's, which runs nothing).
func seriesRoom(cfg *Config, pop *population, bucket time.Duration) int {
	if pop.clients() == 0 || bucket <= 0 {
		return 0
	}
	return int(min(cfg.Duration/bucket+1, maxSeriesRoom))
}

// newMetrics is a lane's metrics; first is the lane's own policy of the chain's
// first limit (its override, else the chain's), which its peak and
// cross-check measure.
func newMetrics(cfg *Config, first algorithms.Policy, pop *population, bucket time.Duration) (metrics, error) {
	if _, err := algorithms.NewSlidingLog(first); err != nil {
		return metrics{}, err // a limit too large to log
	}
	peak := window.NewChecked(first.Window, first.Limit, pop.keys[0].len(), uniformCost(pop.groups),
		trackerFastPaths())
	m := metrics{
		refusedBy:      ownLines[int64](len(cfg.Limits)),
		classRefusedBy: ownLines[int64](len(cfg.Limits) * len(pop.groups)),
		shadowBy:       ownLines[int64](len(cfg.Limits)),
		classes:        ownLines[ClassResult](len(pop.groups)),
		delays:         window.NewHistogram(),
		latency:        window.NewHistogram(),
		peak:           peak,
		series:         make([]Point, 0, seriesRoom(cfg, pop, bucket)),
		bucket:         bucket,
		slog:           peak,
		verdicts:       14695981039346656037,
		toSuccess:      ownLines[window.Histogram](len(pop.groups)),
	}
	for g, grp := range pop.groups {
		m.classes[g] = ClassResult{Name: grp.Name, Clients: grp.Count, Pace: grp.Pace}
	}
	return m, nil
}

// uniformCost is the cost every request of groups has, or 0 when they differ.
func uniformCost(groups []ClientGroup) int64 {
	if len(groups) == 0 {
		return 0
	}
	unit := groups[0].Cost
	for _, g := range groups[1:] {
		if g.Cost != unit {
			return 0
		}
	}
	return max(unit, 0)
}

// point is the series bucket holding t, growing the series as time passes.
func (m *metrics) point(t time.Duration) *Point {
	if t < m.curEnd && t >= m.curEnd-m.bucket {
		return &m.series[m.cur]
	}
	i := int(t / m.bucket)
	m.cur, m.curEnd = i, time.Duration(i+1)*m.bucket
	for len(m.series) <= i {
		m.series = append(m.series, Point{Start: time.Duration(len(m.series)) * m.bucket})
	}
	return &m.series[i]
}

func (m *metrics) unique(g int32) {
	m.counts.Unique++
	m.classes[g].Unique++
}

func (m *metrics) attempt(now time.Duration, g int32) {
	m.counts.Attempts++
	m.classes[g].Attempts++
	m.point(now).Attempts++
}

func (m *metrics) dropped(now time.Duration, g int32) {
	m.counts.Dropped++
	m.classes[g].Dropped++
	m.point(now).Dropped++
	m.fold(now, g, foldDrop)
}

func (m *metrics) delayed(now, delay time.Duration, g int32) {
	m.counts.Delayed++
	m.delays.Add(delay)
	m.point(now).Delayed++
	m.fold(now, g, foldDelay)
}

// admitted counts an admission; peak says the first limit counts it (by key)
// in the lane's peak now: it does not when the store's decision counted it.
func (m *metrics) admitted(now time.Duration, g, key int32, cost int64, peak bool) {
	m.counts.Admitted++
	m.classes[g].Admitted++
	m.point(now).Admitted++
	if peak {
		m.later.catchUp(now)
		m.peak.Add(key, now, cost)
	}
	m.fold(now, g, foldAdmit)
}

// decidedAt counts the limit's view of an attempt for key decided at now by
// the store: the cross-check, and when admitted (delay late) the peak, at
// now+delay.
func (m *metrics) decidedAt(key int32, now time.Duration, cost int64, admitted bool, delay time.Duration) {
	m.later.catchUp(now)
	m.decisions++
	if m.slog.Allow(key, now, cost) != admitted {
		m.disagreed++
	}
	if !admitted {
		return
	}
	m.later.add(m.peak, key, now, later(now, delay), cost)
}

func (m *metrics) refused(now time.Duration, g int32, limit int, d algorithms.Decision, style HeaderStyle, limits []Limit) {
	m.counts.Refused++
	m.classes[g].Refused++
	m.refusedBy[limit]++
	m.classRefusedBy[int(g)*len(m.refusedBy)+limit]++
	m.point(now).Refused++
	m.fold(now, g, foldRefuse)
	m.refusal(limit, &d, style, limits)
}

// refusal notes what the answer d of a refusal by limit carries: a
// Retry-After, and the first refusal's headers.
func (m *metrics) refusal(limit int, d *algorithms.Decision, style HeaderStyle, limits []Limit) {
	m.retryAfterGiven(d.RetryAfter)
	m.refusalHeaders(limit, d, style, limits)
}

// retryAfterGiven counts a refusal's Retry-After, if it gives one.
func (m *metrics) retryAfterGiven(retryAfter time.Duration) {
	if retryAfter > 0 && retryAfter != algorithms.Never {
		m.counts.RetryAfter.Given++
	}
}

// refusalHeaders keeps the headers of the first refusal, by limit with answer d.
func (m *metrics) refusalHeaders(limit int, d *algorithms.Decision, style HeaderStyle, limits []Limit) {
	if !m.headersSet {
		m.headers = ResponseHeaders(style, limits, limit, d.Remaining, d.Reset, d.RetryAfter)
		m.headersSet = true
	}
}

// shadowRefused counts a would-be refusal by shadow limit limit; first is true
// for the first shadow limit of the chain to refuse this attempt.
func (m *metrics) shadowRefused(now time.Duration, g int32, limit int, first bool) {
	m.shadowBy[limit]++
	if first {
		m.counts.ShadowRefused++
		m.classes[g].ShadowRefused++
		m.point(now).ShadowRefused++
	}
}

func (m *metrics) shed(now time.Duration, g int32, retryAfter time.Duration) {
	if retryAfter > 0 {
		m.counts.RetryAfter.Given++
	}
	m.counts.Shed++
	m.classes[g].Shed++
	m.point(now).Shed++
	m.fold(now, g, foldShed)
}

// succeeded counts a success; sinceFirst is the time since the request's first attempt.
func (m *metrics) succeeded(now time.Duration, g int32, latency, sinceFirst time.Duration, measured bool) {
	m.timesToSuccess(g).Add(sinceFirst)
	m.counts.Succeeded++
	m.classes[g].Succeeded++
	m.point(now).Succeeded++
	m.counts.AllDoneAt = max(m.counts.AllDoneAt, now)
	if measured {
		m.latency.Add(latency)
	}
}

func (m *metrics) gaveUp(now time.Duration, g int32) {
	m.counts.GaveUp++
	m.classes[g].GaveUp++
	m.counts.AllDoneAt = max(m.counts.AllDoneAt, now)
}

// abandoned counts a request its client abandoned at its deadline (giveUp
// counts it as given up).
func (m *metrics) abandoned(g int32) {
	m.counts.Abandoned++
	m.classes[g].Abandoned++
}

// abandonedServed counts a request the backend served (latency in it,
// measured with a backend) after its client had abandoned it, wasted of
// service time spent on it: given up, not succeeded.
func (m *metrics) abandonedServed(now time.Duration, g int32, latency, wasted time.Duration, measured bool) {
	if measured {
		m.latency.Add(latency)
	}
	m.counts.WastedWork += wasted
	m.abandoned(g)
	m.gaveUp(now, g)
}

// timedOut counts an attempt its client gave up at its timeout.
func (m *metrics) timedOut(g int32) {
	m.counts.TimedOut++
	m.classes[g].TimedOut++
}

// servedLate counts an attempt the backend served (latency in it, measured
// with a backend) after its client gave it up at its timeout, or too late
// for it, wasted of service time spent on it: not a success, nor the end of
// its request.
func (m *metrics) servedLate(latency, wasted time.Duration, measured bool) {
	if measured {
		m.latency.Add(latency)
	}
	m.counts.WastedWork += wasted
}

// retryDenied counts a retry a retry budget refused.
func (m *metrics) retryDenied(g int32) {
	m.counts.RetriesDenied++
	m.classes[g].RetriesDenied++
}

func (m *metrics) inFlight(now time.Duration, n int) {
	p := m.point(now)
	p.InFlight = max(p.InFlight, n)
}

func (m *metrics) retriedAtRetryAfter() { m.counts.RetryAfter.RetriedAt++ }
func (m *metrics) retryAfterSucceeded() { m.counts.RetryAfter.SucceededAt++ }

// slidingLogCheck feeds an exact sliding log the attempt the lane just decided,
// and counts the decisions on which they disagree.
func (m *metrics) slidingLogCheck(key int32, now time.Duration, cost int64, admitted bool) {
	if m.acting {
		return // checked when the store decided (decidedAt)
	}
	m.later.catchUp(now)
	m.decisions++
	if m.slog.Allow(key, now, cost) != admitted {
		m.disagreed++
	}
}

// timesToSuccess is class g's histogram of the time from a request's first
// attempt to its success, allocated at its first success.
func (m *metrics) timesToSuccess(g int32) *window.Histogram {
	h := &m.toSuccess[g]
	if h.IsZero() {
		*h = window.NewHistogram()
	}
	return h
}

// result turns the tallies into a LaneResult at virtual time now.
func (m *metrics) result(lane int, pop *population, cfg *Config, now time.Duration, clients []clientState) LaneResult {
	r := m.counts
	r.Lane, r.Name = cfg.Lanes[lane], cfg.LaneName(lane)
	r.Policy = cfg.policy(lane, 0)
	r.RefusalStatus = cfg.RefusalStatus(lane)
	r.Pending = r.Unique - r.Succeeded - r.GaveUp
	for i, n := range m.refusedBy {
		r.RefusedBy = append(r.RefusedBy, LimitCount{Limit: cfg.Limits[i].Name, Count: n})
	}
	if r.ShadowRefused > 0 || cfg.anyShadow() {
		for i, n := range m.shadowBy {
			r.ShadowRefusedBy = append(r.ShadowRefusedBy, LimitCount{Limit: cfg.Limits[i].Name, Count: n})
		}
	}
	r.Delay = Percentiles(m.delays.Percentiles())
	m.later.catchUp(now)
	r.Peak = WindowPeak(m.peak.Worst(pop.keys[0].name))
	r.TimeOverLimit = m.peak.OverLimit()
	if r.Unique > 0 {
		r.RetryAmplification = float64(r.Attempts) / float64(r.Unique)
	}
	r.Classes = append([]ClassResult(nil), m.classes...)
	for g := range r.Classes {
		r.Classes[g].TimeToSuccess = Percentiles(m.toSuccess[g].Percentiles())
		r.Classes[g].RefusedBy = m.classRefusals(g, cfg.Limits)
	}
	r.Fairness, r.ClassFairness = fairness(clients, pop.groupOf, r.Classes)
	if r.KeyFairness = r.Fairness; !oneKeyPerClient(pop.keyOf[0], pop.keys[0].len()) {
		r.KeyFairness = keyFairness(clients, pop.keyOf[0], pop.keys[0].len())
	}
	r.Verdicts = m.verdicts
	r.Headers = m.headers
	if m.decisions > 0 {
		r.SlidingLogDisagreement = float64(m.disagreed) / float64(m.decisions)
	}
	r.Series = append([]Point(nil), m.series...)
	return r
}

// classRefusals is, per limit of limits, the attempts of class g it refused.
func (m *metrics) classRefusals(g int, limits []Limit) []LimitCount {
	n := len(m.refusedBy)
	out := make([]LimitCount, n)
	for i := range out {
		out[i] = LimitCount{Limit: limits[i].Name, Count: m.classRefusedBy[g*n+i]}
	}
	return out
}

// trackerFastPaths is the window fast paths the switches above leave on,
// for a tracker being made.
func trackerFastPaths() window.FastPaths {
	return window.FastPaths{InlineCheckOff: inlineCheckOff, RecentOff: recentOff, InlineAddOff: inlineAddOff}
}

// untimedWindow is window.NewUntimed with the fast paths the switches leave on.
func untimedWindow(w time.Duration, limit int64, keys int) window.Tracker {
	t := window.NewUntimed(w, limit, keys)
	t.SetFastPaths(trackerFastPaths())
	return t
}
