package sim

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// fuzzBudget bounds the events of one fuzzed run, so every input ends quickly.
const fuzzBudget = 100_000

// FuzzScenario builds a random world from the fuzz bytes (limits, chains, lanes,
// overrides, clients with every arrival and retry kind, backends with changes)
// and runs it end to end under a small event budget, checking that
//
//   - Validate accepting it means New accepts it, and nothing panics;
//   - the run ends within the budget: a result, or a *BudgetError at the budget;
//   - every lane's counts add up (see checkCounts);
//   - the sliding log never admits more than its limit in any window (trace);
//   - the token bucket and GCRA lanes decide every attempt alike;
//   - each lane's result is the same when it runs alone.
func FuzzScenario(f *testing.F) {
	for _, seed := range [][]byte{
		{},
		{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
		[]byte("a boundary burst with retries and a backend"),
		{255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255},
		{0, 0, 0, 0, 3, 0, 0, 0, 9, 0, 0, 0, 2, 0, 0, 1, 0, 0, 7, 7, 7, 7, 1, 1, 1, 1, 200, 3, 4},
		{7, 3, 1, 200, 4, 5, 9, 1, 0, 3, 3, 3, 2, 2, 9, 100, 50, 25, 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5},
		{2, 1, 0, 8, 1, 1, 0, 2, 3, 2, 1, 3, 0, 0, 4, 4, 2, 3, 3, 1, 2, 2, 0, 1, 3, 3, 255, 2, 3, 1},
	} {
		f.Add(seed)
	}
	// Long enough to reach fuzzVariant: a variant of gcra, token_bucket,
	// client_throttle, aimd, client_throttle with overrides and sliding_log.
	for _, step := range []int{3, 5, 9, 11, 34, 41} {
		seed := make([]byte, 120)
		for i := range seed {
			seed[i] = byte((i*step + 3) % 256)
		}
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg := fuzzConfig(&fuzzBytes{data: data})
		if cfg.Validate() != nil {
			return
		}
		traces := map[int]*laneTrace{}
		s, err := New(cfg, Options{MaxEvents: fuzzBudget, Trace: traceByLane(traces)})
		if err != nil {
			t.Fatalf("New refused what Validate accepted: %v\n%+v", err, cfg)
		}
		res, err := s.RunToEnd(context.Background())
		if s.Events() > fuzzBudget {
			t.Fatalf("processed %d events, over the budget of %d", s.Events(), fuzzBudget)
		}
		var be *BudgetError
		if errors.As(err, &be) {
			if be.Budget != fuzzBudget {
				t.Fatalf("stopped at a budget of %d, want %d", be.Budget, fuzzBudget)
			}
			return
		}
		if err != nil {
			t.Fatalf("Run of a valid config: %v\n%+v", err, cfg)
		}
		for i, lr := range res.Lanes {
			if err := checkCounts(lr); err != nil {
				t.Errorf("lane %v: %v\n%+v", lr.Name, err, cfg)
			}
			if err := checkTraceCounts(lr, traces[i]); err != nil {
				t.Errorf("lane %v: %v\n%+v", lr.Name, err, cfg)
			}
		}
		checkSlidingLog(t, cfg, res, traces)
		checkTokenBucketIsGCRA(t, cfg, res, traces)
		checkLanesIndependent(t, cfg, res)
		checkShadowsChangeNothing(t, cfg, res)
	})
}

