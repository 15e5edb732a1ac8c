package sim

import (
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// metrics is what a lane measures as it runs. Its memory grows with clients, keys
// and the window, never with the number of requests.
type metrics struct {
	counts    LaneResult // the plain counters
	refusedBy []int64
	classes   []ClassResult
	delays    histogram
	latency   histogram
	peak      peakTracker
	series    []Point
	bucket    time.Duration
	cur       int           // index of the bucket last used
	curEnd    time.Duration // and its end

	headers    Headers
	headersSet bool

	slog       *algorithms.SlidingLog
	slogStates []algorithms.SlidingLogState
	decisions  int64
	disagreed  int64
}

func newMetrics(cfg *Config, pop *population, bucket time.Duration) (metrics, error) {
	first := cfg.Limits[0]
	slog, err := algorithms.NewSlidingLog(first.Policy)
	if err != nil {
		return metrics{}, err
	}
	m := metrics{
		refusedBy:  make([]int64, len(cfg.Limits)),
		classes:    make([]ClassResult, len(pop.groups)),
		delays:     newHistogram(),
		latency:    newHistogram(),
		peak:       newPeakTracker(first.Policy.Window, first.Policy.Limit, len(pop.keyNames[0])),
		series:     make([]Point, 0, 256),
		bucket:     bucket,
		slog:       slog,
		slogStates: make([]algorithms.SlidingLogState, len(pop.keyNames[0])),
	}
	for g, grp := range pop.groups {
		m.classes[g] = ClassResult{Name: grp.Name, Clients: grp.Count, Pace: grp.Pace}
	}
	return m, nil
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
}

func (m *metrics) delayed(now, delay time.Duration, g int32) {
	m.counts.Delayed++
	m.delays.add(delay)
	m.point(now).Delayed++
}

func (m *metrics) admitted(now time.Duration, g, key int32, cost int64) {
	m.counts.Admitted++
	m.classes[g].Admitted++
	m.point(now).Admitted++
	m.peak.add(key, now, cost)
}

func (m *metrics) refused(now time.Duration, g int32, limit int, d algorithms.Decision, cfg *Config) {
	m.counts.Refused++
	m.classes[g].Refused++
	m.refusedBy[limit]++
	m.point(now).Refused++
	if d.RetryAfter > 0 && d.RetryAfter != algorithms.Never {
		m.counts.RetryAfter.Given++
	}
	if !m.headersSet {
		m.headers = ResponseHeaders(cfg.HeaderStyle, cfg.Limits, limit, d.Remaining, d.Reset, d.RetryAfter)
		m.headersSet = true
	}
}

func (m *metrics) shed(now time.Duration, g int32, retryAfter time.Duration) {
	if retryAfter > 0 {
		m.counts.RetryAfter.Given++
	}
	m.counts.Shed++
	m.classes[g].Shed++
	m.point(now).Shed++
}

func (m *metrics) succeeded(now time.Duration, g int32, latency time.Duration, measured bool) {
	m.counts.Succeeded++
	m.classes[g].Succeeded++
	m.point(now).Succeeded++
	m.counts.AllDoneAt = max(m.counts.AllDoneAt, now)
	if measured {
		m.latency.add(latency)
	}
}

func (m *metrics) gaveUp(now time.Duration, g int32) {
	m.counts.GaveUp++
	m.classes[g].GaveUp++
	m.counts.AllDoneAt = max(m.counts.AllDoneAt, now)
}

func (m *metrics) inFlight(now time.Duration, n int) {
	p := m.point(now)
	p.InFlight = max(p.InFlight, n)
}

func (m *metrics) retriedAtRetryAfter() { m.counts.RetryAfter.RetriedAt++ }
func (m *metrics) retryAfterSucceeded() { m.counts.RetryAfter.SucceededAt++ }

// shadow feeds an exact sliding log the attempt the lane just decided, and counts
// the decisions on which they disagree.
func (m *metrics) shadow(key int32, now time.Duration, cost int64, admitted bool) {
	m.decisions++
	if m.slog.Allow(&m.slogStates[key], now, cost) != admitted {
		m.disagreed++
	}
}

func ceilSeconds(d time.Duration) int64 {
	return int64((d + time.Second - 1) / time.Second)
}

// result turns the tallies into a LaneResult at virtual time now.
func (m *metrics) result(kind LaneKind, pop *population, cfg *Config, b *backend, now time.Duration, clients []clientState) LaneResult {
	r := m.counts
	r.Lane = kind
	r.Policy = cfg.policy(kind, 0)
	r.Pending = r.Unique - r.Succeeded - r.GaveUp
	for i, n := range m.refusedBy {
		r.RefusedBy = append(r.RefusedBy, LimitCount{Limit: cfg.Limits[i].Name, Count: n})
	}
	r.Delay = m.delays.percentiles()
	r.Peak = m.peak.best
	if m.peak.bestID >= 0 {
		r.Peak.Key = pop.keyNames[0][m.peak.bestID]
	}
	r.Peak.Limit = cfg.Limits[0].Policy.Limit
	r.Peak.Ratio = float64(r.Peak.Count) / float64(r.Peak.Limit)
	r.TimeOverLimit = m.peak.overLimit()
	if r.Unique > 0 {
		r.RetryAmplification = float64(r.Attempts) / float64(r.Unique)
	}
	r.Classes = append([]ClassResult(nil), m.classes...)
	r.Fairness = jain(clients)
	if b != nil {
		r.Backend = b.stats(now, &m.latency)
	}
	r.Headers = m.headers
	if m.decisions > 0 {
		r.SlidingLogDisagreement = float64(m.disagreed) / float64(m.decisions)
	}
	r.Series = append([]Point(nil), m.series...)
	return r
}

// jain is Jain's fairness index over the clients' success fractions
// (succeeded / unique requests), for clients that sent anything: 1 when every
// client got the same share, 1/n when one client got everything.
func jain(clients []clientState) float64 {
	var sum, sumSq float64
	n := 0
	for _, c := range clients {
		if c.requests == 0 {
			continue
		}
		x := float64(c.succeeded) / float64(c.requests)
		sum += x
		sumSq += x * x
		n++
	}
	if n == 0 || sumSq == 0 {
		return 1
	}
	return sum * sum / (float64(n) * sumSq)
}
