package report

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/rlsim/rlsim/report/chart"
	"github.com/rlsim/rlsim/sim"
)

// jsonAdaptive is an adaptive lane's state over time (sim.AdaptiveState), one
// point per series bucket: Concurrency for AIMD and Vegas, Throttle for client
// throttling.
type jsonAdaptive struct {
	Concurrency []jsonConcurrencyPoint `json:"concurrency,omitempty"`
	Throttle    []jsonThrottlePoint    `json:"throttle,omitempty"`
}

type jsonConcurrencyPoint struct {
	StartS      float64 `json:"start_s"`
	Limit       float64 `json:"limit"`
	LimitMin    float64 `json:"limit_min"`
	InFlightMax int     `json:"in_flight_max"`
}

type jsonThrottlePoint struct {
	StartS             float64 `json:"start_s"`
	Decisions          int64   `json:"decisions"`
	DropProbability    float64 `json:"drop_probability"`
	DropProbabilityMax float64 `json:"drop_probability_max"`
}

// adaptiveJSON is l's adaptive state for results.json, nil for a lane without.
func adaptiveJSON(l sim.LaneResult) *jsonAdaptive {
	if l.Adaptive == nil {
		return nil
	}
	a := &jsonAdaptive{}
	for _, p := range l.Adaptive.Points {
		if l.Lane == sim.LaneClientThrottle {
			a.Throttle = append(a.Throttle, jsonThrottlePoint{secs(p.Start), p.Decisions, p.DropProbability, p.DropProbabilityMax})
		} else {
			a.Concurrency = append(a.Concurrency, jsonConcurrencyPoint{secs(p.Start), p.Limit, p.LimitMin, p.InFlightMax})
		}
	}
	return a
}

// hasAdaptive reports whether some lane of r has adaptive state to plot.
func hasAdaptive(r sim.Result) bool {
	for _, l := range r.Lanes {
		if l.Adaptive != nil && len(l.Adaptive.Points) > 0 {
			return true
		}
	}
	return false
}

// adaptiveLines are the lines of an adaptive lane's panel: the concurrency
// limit (its lowest in each bucket, so a cut shows) and the most in flight; or
// the mean and highest drop probability over the buckets with send decisions.
func adaptiveLines(l sim.LaneResult) (first, second plotter.XYs) {
	for _, p := range l.Adaptive.Points {
		x := p.Start.Seconds()
		if l.Lane == sim.LaneClientThrottle {
			if p.Decisions == 0 {
				continue // no decision, no probability: not 0, a gap in the step line
			}
			first = append(first, plotter.XY{X: x, Y: p.DropProbability})
			second = append(second, plotter.XY{X: x, Y: p.DropProbabilityMax})
		} else {
			first = append(first, plotter.XY{X: x, Y: p.LimitMin})
			second = append(second, plotter.XY{X: x, Y: float64(p.InFlightMax)})
		}
	}
	return first, second
}

// AdaptiveFigure shows the adaptive lanes' state over time: AIMD's and Vegas's
// limit on requests in flight beside the most in flight, client throttling's
// drop probability (mean and highest over the clients' send decisions).
func AdaptiveFigure(r sim.Result) *chart.Figure {
	var panels []*plot.Plot
	for _, l := range r.Lanes {
		if l.Adaptive == nil || len(l.Adaptive.Points) == 0 {
			continue
		}
		first, second := adaptiveLines(l)
		yLabel, top := "requests in flight", 1.0
		if l.Lane == sim.LaneClientThrottle {
			yLabel = "drop probability"
		} else {
			for i := range first {
				top = max(top, first[i].Y, second[i].Y)
			}
			top *= 1.08
		}
		p := chart.NewPlot(l.Title(), "virtual time (s)", yLabel)
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, end(r), 0, top
		if ln, err := plotter.NewLine(second); err == nil {
			ln.LineStyle = chart.LineStyle(chart.ColShed, 1.2, true)
			ln.StepStyle = plotter.PostStep
			p.Add(ln)
		}
		if ln, err := plotter.NewLine(first); err == nil {
			ln.LineStyle = chart.LineStyle(chart.ColAdmitted, 1.6, false)
			ln.StepStyle = plotter.PostStep
			p.Add(ln)
		}
		panels = append(panels, p)
	}
	return &chart.Figure{Name: "adaptive", Title: "The adaptive lanes' state over time",
		Caption: fmt.Sprintf("Per %s bucket. The concurrency lanes (AIMD, Vegas, Gradient2): the limit on requests in flight (its lowest in the bucket, so every cut shows) and the most in flight. Client throttling: the drop probability at the clients' send decisions, mean and highest.", FormatDuration(r.Bucket)),
		Legend: []chart.LegendEntry{{Label: "limit / mean drop probability", Colour: chart.ColAdmitted, Line: true},
			{Label: "most in flight / highest drop probability", Colour: chart.ColShed, Line: true, Dashed: true}},
		Width: 11 * vg.Inch, Height: vg.Length(0.9+2.3*float64((len(panels)+3)/4)) * vg.Inch, Body: chart.Grid(panels, min(4, max(len(panels), 1)))}
}
