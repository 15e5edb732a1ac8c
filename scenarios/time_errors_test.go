package scenarios

import (
	"strings"
	"testing"
)

// Every new field of round trips, deadlines, retry budgets and queue
// disciplines refuses bad values with the file, the line and the field.
func TestTimeFieldErrors(t *testing.T) {
	head := "limits: [{limit: 5}]\nclients:\n  - arrivals: [{kind: constant, rate: 1/s}]\n"
	for _, tt := range []struct{ name, yaml, want string }{
		{"negative rtt", head + "    rtt: -1ms\n", "f.yaml:4: clients[0].rtt: must not be negative, got -1ms"},
		{"zero deadline", head + "    deadline: 0s\n", "f.yaml:4: clients[0].deadline: must be positive, got 0s"},
		{"NaN ratio", head + "    retry: {kind: fixed, delay: 1s, budget: {ratio: .nan}}\n", "f.yaml:4: clients[0].retry.budget.ratio"},
		{"negative ratio", head + "    retry: {kind: fixed, delay: 1s, budget: {ratio: -0.1}}\n", "f.yaml:4: clients[0].retry.budget.ratio: must not be negative, got -0.1"},
		{"huge ratio", head + "    retry: {kind: fixed, delay: 1s, budget: {ratio: 1001}}\n", "f.yaml:4: clients[0].retry.budget.ratio: must be 0 or from 1e-06 to 1000 retries per request, got 1001"},
		{"tiny ratio", head + "    retry: {kind: fixed, delay: 1s, budget: {ratio: 1e-300}}\n", "clients[0].retry.budget.ratio: must be 0 or from 1e-06"},
		{"short ttl", head + "    retry: {kind: fixed, delay: 1s, budget: {ttl: 500ms}}\n", "f.yaml:4: clients[0].retry.budget.ttl: must be from 1s to 1m0s (Finagle's bounds), got 500ms"},
		{"long ttl", head + "    retry: {kind: fixed, delay: 1s, budget: {ttl: 61s}}\n", "clients[0].retry.budget.ttl: must be from 1s to 1m0s"},
		{"no budget at all", head + "    retry: {kind: fixed, delay: 1s, budget: {ratio: 0, min_per_second: 0}}\n", "f.yaml:4: clients[0].retry.budget: ratio 0 and min_per_second 0 allow no retry at all"},
		{"huge min", head + "    retry: {kind: fixed, delay: 1s, budget: {min_per_second: 2000000}}\n", "clients[0].retry.budget.min_per_second: must be from 0 to 1000000, got 2000000"},
		{"budget without retries", head + "    retry: {kind: none, budget: {ratio: 0.1}}\n", "f.yaml:4: clients[0].retry.budget: not used by kind none"},
		{"unknown discipline", head + "backend: {service: {mean: 1ms}, discipline: random}\n", "f.yaml:4: backend.discipline"},
		{"negative codel target", head + "backend: {service: {mean: 1ms}, codel: {target: -1ms}}\n", "f.yaml:4: backend.codel.target: must be positive, got -1ms"},
		{"zero timeout", head + "    timeout: 0s\n", "f.yaml:4: clients[0].timeout: must be positive, got 0s"},
		{"timeout within the round trip", head + "    rtt: 40ms\n    timeout: 40ms\n", "f.yaml:5: clients[0].timeout: 40ms is not more than the round trip (rtt 40ms): no answer could come back in time"},
		{"timeout with pace", head + "    pace: true\n    timeout: 1s\n", "f.yaml:5: clients[0].timeout: not with pace"},
		{"huge timeout", head + "    timeout: 900000h\n", `f.yaml:4: clients[0].timeout: "900000h" is more than 100 years`},
		{"zero service factor", head + "    service_factor: 0\n", "f.yaml:4: clients[0].service_factor: must be positive, got 0"},
		{"NaN service factor", head + "    service_factor: .nan\n", "f.yaml:4: clients[0].service_factor"},
		{"infinite service factor", head + "    service_factor: .inf\nbackend: {service: {mean: 1ms}}\n", "f.yaml:4: clients[0].service_factor"},
		{"huge service factor", head + "    service_factor: 1e7\nbackend: {service: {mean: 1ms}}\n", "f.yaml:4: clients[0].service_factor: must be a number above 0 and at most 1e+06, got 1e+07"},
		{"service factor without a backend", head + "    service_factor: 2\n", "f.yaml:4: clients[0].service_factor: scales the backend's service time, and there is no backend"},
		{"huge rtt", head + "    rtt: 900000h\n", `f.yaml:4: clients[0].rtt: "900000h" is more than 100 years`},
	} {
		_, err := Parse("f.yaml", []byte(tt.yaml))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want it to hold %q", tt.name, err, tt.want)
		}
	}
	// A round trip lets immediate retries go without max_attempts.
	if _, err := Parse("f.yaml", []byte(head+"    rtt: 40ms\n    retry: {kind: immediate}\n")); err != nil {
		t.Errorf("immediate retries over a round trip: %v", err)
	}
}
