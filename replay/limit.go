package replay

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// Limit is one limit replayed: a policy applied per key.
type Limit struct {
	Name   string
	Key    KeySpec
	Policy algorithms.Policy
	// Endpoint, when set, makes the limit count only the lines to that
	// endpoint (see inScope), as a scenario limit's endpoint does; the others
	// pass it uncounted. Empty counts every line.
	Endpoint string
}

// ParseLimit reads "key=ip limit=100/1m burst=20 name=per_ip endpoint=/login":
// key and limit are required; burst defaults to the limit; name defaults to
// the key; endpoint (a path such as /login: the limit counts only the lines
// to it) defaults to every request.
func ParseLimit(s string) (Limit, error) {
	var l Limit
	var errs []string
	seen := map[string]bool{}
	for _, kv := range strings.Fields(s) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			errs = append(errs, fmt.Sprintf("%q: want NAME=VALUE", kv))
			continue
		}
		seen[k] = true
		var err error
		switch k {
		case "key":
			l.Key, err = ParseKey(v)
		case "limit":
			l.Policy.Limit, l.Policy.Window, err = parseRate(v)
		case "burst":
			l.Policy.Burst, err = strconv.ParseInt(v, 10, 64)
			if err == nil && l.Policy.Burst <= 0 {
				err = fmt.Errorf("must be positive")
			}
		case "name":
			l.Name = v
		case "endpoint":
			l.Endpoint = v
			if v == "" {
				err = fmt.Errorf("empty (want a path such as /login)")
			}
		default:
			err = fmt.Errorf("unknown (want key, limit, burst, name, endpoint)")
		}
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s: %v", k, err))
		}
	}
	for _, need := range []string{"key", "limit"} {
		if !seen[need] {
			errs = append(errs, need+": missing")
		}
	}
	if len(errs) > 0 {
		return l, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	if l.Name == "" {
		l.Name = l.Key.String()
	}
	return l, nil
}

// parseRate reads "100/1m" (requests per window) or "100/s".
func parseRate(s string) (int64, time.Duration, error) {
	n, w, ok := strings.Cut(s, "/")
	if !ok {
		return 0, 0, fmt.Errorf("%q: want N/WINDOW, e.g. 100/1m", s)
	}
	limit, err := strconv.ParseInt(n, 10, 64)
	if err != nil || limit <= 0 {
		return 0, 0, fmt.Errorf("%q: the count must be a positive whole number", s)
	}
	if w != "" && (w[0] < '0' || w[0] > '9') {
		w = "1" + w
	}
	window, err := time.ParseDuration(w)
	if err != nil || window <= 0 {
		return 0, 0, fmt.Errorf("%q: the window must be a positive duration such as 1s, 1m", s)
	}
	if window > sim.MaxTime {
		return 0, 0, fmt.Errorf("%q: the window must be at most %s (%v), as a scenario's", s, years(sim.MaxTime), sim.MaxTime)
	}
	return limit, window, nil
}

// Check reports, all at once, why lanes (DefaultLanes when empty) cannot
// replay l: a limit or burst so large that a lane's exact arithmetic would
// overflow, or more than the sliding log can hold. Replay reports the same
// when it starts; Check lets a caller name the flag before reading a line.
func (l Limit) Check(lanes []string) error {
	if len(lanes) == 0 {
		lanes = DefaultLanes
	}
	var errs []any
	for _, lane := range lanes {
		if _, err := newDecider(lane, l.Policy); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf(strings.Repeat("; %w", len(errs))[2:], errs...) // one line, after the flag
}

// String is the limit as ParseLimit reads it.
func (l Limit) String() string {
	s := fmt.Sprintf("name=%s key=%s limit=%d/%s burst=%d", l.Name, l.Key, l.Policy.Limit, window(l.Policy.Window), l.Policy.EffectiveBurst())
	if l.Endpoint != "" {
		s += " endpoint=" + l.Endpoint
	}
	return s
}

// window writes d as ParseLimit reads it, without zero units: 1m, 1h30m, 500ms.
func window(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
