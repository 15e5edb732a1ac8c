package sim

import (
	"math/rand/v2"
	"testing"
	"testing/quick"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// One request at 0 on one server with a queue, a client timeout of 200ms and
// fixed retries 50ms apart, at most 3 attempts. With a service of 300ms:
// attempt 1 is sent at 0 and given up at 200ms+1ns; attempt 2 is sent 50ms
// later, at 250ms+1ns, waits for the server until 300ms, and is given up at
// 450ms+2ns; attempt 3, sent at 500ms+2ns, is given up at 700ms+3ns, the
// last. The server serves all three (at 300, 600 and 900ms): 900ms wasted,
// no success. An answer heard at exactly the timeout is in time (service
// 200ms); a nanosecond later is not: each of the three is heard at its
// timeout + 1ns, late. With a 40ms round trip, a service of 160ms is heard at
// 200ms; of 161ms, at 201ms, too late, and so are the retries (each 250ms+1ns
// after the last, reaching the server 20ms later). A policy that retries only
// 429 gives the timed-out attempt up.
func TestTimeoutRetriesAndWastes(t *testing.T) {
	for _, tt := range []struct {
		name              string
		service, rtt      time.Duration
		on                []int
		attempts          []time.Duration // when each attempt reaches the limiter
		timedOut, served  int64
		succeeded, gaveUp int64
		wasted            time.Duration
	}{
		{"slow service", 300 * time.Millisecond, 0, nil, []time.Duration{0, 250*time.Millisecond + 1, 500*time.Millisecond + 2}, 3, 3, 0, 1, 900 * time.Millisecond},
		{"heard at the timeout", 200 * time.Millisecond, 0, nil, []time.Duration{0}, 0, 1, 1, 0, 0},
		{"a nanosecond late", 200*time.Millisecond + 1, 0, nil, []time.Duration{0, 250*time.Millisecond + 1, 500*time.Millisecond + 2}, 3, 3, 0, 1, 600*time.Millisecond + 3},
		{"in time over a round trip", 160 * time.Millisecond, 40 * time.Millisecond, nil, []time.Duration{20 * time.Millisecond}, 0, 1, 1, 0, 0},
		{"late over a round trip", 161 * time.Millisecond, 40 * time.Millisecond, nil,
			[]time.Duration{20 * time.Millisecond, 270*time.Millisecond + 1, 520*time.Millisecond + 2}, 3, 3, 0, 1, 483 * time.Millisecond},
		{"504 not retried", 300 * time.Millisecond, 0, []int{429}, []time.Duration{0}, 1, 1, 0, 1, 300 * time.Millisecond},
	} {
		cfg := Config{Duration: 2 * time.Second, Lanes: []LaneKind{LaneTokenBucket},
			Limits: []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 100, Window: time.Second}}},
			Clients: []ClientGroup{{Count: 1, RTT: tt.rtt, Timeout: 200 * time.Millisecond, Arrivals: []Arrival{{Kind: ArrivalBurst, Count: 1}},
				Retry: Retry{Kind: RetryFixed, Delay: 50 * time.Millisecond, MaxAttempts: 3, On: tt.on}}},
			Backend: &Backend{Capacity: 1, QueueSize: 10, Service: Service{Mean: tt.service}}}
		var log traceLog
		l := mustRun(t, cfg, Options{Trace: &log}).Lanes[0]
		var at []time.Duration
		for _, r := range log.recs {
			if r.Event != TraceSuccess && r.Attempt > len(at) {
				at = append(at, r.At)
			}
		}
		if len(at) != len(tt.attempts) {
			t.Errorf("%s: attempts at %v, want %v", tt.name, at, tt.attempts)
		} else {
			for i := range at {
				if at[i] != tt.attempts[i] {
					t.Errorf("%s: attempt %d at %v, want %v", tt.name, i+1, at[i], tt.attempts[i])
				}
			}
		}
		if l.TimedOut != tt.timedOut || l.Backend.Served != tt.served || l.Succeeded != tt.succeeded || l.GaveUp != tt.gaveUp ||
			l.WastedWork != tt.wasted || l.Classes[0].TimedOut != tt.timedOut || l.Abandoned != 0 {
			t.Errorf("%s: timed out %d served %d succeeded %d gave up %d wasted %v abandoned %d; want %d, %d, %d, %d, %v, 0",
				tt.name, l.TimedOut, l.Backend.Served, l.Succeeded, l.GaveUp, l.WastedWork, l.Abandoned, tt.timedOut, tt.served, tt.succeeded, tt.gaveUp, tt.wasted)
		}
	}
}

