package run

import (
	"encoding/json"
	"math"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// Figure is one number a sweep or a run over several seeds measures on each
// lane, and on each client class when class is not nil. Its unit is in its
// name (_rate: a fraction, _s: seconds, admitted_per_s: per second; else a count
// or a ratio).
type Figure struct {
	Name  string
	lane  func(l *sim.LaneResult, d time.Duration) float64
	class func(c *sim.ClassResult, d time.Duration) float64
}

// HasLane and HasClass say whether the figure is measured on a lane's totals
// and on a class.
func (f Figure) HasLane() bool  { return f.lane != nil }
func (f Figure) HasClass() bool { return f.class != nil }

// Figures are the figures measured, in the order every output lists them.
var Figures = []Figure{
	count("attempts", func(l *sim.LaneResult) int64 { return l.Attempts }, func(c *sim.ClassResult) int64 { return c.Attempts }),
	count("unique", func(l *sim.LaneResult) int64 { return l.Unique }, func(c *sim.ClassResult) int64 { return c.Unique }),
	count("admitted", func(l *sim.LaneResult) int64 { return l.Admitted }, func(c *sim.ClassResult) int64 { return c.Admitted }),
	count("refused", func(l *sim.LaneResult) int64 { return l.Refused }, func(c *sim.ClassResult) int64 { return c.Refused }),
	count("shed", func(l *sim.LaneResult) int64 { return l.Shed }, func(c *sim.ClassResult) int64 { return c.Shed }),
	count("delayed", func(l *sim.LaneResult) int64 { return l.Delayed }, nil),
	count("dropped", func(l *sim.LaneResult) int64 { return l.Dropped }, func(c *sim.ClassResult) int64 { return c.Dropped }),
	count("succeeded", func(l *sim.LaneResult) int64 { return l.Succeeded }, func(c *sim.ClassResult) int64 { return c.Succeeded }),
	count("gave_up", func(l *sim.LaneResult) int64 { return l.GaveUp }, func(c *sim.ClassResult) int64 { return c.GaveUp }),
	{Name: "success_rate",
		lane:  func(l *sim.LaneResult, _ time.Duration) float64 { return share(l.Succeeded, l.Unique) },
		class: func(c *sim.ClassResult, _ time.Duration) float64 { return share(c.Succeeded, c.Unique) }},
	{Name: "refused_rate",
		lane:  func(l *sim.LaneResult, _ time.Duration) float64 { return share(l.Refused, l.Attempts) },
		class: func(c *sim.ClassResult, _ time.Duration) float64 { return share(c.Refused, c.Attempts) }},
	{Name: "shed_rate",
		lane:  func(l *sim.LaneResult, _ time.Duration) float64 { return share(l.Shed, l.Attempts) },
		class: func(c *sim.ClassResult, _ time.Duration) float64 { return share(c.Shed, c.Attempts) }},
	{Name: "admitted_rate",
		lane:  func(l *sim.LaneResult, d time.Duration) float64 { return float64(l.Admitted) / d.Seconds() },
		class: func(c *sim.ClassResult, d time.Duration) float64 { return float64(c.Admitted) / d.Seconds() }},
	{Name: "p99_time_to_success_s",
		class: func(c *sim.ClassResult, _ time.Duration) float64 {
			if c.TimeToSuccess.Count == 0 {
				return math.NaN()
			}
			return c.TimeToSuccess.P99.Seconds()
		}},
	{Name: "p99_delay_s", lane: func(l *sim.LaneResult, _ time.Duration) float64 {
		if l.Delay.Count == 0 {
			return math.NaN()
		}
		return l.Delay.P99.Seconds()
	}},
	{Name: "peak_ratio", lane: func(l *sim.LaneResult, _ time.Duration) float64 { return l.Peak.Ratio }},
	{Name: "retry_amplification", lane: func(l *sim.LaneResult, _ time.Duration) float64 { return l.RetryAmplification }},
	{Name: "fairness", lane: func(l *sim.LaneResult, _ time.Duration) float64 { return l.Fairness }},
}

func count(name string, lane func(*sim.LaneResult) int64, class func(*sim.ClassResult) int64) Figure {
	f := Figure{Name: name, lane: func(l *sim.LaneResult, _ time.Duration) float64 { return float64(lane(l)) }}
	if class != nil {
		f.class = func(c *sim.ClassResult, _ time.Duration) float64 { return float64(class(c)) }
	}
	return f
}

// FigureIndex is the place of the named figure in Figures, -1 for none.
func FigureIndex(name string) int {
	for i, f := range Figures {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// Num is a measured figure: NaN when there was nothing to measure (a p99 of no
// successes), written null in JSON.
type Num float64

// MarshalJSON writes n as the shortest number that reads back exactly, or null.
func (n Num) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(f)
}

// UnmarshalJSON reads a number, or null as NaN.
func (n *Num) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*n = Num(math.NaN())
		return nil
	}
	var f float64
	err := json.Unmarshal(b, &f)
	*n = Num(f)
	return err
}

// LaneFigures are the figures of one lane in one run: Totals and each class's
// Values hold one number per figure of Figures (NaN where it does not apply).
type LaneFigures struct {
	Lane    string         `json:"lane"`
	Title   string         `json:"title"`
	Totals  []Num          `json:"totals"`
	Classes []ClassFigures `json:"classes"`
}

// ClassFigures are the figures of one client class of a lane in one run.
type ClassFigures struct {
	Name   string `json:"name"`
	Values []Num  `json:"values"`
}

// Measure takes every figure of r, lane by lane.
func Measure(r *sim.Result) []LaneFigures {
	var out []LaneFigures
	for i := range r.Lanes {
		l := &r.Lanes[i]
		lf := LaneFigures{Lane: l.Name, Title: l.Title()}
		for _, f := range Figures {
			lf.Totals = append(lf.Totals, apply(f.lane != nil, func() float64 { return f.lane(l, r.Duration) }))
		}
		for j := range l.Classes {
			c := &l.Classes[j]
			cf := ClassFigures{Name: c.Name}
			for _, f := range Figures {
				cf.Values = append(cf.Values, apply(f.class != nil, func() float64 { return f.class(c, r.Duration) }))
			}
			lf.Classes = append(lf.Classes, cf)
		}
		out = append(out, lf)
	}
	return out
}

func apply(ok bool, v func() float64) Num {
	if !ok {
		return Num(math.NaN())
	}
	return Num(v())
}
