package report

import (
	"strings"
	"testing"

	"github.com/rlsim/rlsim/sim"
)

// A lane's verdict names the status it refuses with, and the timeline's
// legend and caption every status the lanes refuse with.
func TestRefusalStatusInTheReport(t *testing.T) {
	r := sim.Result{Limits: oneLimit()}
	l := sim.LaneResult{Lane: sim.LaneNginx, Attempts: 30, Admitted: 25, Refused: 5, RefusalStatus: 503,
		Peak: sim.WindowPeak{Count: 10, Limit: 10, Ratio: 1}}
	if v := laneVerdict(r, l).Text; !strings.Contains(v, "refused 5 (503)") || strings.Contains(v, "429") {
		t.Errorf("an nginx lane's verdict %q, want its refusals as 503 and no 429", v)
	}
	for _, tc := range []struct {
		statuses []int
		want     string
	}{{[]int{429, 429}, "429"}, {[]int{503, 429, 503}, "429 or 503"}, {[]int{0}, "429"}, {nil, "429"}, {[]int{418, 503, 429}, "418 or 429 or 503"}} {
		var res sim.Result
		for _, s := range tc.statuses {
			res.Lanes = append(res.Lanes, sim.LaneResult{RefusalStatus: s})
		}
		if got := refusalStatuses(res); got != tc.want {
			t.Errorf("refusalStatuses(%v) = %q, want %q", tc.statuses, got, tc.want)
		}
		legend := markLegend(res)
		if got := legend[sim.MarkRefused].Label; got != "refused ("+tc.want+")" {
			t.Errorf("legend for %v: %q, want refused (%s)", tc.statuses, got, tc.want)
		}
	}
}
