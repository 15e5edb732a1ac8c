package report

import (
	"strings"
	"testing"

	"github.com/rlsim/rlsim/sim"
)

// has reports whether some finding of r contains want.
func has(r sim.Result, want string) bool {
	for _, f := range Findings(r) {
		if strings.Contains(f, want) {
			return true
		}
	}
	return false
}

// One lane: retries multiplied the load from 1.5 attempts per request on.
func TestAuditRetriesOneLaneFromOneAndAHalf(t *testing.T) {
	for _, tc := range []struct {
		amp  float64
		want bool
	}{{1.5, true}, {1.49, false}} {
		r := sim.Result{Lanes: []sim.LaneResult{{Lane: sim.LaneTokenBucket, RetryAmplification: tc.amp}}}
		if got := has(r, "retries multiplied the load under"); got != tc.want {
			t.Errorf("one lane at %v attempts per request: finding %v, want %v (%q)", tc.amp, got, tc.want, Findings(r))
		}
	}
}

// Several lanes: the comparison is worth stating from a highest of 1.2 on.
func TestAuditRetriesSeveralLanesFromOnePointTwo(t *testing.T) {
	for _, tc := range []struct {
		hi   float64
		want bool
	}{{1.2, true}, {1.19, false}} {
		r := sim.Result{Lanes: []sim.LaneResult{
			{Lane: sim.LaneTokenBucket, RetryAmplification: 1},
			{Lane: sim.LaneFixedWindow, RetryAmplification: tc.hi},
		}}
		if got := has(r, "retries multiplied the load most under"); got != tc.want {
			t.Errorf("highest %v attempts per request: finding %v, want %v (%q)", tc.hi, got, tc.want, Findings(r))
		}
	}
}

// A single delayed request is worth a finding; none is not.
func TestAuditDelayedFromOne(t *testing.T) {
	for _, n := range []int64{0, 1} {
		r := sim.Result{Lanes: []sim.LaneResult{{Lane: sim.LaneLeakyBucket, Attempts: 2, Admitted: 2, Delayed: n}}}
		if got, want := has(r, "delayed 1 requests instead of refusing them"), n == 1; got != want {
			t.Errorf("%d delayed: finding %v, want %v (%q)", n, got, want, Findings(r))
		}
	}
}

// A single request left unfinished is worth a finding; none is not.
func TestAuditPendingFromOne(t *testing.T) {
	for _, n := range []int64{0, 1} {
		r := sim.Result{Lanes: []sim.LaneResult{{Lane: sim.LaneTokenBucket, Attempts: 2, Admitted: 1, Refused: 1, Pending: n}}}
		if got, want := has(r, "left 1 requests unfinished"), n == 1; got != want {
			t.Errorf("%d pending: finding %v, want %v (%q)", n, got, want, Findings(r))
		}
	}
}

// The shedding finding names the backend's latency only when it served something.
func TestAuditShedLatencyOnlyWhenServed(t *testing.T) {
	for _, served := range []int64{0, 1} {
		l := sim.LaneResult{Lane: sim.LaneTokenBucket, Attempts: 3, Admitted: 2, Shed: 1}
		l.Backend.Served = served
		r := sim.Result{Lanes: []sim.LaneResult{l}}
		if !has(r, "shed 1 attempts with 503") {
			t.Fatalf("no shed finding in %q", Findings(r))
		}
		if got, want := has(r, "the backend's p99 latency was"), served > 0; got != want {
			t.Errorf("served %d: latency clause %v, want %v (%q)", served, got, want, Findings(r))
		}
	}
	r := sim.Result{Lanes: []sim.LaneResult{{Lane: sim.LaneTokenBucket, Attempts: 3, Admitted: 3}}}
	if has(r, "shed") {
		t.Errorf("nothing shed, yet %q", Findings(r))
	}
}

// Every class refused alike: success rates less than 10 points apart, the best
// under 90%, and at least two classes that sent something.
func TestAuditRefusedAlikeBounds(t *testing.T) {
	class := func(name string, succeeded, unique int64) sim.ClassResult {
		return sim.ClassResult{Name: name, Succeeded: succeeded, Unique: unique}
	}
	for _, tc := range []struct {
		name    string
		classes []sim.ClassResult
		want    bool
	}{
		{"9 points apart", []sim.ClassResult{class("a", 0, 100), class("b", 9, 100)}, true},
		{"10 points apart", []sim.ClassResult{class("a", 0, 10), class("b", 1, 10)}, false},
		{"best at 89%", []sim.ClassResult{class("a", 89, 100), class("b", 89, 100)}, true},
		{"best at 90%", []sim.ClassResult{class("a", 9, 10), class("b", 9, 10)}, false},
		{"one class sent", []sim.ClassResult{class("a", 1, 10), class("b", 0, 0)}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := sim.Result{Lanes: []sim.LaneResult{{Lane: sim.LaneTokenBucket, Classes: tc.classes}}}
			if got := has(r, "every class was refused alike"); got != tc.want {
				t.Errorf("finding %v, want %v (%q)", got, tc.want, Findings(r))
			}
		})
	}
}

