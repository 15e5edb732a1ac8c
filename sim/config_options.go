package sim

import (
	"fmt"
	"strings"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// checkOptions reports the options of lane i that are out of range or that its
// per-key limiter cannot apply, under path.
func checkOptions(ck *checker, path string, c *Config, i int) {
	o := c.Variants[i].Options
	if o.None() {
		return
	}
	kind, ok := c.laneConfig(i).chainKind(c.Lanes[i])
	if !ok {
		ck.add(path, "%v has no per-key limiter for options to change (they apply to rate-limiter lanes and client_throttle's server)", c.Lanes[i])
		return
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"ban", o.Ban}, {"clock", o.Clock}, {"wait", o.Wait}} {
		if d.v < 0 {
			ck.add(path+"."+d.name, "must not be negative, got %v", d.v)
		}
		ck.atMostTime(path+"."+d.name, d.v)
	}
	if o.Status != 0 && (o.Status < 400 || o.Status > 599) {
		ck.add(path+".status", "a refusal's status is 400 to 599 (a 4xx or 5xx), got %d", o.Status)
	}
	bucket := kind == LaneTokenBucket || kind == LaneGCRA
	if o.Wait > 0 && !bucket {
		ck.add(path+".wait", "%v cannot wait a request for its turn exactly (a window would count it in the wrong window); only token_bucket and gcra can", kind)
	}
	if o.Start != nil && !bucket {
		ck.add(path+".start", "%v has no level to start at; only token_bucket and gcra have", kind)
	}
	if o.Start != nil && *o.Start < 0 {
		ck.add(path+".start", "must not be negative, got %d", *o.Start)
	}
	if o.Start != nil && bucket {
		checkStart(ck, path+".start", c, i, *o.Start)
	}
	switch {
	case o.Keys < 0:
		ck.add(path+".keys", "must not be negative, got %d", o.Keys)
	case o.Keys > 0 && c.Topology != nil:
		ck.add(path+".keys", "a bounded key table is a lane's without a topology (each replica's table is not modelled yet)")
	case o.Keys == 0 && o.WhenFull != TableEvictIdle:
		ck.add(path+".when_full", "says what a full key table does: give keys, the table's size")
	}
	if !tableFullEnum.valid(o.WhenFull) {
		ck.add(path+".when_full", "unknown value %v (want %s)", o.WhenFull, strings.Join(TableFullNames(), ", "))
	}
	checkSteps(ck, path, kind, o)
}

// checkSteps reports a stepwise refill or an alignment that lane kind cannot apply.
func checkSteps(ck *checker, path string, kind LaneKind, o LaneOptions) {
	switch {
	case o.Stepwise && kind == LaneGCRA:
		ck.add(path+".refill", "gcra has no refill to make stepwise: its one number, the theoretical arrival time, moves on continuously by definition, and a GCRA in steps would be the stepwise token bucket; use token_bucket")
	case o.Stepwise && kind != LaneTokenBucket:
		ck.add(path+".refill", "%v has no bucket to refill; only token_bucket has", kind)
	}
	if o.AlignFirst && o.AlignCalendar {
		ck.add(path+".align", "is first or calendar, not both")
	}
	switch {
	case !o.AlignFirst && !o.AlignCalendar, kind == LaneFixedWindow, kind == LaneTokenBucket && o.Stepwise:
	case kind == LaneTokenBucket:
		ck.add(path+".align", "a token bucket that refills continuously has no steps to align; only fixed_window has windows, and token_bucket with refill: stepwise steps")
	default:
		ck.add(path+".align", "%v cannot align its windows; only fixed_window can, and token_bucket with refill: stepwise its steps", kind)
	}
}

// StatusTooManyRequests is the HTTP status of a refusal unless a lane says
// another (RFC 6585); statusShed is a shed's, 503 Service Unavailable.
const (
	StatusTooManyRequests = 429
	statusShed            = 503
	// StatusTimeout is what a client's retry policy (Retry.On) reads an
	// attempt it gave up at its Timeout as: 504 Gateway Timeout, as Envoy
	// answers a per-try timeout.
	StatusTimeout = 504
)

// RefusalStatus is the HTTP status lane i of c refuses with: its option's,
// else its chain's product default, else 429.
func (c *Config) RefusalStatus(i int) int {
	lc := c.laneConfig(i)
	if s := lc.options.Status; s != 0 {
		return s
	}
	if kind, ok := lc.chainKind(c.LanesRun()[i]); ok && kind.Info().Status != 0 {
		return kind.Info().Status
	}
	return StatusTooManyRequests
}

// LaneRule is the per-key limiter lane i of c applies to limit index limit,
// its state type hidden: the lane's algorithm or product under the lane's own
// options, settings and policy, as the simulation builds it. How conform and
// replay decide as a lane of a scenario does.
func (c *Config) LaneRule(i, limit int) (KeyRule, error) {
	if i < 0 || i >= len(c.LanesRun()) || limit < 0 || limit >= len(c.Limits) {
		return nil, fmt.Errorf("no lane %d or limit %d", i, limit)
	}
	lc := c.laneConfig(i)
	kind, ok := lc.chainKind(c.LanesRun()[i])
	if !ok {
		return nil, fmt.Errorf("lane %s has no per-key limiter", c.LaneName(i))
	}
	d, err := newDecider(lc.ruleOf(kind, limit), c.policy(i, limit), 0)
	if err != nil {
		return nil, err
	}
	return d.(interface{ keyRule() KeyRule }).keyRule(), nil
}

// checkStart reports a starting level above the burst of some policy lane i
// applies: a limit's, or one a rule push sets.
func checkStart(ck *checker, path string, c *Config, i int, start int64) {
	for l := range c.Limits {
		if !c.Limits[l].isRate() {
			continue
		}
		if b := c.policy(i, l).EffectiveBurst(); start > b {
			ck.add(path, "%d is above the burst %d of limits[%d] in this lane: a bucket holds at most its burst", start, b, l)
			return
		}
	}
	for _, ch := range c.Rules {
		if ch.Policy != (algorithms.Policy{}) && start > ch.Policy.EffectiveBurst() {
			ck.add(path, "%d is above the burst %d the rule push at %v sets: a bucket holds at most its burst", start, ch.Policy.EffectiveBurst(), ch.At)
			return
		}
	}
}
