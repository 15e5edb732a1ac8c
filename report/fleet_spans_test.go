package report

import (
	"bytes"
	"context"
	"fmt"
	"image/color"
	"image/png"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

const sec = time.Second

// The health check example of docs/scenarios.md, by hand (see
// TestPhaseFindingTellsTheHealthExampleInOrder): both replicas leave the
// rotation at 25s and come back at 60s, the run's end; and each replica's
// drawn stretches sum to the time the result says it spent out.
func TestFleetSpansOfTheHealthExample(t *testing.T) {
	doc, err := os.ReadFile("../docs/scenarios.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```yaml\n(description: a health check behind a shared limit that fails closed.*?)```").FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/scenarios.md has no health check example")
	}
	o, _ := runYAML(t, string(m[1]))
	res := *o.Result
	checked := 0
	for _, l := range res.Lanes {
		if l.Topology == nil {
			continue
		}
		got := fleetSpans(l, o.topology(), runSpan(res).To)
		want := []fleetSpan{{fleetOut, 0, -1, sim.Span{From: 25 * sec, To: 60 * sec}}, {fleetOut, 1, -1, sim.Span{From: 25 * sec, To: 60 * sec}}}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %+v, want %+v", l.Name, got, want)
		}
		checkOutSums(t, l, got)
		checked++
	}
	if checked == 0 {
		t.Fatal("no lane with a fleet")
	}
}

// checkOutSums holds each replica's stretches out of the rotation to the
// time the health result says it spent out.
func checkOutSums(t *testing.T, l sim.LaneResult, spans []fleetSpan) {
	t.Helper()
	sums := make([]time.Duration, len(l.Topology.Health.Out))
	for _, s := range spans {
		if s.Kind == fleetOut {
			sums[s.Replica] += s.To - s.From
		}
	}
	if !reflect.DeepEqual(sums, l.Topology.Health.Out) {
		t.Errorf("%s: out of the rotation %v drawn, %v in the result", l.Name, sums, l.Topology.Health.Out)
	}
}

