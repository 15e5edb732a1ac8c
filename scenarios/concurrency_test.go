package scenarios

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

const concFile = `duration: 1s
limits:
  - name: rate
    limit: 100
  - name: in-flight
    key: user
    concurrency: 3
clients:
  - arrivals:
      - kind: burst
        count: 5
backend:
  capacity: 10
  service:
    mean: 100ms
`

// A concurrency limit reads into sim's Limit.Concurrency with no rate, and
// writes back to a file that reads the same.
func TestConcurrencyLimitReads(t *testing.T) {
	s, err := Parse("c.yaml", []byte(concFile))
	if err != nil {
		t.Fatal(err)
	}
	l := s.Config.Limits[1]
	if l.Concurrency != 3 || l.Policy.Limit != 0 || l.Policy.Window != 0 {
		t.Errorf("limits[1] = %+v, want concurrency 3 and no rate", l)
	}
	out, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse("back.yaml", out)
	if err != nil {
		t.Fatalf("the file Marshal wrote does not parse: %v\n%s", err, out)
	}
	if !reflect.DeepEqual(back.Config.Limits, s.Config.Limits) {
		t.Errorf("written and read back: %+v, want %+v", back.Config.Limits, s.Config.Limits)
	}
}

// Bad concurrency limits are refused at their file line and field.
func TestConcurrencyLimitErrorsAtTheirLine(t *testing.T) {
	for _, tt := range []struct {
		name, from, to, want string
	}{
		{"negative", "concurrency: 3", "concurrency: -3", "c.yaml:7: limits[1].concurrency:"},
		{"not a number", "concurrency: 3", "concurrency: .nan", "c.yaml:7: limits[1].concurrency:"},
		{"huge", "concurrency: 3", "concurrency: 9223372036854775807", "c.yaml:7: limits[1].concurrency:"},
		{"with a window", "concurrency: 3", "concurrency: 3\n    window: 1s", "limits[1].concurrency:"},
		{"first", "  - name: rate\n    limit: 100\n  - name: in-flight\n    key: user\n    concurrency: 3",
			"  - name: in-flight\n    key: user\n    concurrency: 3\n  - name: rate\n    limit: 100", "c.yaml:5: limits[0].concurrency: the first limit"},
		{"neither", "concurrency: 3", "endpoint: x", "limits[1].limit:"},
	} {
		src := strings.Replace(concFile, tt.from, tt.to, 1)
		_, err := Parse("c.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}

const shedFile = `duration: 1s
clients:
  - name: batch
    criticality: sheddable
    arrivals:
      - kind: burst
        count: 5
backend:
  capacity: 10
  service:
    mean: 100ms
  shedding:
    fleet_usage:
      reserve: 0.2
      keep: critical
    utilisation:
      threshold: 0.9
      queue_age: 50ms
`

// The shedders and criticalities read into sim's, and write back the same.
func TestSheddingReads(t *testing.T) {
	s, err := Parse("s.yaml", []byte(shedFile))
	if err != nil {
		t.Fatal(err)
	}
	sh := s.Config.Backend.Shedding
	if s.Config.Clients[0].Criticality != sim.Sheddable || sh == nil || *sh.FleetUsage != (sim.FleetUsage{Reserve: 0.2, Keep: sim.Critical}) ||
		*sh.Utilisation != (sim.UtilisationShedding{Threshold: 0.9, QueueAge: 50 * time.Millisecond}) {
		t.Errorf("read %+v and %+v", s.Config.Clients[0], sh)
	}
	out, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse("back.yaml", out)
	if err != nil {
		t.Fatalf("the file Marshal wrote does not parse: %v\n%s", err, out)
	}
	if !reflect.DeepEqual(back.Config.Backend, s.Config.Backend) || back.Config.Clients[0].Criticality != sim.Sheddable {
		t.Errorf("written and read back: %+v, want %+v", back.Config.Backend, s.Config.Backend)
	}
}

// Bad shedders and criticalities are refused at their line and field.
func TestSheddingErrorsAtTheirLine(t *testing.T) {
	for _, tt := range []struct {
		name, from, to, want string
	}{
		{"unknown criticality", "criticality: sheddable", "criticality: low", "s.yaml:4: clients[0].criticality: unknown value"},
		{"reserve 1", "reserve: 0.2", "reserve: 1", "s.yaml:14: backend.shedding.fleet_usage.reserve:"},
		{"reserve NaN", "reserve: 0.2", "reserve: .nan", "s.yaml:14: backend.shedding.fleet_usage.reserve:"},
		{"reserve negative", "reserve: 0.2", "reserve: -0.2", "s.yaml:14: backend.shedding.fleet_usage.reserve:"},
		{"keep unknown", "keep: critical", "keep: vip", "s.yaml:15: backend.shedding.fleet_usage.keep: unknown value"},
		{"threshold over 1", "threshold: 0.9", "threshold: 1.5", "s.yaml:17: backend.shedding.utilisation.threshold:"},
		{"threshold infinite", "threshold: 0.9", "threshold: .inf", "s.yaml:17: backend.shedding.utilisation.threshold:"},
		{"queue age negative", "queue_age: 50ms", "queue_age: -5ms", "s.yaml:18: backend.shedding.utilisation.queue_age:"},
		{"watching nothing", "      threshold: 0.9\n      queue_age: 50ms\n", "      escalate: 1s\n", "backend.shedding.utilisation: watches nothing"},
	} {
		src := strings.Replace(shedFile, tt.from, tt.to, 1)
		_, err := Parse("s.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}

// A variant's {} keeps a concurrency limit as it is; a rate for it is refused
// at the variant's line, with no other complaint.
func TestVariantOfAConcurrencyLimit(t *testing.T) {
	src := strings.Replace(concFile, "duration: 1s\n", "duration: 1s\nlanes:\n  - token_bucket\n  - {name: tb2, algorithm: token_bucket, limits: [{burst: 3}, {}]}\n", 1)
	s, err := Parse("v.yaml", []byte(src))
	if err != nil {
		t.Fatalf("{} for a concurrency limit: %v", err)
	}
	if len(s.Config.Overrides) != 1 || s.Config.Overrides[0].Limit != 0 {
		t.Errorf("overrides %+v, want the first limit's alone", s.Config.Overrides)
	}
	_, err = Parse("v.yaml", []byte(strings.Replace(src, "{burst: 3}, {}", "{burst: 3}, {limit: 5}", 1)))
	if err == nil || !strings.Contains(err.Error(), "v.yaml:4: lanes[1].limits[1]") || strings.Count(err.Error(), "\n") != 0 {
		t.Errorf("a rate for a concurrency limit in a variant: %v, want one error at v.yaml:4", err)
	}
}
