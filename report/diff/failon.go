package diff

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/rlsim/rlsim/scenarios"
)

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

// Metric is one figure a --fail-on can measure on every pair.
type Metric struct {
	Name string
	Doc  string
	of   func(*Pair) int64
}

// Metrics are the diff's own metrics, in the order the docs list them.
var Metrics = []Metric{
	{"newly_refused_keys_below_p99", "keys newly refused whose requests are at most the p99 of all keys' (a log: whose peak per window is)", func(p *Pair) int64 { return int64(p.NewlyRefusedKeysBelowP99) }},
	{"newly_refused_keys", "keys the proposed side refuses and the current one never did", func(p *Pair) int64 { return int64(p.NewlyRefusedKeys) }},
	{"newly_admitted_keys", "keys the current side refused and the proposed one never does", func(p *Pair) int64 { return int64(p.NewlyAdmittedKeys) }},
	{"newly_refused", "the sum of each key's rise in refused requests", func(p *Pair) int64 { return p.NewlyRefused }},
	{"newly_admitted", "the sum of each key's fall in refused requests", func(p *Pair) int64 { return p.NewlyAdmitted }},
	{"refused_delta", "refused requests, proposed minus current", func(p *Pair) int64 { return p.RefusedDelta }},
	{"peak_delta", "the peak in one window, proposed minus current", func(p *Pair) int64 { return p.PeakDelta }},
	{"store_calls_delta", "the store's round trips, proposed minus current", func(p *Pair) int64 { return p.StoreCallsDelta }},
}

// MetricNames are the diff's metrics and then the scenario checks' (those
// measured on the proposed side, in a scenario only).
func MetricNames() []string {
	var names []string
	for _, m := range Metrics {
		names = append(names, m.Name)
	}
	return append(names, scenarios.MetricNames()...)
}

// FailOn is one --fail-on expression, METRIC OP VALUE: the diff fails when
// it holds on any pair.
type FailOn struct {
	Text   string  `json:"expression"`
	Metric string  `json:"metric"`
	Op     string  `json:"op"`
	Value  float64 `json:"value"` // in the metric's unit (a check metric's: a share, ns, per second)
	check  bool    // a scenario check's metric, measured on the proposed side
}

var failOnSyntax = regexp.MustCompile(`^\s*([a-z0-9_]+)\s*(>=|<=|==|!=|>|<)\s*(\S+)\s*$`)

// Ops are the comparisons a --fail-on can make.
var Ops = []string{">", ">=", "<", "<=", "==", "!="}

// ParseFailOn reads METRIC OP VALUE ('newly_refused_keys_below_p99 > 0',
// 'refused_rate > 5%'); mode "log" refuses the scenario checks' metrics,
// which a log does not measure.
func ParseFailOn(s, mode string) (FailOn, error) {
	m := failOnSyntax.FindStringSubmatch(s)
	if m == nil {
		return FailOn{}, errorf("--fail-on %q: want METRIC OP VALUE, e.g. 'newly_refused_keys_below_p99 > 0' (OP one of %s)", s, strings.Join(Ops, " "))
	}
	f := FailOn{Text: strings.TrimSpace(s), Metric: m[1], Op: m[2]}
	switch {
	case slices.ContainsFunc(Metrics, func(x Metric) bool { return x.Name == f.Metric }):
		v, err := strconv.ParseInt(m[3], 10, 64)
		if err != nil {
			return FailOn{}, errorf("--fail-on %q: %s counts requests or keys: want a whole number, got %q", s, f.Metric, m[3])
		}
		f.Value = float64(v)
	case slices.Contains(scenarios.MetricNames(), f.Metric):
		if mode == "log" {
			return FailOn{}, errorf("--fail-on %q: %s is a scenario's metric; a log replayed in shadow measures only %s", s, f.Metric, strings.Join(MetricNames()[:len(Metrics)], ", "))
		}
		v, err := scenarios.ParseThreshold(scenarios.Metric(f.Metric), m[3])
		if err != nil {
			return FailOn{}, errorf("--fail-on %q: %v", s, err)
		}
		f.Value, f.check = v, true
	default:
		return FailOn{}, errorf("--fail-on %q: unknown metric %q (want %s)", s, f.Metric, strings.Join(MetricNames(), ", "))
	}
	return f, nil
}

