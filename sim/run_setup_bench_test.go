package sim

import (
	"context"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// millionUsers is a million clients, each with its own per-user key, sending
// one request each in the first second.
func millionUsers(lanes ...LaneKind) Config {
	return Config{Duration: 2 * time.Second, Lanes: lanes,
		Limits: []Limit{{Key: KeyUser, Policy: algorithms.Policy{Limit: 10, Window: time.Second}}},
		Clients: []ClientGroup{{Name: "users", Count: 1_000_000,
			Arrivals: []Arrival{{Kind: ArrivalBurst, Count: 1, Spread: time.Second}}}}}
}

// BenchmarkSetup builds the world of a million clients and keys, one lane.
func BenchmarkSetup(b *testing.B) {
	cfg := millionUsers(LaneTokenBucket)
	b.ReportAllocs()
	for range b.N {
		if _, err := New(cfg, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ns/client")
}

// BenchmarkMillionKeys runs a million clients with a key each to the end: one
// request per key, so setup and per-key state dominate.
func BenchmarkMillionKeys(b *testing.B) {
	cfg := millionUsers(LaneTokenBucket)
	b.ReportAllocs()
	for range b.N {
		s, err := New(cfg, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.RunToEnd(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
