package algorithms

import (
	"errors"
	"fmt"
	"time"
)

// Align is where a fixed window starts.
type Align uint8

const (
	// AlignClock aligns windows to t=0 of the virtual clock: [k·Window,
	// (k+1)·Window), as FixedWindow does (and nginx-style per-second keys, Kong's
	// rate-limiting on its second/minute/... periods from the epoch).
	AlignClock Align = iota
	// AlignFirst starts a key's window at its first request: the window is
	// [t, t+Window) for the request at t that finds no window open, as a Redis
	// `INCR key` + `EXPIRE key Window` (on the first INCR) script does
	// (redis.io/docs/latest/commands/incr/, "Pattern: Rate limiter 2"; its
	// "Rate limiter 1", a key per second, is AlignClock). HAProxy 2.6's
	// stick-table rate periods start at the key's first request too
	// (configuration.txt, "sc_http_req_rate"), but its rate interpolates the
	// previous period, which this rule does not.
	AlignFirst
	// AlignCalendar aligns windows to the wall clock: to multiples of Window
	// since the Unix epoch (1970-01-01T00:00:00Z), in the wall time of the
	// run's t=0 (NewCalendarFixedWindow's epoch). A window that divides a day
	// so starts at each whole UTC second, minute or hour (1s, 1m, 1h, 15m …)
	// and a 24h window at each UTC midnight, as Kong 3.x rate-limiting's
	// second … day periods (kong/tools/timestamp.lua, get_timestamps) and the
	// Envoy ratelimit service's unit counters (envoyproxy/ratelimit,
	// src/utils/utilities.go, UnitToDivider: ⌊now/divider⌋×divider Unix
	// seconds) do; a window that does not divide a day (7m) falls at multiples
	// of itself since the Unix epoch. UTC has no leap seconds here, as in Go's
	// time package. With the epoch at the Unix epoch it is AlignClock.
	// Calendar months and years are not durations: aws_quota and kong lanes
	// have them (CalendarWindow).
	AlignCalendar
)

func (a Align) String() string {
	switch a {
	case AlignClock:
		return "clock"
	case AlignFirst:
		return "first"
	case AlignCalendar:
		return "calendar"
	}
	return fmt.Sprintf("Align(%d)", uint8(a))
}

// AlignedFixedWindow is FixedWindow with a choice of where its windows start
// (Align). It counts admitted cost in the key's current window and admits a
// request while count+cost ≤ Limit; refused requests are not counted (a
// Penalty around it counts them); Burst is ignored.
//
// With AlignClock it decides exactly as FixedWindow; with AlignCalendar
// (NewCalendarFixedWindow) as FixedWindow on windows shifted to the wall
// clock's multiples of Window, the first of which may have begun before t=0.
// With AlignFirst a window
// opens at a request that finds none open and is admitted (or charged): the
// window is [t, t+Window) for that request's t. It stays open while
// now < t+Window; the first admitted (or charged) request at or after t+Window,
// however long the idle gap, opens the next window at its own time. So windows
// never overlap, need not be adjacent, and a refused request that no window
// can hold (cost > Limit) opens none. Any [a, a+Window) still meets at most two
// windows, so at most 2×Limit is admitted in it, as with FixedWindow.
//
// RetryAfter is exact: the time until the current window ends (Never when
// cost > Limit); with AlignFirst the request is then admitted because it opens
// the next window. Reset is the same instant, 0 with nothing counted;
// Remaining is Limit − count.
//
// Times are nanoseconds since the start, now ≥ 0. A now earlier than the
// current window's start counts against that window. The rule is immutable
// and safe for concurrent use; each AlignedFixedWindowState belongs to one
// goroutine.
type AlignedFixedWindow struct {
	limit  int64
	window time.Duration
	align  Align
	phase  time.Duration // AlignCalendar: windows start where (now + phase) mod window = 0
}

