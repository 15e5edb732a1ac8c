package replay

import (
	"bytes"
	"context"
	"image/png"
	"strings"
	"testing"
)

// TestPlotsAndHTML: a swept replay draws four PNGs and the page inlines each.
func TestPlotsAndHTML(t *testing.T) {
	var log bytes.Buffer
	writeCombined(&log, 3000, 3)
	limits := []Limit{mustLimit(t, "key=ip limit=100/1m burst=20")}
	s, err := NewSweep("limits[0].limit", []string{"10", "20", "40"}, limits)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Replay(context.Background(), []Input{{Name: "g", R: &log}}, Options{Limits: limits, Sweep: s})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Limits) != 1 || len(res.Sweep) != 3*len(LaneNames) {
		t.Fatalf("%d limits, %d sweep points; want 1 and %d", len(res.Limits), len(res.Sweep), 3*len(LaneNames))
	}
	for _, p := range res.Sweep { // more limit, never more refusals
		for _, q := range res.Sweep {
			if p.Lane == q.Lane && p.Value < q.Value && p.Refused < q.Refused && p.Lane != "sliding_window_counter" {
				t.Errorf("%s: %d refused at %d, %d at %d", p.Lane, p.Refused, p.Value, q.Refused, q.Value)
			}
		}
	}
	files, err := Plots(res, s)
	if err != nil {
		t.Fatal(err)
	}
	page, err := HTML("tables", files)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"timeline.png", "peaks.png", "sweep_requests.png", "sweep_keys.png"} {
		if _, err := png.Decode(bytes.NewReader(files[name])); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if !strings.Contains(string(page), `alt="`+name+`"`) {
			t.Errorf("report.html lacks %s", name)
		}
	}
	if strings.Contains(string(page), "http") {
		t.Errorf("report.html refers to the network")
	}
}

// TestSmallest: per lane, the smallest value whose row refuses no key at or
// below the p99 of peaks; 0 when no value does.
func TestSmallest(t *testing.T) {
	pts := []SweepPoint{
		{Value: 10, Lane: "a", BelowP99Refused: 3}, {Value: 20, Lane: "a"}, {Value: 30, Lane: "a"},
		{Value: 10, Lane: "b", BelowP99Refused: 1}, {Value: 20, Lane: "b", BelowP99Refused: 1},
	}
	got := Smallest(pts, nil)
	if got["a"] != 20 || got["b"] != 0 || len(got) != 2 {
		t.Errorf("Smallest = %v, want a:20 b:0", got)
	}
}

// TestSweepAgainstSeparateReplays: each swept value replays, in the one pass,
// to what a replay with that limit alone finds.
func TestSweepAgainstSeparateReplays(t *testing.T) {
	var log bytes.Buffer
	writeCombined(&log, 3000, 5)
	limits := []Limit{mustLimit(t, "key=ip limit=100/1m burst=20")}
	s, _ := NewSweep("limits[0].burst", []string{"5", "50"}, limits)
	res, err := Replay(context.Background(), []Input{{Name: "g", R: bytes.NewReader(log.Bytes())}}, Options{Limits: limits, Sweep: s})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range []string{"5", "50"} {
		alone, err := Replay(context.Background(), []Input{{Name: "g", R: bytes.NewReader(log.Bytes())}},
			Options{Limits: []Limit{mustLimit(t, "key=ip limit=100/1m burst="+v)}})
		if err != nil {
			t.Fatal(err)
		}
		for j, lane := range alone.Limits[0].Lanes {
			p := res.Sweep[i*len(LaneNames)+j]
			if p.Lane != lane.Lane || p.Refused != lane.Refused || p.KeysRefused != lane.KeysRefused || p.BelowP99Refused != lane.BelowP99Refused {
				t.Errorf("burst %s %s: swept %+v, alone %d refused, %d keys", v, lane.Lane, p, lane.Refused, lane.KeysRefused)
			}
		}
	}
}
