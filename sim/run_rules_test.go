package sim

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// chainLanes are the lanes with a limit chain whose traffic does not react to
// the answers by itself (the client throttle's gate does).
var chainLanes = []LaneKind{LaneFixedWindow, LaneSlidingLog, LaneSlidingWindowCounter, LaneTokenBucket, LaneLeakyBucket, LaneGCRA}

// randomWorld is random traffic of users, some retrying, through one limit
// counted per user and one global limit.
func randomWorld(r *rand.Rand, lanes []LaneKind, retry bool) Config {
	user := algorithms.Policy{Limit: 1 + r.Int64N(6), Window: time.Duration(50+r.IntN(950)) * time.Millisecond, Burst: r.Int64N(4)}
	global := algorithms.Policy{Limit: 5 + r.Int64N(30), Window: time.Duration(100+r.IntN(900)) * time.Millisecond}
	cfg := Config{Duration: 5 * time.Second, Seed: r.Uint64(), Lanes: lanes, Chain: ChainMode(r.IntN(2)),
		Limits: []Limit{
			{Name: "per-user", Key: KeyUser, Policy: user},
			{Name: "global", Key: KeyGlobal, Policy: global},
		},
		Clients: []ClientGroup{
			{Name: "users", Count: 1 + r.IntN(20), Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 1 + r.Int64N(8), Per: time.Second}}}},
			{Name: "abuser", Count: 1, Arrivals: []Arrival{{Kind: ArrivalBurst, At: time.Duration(r.IntN(4000)) * time.Millisecond, Count: 1 + r.IntN(60), Spread: time.Duration(r.IntN(500)) * time.Millisecond}}},
		},
	}
	if retry {
		cfg.Clients[0].Retry = Retry{Kind: RetryExponential, Base: 20 * time.Millisecond, Cap: time.Second, Jitter: JitterFull, MaxAttempts: 4, HonorRetryAfter: r.IntN(2) == 0}
		cfg.Clients[1].Retry = Retry{Kind: RetryImmediate, MaxAttempts: 3}
	}
	return cfg
}

// A shadow limit changes no outcome: every lane decides every attempt as it
// does without that limit, retries and all.
func TestShadowLimitChangesNoOutcome(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 4))
	for i := range 25 {
		with := randomWorld(r, DefaultLanes(), true)
		with.Limits[0].Shadow = true
		without := with
		without.Limits = with.Limits[1:]
		a, b := mustRun(t, with, Options{}), mustRun(t, without, Options{})
		for j := range a.Lanes {
			x, y := &a.Lanes[j], &b.Lanes[j]
			if x.Verdicts != y.Verdicts || x.Admitted != y.Admitted || x.Refused != y.Refused || x.Succeeded != y.Succeeded {
				t.Errorf("world %d, %v: with the shadow limit admitted %d refused %d, without %d %d (verdicts differ: %v)",
					i, x.Lane, x.Admitted, x.Refused, y.Admitted, y.Refused, x.Verdicts != y.Verdicts)
			}
		}
	}
}

// A shadow limit records exactly the refusals its enforced twin makes, attempt
// by attempt in time (per series bucket) and per class, on open-loop traffic.
func TestShadowLimitRecordsItsEnforcedTwinsRefusals(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	for i := range 25 {
		enforced := randomWorld(r, chainLanes, false)
		enforced.Limits = enforced.Limits[:1]
		shadow := enforced
		shadow.Limits = []Limit{enforced.Limits[0]}
		shadow.Limits[0].Shadow = true
		a, b := mustRun(t, shadow, Options{}), mustRun(t, enforced, Options{})
		for j := range a.Lanes {
			s, e := &a.Lanes[j], &b.Lanes[j]
			if s.Refused != 0 || s.ShadowRefused != e.Refused || s.ShadowRefusedBy[0].Count != e.RefusedBy[0].Count {
				t.Errorf("world %d, %v: shadow refused %d and would have refused %d (%v); its twin refused %d",
					i, s.Lane, s.Refused, s.ShadowRefused, s.ShadowRefusedBy, e.Refused)
			}
			for g := range s.Classes {
				if s.Classes[g].ShadowRefused != e.Classes[g].Refused {
					t.Errorf("world %d, %v, class %s: would have refused %d, twin refused %d", i, s.Lane, s.Classes[g].Name, s.Classes[g].ShadowRefused, e.Classes[g].Refused)
				}
			}
			for k := range min(len(s.Series), len(e.Series)) {
				if s.Series[k].ShadowRefused != e.Series[k].Refused {
					t.Errorf("world %d, %v, bucket at %v: would have refused %d, twin refused %d", i, s.Lane, s.Series[k].Start, s.Series[k].ShadowRefused, e.Series[k].Refused)
					break
				}
			}
		}
	}
}

