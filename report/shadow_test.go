package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/sim"
)

// shadowCount counts, from the trace, the attempts a shadow would have refused,
// per lane and per lane and class.
type shadowCount map[string]int64

func (s shadowCount) Record(r *sim.TraceRecord) error {
	if r.Shadow != "" {
		s[r.Lane.Title()]++
		s[r.Lane.Title()+"/"+r.Class]++
	}
	return nil
}

// Every lane whose shadow limit would have refused something is named in one
// finding with the count its trace shows, by class; and each rule push is
// told with its time. A run without either says nothing of them.
func TestShadowAndRuleFindingsMatchTheTrace(t *testing.T) {
	for _, name := range comparisons() {
		r, _, counts := tracedBuiltin(t, name)
		findings := Findings(r)
		for _, l := range r.Lanes {
			title := l.Title()
			var found []string
			for _, f := range findings {
				if strings.Contains(f, "would have refused") && strings.Contains(f, title) {
					found = append(found, f)
				}
			}
			if counts[title] == 0 {
				if len(found) > 0 {
					t.Errorf("%s, %s: nothing was shadow-refused, yet %q", name, title, found)
				}
				continue
			}
			want := fmt.Sprintf("would have refused %d attempts", counts[title])
			if len(found) != 1 || !strings.Contains(found[0], want) {
				t.Errorf("%s, %s: the trace shows %d would-be refusals; findings %q", name, title, counts[title], found)
				continue
			}
			for _, c := range l.Classes {
				if n := counts[title+"/"+c.Name]; n > 0 && !strings.Contains(found[0], fmt.Sprintf("%s %d", c.Name, n)) {
					t.Errorf("%s, %s: class %s has %d would-be refusals in the trace; %q", name, title, c.Name, n, found[0])
				}
			}
		}
		var told int
		for _, f := range findings {
			if strings.Contains(f, "a rule push") {
				told++
			}
		}
		if told != len(r.Rules) {
			t.Errorf("%s: %d rule pushes, %d findings tell of one", name, len(r.Rules), told)
		}
		for _, ch := range r.Rules {
			at := "at t=" + FormatDuration(ch.At) + " a rule push"
			if !strings.Contains(strings.Join(findings, "\n"), at) {
				t.Errorf("%s: no finding says %q", name, at)
			}
		}
	}
}

// A peak that a shadow limit let through is over the limit, but the finding says
// the limit was a shadow then, and only then: on every built-in, the note appears
// exactly when the first limit was a shadow during the peak's window.
func TestOverLimitFindingSaysWhenTheLimitWasAShadow(t *testing.T) {
	const note = "the limit was a shadow then"
	seen := false
	for _, name := range comparisons() {
		_, r := runBuiltin(t, name, nil)
		w := peakWindow(r)
		for _, l := range r.Lanes {
			p := l.Peak
			if p.Count <= p.Limit || l.NotLimiting() {
				continue
			}
			shadow := r.ShadowDuring(0, p.Start, p.Start+w)
			seen = seen || shadow
			for _, f := range Findings(r) {
				if strings.Contains(f, l.Title()) && strings.Contains(f, fmt.Sprintf("admitted %d in the", p.Count)) &&
					strings.Contains(f, note) != shadow {
					t.Errorf("%s, %s: shadow during the peak %v, finding %q", name, l.Title(), shadow, f)
				}
			}
		}
	}
	if !seen {
		t.Error("no built-in has a peak while its limit was a shadow; the test checks nothing")
	}
}
