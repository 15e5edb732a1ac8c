// Package diff compares two configs of the same limits on the same traffic:
// a current one and a proposed one (a pull request's), each a product's
// config or a scenario file, run on a scenario's clients (Scenario) or a
// log's requests in shadow (Log). It says who the proposal newly refuses
// and newly admits, by key and by client class, how the peak and the store
// calls change, and measures the --fail-on expressions that gate a CI job
// (FailOn), written as text, JSON or JUnit XML.
//
// Everything is a pure function of its inputs: the same files give the same
// bytes, whatever the order the lanes ran in.
package diff

import (
	"cmp"
	"maps"
	"slices"
	"strings"
)

// Version is the JSON document's version: it changes only when a field
// changes meaning or goes; fields may be added.
const Version = 1

// Report is one diff: the sides, what they ran on, and each pair of lanes
// (and, for a log, of limits) compared.
type Report struct {
	Version  int    `json:"version"`
	Mode     string `json:"mode"` // "scenario" or "log"
	Current  Label  `json:"current"`
	Proposed Label  `json:"proposed"`
	// On is what both sides ran on: the scenario's name, or the logs.
	On string `json:"on"`
	// Requests is the log's requests replayed (Mode log), or 0.
	Requests int64  `json:"requests,omitempty"`
	Pairs    []Pair `json:"pairs"`
	// Unpaired names the lanes (and limits) of one side only, compared with
	// nothing.
	Unpaired []string `json:"unpaired"`
	// Notes say how a side was read where it is not as written: a product
	// lane a log cannot replay, replayed as the lane that decides as it does.
	Notes  []string     `json:"notes"`
	FailOn []FailResult `json:"fail_on"`
	Failed int          `json:"failed"` // how many FailOn failed
}

// Label names one side: the file as given and what it was read as.
type Label struct {
	Arg  string `json:"arg"`
	Kind string `json:"kind"` // "scenario", or the product whose config it is (nginx, envoy, ...)
}

func (l Label) String() string { return l.Arg + " (" + l.Kind + ")" }

// Pair is one lane of the current side compared with one of the proposed
// side (and, Mode log, one limit with one). Requests here are, in a scenario,
// a key's unique requests that a limit answered (first attempts admitted,
// delayed, refused or dropped); in a log, a key's peak requests in one window
// of the limit (replay's measure), so P99 is the p99 of that.
type Pair struct {
	Current  string `json:"current_lane"`
	Proposed string `json:"proposed_lane"`
	Limit    string `json:"limit,omitempty"` // Mode log: the limits compared, "a" or "a → b"

	RefusedCurrent  int64 `json:"refused_current"`
	RefusedProposed int64 `json:"refused_proposed"`
	RefusedDelta    int64 `json:"refused_delta"`
	// NewlyRefused is the sum over keys of each key's rise in refusals;
	// NewlyAdmitted of each key's fall.
	NewlyRefused  int64 `json:"newly_refused"`
	NewlyAdmitted int64 `json:"newly_admitted"`
	// KeysRefused are the keys refused at least once, each side.
	KeysRefusedCurrent  int `json:"keys_refused_current"`
	KeysRefusedProposed int `json:"keys_refused_proposed"`
	// NewlyRefusedKeys are keys refused by the proposed side and never by
	// the current one; NewlyAdmittedKeys the other way round.
	NewlyRefusedKeys  int `json:"newly_refused_keys"`
	NewlyAdmittedKeys int `json:"newly_admitted_keys"`
	// P99 is the nearest-rank p99 of the keys' requests on the proposed
	// side; NewlyRefusedKeysBelowP99 the newly refused keys whose requests
	// are at most P99: ordinary keys, not the heaviest hundredth.
	P99                      int64 `json:"requests_p99"`
	NewlyRefusedKeysBelowP99 int   `json:"newly_refused_keys_below_p99"`
	// Peak is, in a scenario, the most admitted in any window of the first
	// limit's length for one key (sim's exact peak); in a log, the most any
	// key sent in one window of the limit.
	PeakCurrent  int64 `json:"peak_current"`
	PeakProposed int64 `json:"peak_proposed"`
	PeakDelta    int64 `json:"peak_delta"`
	// StoreCalls are the round trips to a topology's store (0 without one).
	StoreCallsCurrent  int64 `json:"store_calls_current"`
	StoreCallsProposed int64 `json:"store_calls_proposed"`
	StoreCallsDelta    int64 `json:"store_calls_delta"`

	Classes []ClassDiff `json:"classes"` // Mode scenario: per client class, by name
	// TopRefused are the keys whose refusals rose most (at most Top, by rise,
	// then key); TopAdmitted those whose refusals fell most.
	TopRefused  []KeyDiff `json:"top_newly_refused"`
	TopAdmitted []KeyDiff `json:"top_newly_admitted"`

	checks []checkValue // the scenario checks' metrics on the proposed lane
}

