package replay

import (
	"fmt"
	"hash/fnv"
	"strings"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
	"github.com/rlsim/rlsim/sim/engine"
)

// MaxReplicas is the most replicas a log replays through.
const MaxReplicas = 1000

// Fleet is the fleet a log replays through: Replicas behind a load balancer
// that routes each line to one of them, each limit's state placed as in a
// scenario's topology (sim.Topology). The zero Fleet (or one replica) is one
// limiter, replay's default.
type Fleet struct {
	Replicas int
	Routing  sim.Routing
	// HashKey is what hash routing hashes (FNV-1a 64 of the line's key, modulo
	// Replicas); empty is ip.
	HashKey KeySpec
	// Seed seeds random routing's stream (as a scenario's seed does a run's).
	Seed uint64
	// Places are the limits' placements, by index in Options.Limits; a limit
	// past it takes Place.
	Places []Place
	Place  Place
}

// Place is where one limit's state lives in the fleet (sim.Limit's State,
// LocalLimit and SyncInterval): each replica counting alone (the whole
// limit, or with Divided its share, sim.DividedPolicy), one shared state in
// an atomic store of no latency, or counted locally and synced every
// SyncInterval.
type Place struct {
	State        sim.StateKind
	Divided      bool
	SyncInterval time.Duration
}

func (p Place) String() string {
	switch p.State {
	case sim.StateShared:
		return "shared"
	case sim.StateSynced:
		return "synced every " + p.SyncInterval.String()
	}
	if p.Divided {
		return "divided"
	}
	return "local"
}

// on reports whether f replays through more than one limiter.
func (f Fleet) on() bool { return f.Replicas > 1 }

// place is limit j's placement.
func (f Fleet) place(j int) Place {
	if j < len(f.Places) {
		return f.Places[j]
	}
	return f.Place
}

