package algorithms

import (
	"errors"
	"fmt"
	mrand "math/rand"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"testing/quick"
	"time"
)

// The product limiters' fast paths (products_fast.go) held to their Decide on
// arbitrary rules and arrivals (testing/quick), time going backwards
// included: Admit true ⇒ Decide on a copy of the state admits at once and
// leaves the same state; Admit false ⇒ the state is unchanged and Decide does
// not admit at once. Queue and Answer likewise, with the delay, the refusal
// and its Retry-After. Each case then goes on from Decide's state, so that
// the refusals that count (HAProxy, AWS WAF, Cloudflare, ...) shape what
// follows. Planted bugs (fastMutant) show each check fails when it should.

// fastArgs are the arbitrary numbers a product's rule is built from.
type fastArgs struct {
	A, B, C, D uint64
	F          uint8
}

// fastTraffic is up to 400 requests drawn from seed: gaps at scales from 0
// to a third of unit (a rule's window or period), mostly of cost 1, every
// fifth going back in time by up to 4 units.
func fastTraffic(seed uint64, unit time.Duration) []request {
	r := rand.New(rand.NewPCG(seed, seed>>32|1))
	scales := []time.Duration{0, 1, max(unit/997, 1), max(unit/61, 1), max(unit/3, 1)}
	var now time.Duration
	reqs := make([]request, r.IntN(400))
	for i := range reqs {
		now += time.Duration(r.IntN(256)) * scales[r.IntN(len(scales))]
		at := now
		if i%5 == 4 {
			at = max(at-time.Duration(r.IntN(256))*max(unit/61, 1), 0)
		}
		cost := int64(1)
		if r.IntN(8) == 0 {
			cost = 1 + int64(r.IntN(12))
		}
		reqs[i] = request{at: at, cost: cost}
	}
	return reqs
}

// fastSeen counts what the checks saw, so that a test can tell that its
// cases built rules and met both verdicts (tests here run one at a time).
var fastSeen struct{ built, fast, slow, refused int }

// saw counts one fast-path answer: at once (fast) or left to Decide (slow).
func saw(fast bool) {
	if fast {
		fastSeen.fast++
	} else {
		fastSeen.slow++
	}
}

// fastMutant is a planted bug in a fast path, for the checks to catch: none,
// an admission of what it would refuse (state unchanged), a refusal that
// charges the state, an admission that forgets to charge it, a delay or a
// Retry-After one nanosecond off, a refusal that forgets to count where
// Decide's refusal counts.
type fastMutant int

const (
	mutantNone fastMutant = iota
	mutantAdmitsRefused
	mutantDirtyRefusal
	mutantForgetsCharge
	mutantDelayOff
	mutantRetryAfterOff
	mutantCleanRefusal
)

type fastRule[S any] interface {
	Algorithm[S]
	Charging[S]
}

// admitOf is the rule's Admit, with mutant planted.
func admitOf[S any, A interface {
	fastRule[S]
	Admitter[S]
}](alg A, mutant fastMutant) func(s *S, now time.Duration, cost int64) bool {
	return func(s *S, now time.Duration, cost int64) bool {
		before := *s
		ok := alg.Admit(s, now, cost)
		switch {
		case mutant == mutantAdmitsRefused && !ok:
			return true
		case mutant == mutantDirtyRefusal && !ok:
			alg.Charge(s, now, cost)
		case mutant == mutantForgetsCharge && ok:
			*s = before
		}
		return ok
	}
}

