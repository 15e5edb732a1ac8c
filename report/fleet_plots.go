package report

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/rlsim/rlsim/report/chart"
	"github.com/rlsim/rlsim/sim"
)

// fleetColours are the fleet rows' colours by kind: vermillion out of the
// rotation (the no-healthy band's hue, solid), grey not in the fleet, near
// black a breaker open, sky blue half-open.
var fleetColours = [fleetKinds]color.Color{
	fleetOut:             color.NRGBA{0xd5, 0x5e, 0x00, 0xc0},
	fleetAbsent:          color.NRGBA{0xbb, 0xbb, 0xbb, 0x90},
	fleetBreakerOpen:     color.NRGBA{0x30, 0x30, 0x30, 0xff},
	fleetBreakerHalfOpen: color.NRGBA{0x56, 0xb4, 0xe9, 0xff},
}

// maxFleetRows bounds the replica rows a timeline draws.
const maxFleetRows = 16

// fleetRowHeight is a replica row's height, in lane rows.
const fleetRowHeight = 0.4

// fleetRow is one replica of one lane in the timeline, with its stretches.
type fleetRow struct {
	Lane, Replica, Shards int
	Label                 string
	Spans                 []fleetSpan
}

// fleetRows are the replica rows of r's timeline: every replica of each lane
// that had one out of the rotation or a breaker not closed (the autoscaler
// alone is marked on the time axis), at most maxFleetRows; cut reports
// whether more would have been drawn.
func fleetRows(r sim.Result, topo *sim.Topology) (rows []fleetRow, cut bool) {
	end := runSpan(r).To
	for i, l := range r.Lanes {
		spans := fleetSpans(l, topo, end)
		if !movedFleet(spans) {
			continue
		}
		for rep := range l.Topology.Replicas {
			if len(rows) == maxFleetRows {
				return rows, true
			}
			row := fleetRow{Lane: i, Replica: rep, Shards: max(1, len(l.Topology.Shards)), Label: fmt.Sprintf("%s · replica %d", l.Title(), rep)}
			for _, s := range spans {
				if s.Replica == rep {
					row.Spans = append(row.Spans, s)
				}
			}
			rows = append(rows, row)
		}
	}
	return rows, false
}

// movedFleet reports whether spans take a replica out of the rotation or
// open a breaker.
func movedFleet(spans []fleetSpan) bool {
	for _, s := range spans {
		if s.Kind != fleetAbsent {
			return true
		}
	}
	return false
}

// fleetRowY is the centre of replica row k, below the lanes' rows (the
// lowest lane's centred at 0).
func fleetRowY(k int) float64 { return -0.5 - 0.15 - fleetRowHeight*(float64(k)+0.5) }

// fleetPlotter draws the replica rows of the timeline.
type fleetPlotter struct{ rows []fleetRow }

func (fp fleetPlotter) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	box := func(clr color.Color, s sim.Span, lo, hi float64) {
		a, b := max(tx(s.From.Seconds()), c.Min.X), min(tx(s.To.Seconds()), c.Max.X)
		if b < a { // outside the axis
			return
		}
		b = max(b, a+vg.Points(1)) // a short stretch (a breaker's half-open probes) stays visible, as in the HTML
		c.FillPolygon(clr, []vg.Point{{X: a, Y: ty(lo)}, {X: b, Y: ty(lo)}, {X: b, Y: ty(hi)}, {X: a, Y: ty(hi)}})
	}
	for k, row := range fp.rows {
		y := fleetRowY(k)
		lo, hi := y-fleetRowHeight*0.45, y+fleetRowHeight*0.45
		c.StrokeLine2(draw.LineStyle{Color: chart.ColGrid, Width: vg.Points(0.5)}, c.Min.X, ty(y), c.Max.X, ty(y))
		for _, s := range row.Spans {
			switch s.Kind {
			case fleetOut, fleetAbsent:
				box(fleetColours[s.Kind], s.Span, lo, hi)
			default: // a breaker: its shard's slice of the row
				h := (hi - lo) / float64(row.Shards)
				top := hi - h*float64(s.Shard)
				box(fleetColours[s.Kind], s.Span, top-h*0.9, top)
			}
		}
	}
}

// addFleetRows gives the timeline plot p its replica rows, below the n lanes'
// rows, and names them in f's legend and caption; it returns how many rows.
func addFleetRows(f *chart.Figure, p *plot.Plot, r sim.Result, topo *sim.Topology, ticks []plot.Tick) []plot.Tick {
	rows, cut := fleetRows(r, topo)
	if len(rows) == 0 {
		return ticks
	}
	for k, row := range rows {
		ticks = append(ticks, plot.Tick{Value: fleetRowY(k), Label: row.Label})
	}
	p.Y.Min = fleetRowY(len(rows)-1) - fleetRowHeight/2
	p.Add(fleetPlotter{rows})
	f.Height += vg.Length(0.26*float64(len(rows))) * vg.Inch
	seen := [fleetKinds]bool{}
	for _, row := range rows {
		for _, s := range row.Spans {
			seen[s.Kind] = true
		}
	}
	for k := range fleetKinds {
		if seen[k] {
			f.Legend = append(f.Legend, chart.LegendEntry{Label: fleetLabels[k], Colour: fleetColours[k]})
		}
	}
	f.Caption += " Below the lanes, one thin row per replica: vermillion while it was out of the load balancer's rotation (failed health checks), grey while the autoscaler had no such replica, and its circuit breakers (one slice of the row per shard) near black while open, sky blue while half-open (sending probes)."
	if cut {
		f.Caption += fmt.Sprintf(" The first %d replicas are drawn.", maxFleetRows)
	}
	return ticks
}

// fleetRowJSON is one replica row of the HTML timeline.
type fleetRowJSON struct {
	Label  string          `json:"label"`
	Shards int             `json:"shards"`
	Spans  []fleetSpanJSON `json:"spans"`
}

// fleetSpanJSON is one stretch of a replica row: k the kind (fleetKind: 0 out
// of the rotation, 1 not in the fleet, 2 breaker open, 3 half-open), s the
// breaker's shard (-1 for the others).
type fleetSpanJSON struct {
	Kind   int   `json:"k"`
	Shard  int   `json:"s"`
	FromUS int64 `json:"from_us"`
	ToUS   int64 `json:"to_us"`
}

// fleetLegendJSON names a kind of stretch drawn, in the HTML legend.
type fleetLegendJSON struct {
	Class, Label string
}

// markFleet gives the timeline its replica rows, as the PNG draws them.
func (tj *timelineJSON) markFleet(r sim.Result, topo *sim.Topology) {
	rows, cut := fleetRows(r, topo)
	seen := [fleetKinds]bool{}
	for _, row := range rows {
		jr := fleetRowJSON{Label: row.Label, Shards: row.Shards, Spans: []fleetSpanJSON{}}
		for _, s := range row.Spans {
			jr.Spans = append(jr.Spans, fleetSpanJSON{int(s.Kind), s.Shard, us(s.From), us(s.To)})
			seen[s.Kind] = true
		}
		tj.Fleet = append(tj.Fleet, jr)
	}
	for k := range fleetKinds {
		if seen[k] {
			tj.FleetLegend = append(tj.FleetLegend, fleetLegendJSON{Class: fmt.Sprintf("c-fleet%d", k), Label: fleetLabels[k]})
		}
	}
	tj.FleetCut = cut
}
