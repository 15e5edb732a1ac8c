package sim

import (
	"testing"
	"time"
)

// TestBinsEdgesPromise: column k covers [k×Width, (k+1)×Width); the ring moves
// only once a column beyond its end is asked for, by exactly as much as needed;
// a nil forget zeroes the columns that leave.
func TestBinsEdgesPromise(t *testing.T) {
	const w = 10 * time.Millisecond
	b := NewBins[int](w, 3, nil, nil)
	for _, tc := range []struct {
		at   time.Duration
		want int64
	}{{0, 0}, {w - 1, 0}, {w, 1}, {2*w - 1, 1}, {2 * w, 2}, {30 * w, 30}} {
		if got := b.Column(tc.at); got != tc.want {
			t.Errorf("Column(%v) = %d, want %d", tc.at, got, tc.want)
		}
	}
	for k := int64(0); k < 3; k++ {
		*b.At(k) = int(k) + 1
	}
	if b.First() != 0 {
		t.Fatalf("after At(0..2) of 3 columns First() = %d, want 0", b.First())
	}
	if _, ok := b.Held(3); ok {
		t.Error("Held(3) with columns 0..2 = true, want false")
	}
	if c := b.At(3); c == nil || *c != 0 {
		t.Errorf("At(3) = %v, want a zeroed column", c)
	}
	if b.First() != 1 {
		t.Errorf("after At(3) First() = %d, want 1", b.First())
	}
	if c := b.At(0); c != nil {
		t.Errorf("At(0) after it left = %v, want nil", c)
	}
	if _, ok := b.Held(0); ok {
		t.Error("Held(0) after it left = true")
	}
	for k, want := range map[int64]int{1: 2, 2: 3} {
		if c, ok := b.Held(k); !ok || *c != want {
			t.Errorf("Held(%d) = %v, %v; want %d", k, c, ok, want)
		}
	}
	// Jump far ahead: every column is a zeroed new one.
	*b.At(1000) = 5
	if b.First() != 998 {
		t.Errorf("after At(1000) First() = %d, want 998", b.First())
	}
	for _, k := range []int64{998, 999} {
		if c, ok := b.Held(k); !ok || *c != 0 {
			t.Errorf("Held(%d) after jump = %v, %v; want 0", k, c, ok)
		}
	}
}

// TestNewBinsPanicsPromise: width and columns must be positive.
func TestNewBinsPanicsPromise(t *testing.T) {
	for _, tc := range []struct {
		w time.Duration
		n int
	}{{0, 1}, {-1, 1}, {1, 0}, {1, -1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NewBins(%v, %d) did not panic", tc.w, tc.n)
				}
			}()
			NewBins[int](tc.w, tc.n, nil, nil)
		}()
	}
	if b := NewBins[int](1, 1, nil, nil); b == nil {
		t.Error("NewBins(1, 1) = nil")
	}
}

// TestMarkOrderPromise: the five marks in the documented order, and Info panics
// outside the table.
func TestMarkOrderPromise(t *testing.T) {
	want := []string{"admitted", "delayed", "refused", "shed", "dropped"}
	if MarkKinds != len(want) {
		t.Fatalf("MarkKinds = %d, want %d", MarkKinds, len(want))
	}
	for i, name := range want {
		if got := Mark(i).String(); got != name {
			t.Errorf("Mark(%d) = %q, want %q", i, got, name)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("Mark(MarkKinds).Info() did not panic")
		}
	}()
	_ = Mark(MarkKinds).Info()
}
