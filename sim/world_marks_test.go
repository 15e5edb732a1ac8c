package sim

import (
	"testing"
	"time"
)

func TestMarkOf(t *testing.T) {
	for _, tc := range []struct {
		e    TraceEvent
		want Mark
		ok   bool
	}{{TraceAdmit, MarkAdmitted, true}, {TraceDelay, MarkDelayed, true}, {TraceRefuse, MarkRefused, true},
		{TraceShed, MarkShed, true}, {TraceDrop, MarkDropped, true}, {TraceSuccess, 0, false}} {
		if got, ok := MarkOf(tc.e); got != tc.want || ok != tc.ok {
			t.Errorf("MarkOf(%s) = %s, %v, want %s, %v", tc.e, got, ok, tc.want, tc.ok)
		}
	}
	seen := map[string]bool{}
	for m := range Mark(MarkKinds) {
		i := m.Info()
		if i.Name == "" || i.Glyph == "" || len(i.Colour) != 7 || i.ANSI == "" || seen[i.Glyph] {
			t.Errorf("mark %d: %+v incomplete or its glyph repeated", m, i)
		}
		seen[i.Glyph] = true
	}
}

func TestBinsRing(t *testing.T) {
	forgotten := 0
	b := NewBins(10*time.Millisecond, 4, func(c *int) { *c = -1 }, func(c *int) { forgotten += *c; *c = 0 })
	if c, ok := b.Held(3); !ok || *c != -1 {
		t.Fatalf("Held(3) = %v, %v, want a fresh column", c, ok)
	}
	*b.At(b.Column(25 * time.Millisecond)) = 7 // column 2
	*b.At(0) = 1
	if got := b.Column(39 * time.Millisecond); got != 3 {
		t.Errorf("Column(39ms) = %d, want 3", got)
	}
	*b.At(5) = 9 // columns 0 and 1 leave the ring
	if b.First() != 2 || forgotten != 0 {
		t.Errorf("after At(5): First() = %d, forgotten sum %d; want 2, 0 (columns 0=1 and 1=-1)", b.First(), forgotten)
	}
	if b.At(1) != nil {
		t.Error("At(1) of a forgotten column is not nil")
	}
	if c, ok := b.Held(2); !ok || *c != 7 {
		t.Errorf("Held(2) = %v, %v, want 7", c, ok)
	}
	if _, ok := b.Held(6); ok {
		t.Error("Held(6) beyond the ring is held")
	}
	b.At(100) // a jump past the whole ring forgets each held column once
	if b.First() != 97 || forgotten != 7+(-1)+9 {
		t.Errorf("after At(100): First() = %d, forgotten sum %d; want 97, 15", b.First(), forgotten)
	}
}
