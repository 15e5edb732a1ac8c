package sim

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
)

// Defaults of the contention study, as in the simulator behind the AWS Architecture
// Blog's "Exponential Backoff And Jitter" (aws-samples/aws-arch-backoff-simulator):
// network hops of |Normal(10ms, 2ms)| and backoff with base 5ms and cap 2s.
// Its schedule, base×2ⁿ before retry n, is ScheduleBrooker; the default is
// rlsim's base×2ⁿ⁻¹ (see backoff).
const (
	DefaultContentionHop       = 10 * time.Millisecond
	DefaultContentionHopStdDev = 2 * time.Millisecond
	DefaultContentionBase      = 5 * time.Millisecond
	DefaultContentionCap       = 2 * time.Second

	// MaxContentionClients bounds the memory of one cell of the sweep. It does not
	// bound the time: without jitter the calls grow roughly with the square of the
	// clients, so long sweeps rely on ctx.
	MaxContentionClients = 100_000
	// MaxContentionRuns bounds the runs averaged per cell.
	MaxContentionRuns = 1_000_000
)

// AllJitters lists the four jitter kinds in their canonical order.
var AllJitters = []JitterKind{JitterNone, JitterFull, JitterEqual, JitterDecorrelated}

// Validate reports every problem in c at once, each naming its field
// (e.g. "contention.clients[2]: must be positive, got 0").
func (c ContentionConfig) Validate() error {
	var ck checker
	bad := func(field, format string, args ...any) { ck.add("contention."+field, format, args...) }
	if len(c.Clients) == 0 {
		bad("clients", "must list at least one client count")
	}
	for i, n := range c.Clients {
		switch {
		case n <= 0:
			bad(fmt.Sprintf("clients[%d]", i), "must be positive, got %d", n)
		case n > MaxContentionClients:
			bad(fmt.Sprintf("clients[%d]", i), "must be at most %d, got %d", MaxContentionClients, n)
		}
	}
	for i, j := range c.Jitters {
		if int(j) >= len(jitterNames) {
			bad(fmt.Sprintf("jitters[%d]", i), "unknown value %v (want %s)", j, strings.Join(jitterNames[:], ", "))
		}
	}
	for _, d := range []struct {
		field string
		v     time.Duration
	}{{"base", c.Base}, {"cap", c.Cap}, {"hop", c.Hop}, {"hop_stddev", c.HopStdDev}} {
		if d.v < 0 {
			bad(d.field, "must not be negative, got %v", d.v)
		}
		if d.v > MaxContentionTime {
			bad(d.field, "must be at most %v, got %v", MaxContentionTime, d.v)
		}
	}
	if d := c.withDefaults(); c.Base >= 0 && c.Cap >= 0 && d.Cap < d.Base {
		bad("cap", "must be at least base (%v), got %v", d.Base, d.Cap)
	}
	if int(c.Schedule) >= len(scheduleNames) {
		bad("schedule", "unknown value %v (want %s)", c.Schedule, strings.Join(scheduleNames[:], ", "))
	}
	if c.Runs < 0 {
		bad("runs", "must not be negative, got %d", c.Runs)
	}
	if c.Runs > MaxContentionRuns {
		bad("runs", "must be at most %d, got %d", MaxContentionRuns, c.Runs)
	}
	if len(ck.errs) == 0 {
		return nil
	}
	return ck.errs
}

// withDefaults fills the zero fields with the documented defaults.
func (c ContentionConfig) withDefaults() ContentionConfig {
	if len(c.Jitters) == 0 {
		c.Jitters = AllJitters
	}
	if c.Base == 0 {
		c.Base = DefaultContentionBase
	}
	if c.Cap == 0 {
		c.Cap = DefaultContentionCap
	}
	if c.Hop == 0 {
		c.Hop = DefaultContentionHop
	}
	if c.HopStdDev == 0 {
		c.HopStdDev = DefaultContentionHopStdDev
	}
	if c.Runs == 0 {
		c.Runs = 1
	}
	return c
}

// RunContention runs the optimistic-concurrency backoff study: for each jitter in
// c.Jitters (all four when empty) and each count in c.Clients, c.Runs runs whose
// write calls and completion times are averaged, with a 95% interval for each mean. Run r of n clients draws from
// streams derived from (Seed, r, n, client), the same for every jitter kind, so the
// kinds are compared on common random numbers. ctx is checked between runs and
// every 65536 events within one.
func RunContention(ctx context.Context, c ContentionConfig) (ContentionResult, error) {
	if err := c.Validate(); err != nil {
		return ContentionResult{}, err
	}
	c = c.withDefaults()
	res := ContentionResult{Rows: make([]ContentionRow, 0, len(c.Jitters)*len(c.Clients))}
	w := contentionWorld{budget: c.MaxEvents}
	for _, j := range c.Jitters {
		for _, n := range c.Clients {
			var calls, completion meanInterval
			for r := range c.Runs {
				if err := ctx.Err(); err != nil {
					return ContentionResult{}, err
				}
				w.reset(c, j, n, r)
				if err := w.run(ctx); err != nil {
					var be *BudgetError
					if errors.As(err, &be) {
						be.Where = fmt.Sprintf("in run %d of %d with %d clients, jitter %v", r+1, c.Runs, n, j)
					}
					return ContentionResult{}, err
				}
				calls.add(float64(w.calls))
				completion.add(float64(w.completion))
			}
			row := ContentionRow{Clients: n, Jitter: j, Runs: c.Runs}
			row.Calls, row.CallsLow, row.CallsHigh = calls.bounds()
			mean, low, high := completion.bounds()
			row.Completion, row.CompletionLow, row.CompletionHigh = ns(mean), ns(low), ns(high)
			res.Rows = append(res.Rows, row)
		}
	}
	res.Events = w.events
	return res, nil
}

