package algorithms

import (
	"math/big"
	"math/rand"
	"strings"
	"testing"
	"time"
)

// epoch0930 is a wall-clock t=0 half a minute past a whole minute.
var epoch0930 = time.Date(2026, 12, 1, 9, 0, 30, 0, time.UTC)

// Stepwise steps, by hand: 2 tokens per second, burst 3.
func TestStepwiseSteps(t *testing.T) {
	p := Policy{Limit: 2, Window: time.Second, Burst: 3}
	// Clock: steps at 1s, 2s, …
	runSteps[StepwiseBucketState](t, must(NewStepwiseBucket(p, AlignClock, time.Time{})), steps(
		admit(0), admit(100*ms), admit(200*ms), // full: 3 tokens
		refuse(500*ms, 500*ms),           // empty until the step at 1s brings 2
		refuse(500*ms, 1500*ms).costs(3), // 2 at 1s, min(3, 4) at 2s
		refuse(500*ms, Never).costs(4),   // above the burst
		admit(time.Second), admit(time.Second),
		refuse(time.Second, time.Second), // 0 left, 2 more at 2s
		refuse(2*time.Second-1, 1),
		admit(5*time.Second).costs(3), // steps at 2s … 5s: full again (3, not 8)
		refuse(5*time.Second, time.Second),
	))
	// First: the key's first request at 300ms sets the steps at 1.3s, 2.3s, …
	runSteps[StepwiseBucketState](t, must(NewStepwiseBucket(p, AlignFirst, time.Time{})), steps(
		admit(300*ms).costs(3),
		refuse(time.Second, 300*ms), // not at 1s: at 1.3s
		refuse(1300*ms-1, 1),
		admit(1300*ms), admit(1300*ms),
		refuse(1300*ms, time.Second), // next at 2.3s
		admit(10300*ms).costs(3),     // still on the phase of the first request, however long idle
		refuse(10400*ms, 900*ms),     // next at 11.3s, not 11.4s (no restart after an idle gap)
	))
	// Calendar: t=0 is 09:00:30 UTC; 1 per minute steps at each whole UTC minute, t = 30s, 90s, …
	runSteps[StepwiseBucketState](t, must(NewStepwiseBucket(Policy{Limit: 1, Window: time.Minute}, AlignCalendar, epoch0930)), steps(
		admit(0),
		refuse(time.Second, 29*time.Second), // the step at 09:01:00
		admit(30*time.Second),
		refuse(30*time.Second, time.Minute),
	))
}

// A waiting request is served at its turn: the bucket at that step, with the
// cap, then its tokens taken. 10 per second, burst 10, waits up to 1s. At 0:
// 5 taken (5 left); 8 wait for the step at 1s, which fills to min(10, 15) =
// 10, of which the 8 are taken: 2 are left at 1s, so 3 more wait for 2s.
// (Bucket4j 8.19's BlockingBucket takes the 8 at 0 into debt, −3, and the step
// at 1s brings it to 7: the 3 would pass at 1s, 15 at one instant.)
func TestStepwiseWaitServesAtTheTurn(t *testing.T) {
	b := must(NewStepwiseBucket(Policy{Limit: 10, Window: time.Second}, AlignClock, time.Time{}))
	w := must(WithWait(Chargeable[StepwiseBucketState](b), time.Second))
	runSteps[StepwiseBucketState](t, w, steps(
		admit(0).costs(5),
		delayed(0, time.Second).costs(8),
		delayed(500*ms, 500*ms),                    // 1 token: it waits behind the 8, for 1s too (2 left there)
		delayed(time.Second, time.Second).costs(2), // 1 left at 1s: the step at 2s
	))
	// Without a wait a request before the step a waiting request holds is refused until that step.
	var s StepwiseBucketState
	b.Decide(&s, 0, 10)
	w.Decide(&s, 0, 1) // waits for 1s
	if d := b.Decide(&s, 200*ms, 1); d.Verdict != Refuse || d.RetryAfter != 800*ms {
		t.Fatalf("Decide(t0+200ms) behind a waiting request = %v after %v, want refuse after 800ms", d.Verdict, d.RetryAfter)
	}
	if d := b.Decide(&s, time.Second, 9); d.Verdict != Admit {
		t.Fatalf("Decide(t0+1s, cost 9) = %v, want admit (10 at 1s, 1 taken by the waiting request)", d.Verdict)
	}
}

