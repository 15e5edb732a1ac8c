package web

import (
	"fmt"
	"time"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// A session's memory is bounded: what its simulation holds is estimated from
// the scenario before anything is built (footprint), and every control that
// adds to it (a burst's requests, a rule push, a rate change) is checked
// against Options.MaxSessionBytes before it is applied. The server as a whole
// then holds at most MaxSessions × MaxSessionBytes for its sessions
// (Options.WorstCase). The bytes per unit below are upper bounds of what the
// data structures hold, measured by TestClientBytes, TestInjectedBytes and,
// for whole sessions, TestFootprintHoldsTheHeap.
const (
	// sessionBytes is what a session holds whatever its scenario: the
	// simulation's tables, the frame, a report's timeline while it is
	// written (a tick budget).
	sessionBytes = 4 << 20
	// laneBytes is what a lane holds whatever its scenario: its bins (binSlices
	// columns, each with a sample of every mark) and its tables.
	laneBytes = 2 << 20
	// clientBytes is a client's state in one lane: its arrival stream, retry
	// draws, counters and the request it has under way.
	clientBytes = 160
	// keyBytes is a key's state in one lane, one limit and one replica: the
	// limiter's, the key's window record and the peak's recent log.
	keyBytes = 160
	// bucketBytes is one time-series bucket of one lane.
	bucketBytes = 256
	// queuedBytes is a request waiting in the backend's queue of one lane.
	queuedBytes = 128
	// injectedBytes is one injected request in one lane: its pending event (24
	// B in a heap that doubles as it grows), then its request while it lives.
	injectedBytes = 128
	// loggedBytes is one attempt held in a window's logs in one lane: the
	// sliding log's and the peak's recent log, 8 B each.
	loggedBytes = 16
	// markBytes is one control drawn on the timeline (a burst, a rule push, a
	// rate change) as the session holds it and each frame copies it.
	markBytes = 1 << 10
	// shardBytes is one shard of a real store (sim.Store.Real) in one lane:
	// its two latency histograms (the run's and its series bucket's) and
	// its figures; its series points are a bucket's (bucketBytes).
	shardBytes = 2*58*128*8 + 4<<10
)

// Per-session limits of the controls, whatever the memory left.
const (
	// maxInjected is the most requests a session may inject in all: ten bursts
	// of the largest size. Restart for more.
	maxInjected = 10 * maxBurst
	// maxMarks is the most bursts, rule pushes and rate changes a session may
	// make in all: each one is drawn, and sent with every frame.
	maxMarks = 1000
	// maxLive is the most requests a session's rate changes may keep under way
	// at once (liveAt), all groups together.
	maxLive = 1_000_000
)

// DefaultMaxSessionBytes is the default of Options.MaxSessionBytes.
const DefaultMaxSessionBytes = 256 << 20

// WorstCase is the most memory the server's sessions hold together, in bytes:
// MaxSessions sessions at MaxSessionBytes each, defaults applied.
func (o Options) WorstCase() int64 {
	o = o.withDefaults()
	return int64(o.MaxSessions) * o.MaxSessionBytes
}

// footprint is about how many bytes, at most, a session playing cfg holds with
// no control applied: every client, key, bucket and queued request of every
// lane at once, as if every key were seen.
func footprint(cfg *sim.Config) int64 {
	lanes := int64(len(cfg.Lanes))
	if lanes == 0 {
		lanes = int64(len(sim.DefaultLanes()))
	}
	var clients int64
	for _, g := range cfg.Clients {
		clients += int64(max(g.Count, 1))
	}
	replicas := int64(1)
	if t := cfg.Topology; t != nil {
		for _, st := range t.Replicas {
			replicas = max(replicas, int64(st.Count))
		}
		replicas++ // the store's copy
	}
	var keys int64
	for _, l := range cfg.Limits {
		if l.Key == sim.KeyGlobal {
			keys++
		} else {
			keys += clients // at most one key per client and limit
		}
	}
	var queue int64
	if cfg.Backend != nil {
		queue = int64(max(cfg.Backend.QueueSize, 0)) + int64(max(cfg.Backend.Capacity, 0))
	}
	perLane := laneBytes + clients*clientBytes + keys*replicas*keyBytes + buckets(cfg)*bucketBytes + queue*queuedBytes
	if t := cfg.Topology; t != nil && t.Store.Real() {
		shards := int64(max(t.Store.Shards, 1))
		perLane += shards * (shardBytes + buckets(cfg)*bucketBytes)
	}
	var window time.Duration
	for _, l := range cfg.Limits {
		window = max(window, l.Policy.Window)
	}
	for _, ch := range cfg.Rules {
		window = max(window, ch.Policy.Window)
	}
	return sessionBytes + lanes*perLane + logged(cfg, window)
}

// logged is what the lanes of cfg together hold in the logs of a window of
// the given length: every attempt in the busiest such span, as if it were all
// admitted, from twice the estimate of the events (within 2× of the real count).
func logged(cfg *sim.Config, window time.Duration) int64 {
	end := cfg.Duration + cfg.Drain
	if cfg.Drain <= 0 {
		end += cfg.Duration
	}
	if end <= 0 || window <= 0 {
		return 0
	}
	share := min(float64(window)/float64(end), 1)
	return int64(min(2*float64(cfg.EstimateEvents())*share, 1<<50)) * loggedBytes
}

// buckets is how many time-series buckets a lane of cfg keeps.
func buckets(cfg *sim.Config) int64 {
	drain := cfg.Drain
	if drain <= 0 {
		drain = cfg.Duration
	}
	if cfg.Bucket <= 0 {
		return 512 // the default bucket is about a 200th of the duration
	}
	return int64((cfg.Duration+drain)/cfg.Bucket) + 1
}

// injectedCost is what n requests injected into a session of cfg hold.
func injectedCost(cfg *sim.Config, n int) int64 {
	lanes := int64(len(cfg.Lanes))
	if lanes == 0 {
		lanes = int64(len(sim.DefaultLanes()))
	}
	return int64(n) * lanes * injectedBytes
}

// errOverBudget refuses a control that would take a session over what it may
// hold; the page shows its text.
type errOverBudget struct{ msg string }

func (e errOverBudget) Error() string { return e.msg }

// holdings is what a session holds beyond its footprint: the requests it
// injected and the marks it drew, each counted once and never given back (an
// injected request's event heap keeps its room).
type holdings struct {
	base     int64 // the footprint
	injected int
	marks    int
	live     map[int]int64 // group → requests its rate change keeps under way (liveAt)
	logged   int64         // bytes the logs of the widest window pushed from the page hold (logged)
}

func (h holdings) bytes(cfg *sim.Config) int64 {
	return h.base + injectedCost(cfg, h.injected+int(h.lives())) + int64(h.marks)*markBytes + h.logged
}

// admitWindow checks that a rule push to window leaves the session within
// limit bytes, its logs holding every attempt of such a window, and counts it
// when it does; only the widest window pushed counts.
func (h *holdings) admitWindow(cfg *sim.Config, window time.Duration, limit int64) error {
	next := *h
	next.logged = max(h.logged, logged(cfg, window))
	if b := next.bytes(cfg); b > limit {
		return errOverBudget{fmt.Sprintf("no change: with a window of %v this session would hold about %s, more than the %s a session may hold here; choose a shorter window", window, mb(b), mb(limit))}
	}
	*h = next
	return nil
}

func (h holdings) lives() int64 {
	var n int64
	for _, l := range h.live {
		n += l
	}
	return n
}

// liveAt is how many requests group g of cfg keeps under way at most once each
// of its clients sends perSecond from now: what it sends in the time one
// request may live (through every retry, each wait at most the retry's cap and
// a Retry-After or a queue of the first limit's window), or until the end.
func liveAt(cfg *sim.Config, g int, perSecond int, now time.Duration) int64 {
	grp := cfg.Clients[g]
	life := time.Second + cfg.Limits[0].Policy.Window
	if r := grp.Retry; r.Kind != sim.RetryNone {
		wait := max(r.Delay, r.Base, r.Cap) + r.RetryAfterJitter + cfg.Limits[0].Policy.Window
		life += time.Duration(r.MaxAttempts) * wait
		if r.MaxAttempts <= 0 {
			life = cfg.Duration + cfg.Drain
		}
	}
	life = min(life, max(cfg.Duration+cfg.Drain-now, 0))
	n := float64(grp.Count) * float64(perSecond) * (life.Seconds() + 0.001)
	return int64(min(n, 1<<40)) // any more is refused: no overflow when added up
}

// admitRate checks that group g keeping live requests under way (liveAt)
// leaves the session within limit bytes, and counts it when it does; the
// change replaces the group's last one.
func (h *holdings) admitRate(cfg *sim.Config, g int, live int64, limit int64) error {
	next := *h
	next.live = map[int]int64{g: live}
	for k, v := range h.live {
		if k != g {
			next.live[k] = v
		}
	}
	if n := next.lives(); n > maxLive {
		return errOverBudget{fmt.Sprintf("no change: at that rate the clients would keep about %d requests under way, more than the %d a session may; choose a lower rate", n, maxLive)}
	}
	if b := next.bytes(cfg); b > limit {
		return errOverBudget{fmt.Sprintf("no change: at that rate this session would hold about %s, more than the %s a session may hold here; choose a lower rate", mb(b), mb(limit))}
	}
	*h = next
	return nil
}

// admit checks that a control injecting n requests and drawing marks more
// leaves the session within limit bytes, and counts them when it does; what
// names the control in a refusal ("no burst").
func (h *holdings) admit(cfg *sim.Config, what string, n, marks int, limit int64) error {
	switch {
	case h.injected+n > maxInjected:
		return errOverBudget{fmt.Sprintf("%s: this session has injected %d requests, and a session may inject %d in all; restart plays it afresh", what, h.injected, maxInjected)}
	case h.marks+marks > maxMarks:
		return errOverBudget{fmt.Sprintf("%s: this session has made %d bursts, rule pushes and rate changes, and a session may make %d in all; restart plays it afresh", what, h.marks, maxMarks)}
	}
	next := *h
	next.injected += n
	next.marks += marks
	if b := next.bytes(cfg); b > limit {
		return errOverBudget{fmt.Sprintf("%s: this session would hold about %s, more than the %s a session may hold here; restart plays it afresh", what, mb(b), mb(limit))}
	}
	*h = next
	return nil
}

// checkFootprint refuses, before it is built, a scenario whose session would
// hold more than limit bytes.
func checkFootprint(sc *scenarios.Scenario, limit int64) error {
	if b := footprint(sc.Config); b > limit {
		return fmt.Errorf("%s: its session would hold about %s (its clients, keys and buckets in every lane), more than the %s a session may hold here; rlsim run plays it", sc.File, mb(b), mb(limit))
	}
	return nil
}

// mb is n bytes in whole MB, rounded up.
func mb(n int64) string { return fmt.Sprintf("%d MB", (n+1<<20-1)>>20) }
