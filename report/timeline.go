package report

import (
	"time"

	"github.com/rlsim/rlsim/sim"
)

// TimelineColumns is how many time columns a Timeline counts per lane: more than a screen
// is wide, so that the aggregated view loses nothing a reader could see.
const TimelineColumns = 2000

// DefaultTickBudget is how many exact ticks a Timeline keeps over all its lanes.
// At about 40 bytes each in the HTML, it keeps one scenario's page near 1 MB.
const DefaultTickBudget = 24000

// Tick is one attempt as the lanes timeline shows it: the trace record's fields,
// kept exactly.
type Tick struct {
	At         time.Duration
	Event      sim.TraceEvent // admit, delay, refuse, drop or shed
	Client     int
	Class      string
	Key        string
	Request    int64
	Attempt    int
	Cost       int64
	Delay      time.Duration // TraceDelay: the wait until release
	RetryAfter time.Duration // TraceRefuse
	Limit      string        // TraceRefuse: the limit that tripped
	Shadow     string        // the shadow limit that would have refused it, "" if none
	// Answered says a rate limit answered (admit, delay, refuse): Remaining and
	// Reset are then its RateLimit header's quota left and time to whole.
	Answered  bool
	Remaining int64
	Reset     time.Duration
}

// Column counts the attempts of one lane in one time column, by verdict.
type Column struct {
	Admitted, Delayed, Refused, Shed, Dropped int64
	// Shadow counts the attempts among them a shadow limit would have refused.
	Shadow int64
}

// Total is the number of attempts in the column.
func (c Column) Total() int64 { return c.Admitted + c.Delayed + c.Refused + c.Shed + c.Dropped }

// Of is the column's count of mark m.
func (c *Column) Of(m sim.Mark) *int64 {
	return [sim.MarkKinds]*int64{sim.MarkAdmitted: &c.Admitted, sim.MarkDelayed: &c.Delayed, sim.MarkRefused: &c.Refused,
		sim.MarkShed: &c.Shed, sim.MarkDropped: &c.Dropped}[m]
}

func (c *Column) add(e sim.TraceEvent) {
	if m, ok := sim.MarkOf(e); ok {
		*c.Of(m)++
	}
}

// Timeline is a sim.TraceSink that collects what the lanes timeline draws, in
// memory bounded by its tick cap and TimelineColumns, whatever the size of the run. For
// every lane it keeps the attempts exactly while the lane has at most TickCap of
// them (and drops them all past that, leaving the lane aggregated), and always
// counts attempts per column, TimelineColumns of them over [0, End), and the backend's
// latency per column. Records at or after End fall in the last column.
//
// A Timeline is not safe for concurrent use, except through the sinks ForLanes
// returns: one goroutine per lane.
type Timeline struct {
	End     time.Duration
	TickCap int // exact ticks kept per lane

	lanes []laneTimeline // indexed by lane (TraceRecord.LaneIndex); grown as records come
}

type laneTimeline struct {
	last     time.Duration // the latest record's time
	seen     bool
	overflow bool // more than TickCap attempts: ticks dropped
	ticks    []Tick
	cols     *sim.Bins[timelineCell] // TimelineColumns of them: the ring never moves
}

// timelineCell is one column of one lane: its attempts and the backend's
// latency of the requests that completed in it.
type timelineCell struct {
	Column
	latencySum, latencyMax time.Duration
	latencyN               int64
}

// NewTimeline returns a Timeline sized for c: its time axis covers the whole run
// (c.Duration plus the drain) and DefaultTickBudget is shared among its lanes.
func NewTimeline(c sim.Config) *Timeline {
	drain := c.Drain
	if drain <= 0 {
		drain = c.Duration
	}
	lanes := len(c.Lanes)
	if lanes == 0 {
		lanes = len(sim.DefaultLanes())
	}
	end := c.Duration + drain
	if end <= 0 {
		end = time.Second
	}
	return &Timeline{End: end, TickCap: DefaultTickBudget / lanes}
}

// Record implements sim.TraceSink.
func (t *Timeline) Record(r *sim.TraceRecord) error {
	if r.LaneIndex < 0 || r.LaneIndex >= sim.MaxLanes {
		return nil
	}
	for len(t.lanes) <= r.LaneIndex {
		t.lanes = append(t.lanes, laneTimeline{})
	}
	return t.record(&t.lanes[r.LaneIndex], r)
}