// checkCounts holds a lane's result to the identities between its counts.
func checkCounts(r LaneResult) error {
	var errs []error
	must := func(ok bool, format string, args ...any) {
		if !ok {
			errs = append(errs, fmt.Errorf(format, args...))
		}
	}
	must(r.Pending >= 0 && r.Unique == r.Succeeded+r.GaveUp+r.Pending,
		"unique %d ≠ succeeded %d + gave up %d + pending %d", r.Unique, r.Succeeded, r.GaveUp, r.Pending)
	// Every attempt is admitted, refused, dropped, shed before admission (AIMD)
	// or still waiting in a leaky queue at the end (admitted on its release); a
	// backend may also shed an admitted attempt, which is then counted twice.
	// With a topology, an attempt may still be waiting on the store at the end.
	answered := r.Admitted + r.Refused + r.Dropped
	var waiting int64
	if r.Topology != nil {
		waiting = r.Topology.Waiting
	}
	must(answered <= r.Attempts && r.Attempts <= answered+r.Shed+r.Delayed+waiting,
		"attempts %d, admitted %d + refused %d + dropped %d, shed %d, delayed %d, waiting on the store %d", r.Attempts, r.Admitted, r.Refused, r.Dropped, r.Shed, r.Delayed, waiting)
	// Every request is attempted at least once, but a pacing client may hold
	// one past the end: it is then pending, never attempted.
	must(r.Attempts+r.Pending >= r.Unique, "attempts %d + pending %d < unique %d", r.Attempts, r.Pending, r.Unique)
	must(r.Succeeded <= r.Admitted, "succeeded %d > admitted %d", r.Succeeded, r.Admitted)
	var refusedBy int64
	for _, c := range r.RefusedBy {
		refusedBy += c.Count
	}
	must(refusedBy == r.Refused, "refusals per limit add to %d, refused %d", refusedBy, r.Refused)
	var sum ClassResult
	for _, c := range r.Classes {
		sum.Unique += c.Unique
		sum.Attempts += c.Attempts
		sum.Admitted += c.Admitted
		sum.Refused += c.Refused
		sum.Shed += c.Shed
		sum.Dropped += c.Dropped
		sum.Succeeded += c.Succeeded
		sum.GaveUp += c.GaveUp
	}
	total := ClassResult{Unique: r.Unique, Attempts: r.Attempts, Admitted: r.Admitted, Refused: r.Refused,
		Shed: r.Shed, Dropped: r.Dropped, Succeeded: r.Succeeded, GaveUp: r.GaveUp}
	must(reflect.DeepEqual(sum, total), "classes add to %+v, lane %+v", sum, total)
	must(checkClassCaught(r) == nil, "%v", checkClassCaught(r))
	var shadowClasses, shadowSeries, shadowBy int64
	for _, c := range r.Classes {
		shadowClasses += c.ShadowRefused
	}
	for _, p := range r.Series {
		shadowSeries += p.ShadowRefused
	}
	for _, c := range r.ShadowRefusedBy {
		shadowBy += c.Count
	}
	must(shadowClasses == r.ShadowRefused && shadowSeries == r.ShadowRefused && shadowBy >= r.ShadowRefused && shadowBy <= int64(len(r.ShadowRefusedBy))*r.ShadowRefused,
		"would-be refusals %d: classes add to %d, series to %d, per limit to %d", r.ShadowRefused, shadowClasses, shadowSeries, shadowBy)
	var series Point
	for _, p := range r.Series {
		series.Attempts += p.Attempts
		series.Admitted += p.Admitted
		series.Refused += p.Refused
		series.Shed += p.Shed
		series.Dropped += p.Dropped
	}
	must(series.Attempts == r.Attempts && series.Admitted == r.Admitted && series.Refused == r.Refused &&
		series.Shed == r.Shed && series.Dropped == r.Dropped, "series add to %+v", series)
	if r.Backend.Served > 0 || r.Backend.MaxInFlight > 0 {
		must(r.Backend.Served == r.Succeeded, "backend served %d, succeeded %d", r.Backend.Served, r.Succeeded)
	}
	return errors.Join(errs...)
}