// checkAdmitIsDecide checks admit against alg's Decide on reqs.
func checkAdmitIsDecide[S any](alg Algorithm[S], admit func(*S, time.Duration, int64) bool, reqs []request) error {
	var s S
	for i, r := range reqs {
		before := s
		ok := admit(&s, r.at, r.cost)
		saw(ok)
		want := before
		d := alg.Decide(&want, r.at, r.cost)
		switch {
		case !ok && !reflect.DeepEqual(s, before):
			return fmt.Errorf("request %d: Admit(t0+%v, cost %d) = false changed the state from %+v to %+v", i, r.at, r.cost, before, s)
		case ok != (d.Verdict == Admit && d.Delay == 0):
			return fmt.Errorf("request %d: Admit(t0+%v, cost %d) = %v, Decide = %+v", i, r.at, r.cost, ok, d)
		case ok && !reflect.DeepEqual(s, want):
			return fmt.Errorf("request %d: Admit(t0+%v, cost %d) left %+v, Decide %+v", i, r.at, r.cost, s, want)
		}
		s = want
	}
	return nil
}

// checkQueueIsDecide checks queue (a Queue) against alg's Decide on reqs.
func checkQueueIsDecide[S any](alg fastRule[S], queue func(*S, time.Duration, int64) (time.Duration, bool), mutant fastMutant, reqs []request) error {
	var s S
	for i, r := range reqs {
		before := s
		delay, ok := queue(&s, r.at, r.cost)
		saw(ok && delay == 0)
		switch {
		case mutant == mutantAdmitsRefused && !ok:
			ok = true
		case mutant == mutantDirtyRefusal && !ok:
			alg.Charge(&s, r.at, r.cost)
		case mutant == mutantForgetsCharge && ok:
			s = before
		case mutant == mutantDelayOff && ok && delay > 0:
			delay++
		}
		want := before
		d := alg.Decide(&want, r.at, r.cost)
		switch {
		case !ok && !reflect.DeepEqual(s, before):
			return fmt.Errorf("request %d: Queue(t0+%v, cost %d) = false changed the state from %+v to %+v", i, r.at, r.cost, before, s)
		case ok != d.Admitted() || (ok && delay != d.Delay):
			return fmt.Errorf("request %d: Queue(t0+%v, cost %d) = %v, %v; Decide = %+v", i, r.at, r.cost, delay, ok, d)
		case ok && !reflect.DeepEqual(s, want):
			return fmt.Errorf("request %d: Queue(t0+%v, cost %d) left %+v, Decide %+v", i, r.at, r.cost, s, want)
		}
		s = want
	}
	return nil
}

// checkAnswerIsDecide checks answer (an Answer) against alg's Decide on reqs:
// admitted as Admit; refused with Decide's refusal and RetryAfter, leaving
// the state as Decide leaves it (a refusal that counts is counted); neither,
// the state unchanged.
func checkAnswerIsDecide[S any](alg fastRule[S], answer func(*S, time.Duration, int64) (time.Duration, bool, bool), mutant fastMutant, reqs []request) error {
	var s S
	for i, r := range reqs {
		before := s
		retryAfter, admitted, refused := answer(&s, r.at, r.cost)
		saw(admitted)
		if refused {
			fastSeen.refused++
		}
		switch {
		case mutant == mutantRetryAfterOff && refused:
			retryAfter++
		case mutant == mutantDirtyRefusal && refused:
			alg.Charge(&s, r.at, r.cost)
		case mutant == mutantCleanRefusal && refused:
			s = before
		}
		want := before
		d := alg.Decide(&want, r.at, r.cost)
		switch {
		case !admitted && !refused && !reflect.DeepEqual(s, before):
			return fmt.Errorf("request %d: Answer(t0+%v, cost %d) = neither changed the state from %+v to %+v", i, r.at, r.cost, before, s)
		case admitted && (d.Verdict != Admit || d.Delay != 0 || !reflect.DeepEqual(s, want)):
			return fmt.Errorf("request %d: Answer(t0+%v, cost %d) admitted, leaving %+v; Decide = %+v, leaving %+v", i, r.at, r.cost, s, d, want)
		case refused && (d.Verdict != Refuse || d.RetryAfter != retryAfter || !reflect.DeepEqual(s, want)):
			return fmt.Errorf("request %d: Answer(t0+%v, cost %d) refused, Retry-After %v, leaving %+v; Decide = %+v, leaving %+v", i, r.at, r.cost, retryAfter, s, d, want)
		case admitted && refused:
			return fmt.Errorf("request %d: Answer(t0+%v, cost %d) both admitted and refused", i, r.at, r.cost)
		}
		s = want
	}
	return nil
}

