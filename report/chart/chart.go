// Package chart draws the figures of rlsim's reports with the house look: the
// Okabe–Ito colours, one per meaning; a title, a legend that wraps and a body
// on one canvas; plots with a light grid and plain tick labels; and PNGs at one
// resolution. rlsim run's report (package report) and rlsim sweep's
// (report/sweep) draw with it.
package chart

import (
	"bytes"
	"image/color"
	"io"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/rlsim/rlsim/sim"
)

// dpi is the resolution of the PNGs: sharp on a laptop screen, small in a page.
const dpi = 110

// Okabe–Ito, the colour-blind-safe palette; one colour per meaning, everywhere.
var (
	ColAdmitted = MarkColour(sim.MarkAdmitted)        // blue
	ColDelayed  = MarkColour(sim.MarkDelayed)         // orange
	ColRefused  = MarkColour(sim.MarkRefused)         // vermillion
	ColShed     = MarkColour(sim.MarkShed)            // reddish purple
	ColDropped  = MarkColour(sim.MarkDropped)         // grey
	ColWithin   = color.NRGBA{0x00, 0x9E, 0x73, 0xff} // bluish green
	ColSky      = color.NRGBA{0x56, 0xB4, 0xE9, 0xff} // sky blue
	ColShade    = color.NRGBA{0xF0, 0xE4, 0x42, 0x80} // yellow, half transparent
	ColLimit    = color.NRGBA{0x00, 0x00, 0x00, 0xff} // black
	ColGrid     = color.NRGBA{0xdd, 0xdd, 0xdd, 0xff}
	// ColShadowMark outlines a would-be refusal: the refusal's colour, hollow,
	// as it was not made.
	ColShadowMark = ColRefused
)

// MarkColour is m's colour in sim's table of marks, which writes it #RRGGBB.
func MarkColour(m sim.Mark) color.NRGBA {
	hex := m.Info().Colour
	v, err := strconv.ParseUint(hex[1:], 16, 24)
	if err != nil || hex[0] != '#' {
		panic("chart.MarkColour: not #RRGGBB: " + hex)
	}
	return color.NRGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff}
}

// SeriesColours are for lines that are not verdicts (jitter kinds, client classes).
var SeriesColours = []color.Color{ColAdmitted, ColDelayed, ColWithin, ColRefused, ColSky, ColShed, ColLimit, ColShade}

// Figure is one plot of a report, ready to render: a file name, a title and a
// sentence on how to read it, and how to draw it on a canvas of its size.
type Figure struct {
	Name          string // file name without extension, e.g. "timeline"
	Title         string
	Caption       string
	Width, Height vg.Length
	Legend        []LegendEntry
	Body          func(draw.Canvas) // draws the plots in the room below the title and legend
}

// LegendEntry is one swatch of a figure's legend and its label.
type LegendEntry struct {
	Label  string
	Colour color.Color
	Line   bool // a line, not a filled square
	Dashed bool
	Dashes []vg.Length // the line's own dashes, when not the usual
}

// WritePNG renders the figure as a PNG.
func (f *Figure) WritePNG(w io.Writer) error {
	c := vgimg.NewWith(vgimg.UseWH(f.Width, f.Height), vgimg.UseDPI(dpi), vgimg.UseBackgroundColor(color.White))
	f.Draw(draw.New(c))
	_, err := vgimg.PngCanvas{Canvas: c}.WriteTo(w)
	return err
}

// PNG renders the figure and returns the PNG's bytes.
func (f *Figure) PNG() ([]byte, error) {
	var b bytes.Buffer
	err := f.WritePNG(&b)
	return b.Bytes(), err
}

// Draw draws the title, the legend and the body on c.
func (f *Figure) Draw(c draw.Canvas) {
	pad := vg.Points(8)
	title := TextStyle(15)
	title.XAlign, title.YAlign = draw.XLeft, draw.YTop
	top := c.Max.Y - pad
	c.FillText(title, vg.Point{X: c.Min.X + pad, Y: top}, f.Title)
	top -= title.Height(f.Title) + vg.Points(4)
	if len(f.Legend) > 0 {
		top = drawLegend(c, f.Legend, c.Min.X+pad, top) - vg.Points(4)
	}
	body := c
	body.Max.Y = top
	body.Min.X += pad / 2
	body.Max.X -= pad
	body.Min.Y += pad / 2
	f.Body(body)
}

// drawLegend lays the entries out left to right from (x, top), in as many
// rows as the canvas's width needs, and returns the bottom of the last row.
func drawLegend(c draw.Canvas, entries []LegendEntry, x, top vg.Length) vg.Length {
	sty := TextStyle(11)
	sty.YAlign = draw.YCenter
	h := sty.Height("Mg")
	at, bottom := layoutLegend(entries, sty, x, c.Max.X, top)
	for i, e := range entries {
		x, y := at[i].X, at[i].Y
		switch {
		case e.Line:
			ls := draw.LineStyle{Color: e.Colour, Width: vg.Points(2)}
			if e.Dashed {
				ls.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			}
			if e.Dashes != nil {
				ls.Dashes = e.Dashes
			}
			c.StrokeLine2(ls, x, y, x+vg.Points(18), y)
		default:
			s := h * 0.7
			c.FillPolygon(e.Colour, []vg.Point{{X: x, Y: y - s/2}, {X: x + s, Y: y - s/2}, {X: x + s, Y: y + s/2}, {X: x, Y: y + s/2}})
		}
		c.FillText(sty, vg.Point{X: x + markWidth(e, h), Y: y}, e.Label)
	}
	return bottom
}

