package web

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// frame is what the page draws after one tick: aggregates, never one entry per
// request, so its size does not grow with the number of clients.
type frame struct {
	Now      int64       `json:"now"` // ns of virtual time
	Playing  bool        `json:"playing"`
	Finished bool        `json:"finished"`
	Speed    int         `json:"speed"`
	Status   string      `json:"status"`
	Events   int64       `json:"events"` // processed so far, all lanes
	Lanes    []laneFrame `json:"lanes"`
	Rules    []ruleMark  `json:"rules"`
	Rates    []ruleMark  `json:"rates"` // rate changes made from the page
	Bursts   []burstMark `json:"bursts"`
	// Fleet is the phases of the first lane with a topology, absent without one.
	Fleet *fleetFrame `json:"fleet,omitempty"`
}

// fleetFrame is a fleet's phases so far: the state they leave now (as the
// TUI says it) and the latest maxFramePhases of them, in time order.
type fleetFrame struct {
	Lane   string     `json:"lane"`
	Now    string     `json:"now"`
	Phases []ruleMark `json:"phases"`
	Total  int        `json:"total"` // phases so far, shown or not
}

// maxFramePhases bounds the phases a frame carries.
const maxFramePhases = 12

// fleetFrameOf is lane i's fleet frame, nil without a fleet.
func (s *session) fleetFrameOf(snaps []sim.LaneSnapshot) *fleetFrame {
	for i := range snaps {
		ps := s.sim.Phases(i)
		if ps == nil {
			continue
		}
		ff := &fleetFrame{Lane: snaps[i].Title(), Now: sim.FleetStateOf(ps).Words(), Phases: []ruleMark{}, Total: len(ps)}
		for _, p := range ps[max(0, len(ps)-maxFramePhases):] {
			ff.Phases = append(ff.Phases, ruleMark{At: int64(p.At), Text: p.Words()})
		}
		return ff
	}
	return nil
}

// laneFrame is one lane's live figures, as rlsim run names them, and the
// columns that changed since the last frame.
type laneFrame struct {
	Attempts  int64 `json:"attempts"`
	Admitted  int64 `json:"admitted"`
	Refused   int64 `json:"refused"`
	Delayed   int64 `json:"delayed"`
	Shed      int64 `json:"shed"`
	Dropped   int64 `json:"dropped"`
	Succeeded int64 `json:"succeeded"`
	Peak      peak  `json:"peak"`
	// Over is true when the busiest window held more than the first limit in
	// force during it (the highest, if a rule push fell inside it), as rlsim
	// run's findings judge it; never for a concurrency lane, which does not
	// enforce the rate.
	Over bool `json:"over"`
	// NotLimiting is true for a concurrency limiter that has limited nothing:
	// its busiest window measures the traffic, not the limiter.
	NotLimiting bool `json:"notLimiting"`
	// Concurrency is true for a lane that bounds requests in flight: its
	// busiest window is shown beside the rate but not held against it.
	Concurrency bool     `json:"concurrency"`
	Columns     []column `json:"columns"`
	// Limiting is what the rate and the timeline do not show, one phrase
	// each (sim.LimitingPhrases): the most of one key in flight per concurrency
	// limit, served by criticality, each partition; absent when none.
	Limiting []string `json:"limiting,omitempty"`
}

// peak is the most admitted in any window of the first limit's length for one key.
type peak struct {
	Count int64  `json:"count"`
	Limit int64  `json:"limit"`
	Start int64  `json:"start"` // ns
	End   int64  `json:"end"`   // ns
	Key   string `json:"key"`
}

// ruleMark is a rule push, scheduled in the scenario or made from the page.
type ruleMark struct {
	At   int64  `json:"at"` // ns
	Text string `json:"text"`
}

// frame is the session's present. The caller holds mu.
func (s *session) frame() frame {
	f := frame{Now: int64(s.sim.Now()), Playing: s.playing, Finished: s.finished, Speed: s.speed, Status: s.status,
		Events: s.sim.Events(), Bursts: append([]burstMark{}, s.bursts...), Rules: []ruleMark{},
		Rates: append([]ruleMark{}, s.rates...)}
	cfg := s.sim.Config()
	snaps := s.sim.Snapshot()
	f.Fleet = s.fleetFrameOf(snaps)
	for i, snap := range snaps {
		concurrency := snap.Lane.Info().Class == sim.ConcurrencyLimiter
		f.Lanes = append(f.Lanes, laneFrame{
			Attempts: snap.Attempts, Admitted: snap.Admitted, Refused: snap.Refused, Delayed: snap.Delayed,
			Shed: snap.Shed, Dropped: snap.Dropped, Succeeded: snap.Succeeded,
			Peak: peak{Count: snap.Peak.Count, Limit: snap.Peak.Limit, Start: int64(snap.Peak.Start), End: int64(snap.Peak.End), Key: snap.Peak.Key},
			Over: snap.OverLimit, NotLimiting: snap.NotLimiting(),
			Concurrency: concurrency, Columns: s.bins.flush(i),
			Limiting: sim.LimitingPhrases(cfg, snap.KeyInFlight, snap.Criticality, snap.Partitions),
		})
	}
	for _, ch := range cfg.Rules {
		if ch.At > s.sim.Now() {
			break
		}
		f.Rules = append(f.Rules, ruleMark{At: int64(ch.At), Text: cfg.Limits[ch.Limit].Name + ": " + pushText(ch)})
	}
	return f
}

