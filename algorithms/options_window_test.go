package algorithms

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"testing/quick"
	"time"
)

func TestNewAlignedFixedWindowErrors(t *testing.T) {
	_, err := NewAlignedFixedWindow(Policy{Limit: 0, Window: time.Second}, Align(7))
	if err == nil || !strings.HasPrefix(err.Error(), "fixed window: ") ||
		!strings.Contains(err.Error(), "limit must be positive") || !strings.Contains(err.Error(), "unknown alignment Align(7) (want clock or first)") {
		t.Fatalf("NewAlignedFixedWindow error = %v, want both problems", err)
	}
}

// AlignFirst steps, by hand: 2 per second.
func TestAlignFirstSteps(t *testing.T) {
	fw := must(NewAlignedFixedWindow(Policy{Limit: 2, Window: time.Second}, AlignFirst))
	runSteps[AlignedFixedWindowState](t, fw, steps(
		refuse(100*ms, Never).costs(3), // opens no window
		admit(300*ms),                  // opens [0.3s, 1.3s)
		admit(500*ms),
		refuse(900*ms, 400*ms),
		refuse(1300*ms-1, 1),
		admit(1300*ms), // the window ended at 1.3s: this request opens [1.3s, 2.3s)
		admit(2200*ms),
		refuse(2200*ms, 100*ms),
		admit(10*time.Second), // after an idle gap: [10s, 11s)
		admit(10999*ms),
		refuse(10999*ms, 1*ms),
		admit(11*time.Second),
	))
	// On the clock the same arrivals meet windows [0, 1s), [1s, 2s), …
	clk := must(NewAlignedFixedWindow(Policy{Limit: 2, Window: time.Second}, AlignClock))
	runSteps[AlignedFixedWindowState](t, clk, steps(
		admit(300*ms),
		admit(500*ms),
		refuse(900*ms, 100*ms),
		admit(time.Second),
	))
}

// AlignClock decides, charges and idles exactly as FixedWindow.
func TestAlignClockIsFixedWindow(t *testing.T) {
	quickCheck(t, func(a arrivals) bool {
		fw, al := must(NewFixedWindow(a.p)), must(NewAlignedFixedWindow(a.p, AlignClock))
		var fs FixedWindowState
		var as AlignedFixedWindowState
		for i, r := range a.reqs {
			call := lazy("%+v request %d: Decide(%s, cost %d)", a.p, i, t0offset(r.at), r.cost)
			if i%4 == 3 {
				fw.Charge(&fs, r.at, r.cost)
				al.Charge(&as, r.at, r.cost)
			} else if d, e := fw.Decide(&fs, r.at, r.cost), al.Decide(&as, r.at, r.cost); d != e {
				t.Errorf("%s: fixed window %+v, aligned to the clock %+v", call, d, e)
				return false
			}
			if fs.start != as.start || fs.count != as.count || fw.Idle(&fs, r.at) != al.Idle(&as, r.at) {
				t.Errorf("%s: states %+v and %+v", call, fs, as)
				return false
			}
		}
		return true
	})
}

// AlignFirst on arbitrary arrivals: every window opens at an admitted request
// that finds no window open (the first, or the first at or after the last
// window's end) and holds at most Limit; so any [t, t+Window) holds at most
// 2×Limit; refusals change nothing and their RetryAfter is honoured exactly;
// Peek and eviction hold.
func TestAlignFirstProperties(t *testing.T) {
	quickCheck(t, func(a arrivals) bool {
		fw := must(NewAlignedFixedWindow(a.p, AlignFirst))
		w := subjectOf[AlignedFixedWindowState]("aligned first", fw)
		var adm []request
		open, end, count := false, time.Duration(0), int64(0) // the window as a reader of the admissions sees it
		for i, r := range a.reqs {
			call := lazy("%+v request %d: Decide(%s, cost %d)", a.p, i, t0offset(r.at), r.cost)
			before := w.fork()
			snap := w.snap()
			d := w.decide(r.at, r.cost)
			if !d.Admitted() {
				if w.snap() != snap {
					t.Errorf("%s: refused and changed the state", call)
					return false
				}
				if !honoured(t, before, call, r.at, r.cost, d) {
					return false
				}
				continue
			}
			if !open || r.at >= end {
				open, end, count = true, r.at+a.p.Window, 0
			}
			count += r.cost
			if count > a.p.Limit {
				t.Errorf("%s: %d admitted in the window ending at %v, limit %d", call, count, end, a.p.Limit)
				return false
			}
			if d.Reset != end-r.at {
				t.Errorf("%s: Reset %v, the window ends in %v", call, d.Reset, end-r.at)
				return false
			}
			adm = append(adm, r)
		}
		if most, at := maxInWindow(adm, a.p.Window); most > 2*a.p.Limit {
			t.Errorf("%+v: %d admitted in [%v, %v+%v)", a.p, most, at, at, a.p.Window)
			return false
		}
		mk := func() subject { return subjectOf[AlignedFixedWindowState]("aligned first", fw) }
		return checkPeekAndEviction(t, mk(), mk, a.reqs)
	})
}

