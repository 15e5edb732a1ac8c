package report

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/scenarios"
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

// The JSON writes a lane's key tables field for field.
func TestKeyTablesInTheJSON(t *testing.T) {
	s := &scenarios.Scenario{Name: "kt", Description: "key tables"}
	lane := sim.LaneResult{Lane: sim.LaneNginx, Name: "nginx", Policy: algorithms.Policy{Limit: 10, Window: time.Second},
		KeyTables: []sim.KeyTableStats{{Limit: "ip", Size: 7, Evicted: 3, Refused: 2, Untracked: 1}}}
	var b bytes.Buffer
	if err := WriteJSON(&b, []Run{{Scenario: s, Result: &sim.Result{Lanes: []sim.LaneResult{lane}, Limits: oneLimit()}}}); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Runs []struct {
			Lanes []struct {
				KeyTables []map[string]any `json:"key_tables"`
			} `json:"lanes"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"limit": "ip", "size": 7.0, "evicted": 3.0, "refused": 2.0, "untracked": 1.0}
	if got := out.Runs[0].Lanes[0].KeyTables; len(got) != 1 || !reflect.DeepEqual(got[0], want) {
		t.Errorf("key_tables %v, want [%v]", got, want)
	}
}

// The report's timeline legend says the statuses the lanes refuse with, and
// each lane's data carries its own, which the hover text reads: nginx-delay's
// lanes refuse with 503, and the page never says a refusal was a 429.
func TestHTMLTimelineNamesTheRefusalStatus(t *testing.T) {
	run := simulate(t, "nginx-delay")
	var b bytes.Buffer
	if err := WriteHTML(&b, []Page{{Run: run, Command: "rlsim run nginx-delay"}}); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	if !strings.Contains(html, "refused (503)") || strings.Contains(html, "(429)") {
		t.Errorf("the report of nginx-delay: says refused (503) %v, says (429) %v; want 503 only",
			strings.Contains(html, "refused (503)"), strings.Contains(html, "(429)"))
	}
	if n := strings.Count(html, `"refusal":503`); n != len(run.Result.Lanes) {
		t.Errorf("%d lanes' data carry refusal 503, want all %d", n, len(run.Result.Lanes))
	}
}
