//go:build !linux

package sim

import "unsafe"

// adviseHugePages does nothing where madvise's huge pages are not known.
func adviseHugePages(p unsafe.Pointer, n uintptr) {}