// A new key starting empty: 1 per second. Clock: the first request at 300ms
// waits for the step at 1s; first: for 1.3s.
func TestStepwiseStartEmpty(t *testing.T) {
	p := Policy{Limit: 1, Window: time.Second}
	clk := must(StartAt(Chargeable[StepwiseBucketState](must(NewStepwiseBucket(p, AlignClock, time.Time{}))), 0, 0))
	runSteps[StepwiseBucketState](t, clk, steps(refuse(300*ms, 700*ms), admit(time.Second), refuse(time.Second, time.Second)))
	first := must(StartAt(Chargeable[StepwiseBucketState](must(NewStepwiseBucket(p, AlignFirst, time.Time{}))), 0, Never))
	runSteps[StepwiseBucketState](t, first, steps(refuse(300*ms, time.Second), refuse(time.Second, 300*ms), admit(1300*ms)))
}

// stepModel is the stepwise bucket simulated step by step: a level, and the
// next step's instant found from the wall clock (time.Time.Truncate for
// windows dividing a day, big integers since the Unix epoch otherwise).
type stepModel struct {
	limit, burst int64
	w            time.Duration
	align        Align
	epoch        time.Time
	seen         bool
	level        int64
	next         time.Duration // the next step not yet applied
}

// firstStepAfter is the first step instant after t of a key first seen at t.
func (m *stepModel) firstStepAfter(t time.Duration) time.Duration {
	switch m.align {
	case AlignFirst:
		return t + m.w
	case AlignClock:
		return (t/m.w + 1) * m.w
	}
	wall := m.epoch.Add(t)
	if (24*time.Hour)%m.w == 0 { // multiples since year 1 are multiples since 1970
		return wall.Truncate(m.w).Add(m.w).Sub(m.epoch)
	}
	u := new(big.Int).Add(new(big.Int).Mul(big.NewInt(wall.Unix()), big.NewInt(1e9)), big.NewInt(int64(wall.Nanosecond())))
	q := new(big.Int).Div(u, big.NewInt(int64(m.w))) // floor for u ≥ 0
	q.Add(q, big.NewInt(1)).Mul(q, big.NewInt(int64(m.w)))
	return t + time.Duration(new(big.Int).Sub(q, u).Int64())
}

// advance applies every step at or before t.
func (m *stepModel) advance(t time.Duration) {
	for m.next <= t {
		if m.level == m.burst { // full: the steps up to t change nothing
			m.next += (t-m.next)/m.w*m.w + m.w
			return
		}
		m.level = min(m.burst, m.level+m.limit)
		m.next += m.w
	}
}

// until is the time from t to the step at which the level reaches want (≤ burst).
func (m *stepModel) until(t time.Duration, want int64) time.Duration {
	lv, at := m.level, m.next-m.w
	for lv < want {
		lv = min(m.burst, lv+m.limit)
		at += m.w
	}
	return at - t
}

func (m *stepModel) decide(t time.Duration, cost int64) Decision {
	if !m.seen {
		m.seen, m.level, m.next = true, m.burst, m.firstStepAfter(t)
	}
	m.advance(t)
	d := Decision{Limit: m.limit, RetryAfterExact: true}
	switch {
	case cost > m.burst:
		d.Verdict, d.RetryAfter = Refuse, Never
	case m.level < cost:
		d.Verdict, d.RetryAfter = Refuse, m.until(t, cost)
	default:
		m.level -= cost
	}
	d.Remaining = m.level
	if m.level < m.burst {
		d.Reset = m.until(t, m.burst)
	}
	return d
}

var stepwiseEpochs = []time.Time{time.Unix(0, 0).UTC(), epoch0930, time.Date(2031, 7, 4, 23, 59, 59, 999_999_937, time.UTC)}

