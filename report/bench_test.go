package report

import (
	"context"
	"io"
	"testing"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// million is a million requests at twice a limit of 5000/s: 8 million attempts
// over the eight lanes, every one of them seen by the Timeline.
const million = `description: a million requests at twice the limit, steadily
duration: 100s
limits:
  - {key: global, limit: 5000, window: 1s}
clients:
  - name: clients
    count: 100
    arrivals:
      - {kind: poisson, rate: 100/s}
`

// BenchmarkMillion compares a million-request simulation alone with the same
// simulation collecting a Timeline and writing the whole report (figures
// rendered, HTML written); html-bytes is the page's size.
//
//	go test ./report -run '^$' -bench Million -benchtime 3x
func BenchmarkMillion(b *testing.B) {
	s, err := scenarios.Parse("million.yaml", []byte(million))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("simulate", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := sim.Run(context.Background(), *s.Config, sim.Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("simulate+report", func(b *testing.B) {
		b.ReportAllocs()
		var size countingWriter
		for b.Loop() {
			tl := NewTimeline(*s.Config)
			r, err := sim.Run(context.Background(), *s.Config, sim.Options{Trace: tl})
			if err != nil {
				b.Fatal(err)
			}
			p, err := NewPage(Run{Scenario: s, Result: &r, Timeline: tl}, "rlsim run million.yaml --seed 1")
			if err != nil {
				b.Fatal(err)
			}
			size = 0
			if err := WriteHTML(&size, []Page{p}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(size), "html-bytes")
	})
}

type countingWriter int64

func (c *countingWriter) Write(p []byte) (int, error) {
	*c += countingWriter(len(p))
	return len(p), nil
}

var _ io.Writer = (*countingWriter)(nil)