// ClassDiff is one client class's part of a pair: its keys' changes, each
// (key, class) counted on its own.
type ClassDiff struct {
	Class             string `json:"class"`
	RefusedCurrent    int64  `json:"refused_current"`
	RefusedProposed   int64  `json:"refused_proposed"`
	NewlyRefused      int64  `json:"newly_refused"`
	NewlyAdmitted     int64  `json:"newly_admitted"`
	NewlyRefusedKeys  int    `json:"newly_refused_keys"`
	NewlyAdmittedKeys int    `json:"newly_admitted_keys"`
}

// KeyDiff is one key's refusals on each side, with its requests on the
// proposed side (on the current side for a key the proposal admits) and
// its classes.
type KeyDiff struct {
	Key             string `json:"key"`
	Classes         string `json:"classes,omitempty"` // the classes sending under the key, joined by +
	Requests        int64  `json:"requests"`
	RefusedCurrent  int64  `json:"refused_current"`
	RefusedProposed int64  `json:"refused_proposed"`
	BelowP99        bool   `json:"below_p99"`
}

// unit is one key of one class: what the sides' counts are kept by.
type unit struct{ key, class string }

// figures are a unit's requests (see Pair) and refusals on one side.
type figures struct{ requests, refused int64 }

// keyFigures are one side's figures of one lane (and limit).
type keyFigures map[unit]figures

// compare fills p's key and class figures from the sides' counts: p99 is
// the proposed side's p99 of requests per key, and top how many keys each
// top list holds.
func compare(p *Pair, cur, prop keyFigures, p99 int64, top int) {
	type key struct {
		cur, prop figures
		classes   []string
	}
	keys := map[string]*key{}
	classes := map[string]*ClassDiff{}
	for _, side := range []struct {
		figs     keyFigures
		proposed bool
	}{{cur, false}, {prop, true}} {
		for u, f := range side.figs {
			k := keys[u.key]
			if k == nil {
				k = &key{}
				keys[u.key] = k
			}
			if u.class != "" && !slices.Contains(k.classes, u.class) {
				k.classes = append(k.classes, u.class)
			}
			if u.class != "" && classes[u.class] == nil {
				classes[u.class] = &ClassDiff{Class: u.class}
			}
			if side.proposed {
				k.prop.requests += f.requests
				k.prop.refused += f.refused
			} else {
				k.cur.requests += f.requests
				k.cur.refused += f.refused
			}
		}
	}
	// Classes: each (key, class) on its own.
	for u := range unionUnits(cur, prop) {
		if u.class == "" {
			continue
		}
		c, rc, rp := classes[u.class], cur[u].refused, prop[u].refused
		c.RefusedCurrent += rc
		c.RefusedProposed += rp
		c.NewlyRefused += max(0, rp-rc)
		c.NewlyAdmitted += max(0, rc-rp)
		if rc == 0 && rp > 0 {
			c.NewlyRefusedKeys++
		}
		if rc > 0 && rp == 0 {
			c.NewlyAdmittedKeys++
		}
	}
	p.Classes = []ClassDiff{}
	for _, name := range slices.Sorted(maps.Keys(classes)) {
		p.Classes = append(p.Classes, *classes[name])
	}
	p.P99 = p99
	var up, down []KeyDiff
	for name, k := range keys {
		rc, rp := k.cur.refused, k.prop.refused
		p.RefusedCurrent += rc
		p.RefusedProposed += rp
		p.NewlyRefused += max(0, rp-rc)
		p.NewlyAdmitted += max(0, rc-rp)
		if rc > 0 {
			p.KeysRefusedCurrent++
		}
		if rp > 0 {
			p.KeysRefusedProposed++
		}
		slices.Sort(k.classes)
		kd := KeyDiff{Key: name, Classes: strings.Join(k.classes, "+"), Requests: k.prop.requests,
			RefusedCurrent: rc, RefusedProposed: rp}
		if rp == 0 {
			kd.Requests = k.cur.requests
		}
		kd.BelowP99 = kd.Requests <= p99
		switch {
		case rc == 0 && rp > 0:
			p.NewlyRefusedKeys++
			if kd.BelowP99 {
				p.NewlyRefusedKeysBelowP99++
			}
		case rc > 0 && rp == 0:
			p.NewlyAdmittedKeys++
		}
		switch {
		case rp > rc:
			up = append(up, kd)
		case rp < rc:
			down = append(down, kd)
		}
	}
	p.RefusedDelta = p.RefusedProposed - p.RefusedCurrent
	byChange := func(a, b KeyDiff) int {
		da, db := abs(a.RefusedProposed-a.RefusedCurrent), abs(b.RefusedProposed-b.RefusedCurrent)
		return cmp.Or(cmp.Compare(db, da), cmp.Compare(a.Key, b.Key))
	}
	slices.SortFunc(up, byChange)
	slices.SortFunc(down, byChange)
	p.TopRefused = append([]KeyDiff{}, up[:min(len(up), top)]...)
	p.TopAdmitted = append([]KeyDiff{}, down[:min(len(down), top)]...)
}

