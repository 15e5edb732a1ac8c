package contention

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// Run runs the optimistic-concurrency backoff study: for each jitter in
// c.Jitters (all four when empty) and each count in c.Clients, c.Runs runs whose
// write calls and completion times are averaged, with a 95% interval for each mean. Run r of n clients draws from
// streams derived from (Seed, r, n, client), the same for every jitter kind, so the
// kinds are compared on common random numbers. ctx is checked between runs and
// every 65536 events within one.
func Run(ctx context.Context, c Config) (Result, error) {
	if err := c.Validate(); err != nil {
		return Result{}, err
	}
	c = c.withDefaults()
	res := Result{Rows: make([]Row, 0, len(c.Jitters)*len(c.Clients))}
	w := world{budget: c.MaxEvents}
	for _, j := range c.Jitters {
		for _, n := range c.Clients {
			var calls, completion meanInterval
			for r := range c.Runs {
				if err := ctx.Err(); err != nil {
					return Result{}, err
				}
				w.reset(c, j, n, r)
				if err := w.run(ctx); err != nil {
					var be *sim.BudgetError
					if errors.As(err, &be) {
						be.Where = fmt.Sprintf("in run %d of %d with %d clients, jitter %v", r+1, c.Runs, n, j)
					}
					return Result{}, err
				}
				calls.add(float64(w.calls))
				completion.add(float64(w.completion))
			}
			row := Row{Clients: n, Jitter: j, Runs: c.Runs}
			row.Calls, row.CallsLow, row.CallsHigh = calls.bounds()
			mean, low, high := completion.bounds()
			row.Completion, row.CompletionLow, row.CompletionHigh = ns(mean), ns(low), ns(high)
			res.Rows = append(res.Rows, row)
		}
	}
	res.Events = w.events
	return res, nil
}

// The steps of a client's cycle, carried in an event's second value: each names the
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
	hops, jitter sim.Stream
	read         int64         // the version it last read
	failures     int           // failed writes so far
	sleep        time.Duration // its previous backoff, for decorrelated jitter
	writes, wins int           // write calls made and won, for tests
}

// world is one run of the study: the row, its clients and the clock.
// reset reuses its memory, so a run allocates nothing once the first has grown it.
type world struct {
	eng        sim.Queue
	retry      sim.Retry
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

func (w *world) reset(c Config, j sim.JitterKind, n, run int) {
	w.eng.Reset()
	w.retry = sim.Retry{Kind: sim.RetryExponential, Base: c.Base, Cap: c.Cap, Jitter: j}
	w.shift = 0
	if c.Schedule == sim.ScheduleBrooker {
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
			hops:   sim.NewStream(c.Seed, uint64(run), uint64(n), uint64(i), 0),
			jitter: sim.NewStream(c.Seed, uint64(run), uint64(n), uint64(i), 1),
		}
		w.send(int32(i), 0, hopReadSent)
	}
}

// send starts a hop of client i, after waiting wait, that ends with step.
func (w *world) send(i int32, wait time.Duration, step int32) {
	at := sim.Later(sim.Later(w.eng.Now(), wait), w.clients[i].hops.AbsNormal(w.hop, w.sd))
	w.eng.Schedule(at, i, step)
}

// run processes events until every client has won.
func (w *world) run(ctx context.Context) error {
	for k := 1; w.eng.Pending() > 0; k++ {
		if k&0xffff == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if w.budget > 0 && w.events >= w.budget {
			return &sim.BudgetError{Budget: w.budget}
		}
		w.events++
		i, step := w.eng.Pop()
		cl := &w.clients[i]
		switch step {
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
			w.completion = w.eng.Now()
		}
	}
	if w.left != 0 {
		panic("contention.Run: events ran out before every client won")
	}
	return nil
}

// sleep is client cl's backoff after its latest failed write: retry n = failures,
// on the study's schedule.
func (w *world) sleep(cl *contender) time.Duration {
	return w.retry.Backoff(cl.failures+w.shift, cl.sleep, &cl.jitter)
}

// ns rounds a float number of nanoseconds to a Duration.
func ns(f float64) time.Duration { return time.Duration(math.Round(f)) }
