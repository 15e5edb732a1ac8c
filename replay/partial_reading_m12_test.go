package replay

import (
	"fmt"
	"testing"
	"time"
)

// TestReadingDifferencesNameTheSecondShardsFigureFirst: each figure two
// shards read differently is named with the second shard's value, then the
// first's ("lines 7, not 5": the part merged read 7, the reference 5), in
// the order of the state; a shard's own keys, retirements and limits are no
// difference; what differs elsewhere only is named as a group.
func TestReadingDifferencesNameTheSecondShardsFigureFirst(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	base := partialState{Lines: 5, Requests: 4, Bad: 1, TooLate: 2, BehindFull: 3, Origin: t0, First: t0, Last: t0.Add(time.Hour), Format: "json"}
	set := []struct {
		what string
		edit func(*partialState) any
	}{
		{"lines", func(s *partialState) any { s.Lines += 2; return s.Lines }},
		{"requests", func(s *partialState) any { s.Requests += 2; return s.Requests }},
		{"bad lines", func(s *partialState) any { s.Bad += 2; return s.Bad }},
		{"too late", func(s *partialState) any { s.TooLate += 2; return s.TooLate }},
		{"behind a full buffer", func(s *partialState) any { s.BehindFull += 2; return s.BehindFull }},
		{"first hour", func(s *partialState) any { s.Origin = s.Origin.Add(time.Hour); return s.Origin }},
		{"first request", func(s *partialState) any { s.First = s.First.Add(time.Second); return s.First }},
		{"last request", func(s *partialState) any { s.Last = s.Last.Add(time.Second); return s.Last }},
	}
	values := map[string]any{"lines": base.Lines, "requests": base.Requests, "bad lines": base.Bad, "too late": base.TooLate,
		"behind a full buffer": base.BehindFull, "first hour": base.Origin, "first request": base.First, "last request": base.Last}
	for i, s := range set {
		b := base
		got := s.edit(&b)
		want := fmt.Sprintf("%s %v, not %v", s.what, got, values[s.what])
		a := base
		if d := readingDifferences(&a, &b); d != want {
			t.Errorf("%s differs: %q, want %q", s.what, d, want)
		}
		if i > 0 { // two at once, in the state's order
			set[0].edit(&b)
			want = fmt.Sprintf("lines %v, not %v; %s", b.Lines, base.Lines, want)
			if d := readingDifferences(&a, &b); d != want {
				t.Errorf("lines and %s differ: %q, want %q", s.what, d, want)
			}
		}
	}
	own := base
	own.Keys, own.Retired, own.Limits = 9, 9, []partialLimitState{{}}
	a := base
	if d := readingDifferences(&a, &own); d != "" {
		t.Errorf("only the shard's own keys differ: %q, want none", d)
	}
	other := base
	other.Format = "csv"
	if d := readingDifferences(&a, &other); d != "bad lines shown, format, warnings or retirement time" {
		t.Errorf("only the format differs: %q", d)
	}
}
