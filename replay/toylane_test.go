package replay

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/internal/toylane"
	"github.com/rlsim/rlsim/sim"
)

// TestToyLaneReplays adds a per-key lane by its algorithm and a registry row
// alone (toylane.Budget, a fixed window by another name) and replays a log
// through it beside the fixed window: replay's lanes are the registry's, and
// the toy must refuse exactly what the fixed window refuses, its keys retired
// and come back.
func TestToyLaneReplays(t *testing.T) {
	_, undo := sim.AddTestLane[toylane.State]("toy_budget", toylane.New)
	defer undo()
	var log strings.Builder
	for s := range 40 { // .1 bursts 15 a second for 10s, then again after 20s idle; .2 trickles
		if s < 10 || s >= 30 {
			for range 15 {
				fmt.Fprintf(&log, "192.0.2.1 - - [01/Mar/2026:10:00:%02d +0000] \"GET /a HTTP/1.1\" 200 1 \"-\" \"x\"\n", s)
			}
		}
		fmt.Fprintf(&log, "192.0.2.2 - - [01/Mar/2026:10:00:%02d +0000] \"GET /b HTTP/1.1\" 200 1 \"-\" \"x\"\n", s)
	}
	res, err := Replay(t.Context(), []Input{{Name: "log", R: strings.NewReader(log.String())}},
		Options{Limits: []Limit{mustLimit(t, "key=ip limit=10/1s")}, Lanes: []string{"fixed_window", "toy_budget"}})
	if err != nil {
		t.Fatal(err)
	}
	lanes := res.Limits[0].Lanes
	if len(lanes) != 2 || lanes[1].Lane != "toy_budget" {
		t.Fatalf("lanes %+v, want fixed_window and toy_budget", lanes)
	}
	fw, toy := lanes[0], lanes[1]
	if toy.Refused != 20*5 || toy.Refused != fw.Refused || toy.KeysRefused != fw.KeysRefused {
		t.Errorf("toy refused %d (%d keys), fixed window %d (%d keys): want %d by 1 key in both", toy.Refused, toy.KeysRefused, fw.Refused, fw.KeysRefused, 20*5)
	}
	if res.Keys != 3 {
		t.Errorf("%d key episodes, want 3 (192.0.2.1 retired and back)", res.Keys)
	}
}