// A rule change at t decides the keys first seen after t exactly as a run that
// had the new rule from the start: group "late" (its own users) arrives only
// from t on.
func TestRuleChangeEqualsTheNewRuleFromThenOnForFreshKeys(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 1))
	for i := range 20 {
		cfg := randomWorld(r, append([]LaneKind{LaneClientThrottle}, chainLanes...), true)
		cfg.Limits = cfg.Limits[:1]
		at := time.Duration(1+r.IntN(3000)) * time.Millisecond
		cfg.Clients[0].Arrivals[0].Stop = at
		late := cfg.Clients[0]
		late.Name = "late"
		late.Arrivals = []Arrival{{Kind: ArrivalPoisson, Start: at, Rate: Rate{Count: 1 + r.Int64N(8), Per: time.Second}}}
		cfg.Clients = append(cfg.Clients[:1], late)
		newRule := algorithms.Policy{Limit: 1 + r.Int64N(6), Window: time.Duration(50+r.IntN(950)) * time.Millisecond, Burst: r.Int64N(4)}
		changed := cfg
		changed.Rules = []RuleChange{{At: at, Limit: 0, Policy: newRule}}
		fresh := cfg
		fresh.Limits = []Limit{{Name: "per-user", Key: KeyUser, Policy: newRule}}
		a, b := mustRun(t, changed, Options{}), mustRun(t, fresh, Options{})
		for j := range a.Lanes {
			x, y := a.Lanes[j].Classes[1], b.Lanes[j].Classes[1]
			if x.Attempts != y.Attempts || x.Admitted != y.Admitted || x.Refused != y.Refused || x.Succeeded != y.Succeeded {
				t.Errorf("world %d, %v, change at %v: late users %+v, with the rule from the start %+v", i, a.Lanes[j].Lane, at, x, y)
			}
		}
	}
}

// stepWorld is one client sending 5 requests at 0 and 5 at 100ms through a
// token bucket of 5 per second, and a rule change at 50ms.
func stepWorld(shadow bool, ch RuleChange) Config {
	return Config{Duration: time.Second, Lanes: []LaneKind{LaneTokenBucket},
		Limits: []Limit{{Key: KeyUser, Shadow: shadow, Policy: algorithms.Policy{Limit: 5, Window: time.Second}}},
		Rules:  []RuleChange{ch},
		Clients: []ClientGroup{{Count: 1, Arrivals: []Arrival{
			{Kind: ArrivalBurst, Count: 5}, {Kind: ArrivalBurst, At: 100 * time.Millisecond, Count: 5},
		}}},
	}
}

// A change of enforcement keeps the per-key state (the shadow limit charged
// the first burst, so the bucket is empty when it starts enforcing); a change
// of policy starts every key afresh (a full bucket).
func TestRuleChangeKeepsStateUnlessThePolicyChanges(t *testing.T) {
	p := algorithms.Policy{Limit: 5, Window: time.Second}
	for _, tt := range []struct {
		name                         string
		shadow                       bool
		change                       RuleChange
		admitted, refused, wouldHave int64
	}{
		{"enforce from 50ms", true, RuleChange{At: 50 * time.Millisecond}, 5, 5, 0},
		{"enforce from 50ms, same policy", true, RuleChange{At: 50 * time.Millisecond, Policy: p}, 5, 5, 0},
		{"enforce from 50ms with 6 per second", true, RuleChange{At: 50 * time.Millisecond, Policy: algorithms.Policy{Limit: 6, Window: time.Second}}, 10, 0, 0},
		{"shadow from 50ms", false, RuleChange{At: 50 * time.Millisecond, Shadow: true}, 10, 0, 5},
		{"shadow from 150ms", true, RuleChange{At: 150 * time.Millisecond, Shadow: true}, 10, 0, 5},
		{"change at 100ms applies to the burst at 100ms", true, RuleChange{At: 100 * time.Millisecond}, 5, 5, 0},
	} {
		l := mustRun(t, stepWorld(tt.shadow, tt.change), Options{}).Lanes[0]
		if l.Admitted != tt.admitted || l.Refused != tt.refused || l.ShadowRefused != tt.wouldHave {
			t.Errorf("%s: admitted %d, refused %d, would have refused %d; want %d, %d, %d",
				tt.name, l.Admitted, l.Refused, l.ShadowRefused, tt.admitted, tt.refused, tt.wouldHave)
		}
	}
}