// checkClassCaught holds who caught which class's attempts to the lane's
// figures: per class, its refusals per limit add to its Refused and its 503s
// per shedder plus its other 503s to its Shed; per limit and per shedder, the
// classes add to the lane's count.
func checkClassCaught(r LaneResult) error {
	byLimit := make([]int64, len(r.RefusedBy))
	byShedder := make([]int64, len(r.ShedBy))
	for _, c := range r.Classes {
		if len(c.RefusedBy) != len(r.RefusedBy) || len(c.ShedBy) != len(r.ShedBy) {
			return fmt.Errorf("class %s: %d limits and %d shedders, lane %d and %d", c.Name, len(c.RefusedBy), len(c.ShedBy), len(r.RefusedBy), len(r.ShedBy))
		}
		var refused, shed int64
		for i, n := range c.RefusedBy {
			refused += n.Count
			byLimit[i] += n.Count
		}
		for i, n := range c.ShedBy {
			shed += n.Count
			byShedder[i] += n.Count
		}
		if refused != c.Refused || shed+c.ShedByLane+c.ShedNoHealthy+c.ShedOther != c.Shed || c.ShedOther < 0 || c.ShedByLane < 0 || c.ShedNoHealthy < 0 {
			return fmt.Errorf("class %s: refused per limit add to %d of %d; shed per shedder %d + by the lane %d + by the load balancer %d + other %d, of %d",
				c.Name, refused, c.Refused, shed, c.ShedByLane, c.ShedNoHealthy, c.ShedOther, c.Shed)
		}
		if c.ShedNoHealthy > 0 && (r.Topology == nil || r.Topology.Health == nil) {
			return fmt.Errorf("class %s: %d shed by the load balancer without a health check", c.Name, c.ShedNoHealthy)
		}
		if c.ShedByLane > 0 && r.Lane.Info().Class != ConcurrencyLimiter {
			return fmt.Errorf("class %s: %d shed by the lane's concurrency limit in a %s lane", c.Name, c.ShedByLane, r.Lane)
		}
	}
	for i := range byLimit {
		if byLimit[i] != r.RefusedBy[i].Count {
			return fmt.Errorf("limit %s: classes add to %d, lane %d", r.RefusedBy[i].Limit, byLimit[i], r.RefusedBy[i].Count)
		}
	}
	for i := range byShedder {
		if byShedder[i] != r.ShedBy[i].Count {
			return fmt.Errorf("shedder %s: classes add to %d, lane %d", r.ShedBy[i].Limit, byShedder[i], r.ShedBy[i].Count)
		}
	}
	var noHealthy int64
	for _, c := range r.Classes {
		noHealthy += c.ShedNoHealthy
	}
	if r.Topology != nil && r.Topology.Health != nil && noHealthy != r.Topology.Health.NoHealthy {
		return fmt.Errorf("the load balancer's 503s: classes add to %d, the health check's %d", noHealthy, r.Topology.Health.NoHealthy)
	}
	return nil
}

// checkTraceCounts recounts a lane's figures from its trace: each refusal,
// drop, shed, delay and success is one record, and every attempt has one.
func checkTraceCounts(r LaneResult, tr *laneTrace) error {
	var n [TraceSuccess + 1]int64
	var shadowed int64
	if tr != nil {
		for _, rec := range tr.records {
			n[rec.Event]++
			if rec.Shadow != "" {
				shadowed++
			}
		}
	}
	if shadowed != r.ShadowRefused {
		return fmt.Errorf("the trace names a shadow on %d attempts, the result counts %d would-be refusals", shadowed, r.ShadowRefused)
	}
	got := [5]int64{n[TraceRefuse], n[TraceDrop], n[TraceShed], n[TraceDelay], n[TraceSuccess]}
	want := [5]int64{r.Refused, r.Dropped, r.Shed, r.Delayed, r.Succeeded}
	if got != want {
		return fmt.Errorf("refused, dropped, shed, delayed, succeeded: the trace counts %v, the result %v", got, want)
	}
	var waiting int64
	if r.Topology != nil {
		waiting = r.Topology.Waiting
	}
	if answers := n[TraceAdmit] + n[TraceDelay] + n[TraceRefuse] + n[TraceDrop] + n[TraceShed]; answers+waiting < r.Attempts {
		return fmt.Errorf("%d attempts, %d answers traced", r.Attempts, answers)
	}
	return nil
}

// checkSlidingLog recomputes, from the trace, every key's admissions in every
// window of the sliding-log lane: never above its limit.
func checkSlidingLog(t *testing.T, cfg Config, res Result, traces map[int]*laneTrace) {
	i := plainLane(res, LaneSlidingLog)
	if i < 0 {
		return
	}
	tr := traces[i]
	if tr == nil || cfg.Limits[0].Shadow || cfg.Topology != nil {
		return // a shadow first limit holds nothing; replicas hold it each (TestLocalReplicasAdmitNTimesTheLimit)
	}
	for _, ch := range cfg.Rules {
		if ch.Limit == 0 {
			return // the first limit changes during the run
		}
	}
	p := res.Lanes[i].Policy
	byKey := map[string][]TraceRecord{}
	for _, r := range tr.records {
		if r.Event == TraceAdmit || r.Event == TraceDelay {
			byKey[r.Key] = append(byKey[r.Key], r)
		}
	}
	for key, adm := range byKey {
		var sum int64
		from := 0
		for _, r := range adm {
			sum += r.Cost
			for adm[from].At <= r.At-p.Window {
				sum -= adm[from].Cost
				from++
			}
			if sum > p.Limit {
				t.Fatalf("sliding log admitted %d for %s in the window ending %v, limit %d\n%+v", sum, key, r.At, p.Limit, cfg)
			}
		}
	}
}

