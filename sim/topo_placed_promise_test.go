package sim

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// TestReplicaShareDividedPromise: a whole policy on every replica; a divided
// one gives replica j of n DividedShare of the limit and, for a limiter with
// a burst, of the burst; a share of nothing is not ok.
func TestReplicaShareDividedPromise(t *testing.T) {
	p := algorithms.Policy{Limit: 5, Window: time.Second, Burst: 2}
	tests := []struct {
		name    string
		kind    LaneKind
		divided bool
		n, j    int
		limit   int64
		burst   int64
		ok      bool
	}{
		{"whole", LaneTokenBucket, false, 3, 0, 5, 2, true},
		{"whole, past n", LaneTokenBucket, false, 3, 5, 5, 2, true},
		{"counter divided, low replica", LaneFixedWindow, true, 3, 0, 1, 2, true},
		{"counter divided, high replica", LaneFixedWindow, true, 3, 2, 2, 2, true},
		{"counter divided, share of nothing", LaneFixedWindow, true, 7, 1, 0, 2, false},
		{"counter divided, first with a share", LaneFixedWindow, true, 7, 2, 1, 2, true},
		{"bucket divided, burst share of nothing", LaneTokenBucket, true, 3, 0, 1, 0, false},
		{"bucket divided, burst share one", LaneTokenBucket, true, 3, 1, 2, 1, true},
		{"gcra divided, burst share one", LaneGCRA, true, 3, 2, 2, 1, true},
		{"past n", LaneFixedWindow, true, 3, 3, 0, 2, false},
	}
	for _, tt := range tests {
		rt := &replicaTables{rule: plainRule(tt.kind), divided: tt.divided, policy: p}
		got, ok := rt.share(tt.n, tt.j)
		if ok != tt.ok || got.Limit != tt.limit || got.Burst != tt.burst || got.Window != p.Window {
			t.Errorf("%s: share(%d, %d) = %+v, %v; want limit %d burst %d, %v", tt.name, tt.n, tt.j, got, ok, tt.limit, tt.burst, tt.ok)
		}
	}
	// A zero burst (= the limit) is not divided apart from the limit.
	rt := &replicaTables{rule: plainRule(LaneTokenBucket), divided: true, policy: algorithms.Policy{Limit: 5, Window: time.Second}}
	if got, ok := rt.share(3, 0); !ok || got.Limit != 1 || got.Burst != 0 {
		t.Errorf("zero burst: share(3, 0) = %+v, %v; want limit 1 burst 0, true", got, ok)
	}
}

// TestSlowerPromise: an admission waits at least as long as every binding
// division's delay; no delay leaves the verdict alone.
func TestSlowerPromise(t *testing.T) {
	tests := []struct {
		cur, held algorithms.Decision
		verdict   algorithms.Verdict
		delay     time.Duration
	}{
		{algorithms.Decision{Verdict: algorithms.Admit}, algorithms.Decision{}, algorithms.Admit, 0},
		{algorithms.Decision{Verdict: algorithms.Admit}, algorithms.Decision{Delay: 5}, algorithms.Delay, 5},
		{algorithms.Decision{Verdict: algorithms.Delay, Delay: 7}, algorithms.Decision{Delay: 5}, algorithms.Delay, 7},
		{algorithms.Decision{Verdict: algorithms.Delay, Delay: 3}, algorithms.Decision{Delay: 5}, algorithms.Delay, 5},
	}
	for _, tt := range tests {
		got := slower(tt.cur, tt.held)
		if got.Verdict != tt.verdict || got.Delay != tt.delay {
			t.Errorf("slower(%+v, %+v) = verdict %v delay %v, want %v %v", tt.cur, tt.held, got.Verdict, got.Delay, tt.verdict, tt.delay)
		}
	}
}

// TestReplicaTablesExpirePromise: a held division binds until its until,
// exclusive: at until it no longer does.
func TestReplicaTablesExpirePromise(t *testing.T) {
	rt := &replicaTables{held: []heldShares{{until: 10}, {until: 20}, {until: 20}, {until: 35}}}
	for _, st := range []struct {
		now  time.Duration
		left int
	}{{0, 4}, {9, 4}, {10, 3}, {19, 3}, {20, 1}, {34, 1}, {35, 0}, {100, 0}} {
		rt.expire(st.now)
		if len(rt.held) != st.left {
			t.Errorf("expire(%d): %d held, want %d", st.now, len(rt.held), st.left)
		}
	}
}
