package algorithms

import (
	"testing"
	"time"
)

// optionCases are the lane options on the benchmark's mix (benchPolicy, a
// request every benchStep: admissions and refusals), each beside its bare rule.
func optionCases() []struct {
	name string
	run  func(now time.Duration) // one decision on one key
} {
	tb := func() *TokenBucket { return must(NewTokenBucket(benchPolicy)) }
	var tbs, pens, clks, waits, starts, composed TokenBucketState
	var bans BanState[TokenBucketState]
	var logS, logPenS SlidingLogState
	var banLog BanState[SlidingLogState]
	var fws FixedWindowState
	var afs, cfs AlignedFixedWindowState
	var sws, swc StepwiseBucketState
	bare, pen, clk := tb(), WithPenalty(Chargeable[TokenBucketState](tb())), must(WithClock(Chargeable[TokenBucketState](tb()), time.Millisecond))
	ban := must(WithBan(Chargeable[TokenBucketState](tb()), 50*time.Millisecond))
	wait := must(WithWait(Chargeable[TokenBucketState](tb()), 20*time.Millisecond))
	start := must(StartAt(Chargeable[TokenBucketState](tb()), 0, 0))
	comp := must(WithClock(Chargeable[TokenBucketState](WithPenalty(Chargeable[TokenBucketState](must(WithWait(Chargeable[TokenBucketState](tb()), 20*time.Millisecond))))), time.Millisecond))
	sl := must(NewSlidingLog(benchPolicy))
	slPen := WithPenalty(Chargeable[SlidingLogState](must(NewSlidingLog(benchPolicy))))
	slBan := must(WithBan(Chargeable[SlidingLogState](must(NewSlidingLog(benchPolicy))), 50*time.Millisecond))
	fw := must(NewFixedWindow(benchPolicy))
	af := must(NewAlignedFixedWindow(benchPolicy, AlignFirst))
	cf := must(NewCalendarFixedWindow(benchPolicy, time.Date(2026, 12, 1, 9, 0, 30, 0, time.UTC)))
	sw := must(NewStepwiseBucket(benchPolicy, AlignClock, time.Time{}))
	swComp := must(WithClock(Chargeable[StepwiseBucketState](WithPenalty(Chargeable[StepwiseBucketState](must(WithWait(Chargeable[StepwiseBucketState](
		must(StartAt(Chargeable[StepwiseBucketState](must(NewStepwiseBucket(benchPolicy, AlignFirst, time.Time{}))), 0, 0))), 20*time.Millisecond))))), time.Millisecond))
	sl.Decide(&logS, 0, 1) // the rings are allocated on the first admission and grow to the window
	slPen.Decide(&logPenS, 0, 1)
	slBan.Decide(&banLog, 0, 1)
	for now := time.Duration(0); now < 3*time.Second; now += benchStep {
		sl.Decide(&logS, now, 1)
		slPen.Decide(&logPenS, now, 1)
		slBan.Decide(&banLog, now, 1)
	}
	return []struct {
		name string
		run  func(now time.Duration)
	}{
		{"token bucket", func(now time.Duration) { bare.Decide(&tbs, now, 1) }},
		{"token bucket penalty", func(now time.Duration) { pen.Decide(&pens, now, 1) }},
		{"token bucket ban", func(now time.Duration) { ban.Decide(&bans, now, 1) }},
		{"token bucket clock", func(now time.Duration) { clk.Decide(&clks, now, 1) }},
		{"token bucket wait", func(now time.Duration) { wait.Decide(&waits, now, 1) }},
		{"token bucket start empty", func(now time.Duration) { start.Decide(&starts, now, 1) }},
		{"token bucket penalty wait clock", func(now time.Duration) { comp.Decide(&composed, now, 1) }},
		{"sliding log", func(now time.Duration) { sl.Decide(&logS, 3*time.Second+now, 1) }},
		{"sliding log penalty", func(now time.Duration) { slPen.Decide(&logPenS, 3*time.Second+now, 1) }},
		{"sliding log ban", func(now time.Duration) { slBan.Decide(&banLog, 3*time.Second+now, 1) }},
		{"fixed window", func(now time.Duration) { fw.Decide(&fws, now, 1) }},
		{"fixed window aligned first", func(now time.Duration) { af.Decide(&afs, now, 1) }},
		{"fixed window aligned calendar", func(now time.Duration) { cf.Decide(&cfs, now, 1) }},
		{"token bucket stepwise", func(now time.Duration) { sw.Decide(&sws, now, 1) }},
		{"token bucket stepwise first start wait penalty clock", func(now time.Duration) { swComp.Decide(&swc, now, 1) }},
	}
}

func BenchmarkOptions(b *testing.B) {
	for _, c := range optionCases() {
		var now time.Duration // kept across the runs b.Run makes: time never goes back
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				now += benchStep
				c.run(now)
			}
		})
	}
}

func BenchmarkCalendarWindow(b *testing.B) {
	c := CalendarWindow{Unit: CalendarMonth, Epoch: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
	var now time.Duration
	b.ReportAllocs()
	for range b.N {
		now += time.Hour
		c.Window(now)
	}
}

// Every option decides without allocating, on the benchmark's mix. Each
// decision is measured alone: AllocsPerRun over many runs rounds the average
// down, and a refusal that allocates one in three decisions reads 0.
func TestOptionsDoNotAllocate(t *testing.T) {
	for _, c := range optionCases() {
		var now time.Duration
		var total float64
		for range 300 {
			total += testing.AllocsPerRun(1, func() {
				now += benchStep
				c.run(now)
			})
		}
		if total != 0 {
			t.Errorf("%s: %v allocations in 300 decisions, want 0", c.name, total)
		}
	}
	c := CalendarWindow{Unit: CalendarMonth, Epoch: time.Date(2024, 1, 1, 0, 0, 0, 0, time.FixedZone("x", 3600))}
	if allocs := testing.AllocsPerRun(100, func() { c.Window(40 * 24 * time.Hour) }); allocs != 0 {
		t.Errorf("CalendarWindow.Window: %v allocations, want 0", allocs)
	}
}