func (f FailOn) holds(got float64) bool {
	switch f.Op {
	case ">":
		return got > f.Value
	case ">=":
		return got >= f.Value
	case "<":
		return got < f.Value
	case "<=":
		return got <= f.Value
	case "==":
		return got == f.Value
	case "!=":
		return got != f.Value
	}
	panic("diff.FailOn.holds: unknown op " + f.Op)
}

// FailResult is one --fail-on measured on every pair.
type FailResult struct {
	FailOn
	Failed bool        `json:"failed"`
	Values []PairValue `json:"values"`
}

// PairValue is a --fail-on's metric on one pair (and, for a check's metric
// measured per class, one class).
type PairValue struct {
	Where string  `json:"where"` // "lane gcra", "lane gcra, limit per_ip", "lane gcra, class users"
	Got   float64 `json:"got"`
	Shown string  `json:"shown"` // Got as the text shows it
	Holds bool    `json:"holds"`
}

// checkValue is a scenario check's metric measured on a pair's proposed lane.
type checkValue struct {
	metric string
	class  string
	got    float64
}

// evaluate measures every expression on every pair of r and counts the failures.
func (r *Report) evaluate(fs []FailOn) {
	r.FailOn = []FailResult{}
	r.Failed = 0
	for _, f := range fs {
		res := FailResult{FailOn: f, Values: []PairValue{}}
		for i := range r.Pairs {
			p := &r.Pairs[i]
			where := p.where()
			if !f.check {
				i := slices.IndexFunc(Metrics, func(m Metric) bool { return m.Name == f.Metric })
				got := Metrics[i].of(p)
				res.Values = append(res.Values, PairValue{Where: where, Got: float64(got), Shown: strconv.FormatInt(got, 10), Holds: f.holds(float64(got))})
				continue
			}
			for _, c := range p.checks {
				if c.metric != f.Metric {
					continue
				}
				w := where
				if c.class != "" {
					w += ", class " + c.class
				}
				shown := scenarios.FormatMeasure(scenarios.Check{Metric: scenarios.Metric(c.metric), Want: f.Value}, c.got)
				res.Values = append(res.Values, PairValue{Where: w, Got: c.got, Shown: shown, Holds: f.holds(c.got)})
			}
		}
		res.Failed = slices.ContainsFunc(res.Values, func(v PairValue) bool { return v.Holds })
		if res.Failed {
			r.Failed++
		}
		r.FailOn = append(r.FailOn, res)
	}
}

// where names the pair: its lanes (one name when alike) and limit.
func (p *Pair) where() string {
	w := "lane " + p.Current
	if p.Proposed != p.Current {
		w += " → " + p.Proposed
	}
	if p.Limit != "" {
		w += ", limit " + p.Limit
	}
	return w
}

// Message is the failure as a line: the expression and the values that met it.
func (f FailResult) Message() string {
	var held []string
	for _, v := range f.Values {
		if v.Holds {
			held = append(held, v.Shown+" ("+v.Where+")")
		}
	}
	if len(held) == 0 {
		return ""
	}
	return f.Metric + " " + f.Op + " " + formatValue(f.FailOn) + ": " + strings.Join(held, ", ")
}

// formatValue is the expression's value as the metric's unit writes it.
func formatValue(f FailOn) string {
	if !f.check {
		return strconv.FormatInt(int64(f.Value), 10)
	}
	return scenarios.FormatMeasure(scenarios.Check{Metric: scenarios.Metric(f.Metric), Want: f.Value}, f.Value)
}
