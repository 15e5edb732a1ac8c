package algorithms

import "testing"

// checkAnswer checks, for each Answerer, Answer against Decide request by
// request: admitted exactly when Decide admits at once, leaving the same
// state; refused with Decide's Retry-After when Decide refuses, changing
// nothing; neither only when Decide delays, or when a request comes back in
// time (every fifth comes a window before).
func checkAnswer(t *testing.T, p Policy, reqs []request) {
	checkAnswerOf[FixedWindowState](t, "fixed window", must(NewFixedWindow(p)), p, reqs)
	checkAnswerOf[TokenBucketState](t, "token bucket", must(NewTokenBucket(p)), p, reqs)
	checkAnswerOf[GCRAState](t, "gcra", must(NewGCRA(p)), p, reqs)
}

func checkAnswerOf[S FixedWindowState | TokenBucketState | GCRAState](t *testing.T, name string, alg interface {
	Algorithm[S]
	Answerer[S]
}, p Policy, reqs []request) {
	var s, full S
	latest := int64(0)
	for i, r := range reqs {
		at := r.at
		if i%5 == 4 {
			at = max(at-p.Window, 0)
		}
		back := int64(at) < latest
		latest = max(latest, int64(at))
		before := s
		ra, admitted, refused := alg.Answer(&s, at, r.cost)
		d := alg.Decide(&full, at, r.cost)
		now := d.Verdict == Admit && d.Delay == 0
		switch {
		case admitted && refused:
			t.Fatalf("%s %+v request %d: Answer(t0+%v, cost %d) both admitted and refused", name, p, i, at, r.cost)
		case admitted != now && !(back && !admitted): // back in time, Decide may admit what Answer leaves to it
			t.Fatalf("%s %+v request %d: Answer(t0+%v, cost %d) admitted %v; Decide = %+v", name, p, i, at, r.cost, admitted, d)
		case refused && (d.Verdict != Refuse || d.RetryAfter != ra || s != before):
			t.Fatalf("%s %+v request %d: Answer(t0+%v, cost %d) = %v, refused, state %+v → %+v; Decide = %+v", name, p, i, at, r.cost, ra, before, s, d)
		case !admitted && !refused && d.Verdict == Refuse && !back:
			t.Fatalf("%s %+v request %d: Answer(t0+%v, cost %d) neither; Decide refuses: %+v", name, p, i, at, r.cost, d)
		case !admitted && !refused && s != before:
			t.Fatalf("%s %+v request %d: Answer(t0+%v, cost %d) answered nothing but changed the state", name, p, i, at, r.cost)
		}
		if s != full && (admitted || refused) {
			t.Fatalf("%s %+v request %d at t0+%v cost %d: state %+v after Answer, %+v after Decide", name, p, i, at, r.cost, s, full)
		}
		s = full // neither: Decide answered
	}
}

func TestAnswerIsDecidesVerdict(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 200
	}
	forRandomCases(t, n, checkAnswer)
}

func FuzzAnswer(f *testing.F) { fuzzProperty(f, checkAnswer) }
