package sim

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// attemptsAt lists when each attempt of request 2 of client 0 was made.
func attemptsAt(log *traceLog, lane LaneKind) []time.Duration {
	var at []time.Duration
	for _, r := range log.recs {
		if r.Lane == lane && r.Client == 0 && r.Request == 2 && r.Event != TraceSuccess && r.Attempt > len(at) {
			at = append(at, r.At)
		}
	}
	return at
}

// A GCRA limit of 5/s (burst 1) refuses the second of two requests at t=0 with an
// exact Retry-After of 200ms; the header says "1". A client honouring it waits
// the header's second by default, the exact 200ms only when told to.
func TestClientWaitsTheRetryAfterHeaderSays(t *testing.T) {
	for _, tt := range []struct {
		mode RetryAfterMode
		want time.Duration
	}{{RetryAfterHeader, time.Second}, {RetryAfterExact, 200 * time.Millisecond}} {
		cfg := Config{Duration: 2 * time.Second, Lanes: []LaneKind{LaneGCRA},
			Limits: []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 5, Window: time.Second, Burst: 1}}},
			Clients: []ClientGroup{{Count: 1, Arrivals: []Arrival{{Kind: ArrivalBurst, Count: 2}},
				Retry: Retry{Kind: RetryFixed, Delay: time.Millisecond, MaxAttempts: 2, HonorRetryAfter: true, RetryAfter: tt.mode}}}}
		var log traceLog
		lane := mustRun(t, cfg, Options{Trace: &log}).Lanes[0]
		at := attemptsAt(&log, LaneGCRA)
		if len(at) != 2 || at[1] != tt.want {
			t.Errorf("retry_after %v: request 2 attempted at %v, want [0s %v]", tt.mode, at, tt.want)
		}
		if ra := lane.RetryAfter; ra.Given != 1 || ra.RetriedAt != 1 || ra.SucceededAt != 1 {
			t.Errorf("retry_after %v: Retry-After stats %+v, want 1 given, 1 retried at it, 1 admitted then", tt.mode, ra)
		}
	}
}

// A backend that sheds may send Retry-After on its 503; a client honouring it
// comes back when told, rounded up to the header's whole seconds.
func TestSheddingBackendSendsRetryAfter(t *testing.T) {
	for _, tt := range []struct {
		retryAfter time.Duration
		want       time.Duration // when request 2 retries
	}{{0, time.Millisecond}, {1500 * time.Millisecond, 2 * time.Second}} {
		cfg := Config{Duration: 3 * time.Second, Lanes: []LaneKind{LaneTokenBucket},
			Limits: []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 100, Window: time.Second}}},
			Clients: []ClientGroup{{Count: 1, Arrivals: []Arrival{{Kind: ArrivalBurst, Count: 2}},
				Retry: Retry{Kind: RetryFixed, Delay: time.Millisecond, MaxAttempts: 2, HonorRetryAfter: true}}},
			Backend: &Backend{Capacity: 1, Service: Service{Mean: 500 * time.Millisecond}, RetryAfter: tt.retryAfter},
		}
		var log traceLog
		lane := mustRun(t, cfg, Options{Trace: &log}).Lanes[0]
		if at := attemptsAt(&log, LaneTokenBucket); len(at) != 2 || at[1] != tt.want {
			t.Errorf("backend retry_after %v: request 2 attempted at %v, want [0s %v]", tt.retryAfter, at, tt.want)
		}
		wantGiven := int64(0)
		if tt.retryAfter > 0 {
			wantGiven = 1
		}
		if lane.RetryAfter.Given != wantGiven {
			t.Errorf("backend retry_after %v: %d answers carried Retry-After, want %d", tt.retryAfter, lane.RetryAfter.Given, wantGiven)
		}
	}
}

// AIMD over its concurrency limit sheds with the Retry-After it is set to send.
func TestAIMDSendsRetryAfter(t *testing.T) {
	cfg := Config{Duration: 3 * time.Second, Lanes: []LaneKind{LaneAIMD},
		Limits: []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 100, Window: time.Second}}},
		AIMD:   AIMDSettings{Initial: 1, Min: 1, Max: 1, RetryAfter: 300 * time.Millisecond},
		Clients: []ClientGroup{{Count: 1, Arrivals: []Arrival{{Kind: ArrivalBurst, Count: 2}},
			Retry: Retry{Kind: RetryFixed, Delay: time.Millisecond, MaxAttempts: 2, HonorRetryAfter: true}}},
		Backend: &Backend{Capacity: 4, Service: Service{Mean: 500 * time.Millisecond}},
	}
	var log traceLog
	lane := mustRun(t, cfg, Options{Trace: &log}).Lanes[0]
	if at := attemptsAt(&log, LaneAIMD); len(at) != 2 || at[1] != time.Second {
		t.Errorf("request 2 attempted at %v, want [0s 1s]: the 503's Retry-After of 300ms reads 1 in the header", at)
	}
	if ra := lane.RetryAfter; ra.Given != 1 || ra.RetriedAt != 1 || ra.SucceededAt != 1 {
		t.Errorf("Retry-After stats %+v, want 1 given, 1 retried at it, 1 admitted then", ra)
	}
}

func TestHeaderRetryAfterRoundsUp(t *testing.T) {
	for _, tt := range []struct{ in, want time.Duration }{
		{1, time.Second}, {200 * time.Millisecond, time.Second}, {time.Second, time.Second},
		{time.Second + 1, 2 * time.Second}, {59*time.Second + 999*time.Millisecond, time.Minute},
	} {
		if got := HeaderRetryAfter(tt.in); got != tt.want {
			t.Errorf("HeaderRetryAfter(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
