package report

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// An envoy_ratelimit lane's near_limit statistic shows in the JSON and the
// lane's verdict; other lanes have neither. 10 a second, NEAR_LIMIT_RATIO
// 0.8 (threshold 8): 12 hits in the first second count the 9th and 10th, 10
// in the next the 9th and 10th again: 4.
func TestNearLimitInTheJSONAndTheVerdict(t *testing.T) {
	src := "duration: 2s\nlimits: [{name: api, key: ip, limit: 10, window: 1s}]\nlanes: [envoy_ratelimit, fixed_window]\n" +
		"clients: [{arrivals: [{kind: burst, at: 0s, count: 12}, {kind: burst, at: 1s, count: 10}]}]\n"
	s, err := scenarios.Parse("near.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(context.Background(), *s.Config, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteJSON(&b, []Run{{Scenario: s, Result: &res}}); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Runs []struct {
			Lanes []struct {
				NearLimit []map[string]any `json:"near_limit"`
			} `json:"lanes"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	lanes := out.Runs[0].Lanes
	if want := []map[string]any{{"limit": "api", "count": 4.0}}; !reflect.DeepEqual(lanes[0].NearLimit, want) {
		t.Errorf("envoy_ratelimit near_limit %v, want %v", lanes[0].NearLimit, want)
	}
	if lanes[1].NearLimit != nil || strings.Count(b.String(), `"near_limit"`) != 1 {
		t.Errorf("near_limit written %d times, want once (the fixed window has none)", strings.Count(b.String(), `"near_limit"`))
	}
	if v := laneVerdict(res, res.Lanes[0]).Text; !strings.Contains(v, "near_limit hits: api 4.") {
		t.Errorf("verdict %q lacks the near_limit count", v)
	}
	if v := laneVerdict(res, res.Lanes[1]).Text; strings.Contains(v, "near_limit") {
		t.Errorf("the fixed window's verdict %q speaks of near_limit", v)
	}
}
