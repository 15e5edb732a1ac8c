package report

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// Findings reads a comparison in plain words: what an engineer would point out
// first. Each finding names the lanes it is about and the numbers behind it.
func Findings(r sim.Result) []string {
	var out []string
	out = append(out, ruleFindings(r)...)
	out = append(out, shadowFindings(r)...)
	out = append(out, concurrencyFindings(r)...)
	out = append(out, overLimit(r)...)
	out = append(out, twins(r)...)
	out = append(out, limitedNothingFinding(r)...)
	for _, l := range r.Lanes {
		if l.Delayed > 0 {
			out = append(out, fmt.Sprintf("%s delayed %d requests instead of refusing them (p99 wait %s, longest %s)",
				l.Title(), l.Delayed, FormatDuration(l.Delay.P99), FormatDuration(l.Delay.Max)))
		}
	}
	for _, l := range r.Lanes {
		if l.Dropped > 0 {
			out = append(out, fmt.Sprintf("%s dropped %d of %d attempts inside the clients, so the server saw %d",
				l.Title(), l.Dropped, l.Attempts, l.Attempts-l.Dropped))
		}
	}
	out = append(out, retries(r)...)
	out = append(out, shedding(r)...)
	out = append(out, sheddingFindings(r)...)
	out = append(out, partitionFindings(r)...)
	out = append(out, timeFindings(r)...)
	out = append(out, classGaps(r)...)
	for _, l := range r.Lanes {
		if l.Pending > 0 {
			out = append(out, fmt.Sprintf("%s left %d requests unfinished when the run ended", l.Title(), l.Pending))
		}
	}
	return out
}

// overLimit reports every lane whose busiest window held more than the limit,
// worst first, grouping lanes whose peaks are the same.
func overLimit(r sim.Result) []string {
	var over []sim.LaneResult
	for _, l := range r.Lanes {
		if judge(l).Over {
			over = append(over, l)
		}
	}
	slices.SortStableFunc(over, func(a, b sim.LaneResult) int {
		return -cmpFloat(a.Peak.Ratio, b.Peak.Ratio)
	})
	var out []string
	for len(over) > 0 {
		over0 := over[0]
		p := over0.Peak
		var names []string
		rest := over[:0:0]
		for _, l := range over {
			if l.Peak.Count == p.Count && l.Peak.Start == p.Start && l.Peak.End == p.End && l.Peak.Limit == p.Limit && l.LimitedNothing() == over0.LimitedNothing() {
				names = append(names, l.Title())
			} else {
				rest = append(rest, l)
			}
		}
		over = rest
		key := ""
		if p.Key != "" {
			key = fmt.Sprintf(" (key %s)", scenarios.Escape(p.Key))
		}
		note := "" // a concurrency lane is never over the rate (sim.LaneResult.Over)
		if over0.LimitedNothing() {
			note += ", refusing nothing"
		}
		if r.ShadowDuring(0, p.Start, p.End) {
			note += "; the limit was a shadow then, refusing nothing"
		}
		out = append(out, fmt.Sprintf("%s admitted %d in the %s window from t=%s%s: %s× the limit of %d%s",
			list(names), p.Count, FormatDuration(p.End-p.Start), FormatDuration(p.Start), key, sim.RatioText(p.Count, p.Limit, false), p.Limit, note))
	}
	return out
}

// peakWindow is the window the peaks are measured over: the first limit's.
func peakWindow(r sim.Result) time.Duration {
	if len(r.Limits) > 0 {
		return r.Limits[0].Policy.Window
	}
	return 0
}

// twins reports lanes that made the same decision on every attempt, such as
// token bucket and GCRA: equal totals are not enough, their verdict hashes must
// match. Lanes that limited nothing are left to limitedNothingFinding.
func twins(r sim.Result) []string {
	groups := map[uint64][]sim.LaneResult{}
	var order []uint64
	for _, l := range r.Lanes {
		if l.Attempts == 0 || l.LimitedNothing() {
			continue
		}
		if groups[l.Verdicts] == nil {
			order = append(order, l.Verdicts)
		}
		groups[l.Verdicts] = append(groups[l.Verdicts], l)
	}
	var out []string
	for _, v := range order {
		lanes := groups[v]
		if len(lanes) < 2 {
			continue
		}
		var names []string
		for _, l := range lanes {
			names = append(names, l.Title())
		}
		out = append(out, fmt.Sprintf("%s made the same decision on every attempt (%d admitted, %d refused)",
			list(names), lanes[0].Admitted, lanes[0].Refused))
	}
	return out
}

// limitedNothingFinding names the lanes that admitted every attempt at once: in
// this scenario they limit nothing, whatever their peak says.
func limitedNothingFinding(r sim.Result) []string {
	var names []string
	for _, l := range r.Lanes {
		if l.LimitedNothing() {
			names = append(names, l.Title())
		}
	}
	switch len(names) {
	case 0:
		return nil
	case 1:
		return []string{fmt.Sprintf("%s limited nothing in this scenario: it admitted every attempt at once", names[0])}
	}
	return []string{fmt.Sprintf("%s limited nothing in this scenario: they admitted every attempt at once", list(names))}
}

// retries compares the retry amplification of the lanes when it differs enough to matter.
func retries(r sim.Result) []string {
	if len(r.Lanes) < 2 {
		if len(r.Lanes) == 1 && r.Lanes[0].RetryAmplification >= 1.5 {
			l := r.Lanes[0]
			return []string{fmt.Sprintf("retries multiplied the load under %s: %s attempts per request", l.Title(), trimFloat(l.RetryAmplification, 2))}
		}
		return nil
	}
	hi, lo := r.Lanes[0], r.Lanes[0]
	for _, l := range r.Lanes[1:] {
		if l.RetryAmplification > hi.RetryAmplification {
			hi = l
		}
		if l.RetryAmplification < lo.RetryAmplification {
			lo = l
		}
	}
	if hi.RetryAmplification < 1.2 {
		return nil
	}
	if trimFloat(hi.RetryAmplification, 2) == trimFloat(lo.RetryAmplification, 2) {
		// No lane stands out: one sentence of them all, not one lane named
		// both the most and the least.
		return []string{fmt.Sprintf("retries multiplied the load alike under every lane: %s attempts per request",
			trimFloat(hi.RetryAmplification, 2))}
	}
	return []string{fmt.Sprintf("retries multiplied the load most under %s (%s attempts per request, %s) and least under %s (%s, %s)",
		hi.Title(), trimFloat(hi.RetryAmplification, 2), doneAt(hi, "all done"),
		lo.Title(), trimFloat(lo.RetryAmplification, 2), doneAt(lo, "done"))}
}

// doneAt says when l's last request succeeded or gave up, or how many were
// still unfinished when the run ended: then nothing was all done.
func doneAt(l sim.LaneResult, done string) string {
	if l.Pending > 0 {
		return fmt.Sprintf("%d unfinished at the end", l.Pending)
	}
	return done + " at t=" + FormatDuration(l.AllDoneAt)
}

// shedding reports the lanes that answered 503, with the backend latency they left.
func shedding(r sim.Result) []string {
	var out []string
	for _, l := range r.Lanes {
		if l.Shed == 0 {
			continue
		}
		s := fmt.Sprintf("%s shed %d attempts with 503", l.Title(), l.Shed) + noHealthyShare(l)
		if l.Backend.Served > 0 {
			s += fmt.Sprintf("; the backend's p99 latency was %s", FormatDuration(l.Backend.Latency.P99))
		}
		out = append(out, s)
	}
	return out
}

// list joins names as "a", "a and b" or "a, b and c".
func list(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