// checkTokenBucketIsGCRA compares the two lanes' traces attempt by attempt.
func checkTokenBucketIsGCRA(t *testing.T, cfg Config, res Result, traces map[int]*laneTrace) {
	i, j := plainLane(res, LaneTokenBucket), plainLane(res, LaneGCRA)
	if i < 0 || j < 0 {
		return
	}
	tb, g := traces[i], traces[j]
	if tb == nil || g == nil {
		return
	}
	for _, o := range cfg.Overrides {
		if o.Name == "" && (o.Lane == LaneTokenBucket || o.Lane == LaneGCRA) {
			return // their policies differ by design
		}
	}
	if len(tb.records) != len(g.records) {
		t.Fatalf("token bucket traced %d records, GCRA %d\n%+v", len(tb.records), len(g.records), cfg)
	}
	for i := range tb.records {
		a, b := tb.records[i], g.records[i]
		a.Lane, b.Lane, a.LaneName, b.LaneName, a.LaneIndex, b.LaneIndex = 0, 0, "", "", 0, 0
		if a != b {
			t.Fatalf("record %d: token bucket %+v, GCRA %+v\n%+v", i, a, b, cfg)
		}
	}
}

// checkLanesIndependent runs every lane alone: each must measure what it did
// beside the others.
func checkLanesIndependent(t *testing.T, cfg Config, res Result) {
	for i, lr := range res.Lanes {
		alone := cfg
		alone.Lanes, alone.Variants = []LaneKind{lr.Lane}, nil
		if i < len(cfg.Variants) {
			alone.Variants = []Variant{cfg.Variants[i]}
		}
		alone.Overrides = slices.DeleteFunc(slices.Clone(cfg.Overrides), func(o LaneOverride) bool { return o.Name != "" && o.Name != lr.Name })
		r, err := Run(context.Background(), alone, Options{MaxEvents: fuzzBudget})
		if err != nil {
			t.Fatalf("lane %v alone: %v", lr.Name, err)
		}
		if !reflect.DeepEqual(r.Lanes[0], lr) {
			t.Fatalf("lane %v alone differs from beside the others:\n%+v\n%+v", lr.Name, r.Lanes[0], lr)
		}
	}
}

// plainLane is the index of the lane of kind k under its kind's name, or -1.
func plainLane(r Result, k LaneKind) int {
	return slices.IndexFunc(r.Lanes, func(l LaneResult) bool { return l.Lane == k && l.Name == k.String() })
}

// checkShadowsChangeNothing runs the world without its shadow limits: every
// lane must decide every attempt alike. Overrides and rule pushes name limits by
// index, so worlds with them are left to the property tests.
func checkShadowsChangeNothing(t *testing.T, cfg Config, res Result) {
	if len(cfg.Overrides) > 0 || len(cfg.Rules) > 0 || cfg.Topology != nil {
		return // a shadow limit in the store makes store calls, which take time
	}
	without := cfg
	without.Limits = nil
	for _, l := range cfg.Limits {
		if !l.Shadow {
			without.Limits = append(without.Limits, l)
		}
	}
	if len(without.Limits) == len(cfg.Limits) || len(without.Limits) == 0 {
		return
	}
	r, err := Run(context.Background(), without, Options{MaxEvents: fuzzBudget})
	if err != nil {
		return // the enforced chain alone may be invalid (costs above a burst) or over the budget
	}
	for i := range r.Lanes {
		if r.Lanes[i].Verdicts != res.Lanes[i].Verdicts {
			t.Fatalf("lane %v decided otherwise without its shadow limits\n%+v", r.Lanes[i].Lane, cfg)
		}
	}
}

// laneTrace keeps one lane's trace records.
type laneTrace struct{ records []TraceRecord }

// traceByLane keeps each lane's records by its index.
type traceByLane map[int]*laneTrace

func (m traceByLane) Record(r *TraceRecord) error {
	lt := m[r.LaneIndex]
	if lt == nil {
		lt = &laneTrace{}
		m[r.LaneIndex] = lt
	}
	lt.records = append(lt.records, *r)
	return nil
}

// fuzzBytes hands out the fuzz input a byte at a time, then zeros.
type fuzzBytes struct {
	data []byte
	i    int
}

