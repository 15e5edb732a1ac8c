package replay

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Where is one --where on a replay's sweep: a lane's figure at one swept value,
// compared with a threshold. --find picks, per lane, the smallest value whose
// row meets every Where that applies to the lane.
type Where struct {
	Lane   string // "" checks every lane
	Metric string // one of WhereMetrics
	Op     string // <=, <, >=, >
	Want   float64
	Text   string // as written
}

// WhereMetrics name the sweep figures a Where compares, with what each is.
var WhereMetrics = []struct{ Name, Is string }{
	{"refused", "requests that would be refused"},
	{"refused_share", "refused as a share of the requests replayed (1% or 0.01)"},
	{"keys_refused", "keys refused at least once"},
	{"legit_keys_caught", "legitimate-looking keys refused"},
	{"keys_below_p99_refused", "keys refused whose peak per window is at most the p99 of all keys' peaks"},
}

// DefaultWhere is the objective of --find without --where: no key at or below
// the 99th percentile of per-key peaks refused.
var DefaultWhere = Where{Metric: "keys_below_p99_refused", Op: "<=", Want: 0, Text: "keys_below_p99_refused <= 0"}

var replayWhere = regexp.MustCompile(`^(?:lane\s+(\S+)\s+)?([a-z0-9_]+)\s*(<=|>=|<|>)\s*(\S+)$`)

// ParseWhere reads '[lane LANE] METRIC OP VALUE' (such as 'keys_refused <= 0'
// or 'lane gcra refused_share <= 1%') against the lanes replayed, reporting
// every problem at once, each naming the flag.
func ParseWhere(s string, lanes []string) (Where, error) {
	flag := "--where " + written(s)
	m := replayWhere.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return Where{}, fmt.Errorf("%s: want '[lane LANE] METRIC OP VALUE', e.g. 'keys_refused <= 0'", flag)
	}
	w := Where{Lane: m[1], Metric: m[2], Op: m[3], Text: strings.TrimSpace(s)}
	var errs []error
	if w.Lane != "" && !slices.Contains(lanes, w.Lane) {
		errs = append(errs, fmt.Errorf("%s: %s is not a lane replayed (%s)", flag, w.Lane, strings.Join(lanes, ", ")))
	}
	var names []string
	for _, wm := range WhereMetrics {
		names = append(names, wm.Name)
	}
	if !slices.Contains(names, w.Metric) {
		errs = append(errs, fmt.Errorf("%s: unknown metric %q (want %s)", flag, w.Metric, strings.Join(names, ", ")))
	}
	text, percent := strings.CutSuffix(m[4], "%")
	want, err := strconv.ParseFloat(text, 64)
	switch {
	case err != nil || !(want >= 0) || math.IsInf(want, 0): // NaN fails >= 0
		errs = append(errs, fmt.Errorf("%s: %q is not a number at least 0 (NaN and infinities are not)", flag, m[4]))
	case percent && w.Metric != "refused_share":
		errs = append(errs, fmt.Errorf("%s: %s is a count, not a share: no %%", flag, w.Metric))
	case w.Metric == "refused_share" && (percent && want > 100 || !percent && want > 1):
		errs = append(errs, fmt.Errorf("%s: %q is more than 100%%, and a share is at most that", flag, m[4]))
	case percent:
		want /= 100
	}
	w.Want = want
	return w, errors.Join(errs...)
}

// Meets reports whether p meets w (true when w names another lane).
func (w Where) Meets(p SweepPoint) bool {
	if w.Lane != "" && w.Lane != p.Lane {
		return true
	}
	var got float64
	switch w.Metric {
	case "refused":
		got = float64(p.Refused)
	case "refused_share":
		got = p.RefusedShare
	case "keys_refused":
		got = float64(p.KeysRefused)
	case "legit_keys_caught":
		got = float64(p.LegitCaught)
	case "keys_below_p99_refused":
		got = float64(p.BelowP99Refused)
	default:
		panic("replay.Where.Meets: unknown metric " + w.Metric)
	}
	switch w.Op {
	case "<=":
		return got <= w.Want
	case "<":
		return got < w.Want
	case ">=":
		return got >= w.Want
	}
	return got > w.Want
}

// written is a flag's value as an error shows it: quoted when it holds a
// line break or another control character, so that the error stays one line.
func written(s string) string {
	if strings.ContainsFunc(s, unicode.IsControl) {
		return strconv.Quote(s)
	}
	return s
}
