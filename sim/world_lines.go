package sim

import "unsafe"

// ownLines is make([]T, n) with a backing array that shares no cache line with
// another allocation. Lanes run at once on several cores, each writing its own
// small tallies (a global key's state, a class's counts) on every event; two
// such arrays of different lanes in one 64-byte line would make each write a
// miss on the other core (false sharing). Go puts an allocation of more than
// 480 bytes in a size class that is a multiple of 64 bytes, so at a line
// boundary, filling whole lines: a small array is given that much capacity.
// Only speed depends on it, never a result.
func ownLines[T any](n int) []T {
	size := int(unsafe.Sizeof(*new(T)))
	if size == 0 || n*size > minLineAligned {
		lines := make([]T, n)
		if n*size >= hugeArray && adviseHugePages != nil {
			adviseHugePages(unsafe.Pointer(unsafe.SliceData(lines)), uintptr(n*size))
		}
		return lines
	}
	return make([]T, n, (minLineAligned+size)/size)
}

// hugeArray is the size from which an array is worth huge pages: several of
// them, where a random read per event would miss the TLB.
const hugeArray = 8 << 20

// adviseHugePages, where the system has them, asks for huge pages under the n
// bytes at p (sim/world_hugepages_linux.go); nil elsewhere.
var adviseHugePages func(p unsafe.Pointer, n uintptr)

// minLineAligned is the size above which every Go size class is a multiple of 64.
const minLineAligned = 480
