package scenarios

import (
	"strings"
	"testing"
	"time"
)

// productLane is a scenario of two limits (10 per 1s, 60 per 1m) and one
// lane written lane (a flow mapping's inside).
func productLane(lane string) string {
	return "duration: 10s\nlimits:\n  - {key: ip, limit: 10, window: 1s}\n  - {key: user, limit: 60, window: 1m}\nlanes:\n  - {" + lane +
		"}\nclients:\n  - arrivals: [{kind: constant, rate: 5/s}]\n"
}

// Each refusal of a product section names its path: a section of another
// product, an nginx zone past the chain, a bad rate, zones beside the flat
// fields, Kong's months without a shorter period.
func TestProductSectionRefusals(t *testing.T) {
	for _, c := range []struct{ lane, path, msg string }{
		{"algorithm: nginx, haproxy: {limit: 5}", "lanes[0].haproxy", "has no haproxy section"},
		{"algorithm: traefik, kong: {second: 5}", "lanes[0].kong", "has no kong section"},
		{"algorithm: nginx, nginx: {zones: [{}, {}, {rate: 5r/s}]}", "lanes[0].nginx.zones[2]", "the chain has 2 limit(s)"},
		{"algorithm: nginx, nginx: {rate: 5r/h}", "lanes[0].nginx.rate", ""},
		{"algorithm: nginx, nginx: {zones: [{}], rate: 5r/s}", "lanes[0].nginx.zones", "not both"},
		{"algorithm: nginx, nginx: {zones: [{}], nodelay: true}", "lanes[0].nginx.zones", "not both"},
		{"algorithm: kong, kong: {month: 5000}", "lanes[0].kong", "beside a period of a day or shorter"},
	} {
		_, err := Parse("p.yaml", []byte(productLane(c.lane)))
		if err == nil || !strings.Contains(err.Error(), "p.yaml:") || !strings.Contains(err.Error(), " "+c.path+": ") || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want an error at %s: %s", c.lane, err, c.path, c.msg)
		}
	}
	for _, lane := range []string{"algorithm: kong, kong: {day: 5000, month: 90000}", "algorithm: nginx, nginx: {zones: [{}, {rate: 5r/s}]}"} {
		if _, err := Parse("p.yaml", []byte(productLane(lane))); err != nil {
			t.Errorf("%s: %v", lane, err)
		}
	}
}

// A traefik section's average without a period is per second; a period
// without an average keeps the limit's limit over that period.
func TestTraefikSectionDefaults(t *testing.T) {
	for _, c := range []struct {
		sec    string
		limit  int64
		window time.Duration
	}{{"average: 30", 30, time.Second}, {"average: 30, period: 1m", 30, time.Minute}, {"period: 5s", 10, 5 * time.Second}} {
		s, err := Parse("t.yaml", []byte(productLane("name: t, algorithm: traefik, traefik: {"+c.sec+"}")))
		if err != nil {
			t.Fatalf("%s: %v", c.sec, err)
		}
		if o := s.Config.Overrides; len(o) != 1 || o[0].Name != "t" || o[0].Limit != 0 || o[0].Policy.Limit != c.limit || o[0].Policy.Window != c.window {
			t.Errorf("traefik {%s}: overrides %+v, want limit 0 at %d per %v", c.sec, o, c.limit, c.window)
		}
	}
}