// On arbitrary arrivals, each alignment, StepwiseBucket is the step model,
// Decision for Decision, and every RetryAfter is honoured exactly.
func TestStepwiseIsTheStepModel(t *testing.T) {
	quickCheck(t, func(a arrivals) bool {
		for _, align := range []Align{AlignClock, AlignFirst, AlignCalendar} {
			epoch := stepwiseEpochs[len(a.reqs)%len(stepwiseEpochs)]
			b := must(NewStepwiseBucket(a.p, align, epoch))
			m := &stepModel{limit: a.p.Limit, burst: a.p.EffectiveBurst(), w: a.p.Window, align: align, epoch: epoch}
			sub := subjectOf[StepwiseBucketState]("stepwise "+align.String(), b)
			for i, r := range a.reqs {
				call := lazy("%s %+v epoch %v request %d: Decide(%s, cost %d)", sub.name, a.p, epoch, i, t0offset(r.at), r.cost)
				before := sub.fork()
				got, want := sub.decide(r.at, r.cost), m.decide(r.at, r.cost)
				if got != want {
					t.Errorf("%s = %+v, the step model says %+v", call, got, want)
					return false
				}
				if !got.Admitted() && !honoured(t, before, call, r.at, r.cost, got) {
					return false
				}
			}
		}
		return true
	})
}

// With tokens_per_fill = Limit and fill_interval = Window (whole ms, ≥ 50ms),
// the clock-aligned StepwiseBucket admits and refuses as EnvoyLocal's stepwise
// refill, with the same RetryAfter and Remaining (Envoy's Reset is its
// header's whole seconds).
func TestStepwiseClockIsEnvoyStepwise(t *testing.T) {
	quickCheck(t, func(a arrivals) bool {
		p := a.p
		p.Window = time.Duration(50+int64(p.Window)%2000) * time.Millisecond
		e := must(NewEnvoyLocal(EnvoyLocalParams{MaxTokens: p.EffectiveBurst(), TokensPerFill: p.Limit, FillInterval: p.Window, Refill: EnvoyStepwise}))
		b := must(NewStepwiseBucket(p, AlignClock, time.Time{}))
		var es EnvoyLocalState
		var bs StepwiseBucketState
		data := make([]byte, 4*len(a.reqs))
		rand.New(rand.NewSource(int64(len(a.reqs)))).Read(data)
		var prev time.Duration
		for i, r := range trafficFrom(p, data) { // arrivals on the scale of this window
			if i%3 == 0 { // on a step, a third of the time
				r.at = (r.at + p.Window - 1) / p.Window * p.Window
			}
			r.at = max(r.at, prev)
			prev = r.at
			de, db := e.Decide(&es, r.at, r.cost), b.Decide(&bs, r.at, r.cost)
			if de.Verdict != db.Verdict || de.RetryAfter != db.RetryAfter || de.Remaining != db.Remaining {
				t.Errorf("%+v request %d: Decide(%s, cost %d): envoy %+v, stepwise %+v", p, i, t0plus(r.at), r.cost, de, db)
				return false
			}
		}
		return true
	})
}

// stepwiseRules are the stepwise bucket under each alignment, bare and wrapped.
func stepwiseRules(p Policy) []func() subject {
	var out []func() subject
	for _, align := range []Align{AlignClock, AlignFirst, AlignCalendar} {
		mk := func() Chargeable[StepwiseBucketState] { return must(NewStepwiseBucket(p, align, epoch0930)) }
		name := "stepwise " + align.String()
		out = append(out,
			func() subject { return subjectOf(name, mk()) },
			func() subject { return subjectOf[StepwiseBucketState](name+" penalty", WithPenalty(mk())) },
			func() subject {
				return subjectOf[BanState[StepwiseBucketState]](name+" ban", must(WithBan(mk(), max(p.Window/3, 1))))
			},
			func() subject {
				return subjectOf[StepwiseBucketState](name+" clock", must(WithClock(mk(), time.Millisecond)))
			},
			func() subject {
				return subjectOf[StepwiseBucketState](name+" wait", must(WithWait(mk(), p.Window)))
			},
			func() subject {
				return subjectOf[StepwiseBucketState](name+" start empty", must(StartAt(mk(), 0, 0)))
			},
			func() subject {
				return subjectOf[StepwiseBucketState](name+" start 1 wait", must(WithWait(Chargeable[StepwiseBucketState](must(StartAt(mk(), 1, 0))), 2*p.Window)))
			},
		)
	}
	return out
}

// Peek is Decide's answer with no effect, and a twin that drops idle states
// answers as one that never does, for the stepwise bucket and its options.
func TestStepwisePeekAndEviction(t *testing.T) {
	quickCheck(t, func(a arrivals) bool {
		for _, mk := range stepwiseRules(a.p) {
			if !checkPeekAndEviction(t, mk(), mk, a.reqs) {
				return false
			}
		}
		return true
	})
}

