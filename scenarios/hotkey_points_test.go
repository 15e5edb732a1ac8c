package scenarios

import (
	"context"
	"hash/fnv"
	"math"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// hotShard is the shard of 4 the docs' rule puts a key on: its FNV-1a hash modulo 4.
func hotShard(key string) int {
	h := fnv.New64a()
	h.Write([]byte(key))
	return int(h.Sum64() % 4)
}

// hot-key-shard: the scraper's shard gets its 2000 calls a second, twice its
// capacity: it serves what its capacity allows (1000 a second over 30s) and
// refuses the rest at once, its queue stays at its limit of 200, so a call
// waits about 200 services (200ms) and times out at 50ms; the other shards
// idle, answering everything in a few milliseconds.
func TestHotKeyShardMakesItsPoint(t *testing.T) {
	hot := hotShard("user:scraper-1")
	for kind, l := range lanesOf(t, "hot-key-shard") {
		sh := l.Topology.Shards
		if len(sh) != 4 {
			t.Fatalf("%v: %d shards, want 4", kind, len(sh))
		}
		h := sh[hot]
		served := h.Calls - h.Refused
		if h.Calls < 60000 || h.QueueFull != h.Refused || math.Abs(float64(served)/30000-1) > 0.03 {
			t.Errorf("%v: hot shard %d: %d calls, %d refused (%d queue full), %d served, want over 60000 calls and about 30000 served",
				kind, hot, h.Calls, h.Refused, h.QueueFull, served)
		}
		if h.PeakQueue != 200 || math.Abs(h.MeanWait/0.2-1) > 0.05 || h.TimedOut < served*9/10 || h.Latency.P99 != 50*time.Millisecond {
			t.Errorf("%v: hot shard: peak queue %d, mean wait %.4fs, %d timed out of %d served, p99 %v; want 200, about 0.2s, nearly all, 50ms",
				kind, h.PeakQueue, h.MeanWait, h.TimedOut, served, h.Latency.P99)
		}
		for i, s := range sh {
			if i == hot {
				continue
			}
			if s.Calls == 0 || s.Refused+s.TimedOut != 0 || s.PeakQueue > 5 || s.Latency.P99 > 10*time.Millisecond {
				t.Errorf("%v: shard %d: %d calls, %d refused, %d timed out, peak queue %d, p99 %v; want an idle shard",
					kind, i, s.Calls, s.Refused, s.TimedOut, s.PeakQueue, s.Latency.P99)
			}
		}
		if c := class(l, "scraper"); c.Admitted > 30*21 {
			t.Errorf("%v: the scraper got %d admitted, more than its limit allows", kind, c.Admitted)
		}
	}
}

// hot-key-shard's comment: with a refusal cache the scraper's refused
// attempts stay on its replicas; the hot shard takes a small part of its
// calls, refuses none and keeps a short queue, and every member is served.
func TestHotKeyShardBoundedByARefusalCache(t *testing.T) {
	set, err := ParseSet("topology.store.refusal_cache=true")
	if err != nil {
		t.Fatal(err)
	}
	s, err := LoadBuiltin("hot-key-shard", set)
	if err != nil {
		t.Fatal(err)
	}
	r, err := sim.Run(context.Background(), *s.Config, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	hot := hotShard("user:scraper-1")
	for _, l := range r.Lanes {
		h := l.Topology.Shards[hot]
		if h.Calls > 61471/5 || h.Refused != 0 || h.PeakQueue > 100 {
			t.Errorf("%s: hot shard with the cache: %d calls, %d refused, peak queue %d; want a fifth of the 61471 at most, none, a short queue",
				l.Name, h.Calls, h.Refused, h.PeakQueue)
		}
		if m := class(l, "members"); m.Succeeded*1000 < m.Unique*999 {
			t.Errorf("%s: members served %d of %d with the cache, want nearly all (999 in 1000)", l.Name, m.Succeeded, m.Unique)
		}
	}
}