// The breaker of sim's TestBreakerCallsInAnOutageAreWhatItsSettingsImply,
// by hand: the store down 10s–40s, failures 3 in 1s open it at 10.2s; each
// probe after the 5s cooldown is refused at once, reopening it at the
// instant it turned half-open (15.2s, 20.2s, ... 35.2s: no half-open time);
// at 40.2s the store is up, the probes at 40.2s and 40.3s close it. So one
// stretch open, 10.2s–40.2s, the result's 30s, and one half-open,
// 40.2s–40.3s.
func TestFleetSpansOfABreakerInAnOutage(t *testing.T) {
	o, _ := runYAML(t, `
duration: 60s
lanes: [fixed_window]
limits:
  - name: api
    key: ip
    limit: 1000
    window: 1s
    state: shared
    on_store_error: open
topology:
  replicas: 1
  store:
    outages:
      - from: 10s
        to: 40s
    breaker:
      failures: 3
      window: 1s
      cooldown: 5s
      probes: 2
clients:
  - name: c
    identity:
      ip: 10.0.0.{i}
    arrivals:
      - kind: constant
        rate: 10/s
`)
	res := *o.Result
	ms := time.Millisecond
	got := fleetSpans(res.Lanes[0], o.topology(), runSpan(res).To)
	want := []fleetSpan{{fleetBreakerOpen, 0, 0, sim.Span{From: 10200 * ms, To: 40200 * ms}}, {fleetBreakerHalfOpen, 0, 0, sim.Span{From: 40200 * ms, To: 40300 * ms}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%+v, want %+v", got, want)
	}
	if open := res.Lanes[0].Topology.Remedies.BreakerOpenTime; open != 30*sec {
		t.Errorf("the result's breaker open %v, want the 30s drawn", open)
	}
}

// Stretches cut by the autoscaler: a replica out of the rotation leaves it
// when the autoscaler removes the replica (it takes its health with it);
// back in the fleet it is in the rotation until its next replica_out; and
// the times it is not in the fleet are stretches of their own. A breaker
// still open at the end is open to the end.
func TestFleetSpansFollowTheAutoscaler(t *testing.T) {
	topo := &sim.Topology{Replicas: []sim.ReplicaStep{{At: 0, Count: 3}, {At: 10 * sec, Count: 1}, {At: 20 * sec, Count: 3}}}
	l := sim.LaneResult{Topology: &sim.TopologyResult{Replicas: 3, Phases: []sim.Phase{
		{At: 5 * sec, Kind: sim.PhaseReplicaOut, Replica: 2, Shard: -1},
		{At: 25 * sec, Kind: sim.PhaseReplicaOut, Replica: 2, Shard: -1},
		{At: 27 * sec, Kind: sim.PhaseReplicaIn, Replica: 2, Shard: -1},
		{At: 28 * sec, Kind: sim.PhaseBreakerOpen, Replica: 0, Shard: 1},
	}}}
	got := fleetSpans(l, topo, 30*sec)
	want := []fleetSpan{
		{fleetBreakerOpen, 0, 1, sim.Span{From: 28 * sec, To: 30 * sec}},
		{fleetAbsent, 1, -1, sim.Span{From: 10 * sec, To: 20 * sec}},
		{fleetOut, 2, -1, sim.Span{From: 5 * sec, To: 10 * sec}},
		{fleetOut, 2, -1, sim.Span{From: 25 * sec, To: 27 * sec}},
		{fleetAbsent, 2, -1, sim.Span{From: 10 * sec, To: 20 * sec}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%+v,\nwant %+v", got, want)
	}
}

// The timeline draws the replicas of the health check example (both out of
// the rotation 25s–60s, by hand) as rows below the lanes: in the PNG, named
// in the legend and drawn in the out-of-rotation colour; in the HTML's data,
// one row per replica of each lane with a fleet, and the legend's kinds.
// Failing open, no replica leaves: no rows.
func TestTimelineDrawsTheReplicas(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		out  bool
	}{
		{"health", healthSite, true},
		{"fails open", strings.Replace(healthSite, "on_store_error: closed", "on_store_error: open", 1), false},
	} {
		s, err := scenarios.Parse("health.yaml", []byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		tl := NewTimeline(*s.Config)
		r, err := sim.Run(context.Background(), *s.Config, sim.Options{Trace: tl})
		if err != nil {
			t.Fatal(err)
		}
		o := Run{Scenario: s, Result: &r, Timeline: tl}
		f := Figures(o)[0]
		labelled := false
		for _, e := range f.Legend {
			labelled = labelled || e.Label == fleetLabels[fleetOut]
		}
		if labelled != tc.out || strings.Contains(f.Caption, "one thin row per replica") != tc.out {
			t.Errorf("%s: PNG legend names the replicas out %v, want %v", tc.name, labelled, tc.out)
		}
		b, err := f.PNG()
		if err != nil {
			t.Fatal(err)
		}
		if got := hasColour(t, b, fleetColours[fleetOut]); got != tc.out {
			t.Errorf("%s: the PNG has the out-of-rotation colour %v, want %v", tc.name, got, tc.out)
		}
		var hp htmlPageData
		o.kind().fillPage(&hp)
		tj := hp.Data.Timeline
		var want []fleetRowJSON
		if tc.out {
			for i, l := range r.Lanes {
				if l.Topology == nil {
					continue
				}
				for rep := range 2 {
					want = append(want, fleetRowJSON{Label: fmt.Sprintf("%s · replica %d", r.Lanes[i].Title(), rep), Shards: 1,
						Spans: []fleetSpanJSON{{int(fleetOut), -1, us(25 * sec), us(60 * sec)}}})
				}
			}
		}
		if !reflect.DeepEqual(tj.Fleet, want) {
			t.Errorf("%s: HTML fleet rows %+v, want %+v", tc.name, tj.Fleet, want)
		}
		if (len(tj.FleetLegend) == 1) != tc.out {
			t.Errorf("%s: HTML legend %+v", tc.name, tj.FleetLegend)
		}
	}
}

// hasColour reports whether PNG b has a pixel of colour c (its alpha over
// white) below its top third (the title and the legend's swatches).
func hasColour(t *testing.T, b []byte, c color.Color) bool {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	over := func(v uint8) uint32 { return (uint32(v)*uint32(n.A) + 255*(255-uint32(n.A))) / 255 }
	wr, wg, wb := over(n.R), over(n.G), over(n.B)
	bd := img.Bounds()
	for y := bd.Min.Y + bd.Dy()/3; y < bd.Max.Y; y++ {
		for x := bd.Min.X; x < bd.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			d := func(a, b uint32) uint32 { return max(a, b) - min(a, b) }
			if d(r>>8, wr)+d(g>>8, wg)+d(b>>8, wb) <= 6 {
				return true
			}
		}
	}
	return false
}
