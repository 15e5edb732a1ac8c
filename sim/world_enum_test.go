package sim

import "testing"

func TestEnumNameParse(t *testing.T) {
	e := enum[KeyKind]{"KeyKind", []string{"a", "b"}}
	for _, tc := range []struct {
		v    KeyKind
		want string
	}{{0, "a"}, {1, "b"}, {2, "KeyKind(2)"}, {255, "KeyKind(255)"}} {
		if got := e.name(tc.v); got != tc.want {
			t.Errorf("name(%d) = %q, want %q", tc.v, got, tc.want)
		}
	}
	if v, ok := e.parse("b"); v != 1 || !ok {
		t.Errorf(`parse("b") = %d, %v, want 1, true`, v, ok)
	}
	if v, ok := e.parse("c"); v != 0 || ok {
		t.Errorf(`parse("c") = %d, %v, want 0, false`, v, ok)
	}
	l := e.list()
	l[0] = "changed"
	if e.names[0] != "a" {
		t.Errorf("list() shares the table: names[0] = %q after writing the copy", e.names[0])
	}
}

// TestEnumsRoundTrip holds every table whole: each name distinct and not empty,
// and each value's name parsing back to it.
func TestEnumsRoundTrip(t *testing.T) {
	check := func(typ string, names []string, round func(string) (int, bool)) {
		seen := map[string]bool{}
		for v, n := range names {
			if n == "" || seen[n] {
				t.Errorf("%s(%d): name %q empty or repeated", typ, v, n)
			}
			seen[n] = true
			if got, ok := round(n); got != v || !ok {
				t.Errorf("%s: parse(%q) = %d, %v, want %d, true", typ, n, got, ok, v)
			}
		}
	}
	check(keyEnum.typ, keyEnum.names, func(s string) (int, bool) { v, ok := ParseKey(s); return int(v), ok })
	check(arrivalEnum.typ, arrivalEnum.names, func(s string) (int, bool) { v, ok := ParseArrival(s); return int(v), ok })
	check(retryEnum.typ, retryEnum.names, func(s string) (int, bool) { v, ok := ParseRetry(s); return int(v), ok })
	check(jitterEnum.typ, jitterEnum.names, func(s string) (int, bool) { v, ok := ParseJitter(s); return int(v), ok })
	check(serviceEnum.typ, serviceEnum.names, func(s string) (int, bool) { v, ok := ParseService(s); return int(v), ok })
	check(retryAfterEnum.typ, retryAfterEnum.names, func(s string) (int, bool) { v, ok := ParseRetryAfter(s); return int(v), ok })
	check(headerStyleEnum.typ, headerStyleEnum.names, func(s string) (int, bool) { v, ok := ParseHeaderStyle(s); return int(v), ok })
	check(chainEnum.typ, chainEnum.names, func(s string) (int, bool) { v, ok := ParseChain(s); return int(v), ok })
	check(scheduleEnum.typ, scheduleEnum.names, func(s string) (int, bool) { v, ok := ParseSchedule(s); return int(v), ok })
	check(disciplineEnum.typ, disciplineEnum.names, func(s string) (int, bool) { v, ok := ParseDiscipline(s); return int(v), ok })
	check(routingEnum.typ, routingEnum.names, func(s string) (int, bool) { v, ok := ParseRouting(s); return int(v), ok })
	check(stateEnum.typ, stateEnum.names, func(s string) (int, bool) { v, ok := ParseState(s); return int(v), ok })
	check(localLimitEnum.typ, localLimitEnum.names, func(s string) (int, bool) { v, ok := ParseLocalLimit(s); return int(v), ok })
	check(failModeEnum.typ, failModeEnum.names, func(s string) (int, bool) { v, ok := ParseFailMode(s); return int(v), ok })
	if got := JitterNames(); len(got) != int(JitterNoBackoff) || got[len(got)-1] != "decorrelated" {
		t.Errorf("JitterNames() = %q, want the jitter kinds without no_backoff", got)
	}
}