// CalendarWindow steps, by hand: month lengths, leap years, negative starts.
func TestCalendarWindowSteps(t *testing.T) {
	day := 24 * time.Hour
	date := func(y int, m time.Month, d, h int) time.Time { return time.Date(y, m, d, h, 0, 0, 0, time.UTC) }
	for _, tc := range []struct {
		unit       CalendarUnit
		epoch      time.Time
		now        time.Duration
		start, end time.Duration
	}{
		{CalendarMonth, date(2024, 2, 1, 0), 0, 0, 29 * day},                                          // 2024 is a leap year
		{CalendarMonth, date(2100, 2, 10, 0), 0, -9 * day, 19 * day},                                  // 2100 is not
		{CalendarMonth, date(2000, 2, 29, 12), 12 * time.Hour, 12 * time.Hour, 12*time.Hour + 31*day}, // 2000 is: Feb 29 exists; now is Mar 1
		{CalendarMonth, date(2023, 12, 31, 23), time.Hour, time.Hour, time.Hour + 31*day},             // now is Jan 1: January
		{CalendarYear, date(2024, 6, 1, 0), 0, -152 * day, 214 * day},                                 // 366 days: Jan–May is 152
		{CalendarDay, date(2024, 3, 10, 5), 20 * time.Hour, 19 * time.Hour, 43 * time.Hour},
		{CalendarHour, date(2024, 1, 1, 0).Add(90 * time.Minute), 0, -30 * time.Minute, 30 * time.Minute},
		{CalendarMinute, date(2024, 1, 1, 0).Add(1500 * ms), 59 * time.Second, 58500 * ms, 118500 * ms},
		{CalendarSecond, date(1969, 12, 31, 23).Add(59*time.Minute + 59*time.Second + 700*ms), 200 * ms, -700 * ms, 300 * ms},
	} {
		c := CalendarWindow{Unit: tc.unit, Epoch: tc.epoch}
		if start, end := c.Window(tc.now); start != tc.start || end != tc.end {
			t.Errorf("%v from %v: Window(%v) = [%v, %v), want [%v, %v)", tc.unit, tc.epoch, tc.now, start, end, tc.start, tc.end)
		}
	}
}

// CalendarWindow on arbitrary epochs (years 1700–2300, any location, any ns)
// and instants within 200 years: the window is the one time.Time's calendar
// arithmetic gives, in UTC.
func TestCalendarWindowIsTimeArithmetic(t *testing.T) {
	locs := []*time.Location{time.UTC, time.FixedZone("x", -7*3600-30*60), time.FixedZone("y", 13*3600)}
	f := func(year uint16, month, day, hour, minute, sec uint8, nsec uint32, loc uint8, now uint64, unit uint8) bool {
		epoch := time.Date(1700+int(year%600), time.Month(1+month%12), 1+int(day%28), int(hour%24), int(minute%60), int(sec%60),
			int(nsec%1e9), locs[int(loc)%len(locs)])
		d := time.Duration(now % uint64(200*365*24*time.Hour))
		u := CalendarUnit(1 + unit%6)
		in := epoch.Add(d).UTC()
		var from, to time.Time
		switch u {
		case CalendarSecond:
			from = in.Truncate(time.Second)
			to = from.Add(time.Second)
		case CalendarMinute:
			from = time.Date(in.Year(), in.Month(), in.Day(), in.Hour(), in.Minute(), 0, 0, time.UTC)
			to = from.Add(time.Minute)
		case CalendarHour:
			from = time.Date(in.Year(), in.Month(), in.Day(), in.Hour(), 0, 0, 0, time.UTC)
			to = from.Add(time.Hour)
		case CalendarDay:
			from = time.Date(in.Year(), in.Month(), in.Day(), 0, 0, 0, 0, time.UTC)
			to = from.AddDate(0, 0, 1)
		case CalendarMonth:
			from = time.Date(in.Year(), in.Month(), 1, 0, 0, 0, 0, time.UTC)
			to = from.AddDate(0, 1, 0)
		case CalendarYear:
			from = time.Date(in.Year(), 1, 1, 0, 0, 0, 0, time.UTC)
			to = from.AddDate(1, 0, 0)
		}
		start, end := CalendarWindow{Unit: u, Epoch: epoch}.Window(d)
		if start != from.Sub(epoch) || end != to.Sub(epoch) || start > d || d >= end {
			t.Errorf("%v from %v: Window(%v) = [%v, %v), time.Time says [%v, %v) = [%v, %v)", u, epoch, d, start, end, from, to, from.Sub(epoch), to.Sub(epoch))
			return false
		}
		return true
	}
	n := 20000
	if testing.Short() {
		n = 2000
	}
	if err := quick.Check(f, &quick.Config{MaxCount: n, Rand: rand.New(rand.NewSource(5))}); err != nil {
		t.Fatal(err)
	}
}

func TestCalendarWindowPanicsOnUnknownUnit(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "CalendarWindow.Window: unknown unit") {
			t.Fatalf("recovered %v, want the method's panic", r)
		}
	}()
	CalendarWindow{Epoch: time.Unix(0, 0)}.Window(0)
}
