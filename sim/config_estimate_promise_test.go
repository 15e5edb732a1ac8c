package sim

import (
	"math"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// TestArrivalsOfPromise: exact counts per kind, an arrival due exactly at the
// stop not counted, one a nanosecond before it counted, Stop capping the run.
func TestArrivalsOfPromise(t *testing.T) {
	s := time.Second
	ms := time.Millisecond
	tenPerSec := Rate{Count: 10, Per: s}
	tests := []struct {
		name string
		a    Arrival
		dur  time.Duration
		want float64
	}{
		{"burst before the end", Arrival{Kind: ArrivalBurst, At: s - 1, Count: 7}, s, 7},
		{"burst exactly at the end", Arrival{Kind: ArrivalBurst, At: s, Count: 7}, s, 0},
		{"burst at Stop", Arrival{Kind: ArrivalBurst, At: s, Count: 7, Stop: s}, 2 * s, 0},
		{"burst before Stop", Arrival{Kind: ArrivalBurst, At: s - 1, Count: 7, Stop: s}, 2 * s, 7},
		{"constant whole span", Arrival{Kind: ArrivalConstant, Rate: tenPerSec}, s, 10},
		{"constant one ns more", Arrival{Kind: ArrivalConstant, Rate: tenPerSec}, s + 1, 11},
		{"constant one ns", Arrival{Kind: ArrivalConstant, Rate: tenPerSec}, 1, 1},
		{"constant from Start", Arrival{Kind: ArrivalConstant, Rate: tenPerSec, Start: 500 * ms}, s, 5},
		{"constant Start at the end", Arrival{Kind: ArrivalConstant, Rate: tenPerSec, Start: s}, s, 0},
		{"constant Start past the end", Arrival{Kind: ArrivalConstant, Rate: tenPerSec, Start: 2 * s}, s, 0},
		{"constant Stop", Arrival{Kind: ArrivalConstant, Rate: tenPerSec, Stop: 300 * ms}, s, 3},
		{"constant Stop past the run", Arrival{Kind: ArrivalConstant, Rate: tenPerSec, Stop: 5 * s}, s, 10},
		{"poisson mean", Arrival{Kind: ArrivalPoisson, Rate: tenPerSec, Start: s}, 3 * s, 20},
		{"on/off whole cycles", Arrival{Kind: ArrivalOnOff, Rate: tenPerSec, On: 500 * ms, Off: 500 * ms}, 2 * s, 10},
		{"on/off part of an on", Arrival{Kind: ArrivalOnOff, Rate: tenPerSec, On: 500 * ms, Off: 500 * ms}, 2*s + 200*ms, 12},
		{"on/off into an off", Arrival{Kind: ArrivalOnOff, Rate: tenPerSec, On: 500 * ms, Off: 500 * ms}, 2*s + 700*ms, 15},
		{"on/off one ns of on", Arrival{Kind: ArrivalOnOff, Rate: tenPerSec, On: 500 * ms, Off: 500 * ms}, 2*s + 1, 11},
		{"idle all the run", Arrival{Kind: ArrivalIdleThenBurst, Idle: s, Spread: 500 * ms, Count: 3}, s, 0},
		{"idle then one burst", Arrival{Kind: ArrivalIdleThenBurst, Idle: s, Spread: 500 * ms, Count: 3}, s + 1, 3},
		{"second burst due at the end", Arrival{Kind: ArrivalIdleThenBurst, Idle: s, Spread: 500 * ms, Count: 3}, 2*s + 500*ms, 3},
		{"second burst in", Arrival{Kind: ArrivalIdleThenBurst, Idle: s, Spread: 500 * ms, Count: 3}, 2*s + 500*ms + 1, 6},
	}
	for _, tt := range tests {
		if got := arrivalsOf(tt.a, tt.dur); got != tt.want {
			t.Errorf("%s: arrivalsOf = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestCountInPromise: arrivals at j×Per/Count strictly before d, at least 1.
func TestCountInPromise(t *testing.T) {
	r := Rate{Count: 3, Per: time.Second} // at 0, 333.33ms, 666.67ms, 1s, …
	tests := []struct {
		d    time.Duration
		want int64
	}{
		{1, 1}, {333333333, 1}, {333333334, 2}, {666666667, 3}, {time.Second, 3}, {time.Second + 1, 4},
		{0, 1},
	}
	for _, tt := range tests {
		if got := countIn(tt.d, r); got != tt.want {
			t.Errorf("countIn(%d, 3/s) = %d, want %d", tt.d, got, tt.want)
		}
	}
	if got := countIn(math.MaxInt64, Rate{Count: 10, Per: 1}); got != math.MaxInt64 {
		t.Errorf("countIn(max, 10/ns) = %d, want saturated %d", got, int64(math.MaxInt64))
	}
}

// TestRefusedSharePromise: nothing refused while capacity covers n.
func TestRefusedSharePromise(t *testing.T) {
	tests := []struct{ n, capacity, want float64 }{
		{0, 5, 0}, {-1, 0, 0}, {10, 10, 0}, {10, 11, 0}, {10, 4, 0.6}, {10, 0, 1}, {10, math.Inf(1), 0},
	}
	for _, tt := range tests {
		if got := refusedShare(tt.n, tt.capacity); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("refusedShare(%v, %v) = %v, want %v", tt.n, tt.capacity, got, tt.want)
		}
	}
}

// TestRetriesThatFitPromise: each retry after its shortest wait; a jitter that
// can halve the sleep (full, equal) halves the wait; immediate is unbounded.
func TestRetriesThatFitPromise(t *testing.T) {
	const end = time.Second
	base := 100 * time.Millisecond
	tests := []struct {
		name string
		r    Retry
		want float64
	}{
		{"fixed", Retry{Kind: RetryFixed, Delay: 250 * time.Millisecond}, 4},
		{"fixed zero", Retry{Kind: RetryFixed}, math.Inf(1)},
		{"immediate", Retry{Kind: RetryImmediate, Delay: time.Second}, math.Inf(1)},
		{"exponential none", Retry{Kind: RetryExponential, Base: base}, 10},
		{"exponential full", Retry{Kind: RetryExponential, Base: base, Jitter: JitterFull}, 20},
		{"exponential equal", Retry{Kind: RetryExponential, Base: base, Jitter: JitterEqual}, 20},
		{"exponential decorrelated", Retry{Kind: RetryExponential, Base: base, Jitter: JitterDecorrelated}, 10},
	}
	for _, tt := range tests {
		if got := retriesThatFit(tt.r, end, 0); got != tt.want {
			t.Errorf("%s: retriesThatFit = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestAttemptsPerRequestPromise: (1 − p^m)/(1 − p) with m = max_attempts, or the
// retries that fit plus one when fewer fit (or none is set); at least
// 1 + p×refill/wait retries while quick ones meet the full limit; 1 without
// retries or refusals; m when everything is refused.
func TestAttemptsPerRequestPromise(t *testing.T) {
	const end = 10 * time.Second
	fixed := func(max int) Retry { return Retry{Kind: RetryFixed, Delay: time.Second, MaxAttempts: max} } // 10 fit
	indep := func(p, m float64) float64 { return (1 - math.Pow(p, m)) / (1 - p) }
	ms := float64(time.Millisecond)
	tests := []struct {
		name   string
		p      float64
		r      Retry
		refill float64
		want   float64
	}{
		{"no retry", 0.5, Retry{Kind: RetryNone, MaxAttempts: 5}, ms, 1},
		{"nothing refused", 0, fixed(5), ms, 1},
		{"max 3", 0.5, fixed(3), ms, indep(0.5, 3)},
		{"max equal to fit+1", 0.5, fixed(11), ms, indep(0.5, 11)},
		{"max beyond fit+1", 0.5, fixed(20), ms, indep(0.5, 11)},
		{"no max", 0.5, fixed(0), ms, indep(0.5, 11)},
		{"all refused, max 3", 1, fixed(3), ms, 3},
		{"all refused, no max", 1, fixed(0), ms, 11},
		{"all refused, max past fit", 1.5, fixed(50), ms, 11},
		// refill 10s, one retry a second: a refused request retries against the
		// full limit until a unit frees, capped by its m−1 retries.
		{"quick retries capped by m", 0.5, fixed(3), float64(end), 1 + 0.5*2},
		{"quick retries by refill", 0.1, fixed(0), 5 * float64(time.Second), 1 + 0.1*5},
	}
	for _, tt := range tests {
		if got := attemptsPerRequest(tt.p, tt.r, end, tt.refill, 0); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("%s: attemptsPerRequest = %v, want %v", tt.name, got, tt.want)
		}
	}
	// 10.5 retries fit in 10.5s: max_attempts 11 is under fit+1 and holds.
	if got, want := attemptsPerRequest(1, fixed(11), 10*time.Second+500*time.Millisecond, ms, 0), 11.0; got != want {
		t.Errorf("p=1, max 11, 10.5 retries fit: attemptsPerRequest = %v, want %v", got, want)
	}
}

// TestEstimateKeysRefillClientsPromise: "{i}" (or the default template) gives
// each client a key, any other template one per group; global is one key; the
// refill is the slowest limit's window/limit; no clients still counts one.
func TestEstimateKeysRefillClientsPromise(t *testing.T) {
	c := Config{Clients: []ClientGroup{
		{Name: "a", Count: 5, Identity: Identity{User: "u-{i}"}},
		{Name: "b", Count: 3, Identity: Identity{User: "shared"}},
		{Name: "c", Count: 2},
	}}
	if got := c.keys(KeyUser); got != 8 {
		t.Errorf("keys(user) = %d, want 5+1+2 = 8", got)
	}
	if got := c.keys(KeyGlobal); got != 1 {
		t.Errorf("keys(global) = %d, want 1", got)
	}
	if got := c.clients(); got != 10 {
		t.Errorf("clients() = %d, want 10", got)
	}
	if got := (Config{}).keys(KeyUser); got != 1 {
		t.Errorf("keys(user) without clients = %d, want 1", got)
	}
	if got := (Config{}).clients(); got != 1 {
		t.Errorf("clients() without clients = %d, want 1", got)
	}
	c.Limits = []Limit{
		{Policy: algorithms.Policy{Limit: 10, Window: time.Second}},
		{Policy: algorithms.Policy{Limit: 3, Window: time.Second}},
		{Policy: algorithms.Policy{Limit: 100, Window: time.Minute}},
	}
	if got, want := c.refill(), float64(time.Minute)/100; got != want {
		t.Errorf("refill() = %v, want %v (a minute over 100)", got, want)
	}
}

// TestPacingHoldsPromise: (λ−μ)T²/2w over the run, then B²/2μw while the
// backlog drains within the drain, or (BD − μD²/2)/w when it outlasts it; w at
// least one second; none when λ ≤ μ or the clients do not pace.
func TestPacingHoldsPromise(t *testing.T) {
	s := time.Second
	mk := func(rate int64, window, drain time.Duration, pace bool) Config {
		return Config{
			Duration: 10 * s, Drain: drain,
			Clients: []ClientGroup{{Name: "p", Count: 2, Pace: pace,
				Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: rate, Per: s}}}}},
			Limits: []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 4, Window: window}}},
		}
	}
	// λ = 10/s per client; μ = 4/s over 2 clients = 2/s; w = 1; T = 10:
	// B = 80, over the run 8×100/2 = 400 holds per client.
	tests := []struct {
		name string
		c    Config
		want float64
	}{
		{"no drain", mk(10, s, 0, true), 2 * 400},
		{"drains within the drain", mk(10, s, 100*s, true), 2 * (400 + 80*80/(2*2))},
		{"drains exactly at the drain's end", mk(10, s, 40*s, true), 2 * (400 + 80*80/(2*2))},
		{"outlasts the drain", mk(10, s, 20*s, true), 2 * (400 + (80*20 - 2*20*20/2))},
		// window 2.5s: μ = 4/2.5/2 = 0.8/s, w = ceil(2.5) = 3.
		{"long window", mk(10, 2500*time.Millisecond, 0, true), 2 * (9.2 * 100 / 6)},
		// window 0.5s: μ = 4/s, w at least 1.
		{"short window", mk(10, 500*time.Millisecond, 0, true), 2 * (6 * 100 / 2)},
		{"λ equals μ", mk(2, s, 0, true), 0},
		{"λ under μ", mk(1, s, 0, true), 0},
		{"not pacing", mk(10, s, 0, false), 0},
	}
	for _, tt := range tests {
		if got := tt.c.pacingHolds(tt.c.Clients[0]); math.Abs(got-tt.want) > 1e-6*max(1, tt.want) {
			t.Errorf("%s: pacingHolds = %v, want %v", tt.name, got, tt.want)
		}
	}
	c := mk(10, s, 0, true)
	c.Limits = nil
	if got := c.pacingHolds(c.Clients[0]); got != 0 {
		t.Errorf("no limit: pacingHolds = %v, want 0", got)
	}
}
