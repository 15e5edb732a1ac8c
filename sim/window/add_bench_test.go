package window

import (
	"testing"
	"time"
)

// BenchmarkAdd is an unchecked tracker's Add in its common case, as a fleet's
// windows take it: an admission every 20 µs in a 1 ms window, on one key (an
// exact twin's global key) and on eight in turn (eight replicas' windows).
func BenchmarkAdd(b *testing.B) {
	for _, keys := range []int32{1, 8} {
		b.Run(map[int32]string{1: "one_key", 8: "eight_keys"}[keys], func(b *testing.B) {
			b.ReportAllocs()
			p := NewUntimed(time.Millisecond, 1000, int(keys))
			at, k := time.Duration(0), int32(0)
			for b.Loop() {
				at += 20 * time.Microsecond
				k = (k + 1) & (keys - 1) // keys is a power of two
				p.Add(k, at, 1)
			}
		})
	}
}
