package replay

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Sweep is a --vary on a log: limit Limit's Field ("limit" or "burst") takes
// each of Values. Every value is one more limit in the same single pass.
type Sweep struct {
	Path   string // as written, limits[0].limit
	Limit  int
	Field  string
	Values []int64
	first  int // index in Options.Limits of the first value's limit
}

var sweepPath = regexp.MustCompile(`^limits\[(\d+)\]\.(limit|burst)$`)

// NewSweep reads a --vary's path and values against the limits given.
func NewSweep(path string, values []string, limits []Limit) (*Sweep, error) {
	m := sweepPath.FindStringSubmatch(path)
	if m == nil {
		return nil, fmt.Errorf("--vary %s: a replay varies limits[N].limit or limits[N].burst", written(path))
	}
	n, _ := strconv.Atoi(m[1])
	if n >= len(limits) {
		return nil, fmt.Errorf("--vary %s: there are %d --limit flags (limits[0] to limits[%d])", path, len(limits), len(limits)-1)
	}
	s := &Sweep{Path: path, Limit: n, Field: m[2]}
	for _, v := range values {
		x, err := strconv.ParseInt(v, 10, 64)
		if err != nil || x <= 0 {
			return nil, fmt.Errorf("--vary %s: %q is not a positive whole number", path, v)
		}
		s.Values = append(s.Values, x)
	}
	return s, nil
}

// Check reports, all at once, every value whose limit lanes cannot replay
// (Limit.Check), naming --vary and the value.
func (s *Sweep) Check(limits []Limit, lanes []string) error {
	var errs []error
	for i, l := range s.Expand(slices.Clone(limits))[len(limits):] {
		if err := l.Check(lanes); err != nil {
			errs = append(errs, fmt.Errorf("--vary %s: %d: %w", s.Path, s.Values[i], err))
		}
	}
	return errors.Join(errs...)
}

// Expand appends one limit per value to limits.
func (s *Sweep) Expand(limits []Limit) []Limit {
	s.first = len(limits)
	base := limits[s.Limit]
	for _, v := range s.Values {
		l := base
		if s.Field == "limit" {
			l.Policy.Limit = v
			if base.Policy.Burst == 0 {
				l.Policy.Burst = 0
			}
		} else {
			l.Policy.Burst = v
		}
		l.Name = fmt.Sprintf("%s@%s=%d", base.Name, s.Field, v)
		limits = append(limits, l)
	}
	return limits
}

// SweepPoint is one lane's would-be refusals at one value.
type SweepPoint struct {
	Value       int64  `json:"value"`
	Lane        string `json:"lane"`
	Refused     int64  `json:"refused"`
	KeysRefused int    `json:"keys_refused"`
	// BelowP99Refused: keys refused whose peak per window is at most the
	// 99th percentile of every key's peak (the bulk of ordinary keys).
	BelowP99Refused int `json:"keys_below_p99_refused"`
	// LegitCaught: legitimate-looking keys refused.
	LegitCaught int `json:"legit_keys_caught"`
	// RefusedShare is Refused over the requests replayed.
	RefusedShare float64 `json:"refused_share"`
}

// Points lists every value's lanes from r, which replayed s.Expand's limits.
func (s *Sweep) Points(r *Result) []SweepPoint {
	var pts []SweepPoint
	for i, v := range s.Values {
		l := r.Limits[s.first+i]
		for _, lane := range l.Lanes {
			share := 0.0
			if r.Requests > 0 {
				share = float64(lane.Refused) / float64(r.Requests)
			}
			pts = append(pts, SweepPoint{Value: v, Lane: lane.Lane, Refused: lane.Refused,
				KeysRefused: lane.KeysRefused, BelowP99Refused: lane.BelowP99Refused,
				LegitCaught: lane.LegitCaught, RefusedShare: share})
		}
	}
	return pts
}

// Smallest is, per lane, the smallest value whose row meets every where
// (DefaultWhere when there is none: no key below the 99th percentile of
// per-key peaks refused); 0 when none of the values does.
func Smallest(pts []SweepPoint, where []Where) map[string]int64 {
	if len(where) == 0 {
		where = []Where{DefaultWhere}
	}
	out := map[string]int64{}
	for _, p := range pts {
		if _, ok := out[p.Lane]; !ok {
			out[p.Lane] = 0
		}
		meets := true
		for _, w := range where {
			meets = meets && w.Meets(p)
		}
		if meets && (out[p.Lane] == 0 || p.Value < out[p.Lane]) {
			out[p.Lane] = p.Value
		}
	}
	return out
}

// WriteSweepText writes the sweep as a table, a row per value and lane, then
// each lane's smallest value refusing no key below the 99th percentile of peaks.
// With find false, the last part is left out.
func WriteSweepText(w io.Writer, s *Sweep, r *Result, find bool, where []Where) error {
	pts := r.Sweep
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "\n%s\tlane\twould refuse\tkeys refused\tkeys below p99 refused\t\n", s.Path)
	for _, p := range pts {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%d\t\n", p.Value, p.Lane, p.Refused, p.KeysRefused, p.BelowP99Refused)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if !find {
		return nil
	}
	smallest := r.Smallest
	if len(where) == 0 {
		fmt.Fprintf(w, "\nsmallest %s refusing no key at or below the p99 of per-key peaks:\n", s.Path)
	} else {
		var texts []string
		for _, wh := range where {
			texts = append(texts, wh.Text)
		}
		fmt.Fprintf(w, "\nsmallest %s where %s:\n", s.Path, strings.Join(texts, " and "))
	}
	for _, lane := range r.Limits[0].Lanes {
		if v := smallest[lane.Lane]; v > 0 {
			fmt.Fprintf(w, "  %s: %d\n", lane.Lane, v)
		} else {
			fmt.Fprintf(w, "  %s: none of the values\n", lane.Lane)
		}
	}
	return nil
}