// sample is one request the page hovers over: the attempt and the response
// headers a server would send with its answer.
type sample struct {
	Lane       string `json:"lane"`
	Mark       string `json:"mark"`
	At         int64  `json:"at"` // ns
	Client     int    `json:"client"`
	Class      string `json:"class"`
	Key        string `json:"key"`
	Request    int64  `json:"request"`
	Attempt    int    `json:"attempt"`
	Cost       int64  `json:"cost"`
	Limit      string `json:"limit"`      // the limit that refused, or whose quota the headers report
	Delay      int64  `json:"delay"`      // ns, delayed attempts
	RetryAfter int64  `json:"retryAfter"` // ns, exact
	Status     string `json:"status"`     // the answer's status line, or what the client did
	Headers    string `json:"headers"`    // one per line, as sim.ResponseHeaders writes them
	More       int64  `json:"more"`       // the other attempts of this mark in the column
}

// sample is the first attempt of mark in column k of lane row i. The caller holds mu.
func (s *session) sample(i int, k int64, mark int) (sample, bool) {
	rec, ok := s.bins.sample(i, k, mark)
	if !ok {
		return sample{}, false
	}
	cfg := s.sim.Config()
	c, _ := s.bins.Lane(i).Held(k)
	n := c.N[mark]
	smp := sample{
		Lane: rec.Lane.String(), Mark: sim.Mark(mark).String(), At: int64(rec.At), Client: rec.Client, Class: rec.Class,
		Key: rec.Key, Request: rec.Request, Attempt: rec.Attempt, Cost: rec.Cost, Limit: rec.Limit,
		Delay: int64(rec.Delay), RetryAfter: int64(rec.RetryAfter), More: n - 1,
	}
	limits := limitsAt(cfg, rec.At)
	quota := -1
	for j, l := range limits {
		if l.Name == rec.Limit && rec.Answered {
			quota = j
		}
	}
	switch mark {
	case int(sim.MarkDropped):
		smp.Status = "dropped by the client's adaptive throttle: never sent"
		return smp, true
	case int(sim.MarkRefused):
		code := cfg.RefusalStatus(rec.LaneIndex)
		smp.Status = fmt.Sprintf("%d %s", code, http.StatusText(code))
	case int(sim.MarkShed):
		smp.Status = "503 Service Unavailable"
	case int(sim.MarkDelayed):
		smp.Status = "held in the queue " + time.Duration(rec.Delay).String() + ", then passed on"
	default:
		smp.Status = "passed on to the service"
	}
	h := sim.ResponseHeaders(cfg.HeaderStyle, limits, quota, rec.Remaining, rec.Reset, rec.RetryAfter)
	smp.Headers = strings.Join(h.Lines, "\n")
	return smp, true
}

// limitsAt is the chain as the scenario's limits and the rule pushes up to at
// (a push at an instant applies before any request then) leave it.
func limitsAt(cfg sim.Config, at time.Duration) []sim.Limit {
	limits := append([]sim.Limit(nil), cfg.Limits...)
	for _, ch := range cfg.Rules {
		if ch.At > at {
			break
		}
		if ch.Policy != (algorithms.Policy{}) {
			limits[ch.Limit].Policy = ch.Policy
		}
		limits[ch.Limit].Shadow = ch.Shadow
	}
	return limits
}

// instant writes a virtual time as the page, the TUI and rlsim run's rule
// lines do: to the millisecond (t=4.433s, not t=4.433333289s).
func instant(d time.Duration) string {
	if d == 0 {
		return "0s"
	}
	return d.Round(time.Millisecond).String()
}

// pushText says what rule push ch changes: its policy, "(shadow)" after it
// when the push also makes the limit a shadow; with no policy, "shadow" or
// "enforced".
func pushText(ch sim.RuleChange) string {
	switch {
	case ch.Policy != (algorithms.Policy{}) && ch.Shadow:
		return policyText(ch.Policy) + " (shadow)"
	case ch.Policy != (algorithms.Policy{}):
		return policyText(ch.Policy)
	case ch.Shadow:
		return "shadow"
	}
	return "enforced"
}