func (b *fuzzBytes) byte() byte {
	if b.i >= len(b.data) {
		return 0
	}
	b.i++
	return b.data[b.i-1]
}

// upTo is in [0, n).
func (b *fuzzBytes) upTo(n int) int { return int(b.byte()) % n }

func (b *fuzzBytes) pick(ds ...time.Duration) time.Duration { return ds[b.upTo(len(ds))] }

// fuzzConfig builds a world small enough to run in milliseconds and varied
// enough to reach every kind of arrival, retry, lane, override and backend.
func fuzzConfig(b *fuzzBytes) Config {
	ms := time.Millisecond
	c := Config{
		Duration: b.pick(100*ms, time.Second, 3*time.Second, 7*time.Second),
		Drain:    b.pick(0, 0, 50*ms, 2*time.Second),
		Seed:     uint64(b.byte()),
		Bucket:   b.pick(0, 0, 7*ms, 100*ms),
	}
	for range 1 + b.upTo(3) {
		c.Limits = append(c.Limits, Limit{
			Key: KeyKind(b.upTo(6)),
			Policy: algorithms.Policy{
				Limit:  int64(1 + b.upTo(40)),
				Window: b.pick(3*ms, 100*ms, time.Second, 1500*ms, 10*time.Second),
				Burst:  int64(b.upTo(50)),
			},
		})
	}
	if mask := b.byte(); mask != 0 {
		for i, k := range DefaultLanes() {
			if mask&(1<<i) != 0 {
				c.Lanes = append(c.Lanes, k)
			}
		}
	}
	for range b.upTo(4) / 2 {
		c.Overrides = append(c.Overrides, LaneOverride{
			Lane:  []LaneKind{LaneLeakyBucket, LaneGCRA, LaneTokenBucket, LaneSlidingLog, LaneFixedWindow, LaneClientThrottle}[b.upTo(6)],
			Limit: b.upTo(len(c.Limits)),
			Policy: algorithms.Policy{
				Limit: int64(1 + b.upTo(30)), Window: b.pick(10*ms, time.Second, 2*time.Second), Burst: int64(b.upTo(40)),
			},
		})
	}
	if b.upTo(3) == 0 {
		c.Throttle = ThrottleSettings{K: float64(1 + b.upTo(3)), Period: b.pick(0, 12*time.Second, 24*ms), Server: []LaneKind{LaneDefault, LaneGCRA, LaneLeakyBucket, LaneSlidingLog}[b.upTo(4)]}
	}
	if b.upTo(3) == 0 {
		c.AIMD = AIMDSettings{Initial: float64(1 + b.upTo(20)), Min: 1, Max: float64(20 + b.upTo(100)), Target: b.pick(0, 5*ms, 200*ms)}
	}
	for g := range 1 + b.upTo(3) {
		c.Clients = append(c.Clients, fuzzGroup(b, g, c.Duration))
	}
	if b.upTo(2) == 0 {
		be := &Backend{Capacity: b.upTo(6), QueueSize: b.upTo(12), Service: Service{Kind: ServiceKind(b.upTo(2)), Mean: b.pick(ms, 20*ms, 300*ms)}}
		at := time.Duration(0)
		for k := range b.upTo(3) {
			step := b.pick(0, 100*ms, time.Second)
			if k > 0 {
				step = max(step, time.Nanosecond) // a backend's changes come one after another
			}
			at += step
			be.Changes = append(be.Changes, BackendChange{At: at, Capacity: b.upTo(5), Service: Service{Kind: ServiceKind(b.upTo(2)), Mean: b.pick(0, 5*ms, 400*ms)}})
		}
		c.Backend = be
	}
	fuzzHeadersAndChains(b, &c)
	fuzzShadowAndRules(b, &c)
	fuzzVariant(b, &c)
	fuzzTopology(b, &c)
	fuzzRealStore(b, &c)
	return c
}