// fastCase is one product's fast path under test: check runs it with mutant
// on the rule built from x and the traffic drawn from seed; a rule x does not
// make is skipped (nil).
type fastCase struct {
	name    string
	mutants []fastMutant // the planted bugs its check must catch
	check   func(x fastArgs, seed uint64, mutant fastMutant) error
}

var admitMutants = []fastMutant{mutantAdmitsRefused, mutantDirtyRefusal, mutantForgetsCharge}

// admitCase is the fastCase of an Admitter made by newRule.
func admitCase[S any, A interface {
	fastRule[S]
	Admitter[S]
}](name string, newRule func(fastArgs) (A, time.Duration, error)) fastCase {
	return fastCase{name: name + "/Admit", mutants: admitMutants, check: func(x fastArgs, seed uint64, m fastMutant) error {
		alg, unit, err := newRule(x)
		if err != nil {
			return nil
		}
		fastSeen.built++
		return checkAdmitIsDecide(Algorithm[S](alg), admitOf[S](alg, m), fastTraffic(seed, unit))
	}}
}

// answerCase is the fastCase of an Answerer made by newRule; counting is
// true when the rule's refusals count (its Answer then counts them too).
func answerCase[S any, A interface {
	fastRule[S]
	Answerer[S]
}](name string, newRule func(fastArgs) (A, time.Duration, error), counting bool) fastCase {
	mutants := []fastMutant{mutantRetryAfterOff, mutantDirtyRefusal}
	if counting {
		mutants = append(mutants, mutantCleanRefusal)
	}
	return fastCase{name: name + "/Answer", mutants: mutants, check: func(x fastArgs, seed uint64, m fastMutant) error {
		alg, unit, err := newRule(x)
		if err != nil {
			return nil
		}
		fastSeen.built++
		return checkAnswerIsDecide(fastRule[S](alg), alg.Answer, m, fastTraffic(seed, unit))
	}}
}

// queueCase is the fastCase of a queue made by newRule.
func queueCase[S any, A interface {
	fastRule[S]
	Queue(s *S, now time.Duration, cost int64) (time.Duration, bool)
}](name string, newRule func(fastArgs) (A, time.Duration, error)) fastCase {
	return fastCase{name: name + "/Queue", mutants: append([]fastMutant{mutantDelayOff}, admitMutants...), check: func(x fastArgs, seed uint64, m fastMutant) error {
		alg, unit, err := newRule(x)
		if err != nil {
			return nil
		}
		fastSeen.built++
		return checkQueueIsDecide(fastRule[S](alg), alg.Queue, m, fastTraffic(seed, unit))
	}}
}

// epochOf is an arbitrary wall-clock epoch from d, or the zero one.
func epochOf(on bool, d uint64) time.Time {
	if !on {
		return time.Time{}
	}
	return time.Unix(int64(d%4e9), int64(d%1e9))
}

func newNginxFast(x fastArgs) (*Nginx, time.Duration, error) {
	unit, per := "r/s", time.Second
	if x.F&1 != 0 {
		unit, per = "r/m", time.Minute
	}
	z := NginxZone{Rate: fmt.Sprint(1+x.A%50, unit), Burst: int64(x.B % 20), NoDelay: x.F&4 != 0}
	if x.F&2 != 0 && !z.NoDelay {
		z.Delay = int64(x.C % 20)
	}
	n, err := NewNginx(z)
	return n, per, err
}

func newTraefikFast(x fastArgs) (*Traefik, time.Duration, error) {
	periods := []time.Duration{time.Second, time.Minute, 7 * time.Millisecond, 3 * time.Second, 999_999_937}
	p := TraefikParams{Average: int64(x.A % 51), Period: periods[x.B%5], Burst: int64(x.C % 20)}
	t, err := NewTraefik(p)
	return t, p.Period, err
}

