package replay

import (
	"bytes"
	"context"
	"testing"
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
