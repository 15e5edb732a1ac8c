package importer

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestKongAdvancedEachSetting: rate-limiting-advanced's lists make one limit
// per (limit, window_size); a window over a year is left out; the window type,
// error code, hidden headers, jitter, consumer groups and a strategy without
// sync_rate each reach the lane or are told.
func TestKongAdvancedEachSetting(t *testing.T) {
	year := 366 * 86400
	for _, c := range []struct {
		name    string
		cfg     []string
		limits  string // name=limit/window,...
		problem string
		window  string // the lane's window_type
		status  any    // the lane's status option, nil for 429
		hidden  bool
	}{
		{"two windows", []string{"limit: [10, 100]", "window_size: [1, 60]"}, "global/1s=10/1s,global/60s=100/1m0s", "", "sliding", nil, false},
		{"fixed", []string{"limit: [10]", "window_size: [1]", "window_type: fixed"}, "global/1s=10/1s", "", "fixed", nil, false},
		{"unknown window type", []string{"limit: [10]", "window_size: [1]", "window_type: rolling"}, "global/1s=10/1s", `window_type "rolling" is not sliding or fixed`, "sliding", nil, false},
		{"error code", []string{"limit: [10]", "window_size: [1]", "error_code: 503"}, "global/1s=10/1s", "", "sliding", int64(503), false},
		{"hidden headers", []string{"limit: [10]", "window_size: [1]", "hide_client_headers: true"}, "global/1s=10/1s", "", "sliding", nil, true},
		{"jitter", []string{"limit: [10]", "window_size: [1]", "retry_after_jitter_max: 2"}, "global/1s=10/1s", "retry_after_jitter_max 2 adds a random delay", "sliding", nil, false},
		{"consumer groups", []string{"limit: [10]", "window_size: [1]", "enforce_consumer_groups: true"}, "global/1s=10/1s", "enforce_consumer_groups gives consumer groups their own limits", "sliding", nil, false},
		{"strategy without sync", []string{"limit: [10]", "window_size: [1]", "strategy: redis"}, "global/1s=10/1s", "strategy redis without sync_rate", "sliding", nil, false},
		{"a year and a day", []string{"limit: [10, 20]", fmt.Sprintf("window_size: [1, %d]", year+1)}, "global/1s=10/1s", fmt.Sprintf("config.window_size[1] %d: more than a year", year+1), "sliding", nil, false},
		{"a year", []string{"limit: [10]", fmt.Sprintf("window_size: [%d]", year)}, fmt.Sprintf("global/%ds=10/%v", year, time.Duration(year)*time.Second), "", "sliding", nil, false},
		{"lists of two lengths", []string{"limit: [10, 20]", "window_size: [1]"}, "", "must be lists of one length", "", nil, false},
	} {
		m, err := Import(Source{Path: "k.yaml", Data: []byte(kongDoc("rate-limiting-advanced", c.cfg...))}, "kong")
		if c.limits == "" {
			if err == nil || !strings.Contains(err.Error(), c.problem) {
				t.Errorf("%s: %v, want an error saying %q", c.name, err, c.problem)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		var got []string
		for _, l := range m.Limits {
			got = append(got, fmt.Sprintf("%s=%d/%v", l.Name, l.Limit, l.Window))
			if l.NoHeaders != c.hidden {
				t.Errorf("%s: limit %s NoHeaders %v, want %v", c.name, l.Name, l.NoHeaders, c.hidden)
			}
		}
		if strings.Join(got, ",") != c.limits {
			t.Errorf("%s: limits %s, want %s", c.name, strings.Join(got, ","), c.limits)
		}
		var msgs []string
		for _, p := range m.Problems {
			msgs = append(msgs, p.Message)
		}
		if all := strings.Join(msgs, "\n"); (c.problem == "") != (len(msgs) == 0) || !strings.Contains(all, c.problem) {
			t.Errorf("%s: problems %q, want %q", c.name, all, c.problem)
		}
		if len(m.Lanes) != 1 || ekLaneField(m.Lanes[0], "window_type") != c.window || ekLaneField(m.Lanes[0], "status") != c.status {
			t.Errorf("%s: lanes %+v, want window_type %s, status %v", c.name, m.Lanes, c.window, c.status)
		}
	}
}
