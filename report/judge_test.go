package report

import (
	"regexp"
	"strings"
	"testing"
)

var (
	overFinding    = regexp.MustCompile(`^(.+?) admitted \d+ in the .+ window from t=.*× the limit of \d+`)
	starvedFinding = regexp.MustCompile(`^class (.+) got under half its fair share of the successes under (.+)$`)
	starvedLane    = regexp.MustCompile(`(?:^|, | and )(.+?) \(\d+%\)`)
)

// splitList undoes list: "a, b and c" is a, b, c.
func splitList(s string) []string {
	var out []string
	if i := strings.LastIndex(s, " and "); i >= 0 {
		out = append(strings.Split(s[:i], ", "), s[i+len(" and "):])
	} else {
		out = []string{s}
	}
	return out
}

// Every lane's badge says what the findings say of it, from the same figures:
// over the limit exactly when a finding holds its busiest window against the
// limit (a concurrency lane is a note, not red), and starved exactly when a
// finding names it for a class under half its fair share. nat-per-ip once
// showed token bucket and GCRA only as "1.98× the limit" while the users got
// 17% of their fair share: starvation was judged only for lanes that held.
func TestBadgesAgreeWithFindings(t *testing.T) {
	for _, name := range comparisons() {
		t.Run(name, func(t *testing.T) {
			_, r := runBuiltin(t, name, nil)
			over := map[string]bool{}
			starvedOf := map[string]string{}
			for _, f := range Findings(r) {
				if m := overFinding.FindStringSubmatch(f); m != nil {
					for _, n := range splitList(m[1]) {
						over[n] = true
					}
				}
				if m := starvedFinding.FindStringSubmatch(f); m != nil {
					for _, lm := range starvedLane.FindAllStringSubmatch(m[2], -1) {
						starvedOf[lm[1]] = m[1]
					}
				}
			}
			for _, l := range r.Lanes {
				v := laneVerdict(r, l)
				concurrency := judge(l).Concurrency
				switch {
				case over[l.Title()] && !concurrency && !strings.Contains(v.Badge, "× the limit"):
					t.Errorf("%s: a finding says it let the limit through, yet the badge is %q", l.Title(), v.Badge)
				case !over[l.Title()] && strings.Contains(v.Badge, "× the limit"):
					t.Errorf("%s: the badge is %q, yet no finding says it let the limit through", l.Title(), v.Badge)
				case concurrency && strings.Contains(v.Badge, "× the limit"):
					t.Errorf("%s: a concurrency lane's badge is %q, against a rate it does not enforce", l.Title(), v.Badge)
				}
				want, isStarved := starvedOf[l.Title()]
				gotStarved := strings.Contains(v.Badge, "starved")
				if isStarved != gotStarved || isStarved && !strings.Contains(v.Badge, "starved "+want) {
					t.Errorf("%s: findings say starved %q (%v), yet the badge is %q", l.Title(), want, isStarved, v.Badge)
				}
				bad := (over[l.Title()] && !concurrency) || isStarved
				if bad != (v.Tone == "bad") {
					t.Errorf("%s: badge %q has tone %q, yet the findings hold against it: %v", l.Title(), v.Badge, v.Tone, bad)
				}
			}
		})
	}
}

// nat-per-ip, as issue 23 saw it: every lane that refused the users to 17% of
// their share says so, not only the lanes that held the limit.
func TestNatPerIPBadges(t *testing.T) {
	_, r := runBuiltin(t, "nat-per-ip", nil)
	got := map[string]string{}
	for _, l := range r.Lanes {
		v := laneVerdict(r, l)
		got[l.Title()] = v.Badge + " (" + v.Tone + ")"
	}
	for lane, want := range map[string]string{
		"token bucket":           "1.98× the limit; starved users (bad)",
		"GCRA":                   "1.98× the limit; starved users (bad)",
		"sliding window counter": "held the limit; starved users (bad)",
	} {
		if got[lane] != want {
			t.Errorf("%s: badge %q, want %q", lane, got[lane], want)
		}
	}
}

// The peak plot paints a bar red exactly when the badge says the lane let the
// limit through: a concurrency lane is never red against the rate. A lane is
// timed over the limit exactly when its busiest window held more than it.
func TestPeakBarsAgreeWithBadges(t *testing.T) {
	concurrencyOver := 0
	for _, name := range comparisons() {
		_, r := runBuiltin(t, name, nil)
		_, judged := peakBars(r)
		for i, l := range r.Lanes {
			v := laneVerdict(r, l)
			if red := judged[i] == barOver; red != strings.Contains(v.Badge, "× the limit") {
				t.Errorf("%s, %s: bar red %v, badge %q", name, l.Title(), red, v.Badge)
			}
			// Time over the limit and the busiest window tell the same story
			// (store-outage's sliding log once read 0.00038 s over at its limit).
			if over := l.Peak.Count > l.Peak.Limit; over != (l.TimeOverLimit > 0) {
				t.Errorf("%s, %s: %d in the busiest window against %d, yet %v over the limit", name, l.Title(), l.Peak.Count, l.Peak.Limit, l.TimeOverLimit)
			}
			if j := judge(l); j.Concurrency && !j.NotLimiting && l.Peak.Count > l.Peak.Limit {
				concurrencyOver++
			}
		}
	}
	if concurrencyOver == 0 {
		t.Error("no built-in has a concurrency lane over the rate: the test needs one")
	}
}
