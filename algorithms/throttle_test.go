package algorithms

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

func TestThrottleSteps(t *testing.T) {
	th := must(NewThrottle(ThrottleConfig{K: 2, Period: 4 * time.Second, Buckets: 4}))
	var s ThrottleState
	type op struct {
		at       time.Duration
		accepted bool    // the answer was an accept, not a refusal
		wantP    float64 // DropProbability after the operation
	}
	ops := []op{
		{at: 0, wantP: 1.0 / 2},                 // (1 − 2×0)/(1+1)
		{at: 0, accepted: true, wantP: 0},       // (2 − 2×1)/3
		{at: 500 * ms, wantP: 1.0 / 4},          // (3−2)/4
		{at: 1500 * ms, wantP: 2.0 / 5},         // (4−2)/5
		{at: 2500 * ms, wantP: 3.0 / 6},         // (5−2)/6
		{at: 3999 * ms, wantP: 4.0 / 7},         // (6−2)/7: buckets 0..3 all count
		{at: 4 * time.Second, wantP: 4.0 / 5},   // bucket 0 (3 requests, the accept) aged out
		{at: 100 * time.Second, wantP: 1.0 / 2}, // everything aged out but this request
	}
	for i, o := range ops {
		th.Answered(&s, o.at, o.accepted)
		if got := th.DropProbability(&s, o.at); math.Abs(got-o.wantP) > 1e-12 {
			t.Fatalf("op %d: DropProbability(t0+%v) = %v, want %v", i, o.at, got, o.wantP)
		}
	}
}

func TestThrottleAllowDropsBelowP(t *testing.T) {
	th := must(NewThrottle(ThrottleConfig{}))
	var s ThrottleState
	for range 9 {
		th.Answered(&s, 0, false) // 9 refusals, no accepts: p = 9/10
	}
	tests := []struct {
		u    float64
		want bool
	}{{0, false}, {0.899, false}, {0.9, true}, {0.95, true}}
	for _, tt := range tests {
		s2 := s
		s2.counts = append([]throttleCount(nil), s.counts...)
		if got := th.Allow(&s2, 0, tt.u); got != tt.want {
			t.Errorf("p = 0.9: Allow(t0, u=%v) = %v, want %v", tt.u, got, tt.want)
		}
		wantRequests := int64(9)
		if !tt.want {
			wantRequests++ // a local drop is answered, and counted, at once
		}
		if req, _ := th.totals(&s2, 0); req != wantRequests {
			t.Errorf("after Allow(t0, u=%v) = %v: %d requests counted, want %d (a sent request is counted when answered)", tt.u, tt.want, req, wantRequests)
		}
	}
}

// TestThrottleCountsAtTheAnswer is the case of a polite client whose burst is
// all in flight at once: requests sent but not yet answered are neither
// requests nor accepts, so the burst is never judged against itself.
func TestThrottleCountsAtTheAnswer(t *testing.T) {
	th := must(NewThrottle(ThrottleConfig{}))
	var s ThrottleState
	for i := range 10 {
		at := time.Duration(i) * 10 * ms
		if !th.Allow(&s, at, 0) { // u = 0: dropped whenever p > 0
			t.Fatalf("request %d at t0+%v dropped with nothing answered yet (p = %v)", i, at, th.DropProbability(&s, at))
		}
	}
	for i := range 10 {
		th.Answered(&s, 200*ms+time.Duration(i)*10*ms, true)
	}
	if p := th.DropProbability(&s, time.Second); p != 0 {
		t.Errorf("after 10 accepts: DropProbability = %v, want 0", p)
	}
}

func TestNewThrottleReportsEveryError(t *testing.T) {
	_, err := NewThrottle(ThrottleConfig{K: 0.5, Period: -1, Buckets: -2})
	if err == nil {
		t.Fatal("NewThrottle(bad config) = nil error")
	}
	for _, want := range []string{"k must", "period", "buckets"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("NewThrottle error %q does not mention %q", err, want)
		}
	}
	if _, err := NewThrottle(ThrottleConfig{Period: time.Minute, Buckets: 7}); err == nil {
		t.Error("NewThrottle(1m in 7 buckets) = nil error, want one: buckets must be whole nanoseconds")
	}
}

// checkThrottle replays random requests and accepts and compares
// DropProbability with the formula recomputed from the raw history, with the
// same bucket boundaries: events in buckets (b−Buckets, b], b = now/width.
func checkThrottle(t *testing.T, seed uint64, k float64, buckets int, width time.Duration) {
	cfg := ThrottleConfig{K: 1 + math.Mod(math.Abs(k), 4), Buckets: 1 + (buckets%30+30)%30}
	cfg.Period = time.Duration(cfg.Buckets) * (1 + (width%time.Second+time.Second)%time.Second)
	th, err := NewThrottle(cfg)
	if err != nil {
		t.Skip(err)
	}
	type event struct {
		at     time.Duration
		accept bool // an accepted answer; otherwise a refusal or a local drop
	}
	var history []event
	var s ThrottleState
	r := rand.New(rand.NewPCG(seed, 1))
	var now time.Duration
	w := cfg.Period / time.Duration(cfg.Buckets)
	for i := range 500 {
		now += time.Duration(r.Int64N(int64(cfg.Period)/8 + 1))
		u := r.Float64()
		var want float64
		{
			var req, acc int64
			b := int64(now / w)
			for _, e := range history {
				if eb := int64(e.at / w); eb > b-int64(cfg.Buckets) && eb <= b {
					req++
					if e.accept {
						acc++
					}
				}
			}
			want = max(0, (float64(req)-cfg.K*float64(acc))/float64(req+1))
		}
		if got := th.DropProbability(&s, now); got != want {
			t.Fatalf("%+v event %d: DropProbability(t0+%v) = %v, want %v", cfg, i, now, got, want)
		}
		switch r.IntN(3) {
		case 0, 1:
			accepted := r.IntN(2) == 0
			th.Answered(&s, now, accepted)
			history = append(history, event{now, accepted})
			continue
		}
		sent := th.Allow(&s, now, u)
		if sent != (u >= want) {
			t.Fatalf("%+v event %d: Allow(t0+%v, u=%v) = %v with p = %v", cfg, i, now, u, sent, want)
		}
		if !sent {
			history = append(history, event{now, false})
		}
	}
}

func TestThrottleMatchesRawHistory(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for range 300 {
		checkThrottle(t, r.Uint64(), r.Float64()*4, r.IntN(30), time.Duration(r.Int64N(int64(time.Second))))
	}
}

func FuzzThrottle(f *testing.F) {
	f.Add(uint64(1), 2.0, 24, int64(5*time.Second))
	f.Add(uint64(2), 1.1, 1, int64(time.Millisecond))
	f.Fuzz(func(t *testing.T, seed uint64, k float64, buckets int, width int64) {
		checkThrottle(t, seed, k, buckets, time.Duration(width))
	})
}