// ForLanes makes room for n lanes and returns a sink for each, which sim may
// call at the same time as the others (sim.LaneTraceSink).
func (t *Timeline) ForLanes(n int) []sim.TraceSink {
	for len(t.lanes) < n {
		t.lanes = append(t.lanes, laneTimeline{})
	}
	sinks := make([]sim.TraceSink, n)
	for i := range sinks {
		sinks[i] = laneSink{t, i}
	}
	return sinks
}

// laneSink is the sink of one lane of a Timeline: it records only that lane's
// records, touching nothing the other lanes' sinks touch.
type laneSink struct {
	t    *Timeline
	lane int
}

func (s laneSink) Record(r *sim.TraceRecord) error {
	if r.LaneIndex != s.lane {
		panic("report.laneSink.Record: a record of another lane")
	}
	return s.t.record(&s.t.lanes[s.lane], r)
}

func (t *Timeline) record(l *laneTimeline, r *sim.TraceRecord) error {
	if !l.seen {
		l.seen = true
		// Columns are placed by t.column, which holds every time in the
		// TimelineColumns the ring has room for.
		l.cols = sim.NewBins[timelineCell](max(t.ColumnWidth(), 1), TimelineColumns, nil, nil)
	}
	l.last = max(l.last, r.At)
	c := l.cols.At(int64(t.column(r.At)))
	if r.Event == sim.TraceSuccess {
		c.latencySum += r.Latency
		c.latencyN++
		c.latencyMax = max(c.latencyMax, r.Latency)
		return nil
	}
	c.add(r.Event)
	if r.Shadow != "" {
		c.Shadow++
	}
	if l.overflow {
		return nil
	}
	if len(l.ticks) >= t.TickCap {
		l.overflow, l.ticks = true, nil
		return nil
	}
	l.ticks = append(l.ticks, Tick{At: r.At, Event: r.Event, Client: r.Client, Class: r.Class, Key: r.Key,
		Request: r.Request, Attempt: r.Attempt, Cost: r.Cost, Delay: r.Delay, RetryAfter: r.RetryAfter, Limit: r.Limit,
		Answered: r.Answered, Remaining: r.Remaining, Reset: r.Reset, Shadow: r.Shadow})
	return nil
}

// column is the column that holds time at.
func (t *Timeline) column(at time.Duration) int {
	if at <= 0 {
		return 0
	}
	if at >= t.End {
		return TimelineColumns - 1
	}
	return int(int64(at) / ((int64(t.End) + TimelineColumns - 1) / TimelineColumns))
}

// ColumnWidth is the time one column covers.
func (t *Timeline) ColumnWidth() time.Duration {
	return time.Duration((int64(t.End) + TimelineColumns - 1) / TimelineColumns)
}

// Last is the time of the latest record seen.
func (t *Timeline) Last() time.Duration {
	var last time.Duration
	for i := range t.lanes {
		last = max(last, t.lanes[i].last)
	}
	return last
}

// Ticks returns the lane's attempts in trace order and true, or nil and false
// when the lane had more than TickCap of them (or none was recorded).
func (t *Timeline) Ticks(lane int) ([]Tick, bool) {
	if lane < 0 || lane >= len(t.lanes) {
		return nil, false
	}
	l := &t.lanes[lane]
	if !l.seen || l.overflow {
		return nil, false
	}
	return l.ticks, true
}

// Columns returns the lane's attempts counted per column (nil if none recorded).
func (t *Timeline) Columns(lane int) []Column {
	if lane < 0 || lane >= len(t.lanes) || !t.lanes[lane].seen {
		return nil
	}
	out := make([]Column, TimelineColumns)
	for i := range out {
		c, _ := t.lanes[lane].cols.Held(int64(i))
		out[i] = c.Column
	}
	return out
}

// Latency returns, per column, the mean and the longest backend latency of the
// requests that completed in it (zero where none did).
func (t *Timeline) Latency(lane int) (mean, longest []time.Duration) {
	if lane < 0 || lane >= len(t.lanes) || !t.lanes[lane].seen {
		return nil, nil
	}
	mean, longest = make([]time.Duration, TimelineColumns), make([]time.Duration, TimelineColumns)
	for i := range mean {
		c, _ := t.lanes[lane].cols.Held(int64(i))
		if c.latencyN > 0 {
			mean[i] = c.latencySum / time.Duration(c.latencyN)
		}
		longest[i] = c.latencyMax
	}
	return mean, longest
}
