package replay

import (
	"bytes"
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// Plots are the replay's PNG figures by file name: for the first limit, the
// would-be refusals per minute of each lane (timeline.png) and the share of
// keys at or below each peak per window (peaks.png); with a sweep, refused
// requests and refused keys against the varied value (sweep_requests.png,
// sweep_keys.png).
func Plots(r *Result, s *Sweep) (map[string][]byte, error) {
	out := map[string][]byte{}
	if len(r.Limits) == 0 {
		return out, nil
	}
	l := r.Limits[0]
	timeline := plot.New()
	timeline.Title.Text = "would-be refusals per minute, " + l.Limit
	timeline.X.Label.Text = fmt.Sprintf("minutes since %s UTC", r.Origin.Format("2006-01-02 15:04"))
	timeline.Y.Label.Text = "refused requests per minute"
	var lines []any
	for _, lane := range l.Lanes {
		pts := make(plotter.XYs, len(lane.ByMinute))
		for i, n := range lane.ByMinute {
			pts[i] = plotter.XY{X: float64(i), Y: float64(n)}
		}
		for i, p := range lane.ByMinuteSparse { // zero between minutes apart
			if i > 0 && lane.ByMinuteSparse[i-1][0] < p[0]-1 {
				pts = append(pts, plotter.XY{X: float64(lane.ByMinuteSparse[i-1][0] + 1)}, plotter.XY{X: float64(p[0] - 1)})
			}
			pts = append(pts, plotter.XY{X: float64(p[0]), Y: float64(p[1])})
		}
		if len(pts) == 0 {
			pts = plotter.XYs{{}}
		}
		lines = append(lines, lane.Lane, pts)
	}
	if err := plotutil.AddLinePoints(timeline, lines...); err != nil {
		return nil, err
	}
	peaks := plot.New()
	peaks.Title.Text = "per-key peak requests in one window, " + l.Limit
	peaks.X.Label.Text = "peak requests per window"
	peaks.Y.Label.Text = "share of keys at or below"
	if r.retired > 0 {
		peaks.Y.Label.Text = "share of key episodes at or below" // a key back after idling counts again
	}
	// The first and last of each peak's keys draw the same lines as a point per key.
	var cdf plotter.XYs
	var below int64
	for _, p := range l.peaks {
		cdf = append(cdf, plotter.XY{X: float64(p.peak), Y: float64(below+1) / float64(l.Keys)})
		below += p.keys
		if p.keys > 1 {
			cdf = append(cdf, plotter.XY{X: float64(p.peak), Y: float64(below) / float64(l.Keys)})
		}
	}
	if len(cdf) == 0 {
		cdf = plotter.XYs{{}}
	}
	if err := plotutil.AddLines(peaks, "keys", cdf); err != nil {
		return nil, err
	}
	figs := map[string]*plot.Plot{"timeline.png": timeline, "peaks.png": peaks}
	if s != nil {
		pts := r.Sweep
		for name, y := range map[string]func(SweepPoint) float64{
			"sweep_requests.png": func(p SweepPoint) float64 { return float64(p.Refused) },
			"sweep_keys.png":     func(p SweepPoint) float64 { return float64(p.KeysRefused) },
		} {
			p := plot.New()
			p.Title.Text = "would-be refused " + map[string]string{"sweep_requests.png": "requests", "sweep_keys.png": "keys"}[name]
			p.X.Label.Text = s.Path
			var lines []any
			for _, lane := range l.Lanes {
				var xy plotter.XYs
				for _, pt := range pts {
					if pt.Lane == lane.Lane {
						xy = append(xy, plotter.XY{X: float64(pt.Value), Y: y(pt)})
					}
				}
				lines = append(lines, lane.Lane, xy)
			}
			if err := plotutil.AddLinePoints(p, lines...); err != nil {
				return nil, err
			}
			figs[name] = p
		}
	}
	for name, p := range figs {
		p.Y.Min = 0
		p.Legend.Top = true
		w, err := p.WriterTo(7*vg.Inch, 4*vg.Inch, "png")
		if err != nil {
			return nil, err
		}
		var b bytes.Buffer
		if _, err := w.WriteTo(&b); err != nil {
			return nil, err
		}
		out[name] = b.Bytes()
	}
	return out, nil
}