// fuzzRealStore makes a topology's store a real one: shards, a capacity with a
// queue limit, changes, a memory evicting or refusing. It reads the fuzz bytes
// last, and a zero byte means none, so older corpora keep their meaning.
func fuzzRealStore(b *fuzzBytes, c *Config) {
	if c.Topology == nil || b.upTo(2) == 0 {
		return
	}
	ms := time.Millisecond
	st := &c.Topology.Store
	st.Shards = 1 + b.upTo(4)
	st.Capacity = []float64{0, 50, 1000, 1e6}[b.upTo(4)]
	st.Service = ServiceKind(b.upTo(2))
	st.QueueLimit = b.upTo(5)
	if b.upTo(2) == 1 {
		at := b.pick(ms, c.Duration/3)
		st.Changes = []StoreChange{{At: at, Capacity: float64(1 + b.upTo(2000)), Latency: Service{Mean: b.pick(0, ms, 40*ms)}, Down: b.upTo(3) == 0},
			{At: at + b.pick(ms, c.Duration/3), Down: b.upTo(3) == 0}}
	}
	st.MaxMemory = int64(b.upTo(4)) * 100
	st.Eviction = Eviction(b.upTo(2))
}

// fuzzVariant adds a variant of one algorithm as one more lane, with its own
// policy for one limit or its own settings. It reads the fuzz bytes last, and a
// zero byte adds none, so older corpora keep their meaning.
func fuzzVariant(b *fuzzBytes, c *Config) {
	kind := []LaneKind{LaneDefault, LaneTokenBucket, LaneGCRA, LaneLeakyBucket, LaneSlidingLog, LaneAIMD, LaneClientThrottle}[b.upTo(7)]
	if kind == LaneDefault {
		return
	}
	ms := time.Millisecond
	c.Lanes = append(slices.Clone(c.LanesRun()), kind)
	c.Variants = make([]Variant, len(c.Lanes))
	v := &c.Variants[len(c.Lanes)-1]
	v.Name = "variant-" + kind.String()
	switch kind {
	case LaneAIMD:
		v.AIMD = &AIMDSettings{Initial: float64(1 + b.upTo(20)), Backoff: []float64{0, 0.5, 0.95}[b.upTo(3)]}
	case LaneClientThrottle:
		v.Throttle = &ThrottleSettings{K: float64(1 + b.upTo(3)), Server: []LaneKind{LaneDefault, LaneGCRA, LaneSlidingLog}[b.upTo(3)]}
	}
	if kind.Info().Class != ConcurrencyLimiter && b.upTo(2) == 1 {
		c.Overrides = append(c.Overrides, LaneOverride{Name: v.Name, Limit: b.upTo(len(c.Limits)), Policy: algorithms.Policy{
			Limit: int64(1 + b.upTo(30)), Window: b.pick(10*ms, time.Second, 2*time.Second), Burst: int64(b.upTo(40))}})
	}
}

// fuzzTopology sets a topology (replicas, routing, a store with latency,
// timeout and outages) and places each limit. It reads the fuzz bytes last,
// and a zero byte means none, so older corpora keep their meaning.
func fuzzTopology(b *fuzzBytes, c *Config) {
	if b.upTo(3) == 0 {
		return
	}
	ms := time.Millisecond
	t := &Topology{Replicas: []ReplicaStep{{Count: 1 + b.upTo(5)}}, Routing: Routing(b.upTo(3)), HashKey: KeyKind(b.upTo(6))}
	if b.upTo(2) == 1 {
		t.Replicas = append(t.Replicas, ReplicaStep{At: b.pick(ms, c.Duration/2, c.Duration), Count: 1 + b.upTo(8)})
	}
	t.Store = Store{Latency: Service{Kind: ServiceKind(b.upTo(2)), Mean: b.pick(0, ms, 20*ms)}, Racy: b.upTo(2) == 1,
		Timeout: b.pick(0, 0, 5*ms, 30*ms)}
	if b.upTo(2) == 1 {
		from := b.pick(0, 100*ms, c.Duration/2)
		t.Store.Outages = []Outage{{From: from, To: from + b.pick(ms, 300*ms, c.Duration)}}
	}
	c.Topology = t
	for i := range c.Limits {
		l := &c.Limits[i]
		l.State = StateKind(b.upTo(3))
		l.LocalLimit = LocalLimit(b.upTo(2))
		l.SyncInterval = b.pick(ms, 50*ms, time.Second)
		l.OnStoreError = FailMode(b.upTo(3))
		l.Fallback = algorithms.Policy{Limit: int64(1 + b.upTo(10)), Window: b.pick(10*ms, time.Second)}
	}
}

