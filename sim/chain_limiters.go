package sim

import (
	"fmt"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// decider is one limit of a lane's chain: an algorithm with a dense table of key states.
type decider interface {
	decide(key int32, now time.Duration, cost int64) algorithms.Decision
	peek(key int32, now time.Duration, cost int64) algorithms.Decision // decide's answer, changing nothing
}

// stateTable is a decider whose key states can be copied between tables of the
// same algorithm: a topology reads a store's state into a replica and writes it back.
type stateTable interface {
	decider
	// like is a table of the same algorithm with keys never-seen keys.
	like(keys int) stateTable
	// copyFrom makes key's state an independent copy of src's state of srcKey;
	// src is a table of the same algorithm.
	copyFrom(key int32, src stateTable, srcKey int32)
	// grow makes room for at least keys keys.
	grow(keys int)
	// charge counts cost for key at now whether it fits or not (see algorithms.Charging).
	charge(key int32, now time.Duration, cost int64)
	// chargeAll is charge of each push in turn.
	chargeAll(ps []push)
}

// admitter is a decider that may also give Decide's verdict alone
// (algorithms.Admitter) when admits says so.
type admitter interface {
	decider
	admits() bool
	// admit admits a request at once and reports true, or changes nothing and
	// reports false: decide then gives the answer.
	admit(key int32, now time.Duration, cost int64) bool
}

type dense[S any] struct {
	alg     algorithms.Algorithm[S]
	quick   algorithms.Admitter[S] // alg, if it is one; else nil
	charges algorithms.Charging[S] // alg, if it is one (every registry row's: rateOf); else nil
	states  []S
	// forgotten is the near_limit hits of the keys forgotten (lane_nearlimit.go).
	forgotten int64
}

// newDense is a table of keys never-seen states of alg.
func newDense[S any](alg algorithms.Algorithm[S], keys int) *dense[S] {
	quick, _ := alg.(algorithms.Admitter[S])
	charges, _ := alg.(algorithms.Charging[S])
	return &dense[S]{alg: alg, quick: quick, charges: charges, states: ownLines[S](keys)}
}

func (d *dense[S]) admits() bool { return d.quick != nil }

func (d *dense[S]) admit(key int32, now time.Duration, cost int64) bool {
	return d.quick.Admit(&d.states[key], now, cost)
}

// refusal is the algorithm's algorithms.Refuser answer, if it is one; else
// refused is false.
func (d *dense[S]) refusal(key int32, now time.Duration, cost int64) (retryAfter time.Duration, refused bool) {
	if r, ok := d.alg.(algorithms.Refuser[S]); ok {
		return r.Refusal(&d.states[key], now, cost)
	}
	return 0, false
}

func (d *dense[S]) decide(key int32, now time.Duration, cost int64) algorithms.Decision {
	return d.alg.Decide(&d.states[key], now, cost)
}

func (d *dense[S]) peek(key int32, now time.Duration, cost int64) algorithms.Decision {
	return algorithms.Peek(d.alg, &d.states[key], now, cost)
}

func (d *dense[S]) like(keys int) stateTable {
	return newDense(d.alg, keys)
}

func (d *dense[S]) copyFrom(key int32, src stateTable, srcKey int32) {
	from := &src.(*dense[S]).states[srcKey]
	if c, ok := any(&d.states[key]).(interface{ CopyFrom(*S) }); ok {
		c.CopyFrom(from)
		return
	}
	d.states[key] = *from
}

func (d *dense[S]) charge(key int32, now time.Duration, cost int64) {
	d.mustCharge()
	d.charges.Charge(&d.states[key], now, cost)
}

// mustCharge panics unless the table's algorithm charges.
func (d *dense[S]) mustCharge() {
	if d.charges == nil {
		panic(fmt.Sprintf("sim: dense.charge: %T has no Charge (a registry row's algorithm has one: rateOf)", d.alg))
	}
}

// push is cost admitted for key at at, to be charged to a table later (a
// synced limit's admissions, charged to its store at the next sync).
type push struct {
	at   time.Duration
	cost int64
	key  int32
}

// chargeAll is in one call: a synced limit's sync charges every admission
// since the last.
func (d *dense[S]) chargeAll(ps []push) {
	d.mustCharge()
	for _, p := range ps {
		d.charges.Charge(&d.states[p.key], p.at, p.cost)
	}
}

func (d *dense[S]) grow(keys int) {
	if keys > len(d.states) {
		d.states = append(d.states, make([]S, keys-len(d.states))...)
	}
}

// laneRule is the per-key limiter a lane builds for one limit of its chain:
// the registry row of kind under the lane's own settings for limit index
// limit. lane is the Config as the lane applies it (Config.laneConfig); nil
// asks for the row alone (plainRule), as replay and conform do.
type laneRule struct {
	kind  LaneKind
	lane  *Config
	limit int
}

// plainRule is kind's per-key limiter with no lane settings of its own.
func plainRule(kind LaneKind) laneRule { return laneRule{kind: kind} }

// ruleOf is the per-key limiter of chain kind for limit index limit of a lane
// applying c (c is the lane's Config, laneConfig).
func (c *Config) ruleOf(kind LaneKind, limit int) laneRule {
	return laneRule{kind: kind, lane: c, limit: limit}
}

// newDecider builds rule r's per-key limiter with policy p for keys keys.
func newDecider(r laneRule, p algorithms.Policy, keys int) (decider, error) {
	if !r.kind.known() || r.kind.Info().rate == nil {
		return nil, fmt.Errorf("lane %v has no per-key limiter", r.kind)
	}
	build := r.kind.Info().rate
	if b := r.optionRate(); b != nil {
		build = b
	}
	newState, err := build(p, r)
	if err != nil {
		return nil, err
	}
	return newState(keys), nil
}

// KeyState is one key's state of a rate-limiter lane's per-key algorithm, bound
// to its rule, its type hidden: how other packages (replay, conform) run a
// lane's algorithm from the registry without naming it. Not safe for
// concurrent use.
type KeyState interface {
	// Decide is the algorithm's Decide on this state.
	Decide(now time.Duration, cost int64) algorithms.Decision
	// Idle reports whether the state decides at now exactly as a never-seen key's.
	Idle(now time.Duration) bool
}

// KeyRule is a rate-limiter lane's per-key algorithm under one policy, its
// state type hidden (see KeyState).
type KeyRule interface {
	// NewState is a never-seen key's state.
	NewState() KeyState
}

// PerKey is the per-key algorithm of lane k with policy p. It fails for a lane
// with no per-key limiter and for a policy the algorithm rejects.
func (k LaneKind) PerKey(p algorithms.Policy) (KeyRule, error) {
	d, err := newDecider(plainRule(k), p, 0)
	if err != nil {
		return nil, err
	}
	return d.(interface{ keyRule() KeyRule }).keyRule(), nil
}

// keyRule is d's algorithm as a KeyRule.
func (d *dense[S]) keyRule() KeyRule { return boundRule[S]{d.alg} }

type boundRule[S any] struct{ alg algorithms.Algorithm[S] }

func (r boundRule[S]) NewState() KeyState { return &boundState[S]{alg: r.alg} }

type boundState[S any] struct {
	alg algorithms.Algorithm[S]
	s   S
}

func (b *boundState[S]) Decide(now time.Duration, cost int64) algorithms.Decision {
	return b.alg.Decide(&b.s, now, cost)
}

func (b *boundState[S]) Idle(now time.Duration) bool { return b.alg.Idle(&b.s, now) }

// concurrencyLimiter bounds the requests in flight to the backend: a lane of
// class ConcurrencyLimiter asks it before a request enters and tells it when the
// request completes. The algorithms package's AIMD, Vegas and Gradient2 are ones.
type concurrencyLimiter interface {
	// Acquire admits a request at now, counting it in flight, or refuses it.
	Acquire(now time.Duration) bool
	// Release records the completion at now of an acquired request that took latency.
	Release(now, latency time.Duration)
	// Limit is the current limit on requests in flight.
	Limit() float64
}

// inFlighter is a concurrency limiter that counts its requests in flight
// (algorithms.AIMD, Vegas and Gradient2 do).
type inFlighter interface{ InFlight() int }

// clientGate drops requests in the client before they are sent: a lane of class
// ClientGate asks it before every attempt of client c and tells it every answer.
type clientGate interface {
	allow(c int32, now time.Duration) bool
	answered(c int32, now time.Duration, accepted bool)
}