// On arbitrary worlds of clients with a timeout, a deadline or not, a
// retry budget or not, on a backend that is often slower than the timeout:
// no request makes more than max_attempts attempts, no client retries more
// than its budget allows, every request is accounted for once, and the
// wasted work is the service of every attempt the backend served that did
// not succeed (a constant service), in every lane.
func TestTimeoutProperties(t *testing.T) {
	var timedOut, retriedAfter int64 // over every world: the test proves something
	f := func(seed uint64) bool {
		rnd := rand.New(rand.NewPCG(seed, 29))
		ms := func(n int) time.Duration { return time.Duration(1+rnd.IntN(n)) * time.Millisecond }
		service := ms(100)
		budget := &RetryBudget{Ratio: float64(rnd.IntN(5)) / 10, MinPerSecond: 1 + rnd.IntN(3), TTL: 10 * time.Second}
		if rnd.IntN(3) == 0 {
			budget = nil
		}
		grp := ClientGroup{Count: 1 + rnd.IntN(5), RTT: ms(30) - time.Millisecond, Timeout: 30*time.Millisecond + ms(120),
			Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: int64(5 + rnd.IntN(30)), Per: time.Second}}},
			Retry: Retry{Kind: []RetryKind{RetryImmediate, RetryFixed, RetryExponential}[rnd.IntN(3)], Delay: ms(40), Base: ms(40), Cap: time.Second,
				Jitter: JitterFull, MaxAttempts: 1 + rnd.IntN(5), Budget: budget}}
		if rnd.IntN(2) == 0 {
			grp.Deadline = ms(900)
		}
		if rnd.IntN(3) == 0 {
			grp.RTTKind, grp.Timeout = ServiceExponential, ms(60) // its way there may outlast the timeout
		}
		cfg := Config{Duration: 2 * time.Second, Drain: 2 * time.Second, Seed: seed, Lanes: []LaneKind{LaneTokenBucket, LaneAIMD},
			Limits:  []Limit{{Key: KeyUser, Policy: algorithms.Policy{Limit: int64(3 + rnd.IntN(20)), Window: time.Second}}},
			Clients: []ClientGroup{grp},
			Backend: &Backend{Capacity: 1 + rnd.IntN(3), QueueSize: rnd.IntN(20), Service: Service{Mean: service}}}
		var log traceLog
		r := mustRun(t, cfg, Options{Trace: &log})
		var b retryBudget
		if budget != nil {
			b = newRetryBudget(*budget)
		}
		for li, l := range r.Lanes {
			most := map[[2]int64]int{}
			requests, retries := map[int]int64{}, map[int]int64{}
			seen := map[[3]int64]bool{}
			for _, rec := range log.recs {
				a := [3]int64{int64(rec.Client), rec.Request, int64(rec.Attempt)}
				if rec.LaneIndex != li || seen[a] {
					continue // an attempt's later records: its shed or success
				}
				seen[a] = true
				k := [2]int64{int64(rec.Client), rec.Request}
				most[k] = max(most[k], rec.Attempt)
				if rec.Attempt == 1 {
					requests[rec.Client]++
				} else {
					retries[rec.Client]++
				}
			}
			if l.Lane == LaneTokenBucket { // each attempt has one admit or refusal: count them
				clear(most)
				var sum int64
				for _, rec := range log.recs {
					if rec.LaneIndex == li && (rec.Event == TraceAdmit || rec.Event == TraceRefuse) {
						most[[2]int64{int64(rec.Client), rec.Request}]++
						sum++
					}
				}
				if sum != l.Attempts {
					t.Logf("seed %d %s: %d admits and refusals, %d attempts", seed, l.Name, sum, l.Attempts)
					return false
				}
			}
			for k, n := range most {
				if n > grp.Retry.MaxAttempts {
					t.Logf("seed %d %s: request %v made %d attempts, max %d", seed, l.Name, k, n, grp.Retry.MaxAttempts)
					return false
				}
			}
			for c, n := range retries {
				if budget != nil && n*b.withdrawal > requests[c]*b.deposit+b.reserve {
					t.Logf("seed %d %s: client %d retried %d times on %d requests", seed, l.Name, c, n, requests[c])
					return false
				}
			}
			switch {
			case l.Succeeded+l.GaveUp+l.Pending != l.Unique || l.Pending < 0:
				t.Logf("seed %d %s: %d succeeded + %d gave up + %d pending ≠ %d", seed, l.Name, l.Succeeded, l.GaveUp, l.Pending, l.Unique)
			case l.WastedWork != time.Duration(l.Backend.Served-l.Succeeded)*service:
				t.Logf("seed %d %s: wasted %v, %d served and %d succeeded of %v", seed, l.Name, l.WastedWork, l.Backend.Served, l.Succeeded, service)
			case l.TimedOut > l.Attempts || l.Classes[0].TimedOut != l.TimedOut:
				t.Logf("seed %d %s: %d timed out of %d attempts", seed, l.Name, l.TimedOut, l.Attempts)
			default:
				timedOut += l.TimedOut
				if l.TimedOut > 0 && l.Attempts > l.Unique {
					retriedAfter++
				}
				continue
			}
			return false
		}
		return true
	}
	if err := quick.Check(f, &quick.Config{MaxCount: 30}); err != nil {
		t.Error(err)
	}
	if timedOut == 0 || retriedAfter < 10 {
		t.Errorf("%d attempts timed out, %d lanes retried after some: the worlds test little", timedOut, retriedAfter)
	}
}