// AlignedFixedWindowState is one key's count in its current window: 16 bytes.
// The zero value is a never-seen key.
type AlignedFixedWindowState struct {
	start time.Duration // start of the window count belongs to
	count int64
}

var (
	_ Chargeable[AlignedFixedWindowState] = (*AlignedFixedWindow)(nil)
)

// NewAlignedFixedWindow returns a fixed-window rule for p with windows aligned
// by align, or every problem with them.
func NewAlignedFixedWindow(p Policy, align Align) (*AlignedFixedWindow, error) {
	var errs []error
	if err := p.Validate(); err != nil {
		errs = append(errs, err)
	}
	if align > AlignFirst {
		errs = append(errs, fmt.Errorf("unknown alignment %v (want clock or first)", align))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("fixed window: %w", err)
	}
	return &AlignedFixedWindow{limit: p.Limit, window: p.Window, align: align}, nil
}

// NewCalendarFixedWindow returns a fixed-window rule for p with windows
// aligned to the wall clock (AlignCalendar), epoch being the wall-clock instant
// of t=0, in the years 1678 to 2262; or every problem with p.
func NewCalendarFixedWindow(p Policy, epoch time.Time) (*AlignedFixedWindow, error) {
	fw, err := NewAlignedFixedWindow(p, AlignClock)
	if err != nil {
		return nil, err
	}
	fw.align, fw.phase = AlignCalendar, calendarPhase(epoch, p.Window)
	return fw, nil
}

// current is the window now falls in, as s counts it: its start and the cost
// counted in it (0 in a window s has not opened yet).
func (fw *AlignedFixedWindow) current(s *AlignedFixedWindowState, now time.Duration) (start time.Duration, count int64) {
	if fw.align == AlignFirst {
		if s.count > 0 && now < s.start+fw.window {
			return s.start, s.count
		}
		return now, 0
	}
	start = now - now%fw.window
	if fw.align == AlignCalendar {
		start = now - time.Duration(floorMod(int64(now%fw.window)+int64(fw.phase), int64(fw.window)))
	}
	if start > s.start || s.count == 0 {
		return start, 0
	}
	return s.start, s.count
}

// Decide admits or refuses a request of cost units (cost ≥ 1) at now.
func (fw *AlignedFixedWindow) Decide(s *AlignedFixedWindowState, now time.Duration, cost int64) Decision {
	if cost < 1 {
		badCost("AlignedFixedWindow.Decide", cost)
	}
	start, count := fw.current(s, now)
	next := start + fw.window
	d := Decision{Limit: fw.limit, RetryAfterExact: true}
	if cost > fw.limit-count {
		d.Verdict = Refuse
		d.RetryAfter = next - now
		if cost > fw.limit {
			d.RetryAfter = Never
		}
	} else {
		count += cost
		s.start, s.count = start, count
	}
	d.Remaining = max(fw.limit-count, 0) // below 0 only after a Charge
	if count > 0 {
		d.Reset = next - now
	}
	return d
}

// Charge counts cost in now's window, opening one if none is, over the limit if need be.
func (fw *AlignedFixedWindow) Charge(s *AlignedFixedWindowState, now time.Duration, cost int64) {
	start, count := fw.current(s, now)
	s.start, s.count = start, satAdd(count, cost)
}

// Idle reports whether s decides exactly as a never-seen key from now on:
// nothing counted, or its window is over.
func (fw *AlignedFixedWindow) Idle(s *AlignedFixedWindowState, now time.Duration) bool {
	return s.count == 0 || now >= s.start+fw.window
}

// CalendarUnit is the length of a calendar window, in UTC.
type CalendarUnit uint8

const (
	CalendarSecond CalendarUnit = iota + 1
	CalendarMinute
	CalendarHour
	CalendarDay
	CalendarMonth // 28 to 31 days
	CalendarYear  // 365 or 366 days
)

