package conform

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/sim"
)

// RaceOptions say how MeasureRace runs.
type RaceOptions struct {
	Lane     sim.LaneKind // a lane with racy scripts
	Replicas int          // concurrent replicas, each with its own connection
	Runs     int          // measured runs; run i uses seed Seed+i, as its simulation does
	// Replay paces the traffic; MeasureRace uses the scheduled clock, so that
	// a replica that falls behind sends late but stamps each request with its
	// instant: a driver starved of CPU bunches its sends, not the instants.
	Replay    Replay
	MaxEvents int64 // the simulations' event budget; zero means none
	// Progress, when set, is told how many answers a fleet has had in run
	// (from 0), the atomic fleet's first, then the racy one's; concurrently.
	Progress func(run, answered int)
}

// Peak is the most cost one key got admitted across the fleet in any window
// of the limit's length, against the limit.
type Peak struct {
	Count, Limit int64
	Ratio        float64
}

// RaceRun is one run of the race: what the real fleet and the simulated one
// admitted with each kind of check, on the same seed.
type RaceRun struct {
	Seed uint64
	// RoundTrip is the mean real round trip of one call in this run (atomic
	// calls and both calls of the racy checks); StoreLatency, the simulation's
	// store latency (exponential, of that mean), is RoundTrip × Scale.
	RoundTrip, StoreLatency time.Duration
	// MaxLag is how late, in scenario time, the latest request was sent: a
	// large one says the driver could not keep the pace (a loaded machine),
	// and the measurement ran more concurrent than the scenario.
	MaxLag                         time.Duration
	MeasuredRacy, MeasuredAtomic   Peak
	SimulatedRacy, SimulatedAtomic Peak
}

// Race is the race measured on a real Redis beside its simulation.
type Race struct {
	Lane     sim.LaneKind
	Replicas int
	Scale    float64
	Runs     []RaceRun
}

// MeasureRace sends cfg's traffic from Replicas replicas (round robin, as
// sim.RoutingRoundRobin) through the lane's racy and atomic scripts on the
// Redis of redisOpts, and simulates the same fleet with a shared store whose
// latency is the measured round trip, seed by seed. The traffic is the exact
// lane's attempts, replayed open loop; a scenario without retries makes the
// simulated fleet meet the same traffic.
func MeasureRace(ctx context.Context, redisOpts *redis.Options, cfg sim.Config, opts RaceOptions) (Race, error) {
	read, okRead := scriptFor(opts.Lane, RacyRead)
	write, okWrite := scriptFor(opts.Lane, RacyWrite)
	atomic, _ := scriptFor(opts.Lane, Atomic)
	switch {
	case !okRead || !okWrite:
		return Race{}, fmt.Errorf("lane %s has no racy scripts", opts.Lane)
	case opts.Replicas < 1 || opts.Runs < 1:
		return Race{}, fmt.Errorf("replicas and runs must be at least 1, got %d and %d", opts.Replicas, opts.Runs)
	}
	opts.Replay.Clock = ClockScheduled
	if err := checkReplay(opts.Replay); err != nil {
		return Race{}, err
	}
	racy := NewRacy(write.Name, read.Source, write.Source)
	exact := NewAtomic(atomic.Name, atomic.Source)
	race := Race{Lane: opts.Lane, Replicas: opts.Replicas, Scale: opts.Replay.Scale}
	for i := range opts.Runs {
		c := cfg
		c.Seed = cfg.Seed + uint64(i)
		traffic, err := Traffic(ctx, c, []sim.LaneKind{opts.Lane}, opts.MaxEvents)
		if err != nil {
			return Race{}, err
		}
		lt := traffic[0]
		if err := checkExact(lt.Policy, lastAt(lt.Attempts), maxCost(lt.Attempts)); err != nil {
			return Race{}, err
		}
		run := RaceRun{Seed: c.Seed}
		replay := opts.Replay
		replay.Prefix = fmt.Sprintf("%srace:%d:%d:atomic:", opts.Replay.Prefix, opts.Replicas, i)
		var trips, racyTrips []time.Duration
		var lag time.Duration
		var progress func(int)
		if opts.Progress != nil {
			progress = func(done int) { opts.Progress(i, done) }
		}
		if run.MeasuredAtomic, trips, run.MaxLag, err = fleetRun(ctx, redisOpts, exact, replay, opts.Replicas, lt, progress); err != nil {
			return Race{}, err
		}
		replay.Prefix = fmt.Sprintf("%srace:%d:%d:racy:", opts.Replay.Prefix, opts.Replicas, i)
		if run.MeasuredRacy, racyTrips, lag, err = fleetRun(ctx, redisOpts, racy, replay, opts.Replicas, lt, progress); err != nil {
			return Race{}, err
		}
		run.MaxLag = max(run.MaxLag, lag)
		for _, d := range racyTrips {
			trips = append(trips, d/2, d/2) // two calls
		}
		run.RoundTrip = mean(trips)
		run.StoreLatency = time.Duration(float64(run.RoundTrip) * opts.Replay.Scale)
		if run.SimulatedAtomic, err = simulateFleet(ctx, c, opts, run.StoreLatency, false); err != nil {
			return Race{}, err
		}
		if run.SimulatedRacy, err = simulateFleet(ctx, c, opts, run.StoreLatency, true); err != nil {
			return Race{}, err
		}
		race.Runs = append(race.Runs, run)
	}
	return race, nil
}