// With Penalty a stepwise key admits only what it admits without, and a
// refusal's RetryAfter, the charged state's, is honoured exactly.
func TestStepwisePenaltyNeverAdmitsMore(t *testing.T) {
	quickCheck(t, func(a arrivals) bool {
		for _, align := range []Align{AlignClock, AlignFirst, AlignCalendar} {
			bare := subjectOf[StepwiseBucketState]("stepwise", must(NewStepwiseBucket(a.p, align, epoch0930)))
			pen := subjectOf[StepwiseBucketState]("stepwise penalty", WithPenalty(Chargeable[StepwiseBucketState](must(NewStepwiseBucket(a.p, align, epoch0930)))))
			for i, r := range a.reqs {
				db, dp := bare.decide(r.at, r.cost), pen.decide(r.at, r.cost)
				call := lazy("%v %+v request %d: Decide(%s, cost %d)", align, a.p, i, t0offset(r.at), r.cost)
				if dp.Admitted() && !db.Admitted() {
					t.Errorf("%s admitted with penalty, refused without", call)
					return false
				}
				if !dp.Admitted() && !honoured(t, pen, lazy("%s with penalty", call), r.at, r.cost, dp) { // the charged state's answer
					return false
				}
			}
		}
		return true
	})
}

// Under Wait, a delayed request's Delay is at most the wait and is its turn:
// the bare bucket admits it at now+Delay and refuses it 1ns earlier, and the
// state after the wait is the bare bucket's after admitting it at its turn.
// A refused request changes nothing (but a new key's phase) and would wait
// longer than the wait.
func TestStepwiseWaitProperties(t *testing.T) {
	quickCheck(t, func(a arrivals) bool {
		for _, align := range []Align{AlignClock, AlignFirst, AlignCalendar} {
			b := must(NewStepwiseBucket(a.p, align, epoch0930))
			maxWait := a.p.Window + a.p.Window/2
			w := must(WithWait(Chargeable[StepwiseBucketState](b), maxWait))
			var s StepwiseBucketState
			for i, r := range a.reqs {
				call := lazy("%v %+v request %d: Decide(%s, cost %d)", align, a.p, i, t0offset(r.at), r.cost)
				pre := s
				d := w.Decide(&s, r.at, r.cost)
				switch d.Verdict {
				case Delay:
					if d.Delay <= 0 || d.Delay > maxWait {
						t.Errorf("%s: Delay %v, want in (0, %v]", call, d.Delay, maxWait)
						return false
					}
					at, early := pre, pre
					if got := b.Decide(&at, r.at+d.Delay, r.cost); !got.Admitted() {
						t.Errorf("%s: Delay %v, but the bare bucket refuses it then", call, d.Delay)
						return false
					}
					if got := b.Decide(&early, r.at+d.Delay-1, r.cost); got.Admitted() {
						t.Errorf("%s: Delay %v, but the bare bucket admits it 1ns earlier", call, d.Delay)
						return false
					}
					if at != s {
						t.Errorf("%s: after the wait the state is %+v, the bare bucket's at its turn %+v", call, s, at)
						return false
					}
				case Refuse:
					if s != pre && (pre.seen || s.missing != 0) { // a first request sets the key's phase only
						t.Errorf("%s: a refusal changed the state from %+v to %+v", call, pre, s)
						return false
					}
					if d.RetryAfter != Never && d.RetryAfter <= maxWait {
						t.Errorf("%s: refused with RetryAfter %v, within the wait %v", call, d.RetryAfter, maxWait)
						return false
					}
				}
			}
		}
		return true
	})
}

func TestNewStepwiseBucketErrors(t *testing.T) {
	if _, err := NewStepwiseBucket(Policy{Limit: 0, Window: time.Second}, Align(9), time.Time{}); err == nil ||
		!strings.HasPrefix(err.Error(), "stepwise token bucket: ") || !strings.Contains(err.Error(), "limit must be positive") ||
		!strings.Contains(err.Error(), "unknown alignment Align(9) (want clock, first or calendar)") {
		t.Fatalf("NewStepwiseBucket error = %v, want both problems", err)
	}
}
