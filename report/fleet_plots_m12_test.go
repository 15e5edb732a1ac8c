package report

import (
	"image/color"
	"testing"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"

	"github.com/rlsim/rlsim/sim"
)

// TestFleetBoxesStayInTheirRowAndShard: in the PNG timeline a replica out of
// the rotation fills its row (90% of fleetRowHeight about fleetRowY), and a
// breaker of shard s fills only shard s's slice of that row, counted from
// its top, each shard's box inside its own slice: no two shards' boxes meet.
func TestFleetBoxesStayInTheirRowAndShard(t *testing.T) {
	const shards = 3
	span := sim.Span{From: time.Second, To: 3 * time.Second}
	var row fleetRow
	row.Shards = shards
	row.Spans = append(row.Spans, fleetSpan{Kind: fleetOut, Span: span})
	for s := range shards {
		row.Spans = append(row.Spans, fleetSpan{Kind: fleetBreakerOpen, Shard: s, Span: span})
	}
	rows := []fleetRow{{Shards: 1}, row} // row 1, below an empty row 0
	p := plot.New()
	p.X.Min, p.X.Max = 0, 10
	p.Y.Min, p.Y.Max = fleetRowY(2), 0
	rec := &recorder.Canvas{}
	c := draw.NewCanvas(rec, 400, 400)
	fleetPlotter{rows}.Plot(c, p)
	_, ty := p.Transforms(&c)
	type box struct {
		clr    color.Color
		lo, hi vg.Length
	}
	var boxes []box
	var clr color.Color
	for _, a := range rec.Actions {
		switch a := a.(type) {
		case *recorder.SetColor:
			clr = a.Color
		case *recorder.Fill:
			b := box{clr: clr, lo: a.Path[0].Pos.Y, hi: a.Path[0].Pos.Y}
			for _, pt := range a.Path {
				if pt.Type == vg.CloseComp {
					continue
				}
				b.lo, b.hi = min(b.lo, pt.Pos.Y), max(b.hi, pt.Pos.Y)
			}
			boxes = append(boxes, b)
		}
	}
	if len(boxes) != 1+shards {
		t.Fatalf("%d boxes drawn, want %d", len(boxes), 1+shards)
	}
	y := fleetRowY(1)
	top, bottom := ty(y+fleetRowHeight*0.45), ty(y-fleetRowHeight*0.45)
	near := func(a, b vg.Length) bool { return a-b < 0.01 && b-a < 0.01 }
	if b := boxes[0]; b.clr != fleetColours[fleetOut] || !near(b.lo, bottom) || !near(b.hi, top) {
		t.Errorf("out of the rotation: %+v, want %v from %v to %v", b, fleetColours[fleetOut], bottom, top)
	}
	slice := (top - bottom) / shards
	for s := range shards {
		b := boxes[1+s]
		hi, lo := top-slice*vg.Length(s), top-slice*vg.Length(s+1)
		if b.clr != fleetColours[fleetBreakerOpen] || !near(b.hi, hi) || b.lo < lo || b.lo >= hi {
			t.Errorf("shard %d's breaker: %+v, want within its slice %v to %v, from its top", s, b, lo, hi)
		}
	}
}
