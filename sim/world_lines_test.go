package sim

import (
	"testing"
	"unsafe"
)

// TestOwnLinesFillsWholeLines checks that a small array from ownLines starts
// on a 64-byte line and is large enough for a size class of whole lines,
// whatever its element size; a large one gets no extra room.
func TestOwnLinesFillsWholeLines(t *testing.T) {
	check := func(name string, ptr unsafe.Pointer, bytes uintptr) {
		t.Helper()
		if uintptr(ptr)%64 != 0 || bytes <= minLineAligned {
			t.Errorf("%s: array at %#x of %d bytes, want a multiple of 64 and more than %d bytes", name, ptr, bytes, minLineAligned)
		}
	}
	for range 50 { // allocations of other sizes in between, so that a lucky start is not taken for a rule
		a := ownLines[int64](1)
		check("1 int64", unsafe.Pointer(unsafe.SliceData(a)), uintptr(cap(a))*8)
		_ = make([]byte, 24)
		b := ownLines[[8]int64](3) // a line each, as a key's window (window.keyWindow)
		check("3 lines", unsafe.Pointer(unsafe.SliceData(b)), uintptr(cap(b))*64)
		c := ownLines[int32](0)
		check("0 int32", unsafe.Pointer(unsafe.SliceData(c)), uintptr(cap(c))*4)
		_ = make([]int16, 5)
	}
	if big := ownLines[int64](1000); cap(big) != 1000 {
		t.Errorf("ownLines[int64](1000) has capacity %d, want 1000", cap(big))
	}
}