func newAWSThrottleFast(x fastArgs) (*AWSThrottle, time.Duration, error) {
	rate := float64(1+x.A%100_000) / 1000
	a, err := NewAWSThrottle(AWSThrottleParams{RateLimit: rate, BurstLimit: int64(1 + x.B%30)})
	return a, time.Duration(float64(time.Second) * float64(1+x.B%30) / rate), err
}

func newAWSQuotaFast(x fastArgs) (*AWSQuota, time.Duration, error) {
	periods := []AWSQuotaPeriod{AWSQuotaDay, AWSQuotaWeek, AWSQuotaMonth}
	q, err := NewAWSQuota(AWSQuotaParams{Limit: int64(1 + x.A%50), Offset: int64(x.D % 3), Period: periods[x.B%3],
		Epoch: time.Unix(int64(x.C%4_000_000_000), 0).UTC()})
	return q, 24 * time.Hour, err
}

func newEnvoyLocalFast(x fastArgs) (*EnvoyLocal, time.Duration, error) {
	p := EnvoyLocalParams{MaxTokens: int64(1 + x.A%30), TokensPerFill: int64(1 + x.B%10),
		FillInterval: 50*time.Millisecond + time.Duration(x.C%2000)*time.Millisecond}
	if x.F&1 != 0 {
		p.Refill = EnvoyStepwise
	}
	if x.F&2 != 0 {
		p.Start, p.StartTokens = EnvoyStartTokens, int64(x.D%uint64(p.MaxTokens+1))
	}
	if x.F&4 != 0 {
		p.MonotonicStart = time.Duration(x.D>>8) % (1000 * time.Hour)
	}
	e, err := NewEnvoyLocal(p)
	return e, p.FillInterval * time.Duration(max(1, p.MaxTokens/p.TokensPerFill)), err
}

func newEnvoyRLSFast(x fastArgs) (*EnvoyRLS, time.Duration, error) {
	units := []EnvoyRLSUnit{EnvoyRLSSecond, EnvoyRLSMinute, EnvoyRLSHour}
	windows := []time.Duration{time.Second, time.Minute, time.Hour}
	p := EnvoyRLSParams{Unit: units[x.A%3], RequestsPerUnit: int64(x.B % 30), ShadowMode: x.F&1 != 0,
		LocalCache: x.F&2 != 0, Epoch: epochOf(x.F&4 != 0, x.D)}
	if x.F&8 != 0 && x.F&16 != 0 {
		p = EnvoyRLSParams{Unlimited: true}
	}
	r, err := NewEnvoyRLS(p)
	return r, windows[x.A%3], err
}

func newKongFast(x fastArgs) (*Kong, time.Duration, error) {
	base := int64(1 + x.A%8)
	var p KongParams
	unit := time.Hour
	if x.F&1 != 0 {
		p.Second, unit = base, time.Second
	}
	if x.F&2 != 0 {
		p.Minute, unit = base+int64(x.B%30), min(unit, time.Minute)
	}
	if x.F&4 != 0 || p.Second+p.Minute == 0 {
		p.Hour = base + int64(x.B%30+x.C%100)
	}
	if x.F&8 != 0 {
		p.Month = base + int64(x.B%30+x.C%100+x.D%100)
	}
	if x.F&16 != 0 {
		p.Policy = KongRedis
	}
	p.HideClientHeaders = x.F&32 != 0
	p.Epoch = epochOf(x.F&64 != 0, x.D)
	k, err := NewKong(p)
	return k, unit, err
}

func newKongAdvancedFast(x fastArgs) (*KongAdvanced, time.Duration, error) {
	p := KongAdvancedParams{Limit: int64(1 + x.A%30), WindowSize: int64(1 + x.B%120), DisablePenalty: x.F&2 != 0,
		Epoch: epochOf(x.F&4 != 0, x.D)}
	if x.F&1 != 0 {
		p.WindowType = KongFixed
	}
	k, err := NewKongAdvanced(p)
	return k, time.Duration(p.WindowSize) * time.Second, err
}