// check reports what f cannot replay.
func (f Fleet) check() error {
	var errs []string
	if f.Replicas < 0 || f.Replicas > MaxReplicas {
		errs = append(errs, fmt.Sprintf("replicas: want 1 to %d, got %d", MaxReplicas, f.Replicas))
	}
	for j := range len(f.Places) + 1 {
		p := f.place(j)
		if p.State == sim.StateSynced && p.SyncInterval <= 0 {
			errs = append(errs, "a synced limit needs a positive sync interval")
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return nil
}

// router picks each line's replica, in the order the lines are replayed
// (sim's fleet.pick): round robin counts lines, random draws from a stream
// seeded as a run's routing stream is, hash takes a hash of the line's key.
type router struct {
	n      uint64
	kind   sim.Routing
	rr     uint64
	stream engine.Stream
}

// labelRouting is sim's label of a topology's routing stream.
const labelRouting = 100

func newRouter(f Fleet) *router {
	return &router{n: uint64(max(f.Replicas, 1)), kind: f.Routing, stream: engine.NewStream(f.Seed, labelRouting)}
}

// pick is the replica of the next line replayed, whose hash key hashes to h.
func (r *router) pick(h uint64) int32 {
	switch r.kind {
	case sim.RoutingRandom:
		return int32(r.stream.Uint64() % r.n)
	case sim.RoutingHash:
		return int32(h % r.n)
	}
	r.rr++
	return int32((r.rr - 1) % r.n)
}

// hashOf is FNV-1a 64 of key, as sim hashes a client's key.
func hashOf(key []byte) uint64 {
	h := fnv.New64a()
	h.Write(key)
	return h.Sum64()
}

// LaneFleet is what one lane's limit admitted across the fleet, as rlsim
// run's fleet table gives it (sim.LimitTopology): the most admitted in any
// window of the limit for one key across the fleet, the busiest replica and
// its most, and the admissions beyond the limit: per key and window of the
// limit (aligned to Origin), those past the limit's count.
type LaneFleet struct {
	Place          string    `json:"state"`
	Fleet          FleetPeak `json:"fleet_max"`
	BusiestReplica int       `json:"busiest_replica"`
	Replica        FleetPeak `json:"replica_max"`
	Beyond         int64     `json:"admitted_beyond_limit"`
}

// FleetPeak is the most admitted for one key in one window [Start,
// Start+window) (over every start time), and its key.
type FleetPeak struct {
	Count int64     `json:"count"`
	Limit int64     `json:"limit"`
	Key   string    `json:"key"`
	Start time.Time `json:"start"`
}

// Cell is the peak as rlsim run's fleet table writes it: "80 (8×)".
func (p FleetPeak) Cell() string {
	return fmt.Sprintf("%d (%s×)", p.Count, sim.RatioText(p.Count, p.Limit, false))
}

// placedLimit decides one lane's limit through the fleet (or one limiter of a
// product lane or lane settings): per key, a state per replica, one shared
// state, or a synced store state with every replica's view of it. A key the
// reader retires is forgotten only when every one of its states decides as
// a never-seen key's would (sim.KeyState.Idle); else it is parked by name and
// taken back when the key returns (born), so retirement never changes a verdict.
type placedLimit struct {
	kind    sim.LaneKind
	policy  algorithms.Policy
	place   Place
	n       int
	route   *int32 // the replica of the line being decided, set by the lane's worker
	build   func(p algorithms.Policy, start time.Time) (sim.KeyRule, error)
	rules   []sim.KeyRule // per replica (local), else one
	none    []bool        // per replica: a divided share of nothing, which refuses all
	states  map[int32]*placedKey
	parked  map[string]*placedKey
	every   time.Duration // how often to look for parked keys gone idle
	next    time.Duration
	measure bool // the fleet's peaks, with more than one replica
	origin  time.Time

	best, repBest peakAt
	bestRep       int
	beyond        int64
	resumed       int // parked keys taken back (tests)
}

// peakAt is a window peak and its key: by id while the key is live, then by name.
type peakAt struct {
	count int64
	start time.Duration
	id    int32 // -1 once the key retired (or none)
	name  string
}

type placedKey struct {
	rate   keyRate
	reps   []sim.PlacedState // per replica (local) or views (synced); [0] shared
	global sim.PlacedState   // synced: the store's state
	pulled []int64           // synced: per replica, the sync its view was pulled at (0: none)
	synced int64             // synced: the syncs through which its pushes were charged
	pushes []time.Duration   // synced: admissions since the last sync

	fleetLog logRing   // admissions in the last window, across the fleet
	repLogs  []logRing // per replica
	win, in  int64     // the aligned window and its admissions
}

// logRing is the times of admissions in a trailing window, oldest first.
type logRing struct {
	at   []time.Duration
	head int
}

// add counts an admission at now and is how many the window (now−w, now] holds.
func (r *logRing) add(now, w time.Duration) (int64, time.Duration) {
	for r.head < len(r.at) && r.at[r.head]+w <= now {
		r.head++
	}
	if r.head > 0 && r.head >= len(r.at)/2 {
		r.at = append(r.at[:0], r.at[r.head:]...)
		r.head = 0
	}
	r.at = append(r.at, now)
	return int64(len(r.at) - r.head), r.at[r.head]
}

// newPlaced is lane kind's limit of policy p placed as place over n replicas;
// build makes the rule of a policy (a replica's share, if divided) once the
// log's origin is known (start). It checks every rule at once.
func newPlaced(kind sim.LaneKind, p algorithms.Policy, place Place, n int, route *int32, every time.Duration,
	build func(algorithms.Policy, time.Time) (sim.KeyRule, error)) (*placedLimit, error) {
	d := &placedLimit{kind: kind, policy: p, place: place, n: max(n, 1), route: route, build: build,
		states: map[int32]*placedKey{}, parked: map[string]*placedKey{}, every: max(every, time.Second),
		measure: n > 1, best: peakAt{id: -1}, repBest: peakAt{id: -1}}
	if err := d.start(time.Time{}); err != nil {
		return nil, err
	}
	d.rules = nil
	return d, nil
}

// start builds the rules with t=0 at origin (a product's calendar).
func (d *placedLimit) start(origin time.Time) error {
	d.origin = origin
	reps := 1
	if d.place.State == sim.StateLocal {
		reps = d.n
	}
	d.rules, d.none = make([]sim.KeyRule, reps), make([]bool, reps)
	for r := range reps {
		p := d.policy
		if d.place.State == sim.StateLocal && d.place.Divided {
			var ok bool
			if p, ok = sim.DividedPolicy(d.kind, d.policy, d.n, r); !ok {
				d.none[r] = true
				continue
			}
		}
		rule, err := d.build(p, origin)
		if err != nil {
			return err
		}
		d.rules[r] = rule
	}
	return nil
}

func (d *placedLimit) entry(key int32) *placedKey {
	e, ok := d.states[key]
	if !ok {
		e = &placedKey{}
		d.states[key] = e
	}
	return e
}

func (d *placedLimit) decide(key int32, now time.Duration) (algorithms.Verdict, *keyRate) {
	e := d.entry(key)
	r := int(*d.route)
	var v algorithms.Verdict
	switch d.place.State {
	case sim.StateShared:
		v = d.state(e, 0).Decide(now, 1).Verdict
	case sim.StateSynced:
		d.sync(e, now)
		view := d.view(e, r)
		v = view.Decide(now, 1).Verdict
		if v != algorithms.Refuse {
			e.pushes = append(e.pushes, now)
		}
	default:
		if d.none[r] {
			v = algorithms.Refuse
		} else {
			v = d.state(e, r).Decide(now, 1).Verdict
		}
	}
	if v != algorithms.Refuse && d.measure {
		d.count(e, key, r, now)
	}
	return v, &e.rate
}

// state is replica r's state of key e (r 0: the shared one), made on first use.
func (d *placedLimit) state(e *placedKey, r int) sim.PlacedState {
	if e.reps == nil {
		e.reps = make([]sim.PlacedState, len(d.rules))
	}
	if e.reps[r] == nil {
		e.reps[r] = d.rules[r].NewState().(sim.PlacedState)
	}
	return e.reps[r]
}

// syncs is how many syncs a synced limit made before now: one at every
// multiple of the interval after the origin, each after the lines at its
// instant (in a run, a sync is scheduled one interval ahead, arrivals
// mostly earlier, and ties go by insertion order).
func (d *placedLimit) syncs(now time.Duration) int64 {
	if now <= 0 {
		return 0
	}
	return int64((now - 1) / d.place.SyncInterval)
}

// sync charges the store's state of e with every admission pushed before
// the latest sync by now, in time order, as sim's syncedLimit.sync does for
// every key at each sync (one key's charges do not depend on another's).
func (d *placedLimit) sync(e *placedKey, now time.Duration) {
	s := d.syncs(now)
	if e.synced == s {
		return
	}
	if e.global == nil {
		e.global = d.rules[0].NewState().(sim.PlacedState)
	}
	for _, at := range e.pushes {
		e.global.Charge(at, 1)
	}
	e.pushes, e.synced = e.pushes[:0], s
}

// view is replica r's view of e, pulled from the store at its first decision
// since the last sync (sim's syncedLimit.view).
func (d *placedLimit) view(e *placedKey, r int) sim.PlacedState {
	if e.reps == nil {
		e.reps, e.pulled = make([]sim.PlacedState, d.n), make([]int64, d.n)
	}
	if e.global == nil {
		e.global = d.rules[0].NewState().(sim.PlacedState)
	}
	if e.reps[r] == nil {
		e.reps[r] = d.rules[0].NewState().(sim.PlacedState)
	}
	if e.pulled[r] != e.synced+1 {
		e.reps[r].CopyFrom(e.global)
		e.pulled[r] = e.synced + 1
	}
	return e.reps[r]
}

// count measures an admission of key on replica r at now.
func (d *placedLimit) count(e *placedKey, key int32, r int, now time.Duration) {
	w := d.policy.Window
	if c, start := e.fleetLog.add(now, w); c > d.best.count {
		d.best = peakAt{count: c, start: start, id: key}
	}
	if e.repLogs == nil {
		e.repLogs = make([]logRing, d.n)
	}
	if c, start := e.repLogs[r].add(now, w); c > d.repBest.count {
		d.repBest, d.bestRep = peakAt{count: c, start: start, id: key}, r
	}
	if win := int64(now / w); win != e.win || e.in == 0 {
		e.win, e.in = win, 0
	}
	e.in++
	if e.in > d.policy.Limit {
		d.beyond++
	}
}

// idle reports whether every state of e decides at now as a never-seen key's.
func (d *placedLimit) idle(e *placedKey, now time.Duration) bool {
	if d.place.State == sim.StateSynced {
		d.sync(e, now)
		if len(e.pushes) > 0 || e.global != nil && !e.global.Idle(now) {
			return false
		}
		for r, s := range e.reps {
			if s != nil && e.pulled[r] == e.synced+1 && !s.Idle(now) {
				return false
			}
		}
		return true
	}
	for _, s := range e.reps {
		if s != nil && !s.Idle(now) {
			return false
		}
	}
	return true
}

func (d *placedLimit) retire(key int32, now time.Duration) (keyRate, bool) {
	return d.retireNamed(retiree{id: key, at: now})
}

// retireNamed forgets a retired key's state, or parks it by name while it
// would not decide as a never-seen key's.
func (d *placedLimit) retireNamed(r retiree) (keyRate, bool) {
	e, ok := d.states[r.id]
	if !ok {
		return keyRate{}, false
	}
	delete(d.states, r.id)
	d.named(r.id, r.name)
	rate := e.rate
	if !d.idle(e, r.at) {
		e.rate = keyRate{}
		d.parked[r.name] = e
	}
	if len(d.parked) > 0 && r.at >= d.next {
		d.next = r.at + d.every
		for name, p := range d.parked {
			if d.idle(p, r.at) {
				delete(d.parked, name)
			}
		}
	}
	return rate, true
}

// named gives the peaks of key id, retiring, its name.
func (d *placedLimit) named(id int32, name string) {
	for _, p := range []*peakAt{&d.best, &d.repBest} {
		if p.id == id && p.id >= 0 {
			p.id, p.name = -1, name
		}
	}
}

// born takes back the parked state of a key that returned under id.
func (d *placedLimit) born(id int32, name string) {
	if e, ok := d.parked[name]; ok {
		delete(d.parked, name)
		d.states[id] = e
		d.resumed++
	}
}

func (d *placedLimit) each(f func(key int32, r *keyRate)) {
	for key, e := range d.states {
		f(key, &e.rate)
	}
}

func (d *placedLimit) live() int { return len(d.states) + len(d.parked) }

// fleet is the lane's figures across the fleet, names read from names by id
// for keys still live; nil without a fleet.
func (d *placedLimit) fleet(names []string) *LaneFleet {
	if !d.measure {
		return nil
	}
	peak := func(p peakAt) FleetPeak {
		name := p.name
		if p.id >= 0 && int(p.id) < len(names) {
			name = names[p.id]
		}
		fp := FleetPeak{Count: p.count, Limit: d.policy.Limit, Key: name}
		if p.count > 0 {
			fp.Start = d.origin.Add(p.start)
		}
		return fp
	}
	return &LaneFleet{Place: d.place.String(), Fleet: peak(d.best), BusiestReplica: d.bestRep, Replica: peak(d.repBest), Beyond: d.beyond}
}

// startPlaced builds the placed deciders' rules with t=0 at origin.
func startPlaced(ds []decider, origin time.Time) {
	for _, d := range ds {
		if p, ok := d.(*placedLimit); ok {
			if err := p.start(origin); err != nil {
				panic("replay: startPlaced: a rule checked at the start failed: " + err.Error())
			}
		}
	}
}

// bornPlaced tells the placed deciders a key was given an id.
func bornPlaced(ds []decider, b retiree) {
	for _, d := range ds {
		if p, ok := d.(*placedLimit); ok {
			p.born(b.id, b.name)
		}
	}
}