// fuzzShadowAndRules makes some limits shadows and schedules rule pushes. It
// reads the fuzz bytes after every other reader, and a zero byte (what an older,
// shorter input reads) means neither, so older corpora keep their meaning.
func fuzzShadowAndRules(b *fuzzBytes, c *Config) {
	ms := time.Millisecond
	for i := range c.Limits {
		c.Limits[i].Shadow = b.upTo(4) == 3
	}
	for range b.upTo(4) {
		ch := RuleChange{At: b.pick(0, ms, c.Duration/2, c.Duration, c.Duration+c.Drain), Limit: b.upTo(len(c.Limits)), Shadow: b.upTo(2) == 1}
		if b.upTo(2) == 1 {
			ch.Policy = algorithms.Policy{Limit: int64(1 + b.upTo(40)), Window: b.pick(3*ms, 100*ms, time.Second, 10*time.Second), Burst: int64(b.upTo(50))}
		}
		c.Rules = append(c.Rules, ch)
	}
}

// fuzzHeadersAndChains varies what the answers tell the clients (quota headers,
// Retry-After on 503s, pacing clients) and how a chain charges. It reads the
// fuzz bytes last, so the inputs of older corpora keep their meaning.
func fuzzHeadersAndChains(b *fuzzBytes, c *Config) {
	ms := time.Millisecond
	c.Chain = ChainMode(b.upTo(2))
	c.HeaderStyle = HeaderStyle(b.upTo(2))
	for i := range c.Limits {
		c.Limits[i].NoHeaders = b.upTo(3) == 0
	}
	for i := range c.Clients {
		c.Clients[i].Pace = b.upTo(3) == 0
		if c.Clients[i].Retry.HonorRetryAfter {
			c.Clients[i].Retry.RetryAfter = RetryAfterMode(b.upTo(2))
		}
	}
	c.AIMD.RetryAfter = b.pick(0, 0, ms, time.Second)
	if c.Backend != nil {
		c.Backend.RetryAfter = b.pick(0, 0, 20*ms, time.Second)
	}
}

func fuzzGroup(b *fuzzBytes, g int, duration time.Duration) ClientGroup {
	ms := time.Millisecond
	grp := ClientGroup{Name: fmt.Sprintf("g%d", g), Count: 1 + b.upTo(12), Cost: int64(b.upTo(4)/3 + 1)}
	shared := []string{"", "{g}-{i}", "shared", "{g}"}
	grp.Identity = Identity{User: shared[b.upTo(4)], IP: shared[b.upTo(4)], Tenant: shared[b.upTo(4)]}
	for range 1 + b.upTo(2) {
		a := Arrival{Kind: ArrivalKind(b.upTo(5)), Start: b.pick(0, 0, 10*ms, duration/3)}
		a.Rate = Rate{Count: int64(1 + b.upTo(30)), Per: b.pick(time.Second, 100*ms, 3*time.Second, 7*ms)}
		switch a.Kind {
		case ArrivalBurst:
			a.At, a.Count, a.Spread = b.pick(0, 900*ms, duration/2), 1+b.upTo(25), b.pick(0, 0, 100*ms, 3*ms)
		case ArrivalOnOff:
			a.On, a.Off = b.pick(ms, 50*ms, 500*ms), b.pick(0, 10*ms, time.Second)
		case ArrivalIdleThenBurst:
			a.Idle, a.Count, a.Spread = b.pick(50*ms, 480*ms, time.Second), 1+b.upTo(15), b.pick(0, 20*ms)
		}
		if b.upTo(4) == 0 {
			a.Stop = a.Start + b.pick(time.Nanosecond, 200*ms, duration)
		}
		grp.Arrivals = append(grp.Arrivals, a)
	}
	grp.Retry = Retry{Kind: RetryKind(b.upTo(4)), MaxAttempts: b.upTo(7)}
	switch grp.Retry.Kind {
	case RetryImmediate:
		grp.Retry.MaxAttempts = 1 + b.upTo(4)
	case RetryFixed:
		grp.Retry.Delay = b.pick(ms, 50*ms, 300*ms)
	case RetryExponential:
		grp.Retry.Base = b.pick(ms, 10*ms, 100*ms)
		grp.Retry.Cap = grp.Retry.Base * time.Duration(1+b.upTo(40))
		grp.Retry.Jitter = JitterKind(b.upTo(4))
	}
	if b.upTo(2) == 0 {
		grp.Retry.HonorRetryAfter, grp.Retry.RetryAfterJitter = true, b.pick(0, 0, 30*ms)
	}
	return grp
}
