package importer

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

func sampleModel() *Model {
	at := func(line int) []Origin { return []Origin{{File: "conf/nginx.conf", Line: line}} }
	return &Model{
		Product: "nginx",
		Files:   []string{"conf/nginx.conf", "conf/limits.conf"},
		Limits: []Limit{
			{Name: "perip", Key: "ip", Limit: 10, Window: time.Second, Burst: 6, Endpoint: "/login", At: at(3), Note: "zone=perip rate=10r/s"},
			{Name: "perserver", Key: "global", Limit: 100, Window: time.Second, DryRun: true, At: at(4)},
			{Name: "shared: \"odd\" name", Key: "user", Limit: 5, Window: time.Minute, State: "shared", OnStoreError: "closed", At: at(9)},
		},
		Lanes: []Lane{{Name: "nginx", Algorithm: "nginx", At: at(12),
			Options: Fields{{"status", int64(429)}},
			Section: Fields{{"zones", []Fields{
				{{"rate", "10r/s"}, {"burst", int64(5)}, {"nodelay", true}},
				{{"rate", "100r/s"}},
				{{"rate", "5r/m"}},
			}}}}},
		Problems: []Problem{{At: Origin{File: "conf/nginx.conf", Line: 7}, Message: "map with an empty value: requests whose key is empty are not limited by nginx, by rlsim they are\x1b[31m"}},
	}
}

// TestRenderedScenarioParses holds Render to its promise: the scenario parses,
// its limits are the model's, field for field, and every origin and problem
// is in a comment.
func TestRenderedScenarioParses(t *testing.T) {
	m := sampleModel()
	out := Render(m)
	s, err := scenarios.Parse("imported.yaml", out)
	if err != nil {
		t.Fatalf("Render's scenario does not parse: %v\n%s", err, out)
	}
	c := s.Config
	if len(c.Limits) != len(m.Limits) {
		t.Fatalf("%d limits, want %d", len(c.Limits), len(m.Limits))
	}
	for i, want := range m.Limits {
		got := c.Limits[i]
		if got.Name != want.Name || got.Key.String() != want.Key || got.Policy.Limit != want.Limit || got.Policy.Window != want.Window {
			t.Errorf("limit %d = %s/%s %d per %v, want %s/%s %d per %v", i, got.Name, got.Key, got.Policy.Limit, got.Policy.Window, want.Name, want.Key, want.Limit, want.Window)
		}
		if want.Burst > 0 && got.Policy.Burst != want.Burst {
			t.Errorf("limit %d burst %d, want %d", i, got.Policy.Burst, want.Burst)
		}
		if got.Endpoint != want.Endpoint {
			t.Errorf("limit %d endpoint %q, want %q", i, got.Endpoint, want.Endpoint)
		}
		if got.Shadow != want.DryRun {
			t.Errorf("limit %d shadow %v, want %v", i, got.Shadow, want.DryRun)
		}
	}
	if len(c.Lanes) != 1 || c.Lanes[0] != sim.LaneNginx {
		t.Fatalf("lanes %v, want one nginx lane", c.Lanes)
	}
	for _, want := range []string{"# conf/nginx.conf:3: zone=perip rate=10r/s", "# conf/nginx.conf:12", "#   conf/nginx.conf:7: map with an empty value", "conf/limits.conf", "example traffic"} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if bytes.ContainsRune(out, 0x1b) {
		t.Errorf("a control character reached the output")
	}
	if !bytes.Equal(out, Render(sampleModel())) {
		t.Errorf("Render is not deterministic")
	}
}

// TestExampleClientsMeetEveryEndpoint: one group per endpoint, plus one for
// the requests no endpoint names when a limit counts every request, each
// sending above its tightest limit.
func TestExampleClientsMeetEveryEndpoint(t *testing.T) {
	s, err := scenarios.Parse("imported.yaml", Render(sampleModel()))
	if err != nil {
		t.Fatal(err)
	}
	var endpoints []string
	for _, g := range s.Config.Clients {
		endpoints = append(endpoints, g.Identity.Endpoint)
	}
	got := strings.Join(endpoints, ",")
	if !strings.HasSuffix(got, ",/login") || len(s.Config.Clients) != 2 {
		t.Errorf("groups' endpoints %q, want the default then /login", got)
	}
	login := s.Config.Clients[1]
	rate := login.Arrivals[0].Rate
	perSecond := float64(rate.Count) / rate.Per.Seconds()
	if perSecond <= 5.0/60 {
		t.Errorf("the /login group sends %.2f/s each, not above its tightest limit, 5 a minute per user", perSecond)
	}
}

func TestFormatDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{time.Hour: "1h", 90 * time.Minute: "90m", 1500 * time.Millisecond: "1500ms", 3 * time.Nanosecond: "3ns", 24 * time.Hour: "24h"} {
		if got := formatDuration(d); got != want {
			t.Errorf("formatDuration(%v) = %s, want %s", d, got, want)
		}
		if back, err := time.ParseDuration(formatDuration(d)); err != nil || back != d {
			t.Errorf("%s reads back as %v, %v", formatDuration(d), back, err)
		}
	}
}

func TestScalarQuotesWhatYAMLWouldReadOtherwise(t *testing.T) {
	for _, s := range []string{"yes", "No", "10", "1.5", "a: b", "#x", "", "- x", "/login", "zone_1", "ümlaut", "a\"b", "null"} {
		doc := "v: " + scalar(s) + "\n"
		var got struct{ V string }
		if err := yamlUnmarshal([]byte(doc), &got); err != nil || got.V != s {
			t.Errorf("scalar(%q) = %s reads back as %q, %v", s, scalar(s), got.V, err)
		}
	}
}
