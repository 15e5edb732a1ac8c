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