// fleetRun replays lt's attempts from n replicas at once, attempt k on
// replica k mod n, and returns the fleet's peak, every round trip and how
// late the latest send was. The first failed call stops every replica: the
// race ends with an *run.UnfinishedError within CallTimeout. progress, when
// set, is told the answers so far, concurrently.
func fleetRun(ctx context.Context, redisOpts *redis.Options, lim *Limiter, replay Replay, n int, lt LaneTraffic, progress func(answered int)) (Peak, []time.Duration, time.Duration, error) {
	parts := make([][]Attempt, n)
	for k, a := range lt.Attempts {
		parts[k%n] = append(parts[k%n], a)
	}
	fleetCtx, stop := context.WithCancel(ctx)
	defer stop()
	var answered atomic.Int64
	var mu sync.Mutex
	var first error // the first answer that stops the fleet
	sessions := make([]*session, n)
	for i := range sessions {
		s, closeFn, err := newSession(fleetCtx, redisOpts, lim, replay, lt.Policy, 0, true)
		if err != nil {
			return Peak{}, nil, 0, fmt.Errorf("replica %d: %w", i, err)
		}
		defer closeFn()
		s.answered = func(k int, ans Answer) {
			if progress != nil {
				progress(int(answered.Add(1)))
			}
			var err error
			switch {
			case ans.Err != nil:
				err = run.CouldNotFinish(fmt.Errorf("replica %d: the attempt at t=%v: %w; a fleet short of an answer measures nothing: the run could not finish", i, parts[i][k].At, ans.Err))
			case ans.Invalid != "":
				err = fmt.Errorf("replica %d: the attempt at t=%v: %s", i, parts[i][k].At, ans.Invalid)
			default:
				return
			}
			mu.Lock()
			if first == nil {
				first = err
			}
			mu.Unlock()
			stop()
		}
		sessions[i] = s
	}
	start := time.Now().Add(5 * time.Millisecond) // every replica ready before the first send
	answers := make([][]Answer, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i, s := range sessions {
		s.start = start
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i], errs[i] = s.run(fleetCtx, parts[i])
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return Peak{}, nil, 0, err
	}
	if first != nil {
		return Peak{}, nil, 0, first
	}
	var admitted []Attempt
	var trips []time.Duration
	var lag time.Duration
	for i := range n {
		if errs[i] != nil {
			return Peak{}, nil, 0, errs[i]
		}
		for k, ans := range answers[i] {
			lag = max(lag, ans.Sent-parts[i][k].At)
			if ans.Admitted {
				a := parts[i][k]
				a.At = ans.Now // counted when the script counted it
				admitted = append(admitted, a)
			}
			trips = append(trips, ans.RoundTrip)
		}
	}
	return fleetPeak(admitted, lt.Policy.Limit, lt.Policy.Window), trips, lag, nil
}

// fleetPeak is the most cost one key got admitted in any window [t, t+window).
func fleetPeak(admitted []Attempt, limit int64, window time.Duration) Peak {
	byKey := map[string][]Attempt{}
	for _, a := range admitted {
		byKey[a.Key] = append(byKey[a.Key], a)
	}
	p := Peak{Limit: limit}
	for _, list := range byKey {
		slices.SortStableFunc(list, func(a, b Attempt) int { return int(a.At - b.At) })
		var sum int64
		lo := 0
		for _, a := range list {
			sum += a.Cost
			for list[lo].At <= a.At-window {
				sum -= list[lo].Cost
				lo++
			}
			p.Count = max(p.Count, sum)
		}
	}
	p.Ratio = float64(p.Count) / float64(limit)
	return p
}

// simulateFleet runs cfg's lane with the measured setup: replicas behind a
// round-robin balancer and the limit in a shared store whose round trips are
// exponential with the measured mean.
func simulateFleet(ctx context.Context, cfg sim.Config, opts RaceOptions, latency time.Duration, racy bool) (Peak, error) {
	cfg.Lanes = []sim.LaneKind{opts.Lane}
	cfg.Limits = slices.Clone(cfg.Limits)
	cfg.Limits[0].State = sim.StateShared
	cfg.Topology = &sim.Topology{
		Replicas: []sim.ReplicaStep{{Count: opts.Replicas}},
		Routing:  sim.RoutingRoundRobin,
		Store:    sim.Store{Latency: sim.Service{Kind: sim.ServiceExponential, Mean: latency}, Racy: racy},
	}
	res, err := sim.Run(ctx, cfg, sim.Options{MaxEvents: opts.MaxEvents})
	if err != nil {
		return Peak{}, err
	}
	f := res.Lanes[0].Topology.Limits[0].Fleet
	return Peak{Count: f.Count, Limit: f.Limit, Ratio: f.Ratio}, nil
}

func mean(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	var sum time.Duration
	for _, x := range d {
		sum += x
	}
	return sum / time.Duration(len(d))
}
