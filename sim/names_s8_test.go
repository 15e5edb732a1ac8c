package sim

import (
	"slices"
	"strings"
	"testing"
)

// The names are the scenario file's words (docs/scenarios.md, docs/output.md):
// each list in its order, each name read back as its value, and an unknown
// value named by its type.
func TestEnumNamesAreTheFilesWords(t *testing.T) {
	for _, c := range []struct {
		got, want []string
	}{
		{KeyNames(), []string{"global", "ip", "user", "api_key", "tenant", "endpoint"}},
		{ArrivalNames(), []string{"burst", "constant", "poisson", "on_off", "idle_then_burst"}},
		{RetryNames(), []string{"none", "immediate", "fixed", "exponential"}},
		{JitterNames(), []string{"none", "full", "equal", "decorrelated"}},
		{BackoffNames(), []string{"none", "full", "equal", "decorrelated", "no_backoff"}},
		{ServiceNames(), []string{"constant", "exponential"}},
		{RetryAfterNames(), []string{"header", "exact"}},
		{HeaderStyleNames(), []string{"draft", "legacy"}},
		{ChainNames(), []string{"all_or_nothing", "charge_until_refused"}},
		{ScheduleNames(), []string{"base_first", "brooker"}},
		{DisciplineNames(), []string{"fifo", "lifo"}},
		{TableFullNames(), []string{"evict_idle", "evict", "refuse", "admit"}},
		{CriticalityNames(), []string{"critical_plus", "critical", "sheddable_plus", "sheddable"}},
		{EvictionNames(), []string{"noeviction", "allkeys-lru"}},
		{RoutingNames(), []string{"round_robin", "random", "hash"}},
		{StateNames(), []string{"local", "shared", "synced"}},
		{LocalLimitNames(), []string{"full", "divided"}},
		{FailModeNames(), []string{"open", "closed", "local"}},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("names %v, want %v", c.got, c.want)
		}
	}
	roundTrip := func(names []string, parse func(string) (string, bool)) {
		t.Helper()
		for _, n := range names {
			if got, ok := parse(n); !ok || got != n {
				t.Errorf("parse(%q) = %q, %v", n, got, ok)
			}
		}
		if _, ok := parse("nope"); ok {
			t.Errorf("an unknown name parses")
		}
	}
	roundTrip(KeyNames(), func(s string) (string, bool) { v, ok := ParseKey(s); return v.String(), ok })
	roundTrip(ArrivalNames(), func(s string) (string, bool) { v, ok := ParseArrival(s); return v.String(), ok })
	roundTrip(RetryNames(), func(s string) (string, bool) { v, ok := ParseRetry(s); return v.String(), ok })
	roundTrip(BackoffNames(), func(s string) (string, bool) { v, ok := ParseJitter(s); return v.String(), ok })
	roundTrip(ServiceNames(), func(s string) (string, bool) { v, ok := ParseService(s); return v.String(), ok })
	roundTrip(RetryAfterNames(), func(s string) (string, bool) { v, ok := ParseRetryAfter(s); return v.String(), ok })
	roundTrip(HeaderStyleNames(), func(s string) (string, bool) { v, ok := ParseHeaderStyle(s); return v.String(), ok })
	roundTrip(ChainNames(), func(s string) (string, bool) { v, ok := ParseChain(s); return v.String(), ok })
	roundTrip(ScheduleNames(), func(s string) (string, bool) { v, ok := ParseSchedule(s); return v.String(), ok })
	roundTrip(DisciplineNames(), func(s string) (string, bool) { v, ok := ParseDiscipline(s); return v.String(), ok })
	roundTrip(TableFullNames(), func(s string) (string, bool) { v, ok := ParseTableFull(s); return v.String(), ok })
	roundTrip(EvictionNames(), func(s string) (string, bool) { v, ok := ParseEviction(s); return v.String(), ok })
	roundTrip(RoutingNames(), func(s string) (string, bool) { v, ok := ParseRouting(s); return v.String(), ok })
	roundTrip(StateNames(), func(s string) (string, bool) { v, ok := ParseState(s); return v.String(), ok })
	roundTrip(LocalLimitNames(), func(s string) (string, bool) { v, ok := ParseLocalLimit(s); return v.String(), ok })
	roundTrip(FailModeNames(), func(s string) (string, bool) { v, ok := ParseFailMode(s); return v.String(), ok })
	roundTrip(CriticalityNames(), func(s string) (string, bool) { v, ok := ParseCriticality(s); return v.String(), ok })
	for _, s := range []string{KeyKind(99).String(), TraceEvent(99).String(), Criticality(99).String(), Routing(99).String()} {
		if !strings.HasSuffix(s, "(99)") {
			t.Errorf("an unknown value is named %q, want Type(99)", s)
		}
	}
	for e, want := range map[TraceEvent]string{TraceAdmit: "admit", TraceDelay: "delay", TraceRefuse: "refuse",
		TraceDrop: "drop", TraceShed: "shed", TraceSuccess: "success"} {
		if e.String() != want {
			t.Errorf("trace event %d is %q, want %q", e, e.String(), want)
		}
	}
	for c, want := range map[Criticality]string{Critical: "critical", CriticalPlus: "critical_plus",
		SheddablePlus: "sheddable_plus", Sheddable: "sheddable"} {
		if c.String() != want {
			t.Errorf("criticality %d is %q, want %q", c, c.String(), want)
		}
	}
}
