package diff

import (
	"fmt"
	"testing"

	"github.com/rlsim/rlsim/sim"
)

// BenchmarkCounterRecord is the cost of counting one attempt of the trace
// by key and class: a map update, no allocation once the key is known.
func BenchmarkCounterRecord(b *testing.B) {
	c := &counter{}
	sinks := c.ForLanes(1)
	recs := make([]sim.TraceRecord, 1000)
	for i := range recs {
		recs[i] = sim.TraceRecord{Event: sim.TraceEvent(i % 3), Key: fmt.Sprintf("ip:k-%d", i%100), Class: "users", Attempt: 1 + i%2}
	}
	for i := range recs {
		sinks[0].Record(&recs[i])
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		sinks[0].Record(&recs[i%len(recs)])
	}
}
