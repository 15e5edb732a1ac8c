package scenarios

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// Duration is a span of virtual time written like 250ms, 1.5s, 2m or 1h30m.
type Duration time.Duration

func (d *Duration) parseScalar(s string) error {
	v, err := parseDuration(s)
	if err != nil {
		return err
	}
	if v > sim.MaxTime {
		return fmt.Errorf("%q is more than 100 years (876000h), the longest a scenario may state", s)
	}
	*d = Duration(v)
	return nil
}

// MarshalYAML writes d in its shortest readable form, e.g. "2m" rather than "2m0s".
func (d Duration) MarshalYAML() (any, error) { return formatDuration(time.Duration(d)), nil }

func parseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if s == "0" {
		return 0, nil
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return 0, fmt.Errorf("%q has no unit: want a duration like 250ms, 1.5s or 2m", s)
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration: want one like 250ms, 1.5s or 2m", s)
	}
	return d, nil
}

// formatDuration is time.Duration.String without the trailing zero units.
func formatDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// Rate is Count requests per Per, written like 10/s, 100/1m, 5/250ms or "5 per 2s".
type Rate sim.Rate

func (r *Rate) parseScalar(s string) error {
	v, err := parseRate(s)
	if err != nil {
		return err
	}
	if v.Per > sim.MaxTime {
		return fmt.Errorf("%q has a period of more than 100 years (876000h), the longest a scenario may state", s)
	}
	*r = Rate(v)
	return nil
}

// MarshalYAML writes r as "count/per", e.g. "10/s" or "5/250ms".
func (r Rate) MarshalYAML() (any, error) { return formatRate(sim.Rate(r)), nil }

func parseRate(s string) (sim.Rate, error) {
	bad := func(why string) (sim.Rate, error) {
		return sim.Rate{}, fmt.Errorf("%q is not a rate (%s): want one like 10/s, 100/1m or \"5 per 2s\"", s, why)
	}
	count, per, ok := strings.Cut(s, "/")
	if !ok {
		count, per, ok = strings.Cut(s, " per ")
	}
	if !ok {
		return bad("no \"/\" or \"per\"")
	}
	count, per = strings.TrimSpace(count), strings.TrimSpace(per)
	n, err := strconv.ParseInt(count, 10, 64)
	if err != nil {
		return bad(fmt.Sprintf("count %q is not a whole number", count))
	}
	if n <= 0 {
		return bad("count must be positive")
	}
	if per != "" && (per[0] >= 'a' && per[0] <= 'z' || per[0] >= 'A' && per[0] <= 'Z' || per[0] >= 0x80) {
		per = "1" + per // "s" means "1s"
	}
	d, err := time.ParseDuration(per)
	if err != nil {
		return bad(fmt.Sprintf("period %q is not a duration", per))
	}
	if d <= 0 {
		return bad("period must be positive")
	}
	return sim.Rate{Count: n, Per: d}, nil
}

func formatRate(r sim.Rate) string {
	per := formatDuration(r.Per)
	switch per {
	case "1ms", "1s", "1m", "1h":
		per = per[1:]
	}
	return strconv.FormatInt(r.Count, 10) + "/" + per
}

// enums maps the enum tag of a schema field to its valid names, as sim defines them.
var enums = map[string]func() []string{
	"lane":          sim.LaneNames,
	"key":           sim.KeyNames,
	"arrival":       sim.ArrivalNames,
	"retry":         sim.RetryNames,
	"jitter":        sim.JitterNames,
	"backoff":       sim.BackoffNames,
	"schedule":      sim.ScheduleNames,
	"chain":         sim.ChainNames,
	"header_style":  sim.HeaderStyleNames,
	"limit_headers": func() []string { return []string{"sent", "none"} },
	"retry_after":   sim.RetryAfterNames,
	"service":       sim.ServiceNames,
	"criticality":   sim.CriticalityNames,
	"discipline":    sim.DisciplineNames,
	"server":        serverLaneNames,
	"check_metric":  func() []string { return append([]string(nil), metricNames...) },
	"check_op":      checkOps,
	"routing":       sim.RoutingNames,
	"state":         sim.StateNames,
	"local_limit":   sim.LocalLimitNames,
	"fail_mode":     sim.FailModeNames,
	"partition":     func() []string { return []string{"refused", "hung"} },
	"eviction":      sim.EvictionNames,
	"align":         func() []string { return []string{"clock", "first", "calendar"} },
	"refill":        func() []string { return []string{"continuous", "stepwise"} },
	"envoy_refill":  func() []string { return []string{"continuous", "stepwise"} },
	"envoy_unit":    func() []string { return []string{"second", "minute", "hour", "day", "week", "month", "year"} },
	"kong_policy":   func() []string { return []string{"local", "cluster", "redis"} },
	"kong_window":   func() []string { return []string{"sliding", "fixed"} },
	"when_full":     sim.TableFullNames,
	"quota_period":  func() []string { return []string{"day", "week", "month"} },
}

// serverLaneNames are the lanes that can enforce the limit behind client throttling:
// the per-key rate limiters.
func serverLaneNames() []string { return sim.LanesOf(sim.RateLimiter) }

// unknownName explains that s is not one of valid.
func unknownName(s string, valid []string) string {
	msg := fmt.Sprintf("unknown value %q (want %s)", s, strings.Join(valid, ", "))
	if m := closest(s, valid); m != "" {
		msg += fmt.Sprintf("; did you mean %q?", m)
	}
	return msg
}

// closest is the candidate nearest to s by edit distance, if it is near enough to
// be a likely typo; "" otherwise.
func closest(s string, candidates []string) string {
	best, bestDist := "", 0
	for _, c := range candidates {
		d := editDistance(strings.ToLower(s), c)
		if best == "" || d < bestDist {
			best, bestDist = c, d
		}
	}
	if best == "" || bestDist > max(2, len(best)/3) || bestDist >= len(s) {
		return ""
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// ParseLanes reads a comma-separated list of lane names, e.g. "gcra,token_bucket":
// algorithms' names or the names of a scenario's variants (SelectLanes picks them).
func ParseLanes(s string) ([]string, error) {
	var lanes []string
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if slices.Contains(lanes, name) {
			return nil, fmt.Errorf("%s is named twice: each lane runs once", name)
		}
		lanes = append(lanes, name)
	}
	if len(lanes) == 0 {
		return nil, fmt.Errorf("no lanes named (want some of %s)", strings.Join(sim.LaneNames(), ", "))
	}
	return lanes, nil
}

// Level is a bucket's starting level: "full" (written back as nothing: the
// default), "empty" (0) or a whole number of cost units. Full is -1.
type Level int64

func (l *Level) parseScalar(s string) error {
	switch s {
	case "full":
		*l = -1
		return nil
	case "empty":
		*l = 0
		return nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return fmt.Errorf("want full, empty or a whole number of cost units from 0, got %q", s)
	}
	*l = Level(n)
	return nil
}

// MarshalYAML writes empty as empty and a number as itself.
func (l Level) MarshalYAML() (any, error) {
	if l == 0 {
		return "empty", nil
	}
	return int64(l), nil
}

// WallTime is an instant of the wall clock as RFC 3339 writes it
// (2026-12-01T09:00:00Z, or with an offset and fractions of a second).
type WallTime string

func (w *WallTime) parseScalar(s string) error {
	if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
		return fmt.Errorf("%q is not an RFC 3339 instant, such as 2026-12-01T09:00:00Z", s)
	}
	*w = WallTime(s)
	return nil
}
