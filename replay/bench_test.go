package replay

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/rlsim/rlsim/internal/accesslog"
)

// BenchmarkReplayCombined replays generated combined-format lines through all
// six lanes under one per-IP limit; lines/s is the figure quoted in docs/replay.md.
func BenchmarkReplayCombined(b *testing.B) {
	var log bytes.Buffer
	writeCombined(&log, 200_000, 7)
	data := log.Bytes()
	opts := Options{Limits: []Limit{mustLimit(b, "key=ip limit=100/1m burst=20")}, Format: "combined"}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for b.Loop() {
		if _, err := Replay(context.Background(), []Input{{Name: "bench", R: bytes.NewReader(data)}}, opts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(200_000*b.N)/b.Elapsed().Seconds(), "lines/s")
}

// BenchmarkReplayOneInstant replays lines that all share one second (1024
// addresses in turn) through all six lanes and reports the peak live heap
// (after a GC every 250 000 lines): it stays flat past MaxReorder lines, the
// figure quoted in docs/replay.md. -benchtime 1x; the sizes are subtests.
func BenchmarkReplayOneInstant(b *testing.B) {
	for _, n := range []int{MaxReorder / 2, MaxReorder, 2 * MaxReorder, 4 * MaxReorder} {
		b.Run(fmt.Sprintf("lines=%d", n), func(b *testing.B) {
			log := oneInstant(n)
			b.ReportAllocs()
			b.SetBytes(int64(len(log)))
			var peak uint64
			for b.Loop() {
				heap := func() uint64 {
					var m runtime.MemStats
					runtime.GC()
					runtime.ReadMemStats(&m)
					return m.HeapAlloc
				}
				base := heap()
				opts := Options{Limits: []Limit{mustLimit(b, "key=ip limit=100/1m burst=20")}, Format: "combined",
					ProgressEvery: 250_000, Progress: func(int64, int64) { peak = max(peak, heap()-base) }}
				if _, err := Replay(context.Background(), []Input{{Name: "one", R: bytes.NewReader(log)}}, opts); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(peak)/1e6, "peak-heap-MB")
		})
	}
}

// BenchmarkReplayFile replays the log bench/replayparse generates
// (internal/accesslog, 500 000 lines) through the six default lanes under
// replay's benchmark limit: the replay half of "Replay beside a minimal
// parser" in docs/performance.md, per line.
func BenchmarkReplayFile(b *testing.B) {
	const n = 500_000
	var log bytes.Buffer
	if err := accesslog.Write(&log, n, 7); err != nil {
		b.Fatal(err)
	}
	data := log.Bytes()
	opts := Options{Limits: []Limit{mustLimit(b, "key=ip limit=100/1m burst=20")}, Format: "combined"}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Replay(context.Background(), []Input{{Name: "bench", R: bytes.NewReader(data)}}, opts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n*b.N), "ns/line")
}