func unionUnits(a, b keyFigures) map[unit]bool {
	all := map[unit]bool{}
	for u := range a {
		all[u] = true
	}
	for u := range b {
		all[u] = true
	}
	return all
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// p99 is the nearest-rank 99th percentile of the keys' requests (a key is
// the sum of its classes' units), 0 for none: the ⌈0.99·n⌉-th smallest.
func p99(figs keyFigures) int64 {
	perKey := map[string]int64{}
	for u, f := range figs {
		perKey[u.key] += f.requests
	}
	if len(perKey) == 0 {
		return 0
	}
	reqs := slices.Sorted(maps.Values(perKey))
	rank := (99*len(reqs) + 99) / 100 // ⌈0.99·n⌉, n ≥ 1
	return reqs[rank-1]
}

// pairNames pairs the lanes (or limits) of the two sides: pick "A=B" pairs A
// of the current side with B of the proposed one, pick "A" the two named A;
// with no pick, one each are paired whatever their names, and otherwise
// the names both sides have, in the current side's order. Unpaired are
// the names of one side only.
func pairNames(cur, prop []string, pick, what string) (pairs [][2]string, unpaired []string, err error) {
	if pick != "" {
		a, b, ok := strings.Cut(pick, "=")
		if !ok {
			b = a
		}
		var errs []string
		if !slices.Contains(cur, a) {
			errs = append(errs, "the current side has no "+what+" "+a+" ("+strings.Join(cur, ", ")+")")
		}
		if !slices.Contains(prop, b) {
			errs = append(errs, "the proposed side has no "+what+" "+b+" ("+strings.Join(prop, ", ")+")")
		}
		if len(errs) > 0 {
			return nil, nil, errorf("%s", strings.Join(errs, "; "))
		}
		return [][2]string{{a, b}}, nil, nil
	}
	if len(cur) == 1 && len(prop) == 1 {
		return [][2]string{{cur[0], prop[0]}}, nil, nil
	}
	for _, a := range cur {
		if slices.Contains(prop, a) {
			pairs = append(pairs, [2]string{a, a})
		} else {
			unpaired = append(unpaired, "current "+what+" "+a)
		}
	}
	for _, b := range prop {
		if !slices.Contains(cur, b) {
			unpaired = append(unpaired, "proposed "+what+" "+b)
		}
	}
	if len(pairs) == 0 {
		hint := "--lane CURRENT=PROPOSED pairs two"
		if what != "lane" {
			hint = "give them the same name on both sides"
		}
		return nil, nil, errorf("no %s of the same name on both sides (current: %s; proposed: %s): %s",
			what, strings.Join(cur, ", "), strings.Join(prop, ", "), hint)
	}
	return pairs, unpaired, nil
}
