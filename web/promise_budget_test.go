package web

import (
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// mb is n bytes in whole MB, rounded up: exactly at a MB, and one byte either side.
func TestPromiseMBRoundsUp(t *testing.T) {
	const m = 1 << 20
	for _, tc := range []struct {
		n    int64
		want string
	}{
		{0, "0 MB"}, {1, "1 MB"}, {m - 1, "1 MB"}, {m, "1 MB"}, {m + 1, "2 MB"},
		{2*m - 1, "2 MB"}, {2 * m, "2 MB"}, {256 * m, "256 MB"},
	} {
		if got := mb(tc.n); got != tc.want {
			t.Errorf("mb(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

// buckets: the default when Bucket is not positive, Drain ≤ 0 meaning Duration,
// and whole buckets plus one.
func TestPromiseBuckets(t *testing.T) {
	for _, tc := range []struct {
		dur, drain, bucket time.Duration
		want               int64
	}{
		{10 * time.Second, 0, 0, 512},
		{10 * time.Second, 0, -1, 512},
		{10 * time.Second, 0, time.Second, 21},            // (10+10)/1 + 1
		{10 * time.Second, -time.Second, time.Second, 21}, // a negative drain is Duration too
		{10 * time.Second, 5 * time.Second, time.Second, 16},
		{10 * time.Second, 1, time.Second, 11},    // a drain of 1ns is its own: 10s+1ns → 10 whole
		{10 * time.Second, 0, 3 * time.Second, 7}, // 20/3 = 6 whole, + 1
	} {
		cfg := sim.Config{Duration: tc.dur, Drain: tc.drain, Bucket: tc.bucket}
		if got := buckets(&cfg); got != tc.want {
			t.Errorf("buckets(duration %v, drain %v, bucket %v) = %d, want %d", tc.dur, tc.drain, tc.bucket, got, tc.want)
		}
	}
}

// injectedCost is n × lanes × injectedBytes, the default lanes when none are named.
func TestPromiseInjectedCost(t *testing.T) {
	two := sim.Config{Lanes: []sim.LaneKind{sim.LaneTokenBucket, sim.LaneTokenBucket}}
	if got, want := injectedCost(&two, 7), int64(7*2*128); got != want {
		t.Errorf("injectedCost(2 lanes, 7) = %d, want %d", got, want)
	}
	none := sim.Config{}
	if got, want := injectedCost(&none, 3), int64(3*len(sim.DefaultLanes())*128); got != want {
		t.Errorf("injectedCost(default lanes, 3) = %d, want %d", got, want)
	}
}

// footprint adds up, per lane, its fixed part, every client (a group of 0
// counting 1), every key (one per global limit, one per client else) times the
// replicas plus the store's copy, every bucket and every queued request.
func TestPromiseFootprintFormula(t *testing.T) {
	cfg := sim.Config{
		Duration: 10 * time.Second, Bucket: time.Second,
		Lanes:   []sim.LaneKind{sim.LaneTokenBucket, sim.LaneTokenBucket},
		Clients: []sim.ClientGroup{{Count: 3}, {Count: 0}},
		Limits:  []sim.Limit{{Key: sim.KeyGlobal}, {Key: sim.KeyUser}},
		Backend: &sim.Backend{Capacity: 2, QueueSize: 5},
	}
	clients, keys, replicas, bkts, queue := int64(4), int64(1+4), int64(1), int64(21), int64(7)
	perLane := int64(2<<20) + clients*160 + keys*replicas*160 + bkts*256 + queue*128
	if got, want := footprint(&cfg), int64(4<<20)+2*perLane; got != want {
		t.Errorf("footprint without topology = %d, want %d", got, want)
	}
	cfg.Topology = &sim.Topology{Replicas: []sim.ReplicaStep{{Count: 2}, {At: time.Second, Count: 3}, {At: 2 * time.Second, Count: 1}}}
	replicas = 3 + 1 // the most replicas, and the store's copy
	perLane = int64(2<<20) + clients*160 + keys*replicas*160 + bkts*256 + queue*128
	if got, want := footprint(&cfg), int64(4<<20)+2*perLane; got != want {
		t.Errorf("footprint with up to 3 replicas = %d, want %d", got, want)
	}
	cfg.Topology, cfg.Lanes = nil, nil
	perLane = int64(2<<20) + clients*160 + keys*1*160 + bkts*256 + queue*128
	if got, want := footprint(&cfg), int64(4<<20)+int64(len(sim.DefaultLanes()))*perLane; got != want {
		t.Errorf("footprint with the default lanes = %d, want %d", got, want)
	}
}

// logged: the share of the run a window covers (at most all of it), of twice
// the estimated events, 16 B each; the run ends at Duration+Drain, 2×Duration
// when Drain ≤ 0; nothing for a window or a run that is not positive.
func TestPromiseLogged(t *testing.T) {
	cfg := sim.Config{Duration: 10 * time.Second, Clients: []sim.ClientGroup{{Count: 1}}}
	e := float64(cfg.EstimateEvents())
	if e <= 0 {
		t.Fatalf("EstimateEvents = %v, want a positive estimate to test with", e)
	}
	end := 20 * time.Second
	for _, tc := range []struct {
		window time.Duration
		want   int64
	}{
		{0, 0}, {-1, 0},
		{end, int64(2*e) * 16},
		{2 * end, int64(2*e) * 16}, // a share above 1 is 1
		{end / 4, int64(2*e*0.25) * 16},
	} {
		if got := logged(&cfg, tc.window); got != tc.want {
			t.Errorf("logged(run to %v, window %v) = %d, want %d", end, tc.window, got, tc.want)
		}
	}
	cfg.Drain = 30 * time.Second // its own drain: the run ends at 40s
	if got, want := logged(&cfg, 10*time.Second), int64(2*float64(cfg.EstimateEvents())*0.25)*16; got != want {
		t.Errorf("logged(drain 30s, window 10s) = %d, want %d", got, want)
	}
	if got := logged(&sim.Config{}, time.Second); got != 0 {
		t.Errorf("logged(empty run) = %d, want 0", got)
	}
}

// holdings.admit refuses bytes over the limit, not at it, names the control,
// and leaves the holdings as they were.
func TestPromiseAdmitBytesBoundary(t *testing.T) {
	cfg := sim.Config{Lanes: []sim.LaneKind{sim.LaneTokenBucket}}
	want := int64(1000) + 5*128 + 2*1024 // base, 5 requests in 1 lane, 2 marks
	h := holdings{base: 1000}
	if err := h.admit(&cfg, "no burst", 5, 2, want-1); err == nil {
		t.Errorf("admit to %d bytes under a limit of %d: nil, want a refusal", want, want-1)
	} else if !strings.HasPrefix(err.Error(), "no burst: this session would hold about 1 MB, more than the 1 MB") {
		t.Errorf("refusal %q", err)
	}
	if h.injected != 0 || h.marks != 0 {
		t.Errorf("holdings %+v after a refusal, want none counted", h)
	}
	if err := h.admit(&cfg, "no burst", 5, 2, want); err != nil {
		t.Errorf("admit to exactly the limit: %v", err)
	}
	if h.injected != 5 || h.marks != 2 || h.bytes(&cfg) != want {
		t.Errorf("holdings %+v (%d bytes) after admitting, want 5 injected, 2 marks, %d bytes", h, h.bytes(&cfg), want)
	}
}

// admitRate: at most maxLive requests under way, all groups together; a
// group's change replaces its last one.
func TestPromiseAdmitRateLiveCap(t *testing.T) {
	cfg := sim.Config{Lanes: []sim.LaneKind{sim.LaneTokenBucket}}
	var h holdings
	if err := h.admitRate(&cfg, 0, maxLive, 1<<50); err != nil {
		t.Fatalf("exactly maxLive: %v", err)
	}
	if err := h.admitRate(&cfg, 1, 1, 1<<50); err == nil || !strings.Contains(err.Error(), "about 1000001 requests under way, more than the 1000000 a session may") {
		t.Errorf("one over maxLive in another group: %v", err)
	}
	if err := h.admitRate(&cfg, 0, 600_000, 1<<50); err != nil {
		t.Fatalf("group 0 replaced by less: %v", err)
	}
	if err := h.admitRate(&cfg, 1, 400_000, 1<<50); err != nil {
		t.Errorf("groups adding up to maxLive: %v", err)
	}
	if got := h.lives(); got != maxLive {
		t.Errorf("lives = %d, want %d", got, maxLive)
	}
	// Bytes: the live requests are counted as injected ones.
	var g holdings
	want := int64(10 * 128)
	if err := g.admitRate(&cfg, 0, 10, want-1); err == nil || !strings.Contains(err.Error(), "choose a lower rate") {
		t.Errorf("a byte over the limit: %v", err)
	}
	if err := g.admitRate(&cfg, 0, 10, want); err != nil || g.bytes(&cfg) != want {
		t.Errorf("exactly the limit: %v, %d bytes", err, g.bytes(&cfg))
	}
}

// admitWindow counts only the widest window pushed, and refuses over the limit.
func TestPromiseAdmitWindowWidest(t *testing.T) {
	cfg := sim.Config{Duration: 10 * time.Second, Lanes: []sim.LaneKind{sim.LaneTokenBucket}, Clients: []sim.ClientGroup{{Count: 1}}}
	var h holdings
	if err := h.admitWindow(&cfg, 10*time.Second, 1<<50); err != nil {
		t.Fatal(err)
	}
	wide := logged(&cfg, 10*time.Second)
	if err := h.admitWindow(&cfg, time.Second, 1<<50); err != nil {
		t.Fatal(err)
	}
	if h.logged != wide {
		t.Errorf("logged %d after a narrower push, want the widest's %d", h.logged, wide)
	}
	var g holdings
	if err := g.admitWindow(&cfg, 10*time.Second, wide-1); err == nil || !strings.Contains(err.Error(), "with a window of 10s") {
		t.Errorf("a byte over: %v", err)
	}
	if g.logged != 0 {
		t.Errorf("logged %d after a refusal, want 0", g.logged)
	}
	if err := g.admitWindow(&cfg, 10*time.Second, wide); err != nil {
		t.Errorf("exactly at the limit: %v", err)
	}
}

// liveAt: a request lives 1s plus the first limit's window, plus each retry's
// longest wait; at most to the end of the run; Count × perSecond × (seconds + 1ms).
func TestPromiseLiveAt(t *testing.T) {
	base := func(r sim.Retry) sim.Config {
		return sim.Config{Duration: 60 * time.Second, Drain: 10 * time.Second,
			Limits:  []sim.Limit{{Policy: algorithms.Policy{Limit: 5, Window: time.Second}}},
			Clients: []sim.ClientGroup{{Count: 2, Retry: r}}}
	}
	for _, tc := range []struct {
		name  string
		retry sim.Retry
		now   time.Duration
		want  int64
	}{
		{"no retry", sim.Retry{}, 0, 40},                            // 2 × 10 × 2.001
		{"near the end", sim.Retry{}, 69500 * time.Millisecond, 10}, // 0.5s left: 2 × 10 × 0.501
		{"past the end", sim.Retry{}, 71 * time.Second, 0},          // 2 × 10 × 0.001
		{"retries", sim.Retry{Kind: sim.RetryExponential, Base: 100 * time.Millisecond, Cap: 2 * time.Second, MaxAttempts: 3}, 0, 220},  // 2s + 3×(2s+1s)
		{"fixed delay", sim.Retry{Kind: sim.RetryFixed, Delay: 4 * time.Second, RetryAfterJitter: time.Second, MaxAttempts: 1}, 0, 160}, // 2s + (4+1+1)s
		{"unbounded retries", sim.Retry{Kind: sim.RetryExponential, Base: time.Second, MaxAttempts: 0}, 0, 1400},                        // to 70s: 2 × 10 × 70.001
	} {
		cfg := base(tc.retry)
		if got := liveAt(&cfg, 0, 10, tc.now); got != tc.want {
			t.Errorf("%s: liveAt(now %v) = %d, want %d", tc.name, tc.now, got, tc.want)
		}
	}
	// The millisecond added: 2000 clients at 1/s past the end still count 2000 × 0.001.
	cfg := base(sim.Retry{})
	cfg.Clients[0].Count = 2000
	if got := liveAt(&cfg, 0, 1, 80*time.Second); got != 2 {
		t.Errorf("liveAt(2000 clients, past the end) = %d, want 2", got)
	}
}

// WorstCase is MaxSessions × MaxSessionBytes, defaults applied.
func TestPromiseWorstCaseAndDefaults(t *testing.T) {
	if got, want := (Options{}).WorstCase(), int64(8*(256<<20)); got != want {
		t.Errorf("WorstCase of defaults = %d, want %d", got, want)
	}
	if got := (Options{MaxSessions: 3, MaxSessionBytes: 1000}).WorstCase(); got != 3000 {
		t.Errorf("WorstCase(3, 1000) = %d, want 3000", got)
	}
	for _, z := range []Options{{}, {MaxSessions: -1, MaxScenarioBytes: -1, MaxClients: -1, MaxSessionBytes: -1, Frame: -1, BodyWithin: -1}} {
		d := z.withDefaults()
		if d.MaxSessions != 8 || d.MaxScenarioBytes != 256<<10 || d.MaxClients != 1_000_000 || d.MaxSessionBytes != 256<<20 ||
			d.Frame != time.Second/30 || d.BodyWithin != 10*time.Second || d.Overrides.MaxEvents != 50_000_000 {
			t.Errorf("withDefaults of %+v = %+v", z, d)
		}
	}
	d := Options{MaxSessions: -1, MaxScenarioBytes: -1, MaxClients: -1, MaxSessionBytes: -1, Frame: -1, BodyWithin: -1}.withDefaults()
	if d.MaxSessions != 8 || d.MaxScenarioBytes != 256<<10 || d.MaxClients != 1_000_000 || d.MaxSessionBytes != 256<<20 ||
		d.Frame != time.Second/30 || d.BodyWithin != 10*time.Second || d.Overrides.MaxEvents != 50_000_000 {
		t.Errorf("withDefaults of negatives = %+v", d)
	}
	k := Options{MaxSessions: 1, MaxScenarioBytes: 1, MaxClients: 1, MaxSessionBytes: 1, Frame: 1, BodyWithin: 1}.withDefaults()
	if k.MaxSessions != 1 || k.MaxScenarioBytes != 1 || k.MaxClients != 1 || k.MaxSessionBytes != 1 || k.Frame != 1 || k.BodyWithin != 1 {
		t.Errorf("withDefaults changed set limits: %+v", k)
	}
}
