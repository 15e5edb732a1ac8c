package web

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// heapInUse is the heap in use after a collection.
func heapInUse() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapInuse)
}

// userKeyed is an editor scenario of n clients, each its own key, retrying:
// the state per client and key that a page's session holds.
func userKeyed(n int) string {
	return fmt.Sprintf("duration: 60s\nlimits: [{key: user, limit: 5, window: 1s}]\nclients:\n  - name: crowd\n    count: %d\n    arrivals: [{kind: poisson, rate: 1/30s}]\n    retry: {kind: exponential, base: 200ms, cap: 5s, jitter: full, max_attempts: 3}\n", n)
}

// playHeld plays sess from now to its end in steps of a tenth of the run and
// returns the most heap in use after any step, over before.
func playHeld(sess *session, before int64) int64 {
	peak := heapInUse() - before
	for i := 0; i < 11 && !sess.finished; i++ {
		sess.advance(sess.sim.End()/10 + 1)
		sess.frame()
		peak = max(peak, heapInUse()-before)
	}
	return peak
}

// The footprint a scenario is admitted by is above what its session holds while
// it plays: built-ins of every kind (retries, a backend, replicas, a store,
// pacing, a shadow limit, a store of shards) and a crowd of keys.
func TestFootprintHoldsTheHeap(t *testing.T) {
	srv := New(Options{Addr: "127.0.0.1:1"})
	load := func(req createRequest) *scenarios.Scenario {
		sc, err := srv.load(req)
		if err != nil {
			t.Fatal(err)
		}
		return sc
	}
	for _, tc := range []struct {
		name string
		sc   *scenarios.Scenario
	}{
		{"demo", load(createRequest{Builtin: "demo"})},
		{"multi-replica-trap", load(createRequest{Builtin: "multi-replica-trap"})},
		{"hot-key-shard", load(createRequest{Builtin: "hot-key-shard"})}, // a real store: shards with histograms and series
		{"64 shards", load(createRequest{YAML: manyShards})},
		{"quota-pacing", load(createRequest{Builtin: "quota-pacing"})},
		{"downstream-slowdown", load(createRequest{Builtin: "downstream-slowdown"})},
		{"5,000 keys", load(createRequest{YAML: userKeyed(5_000)})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := heapInUse()
			sess, err := newSession(context.Background(), tc.sc, 0, "rlsim run")
			if err != nil {
				t.Fatal(err)
			}
			held := playHeld(sess, before)
			if fp := footprint(tc.sc.Config); held > fp {
				t.Errorf("the session held %d KB, over its footprint of %d KB", held>>10, fp>>10)
			} else {
				t.Logf("held %d KB of a footprint of %d KB", held>>10, fp>>10)
			}
		})
	}
}

// An injected request holds at most injectedBytes in each lane, pending (its
// events) and live (its request, held by retries and by pacing, the costliest).
func TestInjectedBytes(t *testing.T) {
	srv := New(Options{Addr: "127.0.0.1:1"})
	for _, name := range []string{"demo", "quota-pacing"} {
		t.Run(name, func(t *testing.T) {
			sc, err := srv.load(createRequest{Builtin: name})
			if err != nil {
				t.Fatal(err)
			}
			sess, err := newSession(context.Background(), sc, 0, "rlsim run")
			if err != nil {
				t.Fatal(err)
			}
			cfg := sess.sim.Config()
			sess.advance(cfg.Duration / 4)
			sess.frame()
			before := heapInUse()
			const n = 20_000
			if _, err := sess.fireBurst(n, cfg.Duration/2); err != nil {
				t.Fatal(err)
			}
			held := playHeld(sess, before)
			per := held / n / int64(len(cfg.Lanes))
			if held > injectedCost(&cfg, n) {
				t.Errorf("%d injected requests held %d KB, %d B per request and lane: over injectedBytes (%d B)", n, held>>10, per, injectedBytes)
			} else {
				t.Logf("%d injected requests held %d KB at most, %d B per request and lane", n, held>>10, per)
			}
		})
	}
}

// A client holds at most clientBytes in each lane, and its own key keyBytes
// more: measured as the growth of a session's peak heap from 2,000 clients to
// 12,000, so that what a lane holds whatever its size drops out.
func TestClientBytes(t *testing.T) {
	srv := New(Options{Addr: "127.0.0.1:1"})
	for _, tc := range []struct {
		key  string
		want int64
	}{{"user", clientBytes + keyBytes}, {"global", clientBytes}} {
		t.Run(tc.key, func(t *testing.T) {
			held := func(n int) int64 {
				sc, err := srv.load(createRequest{YAML: strings.Replace(userKeyed(n), "key: user", "key: "+tc.key, 1)})
				if err != nil {
					t.Fatal(err)
				}
				before := heapInUse()
				sess, err := newSession(context.Background(), sc, 0, "rlsim run")
				if err != nil {
					t.Fatal(err)
				}
				return playHeld(sess, before)
			}
			const few, many = 2_000, 12_000
			lanes := int64(len(sim.DefaultLanes()))
			per := (held(many) - held(few)) / (many - few) / lanes
			if per > tc.want {
				t.Errorf("a client keyed %s holds %d B per lane, over the %d B the footprint counts", tc.key, per, tc.want)
			} else {
				t.Logf("a client keyed %s holds %d B per lane; the footprint counts %d B", tc.key, per, tc.want)
			}
		})
	}
}

// manyShards is a store of 64 shards, each calls from 64 users: two latency
// histograms a shard and lane, 3.7 MB in each of the 3 lanes.
const manyShards = `duration: 2s
lanes: [fixed_window, token_bucket, gcra]
limits:
  - key: user
    limit: 5
    state: shared
topology:
  replicas: 2
  store:
    shards: 64
    capacity: 10000
clients:
  - count: 4096
    arrivals:
      - kind: poisson
        rate: 1/s
`