// layoutLegend places each entry (the left of its mark, the middle of its
// row) from (x, top) rightwards, starting a new row where the next would pass
// maxX; bottom is the last row's.
func layoutLegend(entries []LegendEntry, sty text.Style, x, maxX, top vg.Length) (at []vg.Point, bottom vg.Length) {
	h := sty.Height("Mg")
	left, y := x, top-h/2
	for _, e := range entries {
		w := markWidth(e, h) + sty.Width(e.Label)
		if x > left && x+w > maxX {
			x, y = left, y-h*1.25
		}
		at = append(at, vg.Point{X: x, Y: y})
		x += w + vg.Points(14)
	}
	return at, y - h/2
}

// markWidth is the room an entry's mark takes before its label.
func markWidth(e LegendEntry, h vg.Length) vg.Length {
	if e.Line {
		return vg.Points(22)
	}
	return h*0.7 + vg.Points(4)
}

// TextStyle is black text of the given size in the plots' font.
func TextStyle(size vg.Length) text.Style {
	return text.Style{Color: color.Black, Font: font.From(plot.DefaultFont, size), Handler: plot.DefaultTextHandler}
}

// NewPlot is a plot with the house look: light grid, readable fonts.
func NewPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = 12
	p.X.Label.Text, p.Y.Label.Text = xLabel, yLabel
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font.Size = 11
		a.Tick.Label.Font.Size = 10
	}
	p.X.Tick.Marker, p.Y.Tick.Marker = plainTicks{}, plainTicks{}
	p.Add(gridLines{})
	return p
}

// plainTicks are gonum's default ticks, labelled without needless decimals.
type plainTicks struct{}

func (plainTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i, t := range ticks {
		if t.Label != "" {
			ticks[i].Label = strconv.FormatFloat(math.Round(t.Value*1e6)/1e6, 'f', -1, 64)
		}
	}
	return ticks
}

// gridLines draws a light grid at the major ticks, under the data.
type gridLines struct{}

func (gridLines) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	ls := draw.LineStyle{Color: ColGrid, Width: vg.Points(0.5)}
	for _, t := range p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max) {
		if t.Label != "" {
			x := tx(t.Value)
			c.StrokeLine2(ls, x, c.Min.Y, x, c.Max.Y)
		}
	}
	for _, t := range p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max) {
		if t.Label != "" {
			y := ty(t.Value)
			c.StrokeLine2(ls, c.Min.X, y, c.Max.X, y)
		}
	}
}

// Grid lays panels out in rows of cols and draws them aligned.
func Grid(panels []*plot.Plot, cols int) func(draw.Canvas) {
	return func(c draw.Canvas) {
		rows := (len(panels) + cols - 1) / cols
		ps := make([][]*plot.Plot, rows)
		for r := range ps {
			ps[r] = make([]*plot.Plot, cols)
			for k := range cols {
				if i := r*cols + k; i < len(panels) {
					ps[r][k] = panels[i]
				}
			}
		}
		t := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(10), PadY: vg.Points(10)}
		canvases := plot.Align(ps, t, c)
		for r := range ps {
			for k := range ps[r] {
				if ps[r][k] != nil {
					ps[r][k].Draw(canvases[r][k])
				}
			}
		}
	}
}

// Single draws one plot filling the canvas.
func Single(p *plot.Plot) func(draw.Canvas) { return p.Draw }

// LineStyle is a solid or dashed line of the given colour.
func LineStyle(c color.Color, width float64, dashed bool) draw.LineStyle {
	ls := draw.LineStyle{Color: c, Width: vg.Points(width)}
	if dashed {
		ls.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	}
	return ls
}

// HLine is a horizontal reference line across the plot at y.
type HLine struct {
	Y     float64
	Style draw.LineStyle
	Label string // written at the right end, above the line; "": none
}

func (h HLine) Plot(c draw.Canvas, p *plot.Plot) {
	_, ty := p.Transforms(&c)
	y := ty(h.Y)
	c.StrokeLine2(h.Style, c.Min.X, y, c.Max.X, y)
	if h.Label != "" {
		sty := TextStyle(9)
		sty.XAlign, sty.YAlign = draw.XRight, draw.YBottom
		c.FillText(sty, vg.Point{X: c.Max.X - vg.Points(2), Y: y + vg.Points(1)}, h.Label)
	}
}

func (h HLine) DataRange() (xmin, xmax, ymin, ymax float64) {
	return 0, 0, h.Y, h.Y // the x range is the other plotters'
}
