package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// classGaps reports the classes that got under half their fair share of a
// lane's successes, naming the lanes, and the first lane that refused every
// class alike.
func classGaps(r sim.Result) []string {
	if len(classNames(r)) < 2 {
		return nil
	}
	var out []string
	starvedIn := map[string][]string{}
	var order []string
	for _, l := range r.Lanes {
		j := judge(l)
		if !j.Starved {
			continue
		}
		s := j.Class
		if starvedIn[s.Name] == nil {
			order = append(order, s.Name)
		}
		starvedIn[s.Name] = append(starvedIn[s.Name], fmt.Sprintf("%s (%s)", l.Title(), percentF(float64(s.Succeeded)/s.FairShare)))
	}
	for _, name := range order {
		out = append(out, fmt.Sprintf("class %s got under half its fair share of the successes under %s",
			scenarios.Escape(name), list(starvedIn[name])))
	}
	for _, l := range r.Lanes {
		lo, hi := math.Inf(1), math.Inf(-1)
		var parts []string
		for _, c := range l.Classes {
			if c.Unique == 0 {
				continue
			}
			f := float64(c.Succeeded) / float64(c.Unique)
			lo, hi = min(lo, f), max(hi, f)
			parts = append(parts, fmt.Sprintf("%s %s", scenarios.Escape(c.Name), percent(c.Succeeded, c.Unique)))
		}
		if len(parts) >= 2 && hi-lo < 0.1 && hi < 0.9 {
			out = append(out, fmt.Sprintf("under %s, every class was refused alike: %s succeeded", l.Title(), strings.Join(parts, ", ")))
			break
		}
	}
	return out
}

// starved is the class that got the smallest part of its fair share of the
// lane's successes, if that part is under half: the clients a limit exists to
// protect, paying for others.
func starved(l sim.LaneResult) (sim.ClassResult, bool) {
	if len(l.Classes) < 2 {
		return sim.ClassResult{}, false
	}
	var worst sim.ClassResult
	least := math.Inf(1)
	for _, c := range l.Classes {
		if c.FairShare > 0 {
			if part := float64(c.Succeeded) / c.FairShare; part < least {
				least, worst = part, c
			}
		}
	}
	return worst, least < 0.5
}

// starvedSentence says how far below its fair share class s was served under l,
// next to the best-served class.
func starvedSentence(l sim.LaneResult, s sim.ClassResult) string {
	best := s
	for _, c := range l.Classes {
		if c.Unique > 0 && fraction(c.Succeeded, c.Unique) > fraction(best.Succeeded, best.Unique) {
			best = c
		}
	}
	return fmt.Sprintf("class %s got %s of its fair share of the successes: %s of its requests succeeded, against %s for %s",
		scenarios.Escape(s.Name), percentF(float64(s.Succeeded)/s.FairShare), percent(s.Succeeded, s.Unique),
		percent(best.Succeeded, best.Unique), scenarios.Escape(best.Name))
}

func percentF(f float64) string { return strconv.FormatFloat(100*f, 'f', 0, 64) + "%" }
