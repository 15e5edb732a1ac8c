package replay

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/rlsim/rlsim/sim"
)

// BenchmarkReplayFleet replays the lines of BenchmarkReplayCombined through
// the six lanes on one limiter, and on three replicas (round robin, each
// counting alone; and sharing one state): ns/line is the figure quoted in
// docs/replay.md.
func BenchmarkReplayFleet(b *testing.B) {
	var log bytes.Buffer
	const lines = 200_000
	writeCombined(&log, lines, 7)
	data := log.Bytes()
	for _, f := range []Fleet{{}, {Replicas: 3}, {Replicas: 3, Place: Place{State: sim.StateShared}}} {
		b.Run(fmt.Sprintf("replicas=%d/%s", max(f.Replicas, 1), f.Place), func(b *testing.B) {
			opts := Options{Limits: []Limit{mustLimit(b, "key=ip limit=100/1m burst=20")}, Format: "combined", Fleet: f}
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := Replay(context.Background(), []Input{{Name: "bench", R: bytes.NewReader(data)}}, opts); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(lines*b.N), "ns/line")
		})
	}
}
