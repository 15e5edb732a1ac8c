package scenarios

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/rlsim/rlsim/contention"
	"github.com/rlsim/rlsim/sim"
)

// runBuiltinResult runs a built-in as it ships.
func runBuiltinResult(t *testing.T, name string) (*Scenario, sim.Result) {
	t.Helper()
	s, err := LoadBuiltin(name)
	if err != nil {
		t.Fatal(err)
	}
	r, err := sim.Run(context.Background(), *s.Config, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s, r
}

// lanesOf runs a built-in and returns its lanes by kind.
func lanesOf(t *testing.T, name string) map[sim.LaneKind]sim.LaneResult {
	t.Helper()
	_, r := runBuiltinResult(t, name)
	lanes := map[sim.LaneKind]sim.LaneResult{}
	for _, l := range r.Lanes {
		lanes[l.Lane] = l
	}
	return lanes
}

func success(c sim.ClassResult) float64 { return float64(c.Succeeded) / float64(c.Unique) }

func class(l sim.LaneResult, name string) sim.ClassResult {
	for _, c := range l.Classes {
		if c.Name == name {
			return c
		}
	}
	return sim.ClassResult{}
}

// limitsNothing is true of a lane that admitted every attempt at once.
func limitsNothing(l sim.LaneResult) bool {
	return l.Admitted == l.Attempts && l.Refused+l.Shed+l.Delayed+l.Dropped == 0
}

// Each built-in is written to make one point; these tests hold it to that point,
// so a change to the simulator or to a scenario file cannot quietly blur it.
func TestBuiltinsMakeTheirPoint(t *testing.T) {
	for _, tc := range []struct {
		name  string
		point string
		holds func(map[sim.LaneKind]sim.LaneResult) bool
	}{
		{"demo", "the lanes disagree: at least six different (admitted, refused) outcomes among the eight",
			func(l map[sim.LaneKind]sim.LaneResult) bool {
				seen := map[[2]int64]bool{}
				for _, lane := range l {
					seen[[2]int64{lane.Admitted, lane.Refused}] = true
				}
				return len(l) == 8 && len(seen) >= 6
			}},
		{"boundary-burst", "the fixed window admits twice its limit in one window, the sliding log never more than it",
			func(l map[sim.LaneKind]sim.LaneResult) bool {
				return l[sim.LaneFixedWindow].Peak.Ratio == 2 && l[sim.LaneSlidingLog].Peak.Ratio == 1
			}},
		{"idle-then-burst", "the strict lanes refuse about half of the bursts",
			func(l map[sim.LaneKind]sim.LaneResult) bool {
				sl := l[sim.LaneSlidingLog]
				return sl.Refused*3 >= sl.Attempts && sl.Refused*3 <= 2*sl.Attempts
			}},
		{"steady-overload", "the rate lanes settle at the limit while AIMD admits everything",
			func(l map[sim.LaneKind]sim.LaneResult) bool {
				return l[sim.LaneAIMD].Admitted == l[sim.LaneAIMD].Attempts && l[sim.LaneSlidingLog].Admitted*2 < l[sim.LaneSlidingLog].Attempts
			}},
		{"nat-per-ip", "the users get under half their fair share on every lane that limits, and most lanes serve the abuser better",
			func(l map[sim.LaneKind]sim.LaneResult) bool {
				limiting, worse := 0, 0
				for _, lane := range l {
					if limitsNothing(lane) {
						continue
					}
					limiting++
					users, abuser := class(lane, "users"), class(lane, "abuser")
					if float64(users.Succeeded) >= users.FairShare/2 {
						return false
					}
					if success(users) < success(abuser) {
						worse++
					}
				}
				return limiting > 0 && 2*worse > limiting
			}},
		{"nat-per-user", "only the abuser is refused",
			func(l map[sim.LaneKind]sim.LaneResult) bool {
				sl := l[sim.LaneSlidingLog]
				return success(class(sl, "users")) == 1 && success(class(sl, "abuser")) < 0.2
			}},
		{"noisy-neighbour", "on every lane that limits, the quiet tenants are refused about as often as the noisy one (within 10 points) and get under half their fair share",
			func(l map[sim.LaneKind]sim.LaneResult) bool {
				limiting := 0
				for _, lane := range l {
					if limitsNothing(lane) {
						continue
					}
					limiting++
					quiet, noisy := class(lane, "quiet"), class(lane, "noisy")
					if math.Abs(success(quiet)-success(noisy)) > 0.1 || float64(quiet.Succeeded) >= quiet.FairShare/2 {
						return false
					}
				}
				return limiting > 0
			}},
		{"downstream-slowdown", "a concurrency limit sheds instead of queueing, so its p99 latency stays under a third of every rate limit's",
			func(l map[sim.LaneKind]sim.LaneResult) bool {
				return concurrencyBeatsRate(l)
			}},
		{"quota-pacing", "the pacers make under a third of the hitters' attempts, are never refused, and get at least as many requests through",
			func(l map[sim.LaneKind]sim.LaneResult) bool {
				for _, lane := range l {
					p, h := class(lane, "pacers"), class(lane, "hitters")
					if p.Attempts*3 >= h.Attempts || p.Refused != 0 || p.Succeeded < h.Succeeded {
						return false
					}
				}
				return len(l) == 5
			}},
		{"client-throttling-overload", "the throttle drops in the clients and the server refuses far less",
			func(l map[sim.LaneKind]sim.LaneResult) bool {
				th, tb := l[sim.LaneClientThrottle], l[sim.LaneTokenBucket]
				return th.Dropped > 0 && th.Refused*5 < tb.Refused
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !tc.holds(lanesOf(t, tc.name)) {
				t.Errorf("%s no longer shows that %s", tc.name, tc.point)
			}
		})
	}
}

// The retry storms differ only in jitter: without it the synchronised waves
// overflow the backend's queue, so more attempts are shed and the last request
// finishes later than with any jitter.
func TestJitterCalmsTheRetryStorm(t *testing.T) {
	none := lanesOf(t, "retry-storm-no-jitter")[sim.LaneFixedWindow]
	for _, jitter := range []string{"full", "equal", "decorrelated"} {
		l := lanesOf(t, "retry-storm-"+jitter+"-jitter")[sim.LaneFixedWindow]
		if l.Shed >= none.Shed || l.AllDoneAt >= none.AllDoneAt {
			t.Errorf("%s jitter: %d shed, all done at %v; no jitter: %d shed, done at %v; want fewer and sooner",
				jitter, l.Shed, l.AllDoneAt, none.Shed, none.AllDoneAt)
		}
	}
	// retry-storm-equal-jitter's description: more shed than full, far fewer than none.
	full := lanesOf(t, "retry-storm-full-jitter")[sim.LaneFixedWindow]
	equal := lanesOf(t, "retry-storm-equal-jitter")[sim.LaneFixedWindow]
	if equal.Shed <= full.Shed || 2*equal.Shed >= none.Shed {
		t.Errorf("equal jitter shed %d; full %d, none %d: want more than full and under half of none", equal.Shed, full.Shed, none.Shed)
	}
}

// In the contention study no jitter makes the most write calls at every size from
// 50 clients, beyond run-to-run spread.
func TestContentionStudyShowsJitterWins(t *testing.T) {
	s, err := LoadBuiltin("backoff-contention")
	if err != nil {
		t.Fatal(err)
	}
	r, err := contention.Run(context.Background(), *s.Contention)
	if err != nil {
		t.Fatal(err)
	}
	none := map[int]contention.Row{}
	for _, row := range r.Rows {
		if row.Jitter == sim.JitterNone {
			none[row.Clients] = row
		}
	}
	for _, row := range r.Rows {
		n := none[row.Clients]
		if row.Jitter != sim.JitterNone && row.Clients >= 50 && (row.Calls >= n.Calls || !row.Separated(n)) {
			t.Errorf("%d clients: %v jitter made %.0f calls (95%% %.0f–%.0f), no jitter %.0f (%.0f–%.0f): want fewer beyond spread",
				row.Clients, row.Jitter, row.Calls, row.CallsLow, row.CallsHigh, n.Calls, n.CallsLow, n.CallsHigh)
		}
	}
}

// noisy-neighbour refuses every tenant at about the same rate, so an index of
// success fractions read 1.00 on every lane while the quiet tenants got under
// half of what they were owed; fairness against fair shares sees it, by client
// and by class, and agrees with the classes' own figures.
func TestFairnessSeesTheStarvedTenant(t *testing.T) {
	for _, l := range lanesOf(t, "noisy-neighbour") {
		if limitsNothing(l) {
			if l.Fairness != 1 || l.ClassFairness != 1 {
				t.Errorf("%s limited nothing; fairness %v, class fairness %v, want 1", l.Lane.Title(), l.Fairness, l.ClassFairness)
			}
			continue
		}
		var sum, sumSq float64
		for _, c := range l.Classes {
			x := float64(c.Succeeded) / c.FairShare
			sum, sumSq = sum+x, sumSq+x*x
		}
		want := sum * sum / (float64(len(l.Classes)) * sumSq)
		if math.Abs(l.ClassFairness-want) > 1e-9 || l.ClassFairness >= 0.9 || l.Fairness >= 0.9 {
			t.Errorf("%s: fairness %.2f by client, %.2f by class (the classes' figures give %.2f); want both under 0.9",
				l.Lane.Title(), l.Fairness, l.ClassFairness, want)
		}
	}
}

type firstEvents struct{ drop, answer time.Duration }

func (f *firstEvents) Record(r *sim.TraceRecord) error {
	if r.Lane != sim.LaneClientThrottle {
		return nil
	}
	switch r.Event {
	case sim.TraceDrop:
		f.drop = min(f.drop, r.At)
	case sim.TraceRefuse, sim.TraceShed:
		f.answer = min(f.answer, r.At)
	}
	return nil
}

// The demo's throttling clients see no refusal before the first boundary burst,
// so they have no reason to drop anything before it: the throttle counts a
// request when its answer comes back, not when it is sent.
func TestDemoThrottleDropsNothingBeforeTheFirstRefusal(t *testing.T) {
	s, err := LoadBuiltin("demo")
	if err != nil {
		t.Fatal(err)
	}
	first := firstEvents{drop: math.MaxInt64, answer: math.MaxInt64}
	if _, err := sim.Run(context.Background(), *s.Config, sim.Options{Trace: &first}); err != nil {
		t.Fatal(err)
	}
	if first.answer == math.MaxInt64 {
		t.Fatal("demo: the client-throttling lane refused and shed nothing; the test needs a refusal")
	}
	if first.drop < first.answer {
		t.Errorf("demo: first local drop at %v, before the first refusal or shed at %v", first.drop, first.answer)
	}
}

// Vegas, like AIMD, reads the downstream slowdown and sheds instead of letting
// the backend's queue grow: run beside AIMD and the token bucket on
// downstream-slowdown, its p99 latency stays well below the token bucket's, and
// its limit moved away from where it started.
func TestVegasConvergesUnderASlowdown(t *testing.T) {
	s, err := LoadBuiltin("downstream-slowdown")
	if err != nil {
		t.Fatal(err)
	}
	cfg := *s.Config
	cfg.Lanes = []sim.LaneKind{sim.LaneTokenBucket, sim.LaneAIMD, sim.LaneVegas}
	r, err := sim.Run(context.Background(), cfg, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	l := map[sim.LaneKind]sim.LaneResult{}
	for _, lr := range r.Lanes {
		l[lr.Lane] = lr
	}
	vegas, aimd, tb := l[sim.LaneVegas].Backend.Latency.P99, l[sim.LaneAIMD].Backend.Latency.P99, l[sim.LaneTokenBucket].Backend.Latency.P99
	if vegas*3 >= tb {
		t.Errorf("p99 latency: vegas %v, token bucket %v; want vegas under a third (AIMD: %v)", vegas, tb, aimd)
	}
	if l[sim.LaneVegas].Shed == 0 {
		t.Errorf("vegas shed nothing under the slowdown; want it to cut its limit and shed")
	}
	// docs/scenarios.md: with exponential service times the fastest latency is
	// far below the typical one, so Vegas reads the variance as queueing and
	// sheds even before the slowdown, over ten times what AIMD sheds there.
	shedBefore := func(lr sim.LaneResult) (n int64) {
		for _, p := range lr.Series {
			if p.Start < 10*time.Second {
				n += p.Shed
			}
		}
		return n
	}
	if v, a := shedBefore(l[sim.LaneVegas]), shedBefore(l[sim.LaneAIMD]); v == 0 || v <= 10*a {
		t.Errorf("shed before the slowdown at 10s: vegas %d, AIMD %d; want vegas over ten times AIMD", v, a)
	}
}

// concurrencyBeatsRate is true when every concurrency-limiter lane of l kept its
// backend's p99 latency under a third of every other lane's, and l has both kinds.
func concurrencyBeatsRate(l map[sim.LaneKind]sim.LaneResult) bool {
	var conc, rate []time.Duration
	for k, lane := range l {
		if k.Info().Class == sim.ConcurrencyLimiter {
			conc = append(conc, lane.Backend.Latency.P99)
		} else {
			rate = append(rate, lane.Backend.Latency.P99)
		}
	}
	for _, c := range conc {
		for _, r := range rate {
			if c*3 >= r {
				return false
			}
		}
	}
	return len(conc) > 0 && len(rate) > 0
}

// The downstream-slowdown description holds with every textbook lane, the
// ninth included (product lanes say their own products' windows and units).
func TestDownstreamSlowdownHoldsWithEveryLane(t *testing.T) {
	s, err := LoadBuiltin("downstream-slowdown")
	if err != nil {
		t.Fatal(err)
	}
	cfg := *s.Config
	cfg.Lanes = nil
	for _, info := range sim.Lanes() {
		if info.Product == "" {
			cfg.Lanes = append(cfg.Lanes, info.Kind)
		}
	}
	r, err := sim.Run(context.Background(), cfg, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lanes := map[sim.LaneKind]sim.LaneResult{}
	for _, l := range r.Lanes {
		lanes[l.Lane] = l
	}
	if !concurrencyBeatsRate(lanes) {
		t.Errorf("with every lane, some concurrency limit's p99 latency is not under a third of every rate limit's")
	}
}

// shadow-rollout: before the push at 30s the new limit refuses nothing and
// would refuse only the scraper; after it, it refuses only the scraper, as many
// a second as it would have refused in shadow (within 10%).
func TestShadowRolloutMakesItsPoint(t *testing.T) {
	s, err := LoadBuiltin("shadow-rollout")
	if err != nil {
		t.Fatal(err)
	}
	push := s.Config.Rules[0].At
	if len(s.Config.Rules) != 1 || s.Config.Rules[0].Shadow || !s.Config.Limits[0].Shadow {
		t.Fatalf("shadow-rollout is not one shadow limit enforced by one push: %+v, %+v", s.Config.Limits, s.Config.Rules)
	}
	r, err := sim.Run(context.Background(), *s.Config, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if push%r.Bucket != 0 {
		t.Fatalf("bucket %v does not split the run at the push %v", r.Bucket, push)
	}
	for _, l := range r.Lanes {
		var refusedBefore, wouldBefore, refusedAfter, wouldAfter int64
		for _, p := range l.Series {
			if p.Start < push {
				refusedBefore, wouldBefore = refusedBefore+p.Refused, wouldBefore+p.ShadowRefused
			} else {
				refusedAfter, wouldAfter = refusedAfter+p.Refused, wouldAfter+p.ShadowRefused
			}
		}
		users, scraper := class(l, "users"), class(l, "scraper")
		beforeRate := float64(wouldBefore) / push.Seconds()
		afterRate := float64(refusedAfter) / (r.Duration - push).Seconds()
		if refusedBefore != 0 || wouldAfter != 0 || wouldBefore == 0 ||
			users.ShadowRefused != 0 || users.Refused != 0 || scraper.ShadowRefused != wouldBefore || scraper.Refused != refusedAfter ||
			math.Abs(afterRate-beforeRate) > 0.1*beforeRate {
			t.Errorf("%v: before the push refused %d, would have refused %d (%.1f/s); after it refused %d (%.1f/s), would have %d; users refused %d, would have %d",
				l.Lane, refusedBefore, wouldBefore, beforeRate, refusedAfter, afterRate, wouldAfter, users.Refused, users.ShadowRefused)
		}
	}
}

// choose-burst: three token buckets that differ only in burst. Burst 5 refuses
// over half the users' requests; burst 20 serves every page load whole and lets
// the batch job through 2× the limit in one second; burst 100 lets it through
// 10× the limit.
func TestChooseBurstMakesItsPoint(t *testing.T) {
	s, err := LoadBuiltin("choose-burst")
	if err != nil {
		t.Fatal(err)
	}
	r, err := sim.Run(context.Background(), *s.Config, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lanes := map[string]sim.LaneResult{}
	for _, l := range r.Lanes {
		if l.Lane != sim.LaneTokenBucket {
			t.Errorf("lane %s runs %v, want every lane a token bucket", l.Name, l.Lane)
		}
		lanes[l.Name] = l
	}
	for _, tc := range []struct {
		lane       string
		burst      int64
		usersServe bool  // every user request succeeded
		batchPeak  int64 // the most the batch key got in one window
	}{{"burst_5", 5, false, 0}, {"burst_20", 20, true, 20}, {"burst_100", 100, true, 100}} {
		l, ok := lanes[tc.lane]
		if !ok {
			t.Fatalf("no lane %s among %v", tc.lane, s.Config.LaneNames())
		}
		users := class(l, "users")
		if l.Policy.Burst != tc.burst || (users.Succeeded == users.Unique) != tc.usersServe {
			t.Errorf("%s: burst %d, users' success %d of %d", tc.lane, l.Policy.Burst, users.Succeeded, users.Unique)
		}
		if !tc.usersServe && users.Refused*2 <= users.Attempts {
			t.Errorf("%s refused %d of the users' %d requests, want over half", tc.lane, users.Refused, users.Attempts)
		}
		if tc.batchPeak > 0 && (l.Peak.Count != tc.batchPeak || l.Peak.Key != "api_key:batch-0") {
			t.Errorf("%s: peak %d for %s, want %d for the batch job", tc.lane, l.Peak.Count, l.Peak.Key, tc.batchPeak)
		}
	}
}