// Lanes that limited nothing: "it" for one, "they" for several, none at all
// when a lane refused, shed, delayed or dropped a single attempt.
func TestAuditLimitedNothingWording(t *testing.T) {
	free := func(k sim.LaneKind) sim.LaneResult { return sim.LaneResult{Lane: k, Attempts: 4, Admitted: 4} }
	one := sim.Result{Lanes: []sim.LaneResult{free(sim.LaneTokenBucket)}}
	if !has(one, sim.LaneTokenBucket.Title()+" limited nothing in this scenario: it admitted") {
		t.Errorf("one lane: %q", Findings(one))
	}
	three := sim.Result{Lanes: []sim.LaneResult{free(sim.LaneTokenBucket), free(sim.LaneGCRA), free(sim.LaneFixedWindow)}}
	want := sim.LaneTokenBucket.Title() + ", " + sim.LaneGCRA.Title() + " and " + sim.LaneFixedWindow.Title() + " limited nothing in this scenario: they admitted"
	if !has(three, want) {
		t.Errorf("three lanes: %q, want %q", Findings(three), want)
	}
	for name, mod := range map[string]func(*sim.LaneResult){
		"refused": func(l *sim.LaneResult) { l.Admitted, l.Refused = 3, 1 },
		"shed":    func(l *sim.LaneResult) { l.Admitted, l.Shed = 3, 1 },
		"delayed": func(l *sim.LaneResult) { l.Delayed = 1 },
		"dropped": func(l *sim.LaneResult) { l.Admitted, l.Dropped = 3, 1 },
	} {
		l := free(sim.LaneTokenBucket)
		mod(&l)
		if r := (sim.Result{Lanes: []sim.LaneResult{l}}); has(r, "limited nothing") {
			t.Errorf("one attempt %s, yet %q", name, Findings(r))
		}
	}
	if r := (sim.Result{Lanes: []sim.LaneResult{{Lane: sim.LaneTokenBucket}}}); has(r, "limited nothing") {
		t.Errorf("no attempts at all, yet %q", Findings(r))
	}
}

// Twins need two lanes of equal verdicts that sent something and limited something.
func TestAuditTwinsNeedTwoLimitingLanes(t *testing.T) {
	lane := func(k sim.LaneKind, attempts int64) sim.LaneResult {
		return sim.LaneResult{Lane: k, Attempts: attempts, Admitted: attempts / 2, Refused: attempts - attempts/2, Verdicts: 7}
	}
	r := sim.Result{Lanes: []sim.LaneResult{lane(sim.LaneTokenBucket, 4), lane(sim.LaneGCRA, 4)}}
	if !has(r, "made the same decision on every attempt (2 admitted, 2 refused)") {
		t.Errorf("two twins: %q", Findings(r))
	}
	r = sim.Result{Lanes: []sim.LaneResult{lane(sim.LaneTokenBucket, 4), lane(sim.LaneGCRA, 0)}}
	if has(r, "same decision") {
		t.Errorf("a lane without attempts called a twin: %q", Findings(r))
	}
}

// A lane is over the limit when its peak held more than the limit, not as much.
func TestAuditOverLimitStrictlyMore(t *testing.T) {
	for _, tc := range []struct {
		count int64
		want  bool
	}{{10, false}, {11, true}} {
		l := sim.LaneResult{Lane: sim.LaneFixedWindow, Attempts: 20, Admitted: 15, Refused: 5}
		l.Peak.Count, l.Peak.Limit = tc.count, 10
		r := sim.Result{Lanes: []sim.LaneResult{l}}
		if got := has(r, "admitted "); got != tc.want {
			t.Errorf("peak %d of 10: over-limit finding %v, want %v (%q)", tc.count, got, tc.want, Findings(r))
		}
	}
}

// A lane's badge: words and tone by the judgement's first rule that holds, a
// starved class appended and always bad.
func TestAuditBadgeWordsAndTone(t *testing.T) {
	starvedClasses := []sim.ClassResult{{Name: "a", Succeeded: 1, FairShare: 10}, {Name: "b", Succeeded: 19, FairShare: 10}}
	for _, tc := range []struct {
		name        string
		l           sim.LaneResult
		words, tone string
	}{
		{"no limit", sim.LaneResult{Lane: sim.LaneTokenBucket, Peak: sim.WindowPeak{Count: 5}}, "no limit", "note"},
		{"limited nothing, concurrency", sim.LaneResult{Lane: sim.LaneAIMD, Attempts: 3, Admitted: 3, Peak: sim.WindowPeak{Count: 20, Limit: 10}}, "limited nothing", "note"},
		{"concurrency over the rate", sim.LaneResult{Lane: sim.LaneAIMD, Attempts: 3, Admitted: 2, Shed: 1, Peak: sim.WindowPeak{Count: 20, Limit: 10}}, "limits concurrency", "note"},
		{"over", sim.LaneResult{Lane: sim.LaneFixedWindow, Attempts: 3, Admitted: 2, Refused: 1, Peak: sim.WindowPeak{Count: 11, Limit: 10}}, "R× the limit", "bad"},
		{"at the limit", sim.LaneResult{Lane: sim.LaneFixedWindow, Attempts: 3, Admitted: 2, Refused: 1, Peak: sim.WindowPeak{Count: 10, Limit: 10}}, "held the limit", "good"},
		{"held but starved", sim.LaneResult{Lane: sim.LaneFixedWindow, Attempts: 3, Admitted: 2, Refused: 1, Peak: sim.WindowPeak{Count: 10, Limit: 10}, Classes: starvedClasses}, "held the limit; starved a", "bad"},
	} {
		words, tone := judge(tc.l).badge("R")
		if words != tc.words || tone != tc.tone {
			t.Errorf("%s: badge %q (%s), want %q (%s)", tc.name, words, tone, tc.words, tc.tone)
		}
	}
}