func newAWSWAFFast(x fastArgs) (*AWSWAF, time.Duration, error) {
	intervals := []time.Duration{0, 10 * time.Second, 20 * time.Second, 30 * time.Second, 60 * time.Second}
	p := AWSWAFParams{Limit: int64(10 + x.A%40), EvaluationWindowSec: []int64{60, 120, 300, 600}[x.B%4], EvaluationInterval: intervals[x.C%5]}
	w, err := NewAWSWAF(p)
	return w, time.Duration(p.EvaluationWindowSec) * time.Second, err
}

func newCloudflareFast(x fastArgs) (*Cloudflare, time.Duration, error) {
	p := CloudflareParams{RequestsPerPeriod: int64(1 + x.A%30), Period: cloudflarePeriods[x.B%10],
		ExcludeBlocked: x.F&2 != 0, Epoch: epochOf(x.F&4 != 0, x.D)}
	if x.F&1 != 0 {
		p.MitigationTimeout = int64(x.C % 600)
	}
	c, err := NewCloudflare(p)
	return c, time.Duration(p.Period) * time.Second, err
}

func newHAProxyFast(x fastArgs) (*HAProxy, time.Duration, error) {
	p := HAProxyTable{Period: time.Duration(2+x.A%2000) * time.Millisecond, Limit: int64(x.B % 30),
		ClockAtZero: time.Duration(x.D%(1<<32)) * time.Millisecond}
	switch x.F % 3 {
	case 1:
		p.Expire = time.Duration(x.C%5000) * time.Millisecond
	case 2:
		p.Expire = 2 * p.Period
	}
	h, err := NewHAProxy(p)
	return h, p.Period, err
}

// fastCases is every product fast path.
var fastCases = []fastCase{
	queueCase[NginxState]("nginx", newNginxFast),
	queueCase[TraefikState]("traefik", newTraefikFast),
	admitCase[TraefikState]("traefik", newTraefikFast),
	answerCase[TraefikState]("traefik", newTraefikFast, true),
	admitCase[AWSThrottleState]("aws_apigw", newAWSThrottleFast),
	answerCase[AWSThrottleState]("aws_apigw", newAWSThrottleFast, false),
	admitCase[AWSQuotaState]("aws_quota", newAWSQuotaFast),
	answerCase[AWSQuotaState]("aws_quota", newAWSQuotaFast, false),
	admitCase[EnvoyLocalState]("envoy_local", newEnvoyLocalFast),
	answerCase[EnvoyLocalState]("envoy_local", newEnvoyLocalFast, false),
	admitCase[EnvoyRLSState]("envoy_rls", newEnvoyRLSFast),
	answerCase[EnvoyRLSState]("envoy_rls", newEnvoyRLSFast, true),
	admitCase[KongState]("kong", newKongFast),
	answerCase[KongState]("kong", newKongFast, false),
	admitCase[KongAdvancedState]("kong_advanced", newKongAdvancedFast),
	answerCase[KongAdvancedState]("kong_advanced", newKongAdvancedFast, true),
	admitCase[AWSWAFState]("aws_waf", newAWSWAFFast),
	admitCase[CloudflareState]("cloudflare", newCloudflareFast),
	answerCase[CloudflareState]("cloudflare", newCloudflareFast, true),
	admitCase[HAProxyState]("haproxy", newHAProxyFast),
}

// quickConfig runs each property on n arbitrary cases, the same in every run.
func quickConfig(n int) *quick.Config {
	if testing.Short() {
		n /= 4
	}
	return &quick.Config{MaxCount: n, Rand: mrand.New(mrand.NewSource(1))}
}