// The steps of a client's cycle, carried in an evHop event's b: each names the
// hop that has just ended.
const (
	hopReadSent  int32 = iota // a read reaches the row
	hopReadBack               // the version read reaches its client, which sends the write
	hopWriteSent              // a write reaches the row
	hopWriteFail              // "version changed" reaches the client, which backs off
	hopWriteWon               // "written" reaches the client, which is done
)

// contender is one client of the study.
type contender struct {
	hops, jitter stream
	read         int64         // the version it last read
	failures     int           // failed writes so far
	sleep        time.Duration // its previous backoff, for decorrelated jitter
	writes, wins int           // write calls made and won, for tests
}

// contentionWorld is one run of the study: the row, its clients and the clock.
// reset reuses its memory, so a run allocates nothing once the first has grown it.
type contentionWorld struct {
	eng        engine
	retry      Retry
	shift      int // added to the failures to get the backoff's n: 1 for ScheduleBrooker
	hop, sd    time.Duration
	version    int64 // the row's version: the number of writes won
	clients    []contender
	calls      int64         // write calls
	left       int           // clients yet to win
	completion time.Duration // when the last win reached its client
	budget     int64         // events allowed over every run; 0 means no limit
	events     int64         // processed over every run
}

func (w *contentionWorld) reset(c ContentionConfig, j JitterKind, n, run int) {
	w.eng = engine{heap: w.eng.heap[:0]}
	w.retry = Retry{Kind: RetryExponential, Base: c.Base, Cap: c.Cap, Jitter: j}
	w.shift = 0
	if c.Schedule == ScheduleBrooker {
		w.shift = 1
	}
	w.hop, w.sd = c.Hop, c.HopStdDev
	w.version, w.calls, w.left, w.completion = 0, 0, n, 0
	if cap(w.clients) < n {
		w.clients = make([]contender, n)
	}
	w.clients = w.clients[:n]
	for i := range w.clients {
		w.clients[i] = contender{
			hops:   streamFor(c.Seed, uint64(run), uint64(n), uint64(i), 0),
			jitter: streamFor(c.Seed, uint64(run), uint64(n), uint64(i), 1),
		}
		w.send(int32(i), 0, hopReadSent)
	}
}

// send starts a hop of client i, after waiting wait, that ends with step.
func (w *contentionWorld) send(i int32, wait time.Duration, step int32) {
	at := later(later(w.eng.now, wait), w.clients[i].hops.absNormal(w.hop, w.sd))
	w.eng.schedule(at, evHop, i, step)
}

// run processes events until every client has won.
func (w *contentionWorld) run(ctx context.Context) error {
	for k := 1; w.eng.pending() > 0; k++ {
		if k&0xffff == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if w.budget > 0 && w.events >= w.budget {
			return &BudgetError{Budget: w.budget}
		}
		w.events++
		ev := w.eng.pop()
		i := ev.a
		cl := &w.clients[i]
		switch ev.b {
		case hopReadSent:
			cl.read = w.version
			w.send(i, 0, hopReadBack)
		case hopReadBack:
			w.send(i, 0, hopWriteSent)
		case hopWriteSent:
			w.calls++
			cl.writes++
			if cl.read != w.version {
				w.send(i, 0, hopWriteFail)
				break
			}
			w.version++
			w.send(i, 0, hopWriteWon)
		case hopWriteFail:
			cl.failures++
			cl.sleep = w.sleep(cl)
			w.send(i, cl.sleep, hopReadSent)
		case hopWriteWon:
			cl.wins++
			w.left--
			w.completion = w.eng.now
		}
	}
	if w.left != 0 {
		panic("sim.RunContention: events ran out before every client won")
	}
	return nil
}

// sleep is client cl's backoff after its latest failed write: retry n = failures,
// on the study's schedule.
func (w *contentionWorld) sleep(cl *contender) time.Duration {
	return backoff(w.retry, cl.failures+w.shift, cl.sleep, &cl.jitter)
}

// ns rounds a float number of nanoseconds to a Duration.
func ns(f float64) time.Duration { return time.Duration(math.Round(f)) }

// EstimateEvents is about how many events a run of the study processes: four
// hops per write call, with the calls per cell fitted to the study's own curves
// (none: about n²/7 + 3n for n clients, as every client collides in every round;
// no backoff at all: every client retries at once each round, about n²/2 + n;
// with jitter about 10n).
func (c ContentionConfig) EstimateEvents() int64 {
	c = c.withDefaults()
	var calls float64
	for _, j := range c.Jitters {
		for _, n := range c.Clients {
			f := float64(n)
			switch j {
			case JitterNone:
				calls += f*f/7 + 3*f
			case JitterNoBackoff:
				calls += f*f/2 + f
			default:
				calls += 10 * f
			}
		}
	}
	e := 4 * calls * float64(c.Runs)
	if e > 1<<62 {
		return 1 << 62
	}
	return int64(e)
}