// A rule pushed live between RunUntil steps decides as the same change
// scheduled in the Config; one in the past is refused and changes nothing.
func TestChangeRuleLiveEqualsScheduled(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	for i := range 10 {
		cfg := randomWorld(r, DefaultLanes(), true)
		if i%2 == 1 { // a variant with settings of its own holds its own copy of the Config
			cfg.Lanes = append(slices.Clone(cfg.LanesRun()), LaneClientThrottle)
			cfg.Variants = make([]Variant, len(cfg.Lanes))
			cfg.Variants[len(cfg.Lanes)-1] = Variant{Name: "throttle-gcra", Throttle: &ThrottleSettings{Server: LaneGCRA}}
		}
		at := time.Duration(1+r.IntN(4000)) * time.Millisecond
		ch := RuleChange{At: at, Limit: r.IntN(2), Shadow: r.IntN(2) == 0,
			Policy: algorithms.Policy{Limit: 1 + r.Int64N(9), Window: time.Duration(50+r.IntN(950)) * time.Millisecond}}
		scheduled := cfg
		scheduled.Rules = []RuleChange{ch}
		want := mustRun(t, scheduled, Options{})

		s, err := New(cfg, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.RunUntil(at - 1); err != nil {
			t.Fatal(err)
		}
		var fe FieldErrors
		if err := s.ChangeRule(RuleChange{At: at - 2, Limit: 0}); !errors.As(err, &fe) {
			t.Errorf("ChangeRule(at %v) after RunUntil(%v) = %v, want a FieldErrors", at-2, at-1, err)
		}
		if err := s.ChangeRule(ch); err != nil {
			t.Fatalf("ChangeRule(%+v) = %v", ch, err)
		}
		got, err := s.RunToEnd(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if rule := s.Rule(ch.Limit); rule.Policy != ch.Policy || rule.Shadow != ch.Shadow {
			t.Errorf("world %d: Rule(%d) = %+v after the change %+v", i, ch.Limit, rule, ch)
		}
		for j := range got.Lanes {
			if got.Lanes[j].Verdicts != want.Lanes[j].Verdicts || got.Lanes[j].ShadowRefused != want.Lanes[j].ShadowRefused {
				t.Errorf("world %d, %v: the live change decided otherwise than the scheduled one", i, got.Lanes[j].Lane)
			}
		}
		if len(got.Rules) != 1 || got.Rules[0] != ch {
			t.Errorf("world %d: Result.Rules = %+v, want [%+v]", i, got.Rules, ch)
		}
	}
}

func TestValidateReportsEveryBadRule(t *testing.T) {
	cfg := stepWorld(false, RuleChange{At: -time.Second})
	cfg.Rules = append(cfg.Rules, RuleChange{Limit: 3}, RuleChange{Policy: algorithms.Policy{Limit: -1, Window: time.Second}})
	var fe FieldErrors
	if err := cfg.Validate(); !errors.As(err, &fe) {
		t.Fatalf("Validate() = %v, want FieldErrors", err)
	}
	want := map[string]bool{"rules[0].at": true, "rules[1].limit_index": true, "rules[2].limit": true}
	for _, e := range fe {
		delete(want, e.Field)
	}
	if len(want) > 0 {
		t.Errorf("Validate() = %v; missing %v", fe, want)
	}
}