func (u CalendarUnit) String() string {
	switch u {
	case CalendarSecond:
		return "second"
	case CalendarMinute:
		return "minute"
	case CalendarHour:
		return "hour"
	case CalendarDay:
		return "day"
	case CalendarMonth:
		return "month"
	case CalendarYear:
		return "year"
	}
	return fmt.Sprintf("CalendarUnit(%d)", uint8(u))
}

// CalendarWindow is a calendar period in UTC (the second, minute, hour, day,
// month or year) as products with calendar quotas count it: Kong 3.x
// rate-limiting's config.second … config.year windows start at the period's
// UTC boundary (kong/tools/timestamp.lua, get_timestamps: the time table with
// its finer fields zeroed); Envoy's ratelimit service names a second, minute,
// hour or day counter after ⌊now/divider⌋×divider Unix seconds
// (envoyproxy/ratelimit, src/utils/utilities.go, UnitToDivider), the same
// windows for those four units.
// Epoch is the wall-clock instant of the run's t=0.
//
// Window is exact, in integer arithmetic on the proleptic Gregorian calendar
// (months of 28 to 31 days, leap years every 4 years but not 100 unless 400);
// UTC has no leap seconds here, as in Go's time package. It is held to
// time.Time arithmetic on arbitrary instants (options_window_test.go).
type CalendarWindow struct {
	Unit  CalendarUnit
	Epoch time.Time
}

// Window returns the start and end, as durations since Epoch, of the calendar
// window [start, end) containing the instant Epoch+now. start may be negative
// (the window began before the run). Window panics on an unknown Unit. Instants
// more than about 292 years from Epoch overflow.
func (c CalendarWindow) Window(now time.Duration) (start, end time.Duration) {
	const nsPerSec = int64(time.Second)
	esec, ensec := c.Epoch.Unix(), int64(c.Epoch.Nanosecond())
	sec := esec + floorDiv(ensec+int64(now), nsPerSec) // the instant's Unix second
	var from, to int64                                 // Unix seconds
	switch c.Unit {
	case CalendarSecond:
		from, to = sec, sec+1
	case CalendarMinute:
		from = sec - floorMod(sec, 60)
		to = from + 60
	case CalendarHour:
		from = sec - floorMod(sec, 3600)
		to = from + 3600
	case CalendarDay:
		from = sec - floorMod(sec, 86400)
		to = from + 86400
	case CalendarMonth, CalendarYear:
		y, m, _ := civilFromDays(floorDiv(sec, 86400))
		if c.Unit == CalendarYear {
			from, to = daysFromCivil(y, 1, 1)*86400, daysFromCivil(y+1, 1, 1)*86400
			break
		}
		ny, nm := y, m+1
		if nm > 12 {
			ny, nm = y+1, 1
		}
		from, to = daysFromCivil(y, m, 1)*86400, daysFromCivil(ny, nm, 1)*86400
	default:
		panic(fmt.Sprintf("algorithms: CalendarWindow.Window: unknown unit %v", c.Unit))
	}
	return time.Duration((from-esec)*nsPerSec - ensec), time.Duration((to-esec)*nsPerSec - ensec)
}

// floorDiv is a/b rounded toward −∞.
func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func floorMod(a, b int64) int64 { return a - floorDiv(a, b)*b }

// daysFromCivil is the number of days from 1970-01-01 to y-m-d (proleptic
// Gregorian), after Howard Hinnant's days_from_civil.
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := floorDiv(y, 400)
	yoe := y - era*400 // [0, 399]
	mp := (m + 9) % 12 // March = 0
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// civilFromDays is the date z days after 1970-01-01, after Hinnant's civil_from_days.
func civilFromDays(z int64) (y, m, d int64) {
	z += 719468
	era := floorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	m = mp + 3
	if m > 12 {
		m -= 12
	}
	y = yoe + era*400
	if m <= 2 {
		y++
	}
	return y, m, d
}
