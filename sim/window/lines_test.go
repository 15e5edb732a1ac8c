package window

import (
	"testing"
	"unsafe"
)

// TestKeyWindowsFillWholeLines checks that a key's window is one 64-byte
// line and that a small array of them from ownLines starts on a line and is
// large enough for a size class of whole lines.
func TestKeyWindowsFillWholeLines(t *testing.T) {
	if size := unsafe.Sizeof(keyWindow{}); size != 64 {
		t.Fatalf("a keyWindow is %d bytes, want 64 (one cache line)", size)
	}
	for range 50 { // allocations of other sizes in between, so that a lucky start is not taken for a rule
		b := ownLines[keyWindow](3)
		if ptr, bytes := uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(cap(b))*64; ptr%64 != 0 || bytes <= minLineAligned {
			t.Errorf("3 keyWindows: array at %#x of %d bytes, want a multiple of 64 and more than %d bytes", ptr, bytes, minLineAligned)
		}
		_ = make([]byte, 24)
	}
	if big := ownLines[keyWindow](1000); cap(big) != 1000 {
		t.Errorf("ownLines[keyWindow](1000) has capacity %d, want 1000", cap(big))
	}
}
