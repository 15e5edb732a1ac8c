//go:build unix

package replay

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// BenchmarkReplayShards replays the 200 000 generated combined lines of
// BenchmarkReplayCombined in one pass, and as 4 shards one after another
// (each writing its partial) followed by their merge: cpu-ms/op is the
// process's user+system CPU time per op (getrusage), the figure quoted in
// docs/distributed.md. Every shard reads and parses every line; the lanes'
// work and the keys held are split.
func BenchmarkReplayShards(b *testing.B) {
	var log bytes.Buffer
	writeCombined(&log, 200_000, 7)
	data := log.Bytes()
	f := Flags{Limits: []string{"key=ip limit=100/1m burst=20"}, LogFormat: "combined", TZ: "UTC", Late: 5 * time.Second,
		LegitBelow: 0.5, Top: 10, Format: "text"}
	o, err := f.Options()
	if err != nil {
		b.Fatal(err)
	}
	in := []PartialInput{{Name: "bench", Size: int64(len(data))}}
	cpu := func() time.Duration {
		var ru syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	for _, shards := range []int{0, 4} {
		name := "one-pass"
		if shards > 0 {
			name = "4-shards+merge"
		}
		b.Run(name, func(b *testing.B) {
			dir := b.TempDir()
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			start := cpu()
			for b.Loop() {
				if shards == 0 {
					res, err := Replay(context.Background(), []Input{{Name: "bench", R: bytes.NewReader(data)}}, o)
					if err == nil {
						_, err = Render(res, o, false, 0)
					}
					if err != nil {
						b.Fatal(err)
					}
					continue
				}
				var paths []string
				for i := range shards {
					so := o
					so.Shard = Shard{i, shards}
					res, err := Replay(context.Background(), []Input{{Name: "bench", R: bytes.NewReader(data)}}, so)
					if err != nil {
						b.Fatal(err)
					}
					p := filepath.Join(dir, "part-"+so.Shard.String()[:1]+".json")
					w, err := os.Create(p)
					if err != nil {
						b.Fatal(err)
					}
					if err := WritePartial(w, res, so.Shard, in, f, so); err != nil {
						b.Fatal(err)
					}
					w.Close()
					paths = append(paths, p)
				}
				m, err := MergePartials(paths)
				if err == nil {
					_, err = Render(m.Result, m.Options, false, 0)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpu()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
		})
	}
}