func TestProductFastPathsAreDecide(t *testing.T) {
	for _, c := range fastCases {
		t.Run(c.name, func(t *testing.T) {
			var last error
			prop := func(x fastArgs, seed uint64) bool {
				last = c.check(x, seed, mutantNone)
				return last == nil
			}
			fastSeen.built, fastSeen.fast, fastSeen.slow, fastSeen.refused = 0, 0, 0, 0
			cfg := quickConfig(400)
			if err := quick.Check(prop, cfg); err != nil {
				t.Errorf("%v: %v", err, last)
			}
			if fastSeen.built < cfg.MaxCount/2 || fastSeen.fast == 0 || fastSeen.slow == 0 {
				t.Errorf("%d of %d cases built a rule, with %d requests admitted at once and %d not: want at least half, and some of each",
					fastSeen.built, cfg.MaxCount, fastSeen.fast, fastSeen.slow)
			}
			if strings.HasSuffix(c.name, "/Answer") && fastSeen.refused == 0 {
				t.Errorf("Answer refused nothing itself: the property held it to nothing")
			}
			t.Logf("%d rules; %d requests admitted at once, %d not (%d of them refused by Answer itself)", fastSeen.built, fastSeen.fast, fastSeen.slow, fastSeen.refused)
		})
	}
}

// TestProductFastPathMutants plants each bug in each fast path and checks
// that the property above catches it.
func TestProductFastPathMutants(t *testing.T) {
	for _, c := range fastCases {
		for _, m := range c.mutants {
			t.Run(fmt.Sprintf("%s/mutant%d", c.name, m), func(t *testing.T) {
				prop := func(x fastArgs, seed uint64) bool { return c.check(x, seed, m) == nil }
				err := quick.Check(prop, quickConfig(400))
				var ce *quick.CheckError
				if !errors.As(err, &ce) {
					t.Errorf("planted bug %d in %s: the property held on every case (%v), want a failure", m, c.name, err)
				}
			})
		}
	}
}

// Queue in step tables derived by hand from the products' rules: nginx
// rate=2r/s burst=2 (excess′ = excess − rate×ms/1000 + 1000, refused above
// burst×1000, delayed (excess′ − delay×1000)×1000/rate ms, lines 454–462 and
// 547–553 of ngx_http_limit_req_module.c, 1.22.1), and Traefik's 2 per second
// with burst 1, whose maxDelay is 1s/(2×2) = 250ms: a wait of exactly 250ms is
// kept (x/time/rate's reservation, cancelled only past maxDelay).
func TestProductQueueSteps(t *testing.T) {
	n := must(NewNginx(NginxZone{Rate: "2r/s", Burst: 2}))
	var ns NginxState
	for _, step := range []struct {
		at    time.Duration
		delay time.Duration
		ok    bool
	}{
		{0, 0, true},                                // a new key: excess 0
		{0, 500 * time.Millisecond, true},           // excess 1000: 1000×1000/2000 ms
		{0, time.Second, true},                      // excess 2000
		{0, 0, false},                               // excess 3000 > 2000: refused, nothing stored
		{500 * time.Millisecond, time.Second, true}, // 2000 − 2000×500/1000 + 1000 = 2000
	} {
		if delay, ok := n.Queue(&ns, step.at, 1); delay != step.delay || ok != step.ok {
			t.Errorf("nginx Queue(t0+%v, 1) = %v, %v, want %v, %v", step.at, delay, ok, step.delay, step.ok)
		}
	}

	tr := must(NewTraefik(TraefikParams{Average: 2, Period: time.Second, Burst: 1}))
	var ts TraefikState
	for _, step := range []struct {
		at    time.Duration
		delay time.Duration
		ok    bool
	}{
		{0, 0, true}, // a new limiter: 1 token
		{250 * time.Millisecond, 250 * time.Millisecond, true}, // 0.5 tokens, 0.5 owed: 250ms, maxDelay itself
		{250 * time.Millisecond, 0, false},                     // 1.5 owed: 750ms > 250ms
	} {
		if delay, ok := tr.Queue(&ts, step.at, 1); delay != step.delay || ok != step.ok {
			t.Errorf("traefik Queue(t0+%v, 1) = %v, %v, want %v, %v", step.at, delay, ok, step.delay, step.ok)
		}
	}
}
