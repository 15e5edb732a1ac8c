package algorithms

import (
	"testing"
	"time"
)

// checkRefusal checks, for each Refuser, that Refusal changes nothing and,
// when it reports a refusal, that Decide refuses with the same RetryAfter and
// changes nothing either; and that on traffic whose time never goes back it
// reports every refusal Decide makes.
func checkRefusal(t *testing.T, p Policy, reqs []request) {
	checkRefusalOf[FixedWindowState](t, "fixed window", must(NewFixedWindow(p)), p, reqs)
	checkRefusalOf[TokenBucketState](t, "token bucket", must(NewTokenBucket(p)), p, reqs)
	checkRefusalOf[GCRAState](t, "gcra", must(NewGCRA(p)), p, reqs)
}

func checkRefusalOf[S FixedWindowState | TokenBucketState | GCRAState](t *testing.T, name string, alg interface {
	Algorithm[S]
	Refuser[S]
}, p Policy, reqs []request) {
	var s S
	latest := time.Duration(0)
	for i, r := range reqs {
		at := r.at
		if i%5 == 4 {
			at = max(at-p.Window, 0) // back in time
		}
		back := at < latest
		latest = max(latest, at)
		before := s
		ra, refused := alg.Refusal(&s, at, r.cost)
		if s != before {
			t.Fatalf("%s %+v request %d: Refusal(t0+%v, cost %d) changed the state from %+v to %+v", name, p, i, at, r.cost, before, s)
		}
		d := alg.Decide(&s, at, r.cost)
		switch {
		case refused && (d.Verdict != Refuse || d.RetryAfter != ra):
			t.Fatalf("%s %+v request %d: Refusal(t0+%v, cost %d) = %v, true; Decide = %+v", name, p, i, at, r.cost, ra, d)
		case refused && s != before:
			t.Fatalf("%s %+v request %d: Decide changed the state of a refusal Refusal saw, from %+v to %+v", name, p, i, before, s)
		case !refused && d.Verdict == Refuse && !back:
			t.Fatalf("%s %+v request %d: Refusal(t0+%v, cost %d) = false; Decide = %+v", name, p, i, at, r.cost, d)
		}
	}
}

func TestRefusalIsDecidesRefusal(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 200
	}
	forRandomCases(t, n, checkRefusal)
}

func FuzzRefusal(f *testing.F) { fuzzProperty(f, checkRefusal) }
