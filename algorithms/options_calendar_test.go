package algorithms

import (
	"math/big"
	"testing"
	"time"
)

// AlignCalendar steps, by hand: t=0 is 09:00:30 UTC.
func TestAlignCalendarSteps(t *testing.T) {
	// 2 per minute: windows at each whole UTC minute, t = −30s, 30s, 90s, …
	fw := must(NewCalendarFixedWindow(Policy{Limit: 2, Window: time.Minute}, epoch0930))
	runSteps[AlignedFixedWindowState](t, fw, steps(
		admit(0), admit(10*time.Second),
		refuse(29*time.Second, time.Second), // the window [09:00, 09:01) ends at t = 30s
		admit(30*time.Second), admit(89*time.Second),
		refuse(89*time.Second, time.Second),
		refuse(89*time.Second, Never).costs(3),
	))
	// 1 per day: the window ends at the next UTC midnight, 14h59m30s after 09:00:30.
	day := must(NewCalendarFixedWindow(Policy{Limit: 1, Window: 24 * time.Hour}, epoch0930))
	runSteps[AlignedFixedWindowState](t, day, steps(admit(0), refuse(time.Hour, 13*time.Hour+59*time.Minute+30*time.Second)))
	// 7 minutes does not divide a day: multiples of 7m since 1970-01-01. 09:00:30
	// on 2026-12-01 is Unix 1796115630 s; 1796115630 mod 420 = 330, so a window
	// began at 08:55:00 and the next begins at 09:02:00, t = 1m30s.
	seven := must(NewCalendarFixedWindow(Policy{Limit: 1, Window: 7 * time.Minute}, epoch0930))
	runSteps[AlignedFixedWindowState](t, seven, steps(admit(0), refuse(time.Second, time.Minute+29*time.Second), admit(time.Minute+30*time.Second)))
}

// windowModel counts admitted cost per calendar window, each window named by
// its start found from the wall clock: time.Time.Truncate for windows that
// divide a day, big integers since the Unix epoch otherwise.
type windowModel struct {
	limit  int64
	w      time.Duration
	epoch  time.Time
	counts map[time.Duration]int64 // window start (t) → admitted cost
}

func (m *windowModel) start(t time.Duration) time.Duration {
	wall := m.epoch.Add(t)
	if (24*time.Hour)%m.w == 0 {
		return wall.Truncate(m.w).Sub(m.epoch)
	}
	u := new(big.Int).Add(new(big.Int).Mul(big.NewInt(wall.Unix()), big.NewInt(1e9)), big.NewInt(int64(wall.Nanosecond())))
	r := new(big.Int).Mod(u, big.NewInt(int64(m.w)))
	return t - time.Duration(r.Int64())
}

func (m *windowModel) decide(t time.Duration, cost int64) Decision {
	st := m.start(t)
	n := m.counts[st]
	d := Decision{Limit: m.limit, RetryAfterExact: true}
	if n+cost > m.limit {
		d.Verdict, d.RetryAfter = Refuse, st+m.w-t
		if cost > m.limit {
			d.RetryAfter = Never
		}
	} else {
		n += cost
		m.counts[st] = n
	}
	d.Remaining = m.limit - n
	if n > 0 {
		d.Reset = st + m.w - t
	}
	return d
}

// On arbitrary arrivals and epochs, the calendar-aligned fixed window is the
// per-window count, Decision for Decision, and honours its RetryAfter exactly.
func TestAlignCalendarIsTheWindowCount(t *testing.T) {
	windows := []time.Duration{time.Second, time.Minute, time.Hour, 24 * time.Hour, 7 * time.Minute, 15 * time.Minute}
	quickCheck(t, func(a arrivals) bool {
		p := a.p
		if len(a.reqs)%2 == 0 { // the calendar's own windows, half the time
			p.Window = windows[len(a.reqs)/2%len(windows)]
		}
		epoch := stepwiseEpochs[len(a.reqs)%len(stepwiseEpochs)]
		fw := must(NewCalendarFixedWindow(p, epoch))
		m := &windowModel{limit: p.Limit, w: p.Window, epoch: epoch, counts: map[time.Duration]int64{}}
		sub := subjectOf[AlignedFixedWindowState]("calendar", fw)
		scale := max(p.Window/a.p.Window, 1) // spread the arrivals over a few of the calendar's windows
		for i, r := range a.reqs {
			if r.at > (1<<60)/scale { // beyond 36 years
				break
			}
			at := r.at * scale
			call := lazy("%+v epoch %v request %d: Decide(%s, cost %d)", p, epoch, i, t0offset(at), r.cost)
			before := sub.fork()
			got, want := sub.decide(at, r.cost), m.decide(at, r.cost)
			if got != want {
				t.Errorf("%s = %+v, the window count says %+v", call, got, want)
				return false
			}
			if !got.Admitted() && !honoured(t, before, call, at, r.cost, got) {
				return false
			}
		}
		mk := func() subject {
			return subjectOf[AlignedFixedWindowState]("calendar", must(NewCalendarFixedWindow(p, epoch)))
		}
		return checkPeekAndEviction(t, mk(), mk, a.reqs)
	})
}

// With t=0 at 1970-01-01T00:00:00Z, calendar windows that divide a day are the
// clock's: the same Decisions, Charges and Idle on arbitrary arrivals.
func TestAlignCalendarAtTheUnixEpochIsClock(t *testing.T) {
	windows := []time.Duration{time.Millisecond, time.Second, 3 * time.Second, time.Minute, time.Hour, 24 * time.Hour}
	quickCheck(t, func(a arrivals) bool {
		p := a.p
		p.Window = windows[len(a.reqs)%len(windows)]
		clk := must(NewAlignedFixedWindow(p, AlignClock))
		cal := must(NewCalendarFixedWindow(p, time.Unix(0, 0).UTC()))
		var cs, ks AlignedFixedWindowState
		for i, r := range a.reqs {
			if i%5 == 4 {
				clk.Charge(&cs, r.at, r.cost)
				cal.Charge(&ks, r.at, r.cost)
				continue
			}
			if d, e := clk.Decide(&cs, r.at, r.cost), cal.Decide(&ks, r.at, r.cost); d != e || clk.Idle(&cs, r.at) != cal.Idle(&ks, r.at) {
				t.Errorf("%+v request %d: Decide(%s, cost %d): clock %+v, calendar %+v", p, i, t0plus(r.at), r.cost, d, e)
				return false
			}
		}
		return true
	})
}
