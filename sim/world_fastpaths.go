package sim

// The fast paths of a run, and the ways it batches or shares work, each give
// the results of the general path they stand in for, figure for figure. Each
// has a switch here that turns it off (or, for sharedAlways, on where it would
// not pay), for tests to hold it to the general path: fastPathSwitches is the
// one list of them, which the differential harness (fast_diff_test.go)
// turns off one at a time and all at once. Every switch is false outside
// tests; tests set them between runs, never while one runs. A new fast path
// gets its switch here.
var (
	// kernelOff keeps every lane built while it is set off the kernel, on
	// the general loop (fast_kernel.go).
	kernelOff bool
	// delayKernelOff keeps a lane whose one limit delays (a queue: the leaky
	// bucket, nginx) off the kernel, and the releases of every delayed
	// request on the general loop (fast_delays.go).
	delayKernelOff bool
	// concKernelOff keeps a concurrency-limiter lane (AIMD, Vegas,
	// Gradient2) off the kernel, on the general loop (fast_conc.go).
	concKernelOff bool
	// throttleKernelOff keeps a client-throttling lane (its client gate) off
	// the kernel, on the general loop (fast_throttle.go).
	throttleKernelOff bool
	// batchOff keeps a one-key kernel lane from handing its cross-check the
	// decisions in runs (window.Tracker.CheckRun): one verdict per decision.
	batchOff bool
	// sharedOff keeps Run from sharing requests between lanes (run_shared.go);
	// sharedAlways lets it share them even with a core for every lane.
	sharedOff, sharedAlways bool
	// givenOff keeps a follower's own cross-check, where it would take the
	// leader's verdicts (fast_follow.go, follow).
	givenOff bool
	// quickOff keeps every lane off the quick and direct paths (fast_quick.go,
	// fast_direct.go): every attempt goes through decideChain and Decide.
	quickOff bool
	// directOff keeps the quick path but not the direct one: the one limit is
	// asked through the decider and admitter interfaces (fast_direct.go).
	directOff bool
	// inlineCheckOff sends every cross-check verdict through the general
	// check, never its inlined common case (window, check.go;
	// window.FastPaths.InlineCheckOff, read when the tracker is made).
	inlineCheckOff bool
	// recentOff gives a key whose cross-check log parts a keyWindow log even
	// when every request costs the same, never a recentLog (window, recent.go;
	// window.FastPaths.RecentOff, read when the tracker is made);
	// it keeps the kernel from batching too, which needs the unit.
	recentOff bool
	// inlineAddOff sends every Add to a window that is no cross-check (a
	// fleet's peaks, an exact twin's) through the general path, never its
	// common case in one loop (window, tracker.go, Add;
	// window.FastPaths.InlineAddOff, read when the tracker is made).
	inlineAddOff bool
	// oneShotOff schedules and draws each client of a burst of one on its
	// own, never the group's run of arrivals (traffic_superpose.go, oneShot).
	oneShotOff bool
	// parallelOff runs the lanes one after another (run_parallel.go).
	parallelOff bool
	// oneLimiterOff keeps a topology that decides exactly as one limiter
	// (one replica, one local limit: topo_onelimiter.go) in its fleet.
	oneLimiterOff bool
	// fleetKernelOff keeps every fleet off the kernel, its limits off the
	// verdict-alone path (topo_kernel.go).
	fleetKernelOff bool
	// twinVerdictOff has a topology's exact twins decide by Decide, never by
	// their verdict alone (topo_moments.go, exactLimit.decide).
	twinVerdictOff bool
	// twinAnswerOff has a kernel fleet's exact twin decide a refusal again by
	// Decide after its verdict alone, never by its verdict and refusal in one
	// computation (topo_kernel.go, exactLimit.kernelDecide).
	twinAnswerOff bool
	// twinBatchOff has a batched kernel fleet's exact twin count each
	// admission in its window at once, never in runs (topo_kernel.go,
	// twinAdmitted; window.Tracker.AddRun).
	twinBatchOff bool
	// samePeaksOff keeps every window of a fleet, even one that counts
	// exactly another's admissions (topo_fleet_result.go, samePeaks).
	samePeaksOff bool
	// storeLineOff schedules a store call's events in the queue's heap,
	// never in its time-ordered line (topo_store.go, fleet.schedule).
	storeLineOff bool
	// syncLineOff schedules a synced limit's syncs in the queue's heap,
	// never in its time-ordered line (topo_fleet.go, fleet.scheduleSync).
	syncLineOff bool
	// storeQuickOff has a store call decide by the chain's Decision, never
	// by its shared limit's verdict alone (topo_store_quick.go).
	storeQuickOff bool
	// storeKernelOff keeps every fleet with a shared limit off the kernel
	// (topo_store_kernel.go): its store calls take the general loop's events.
	storeKernelOff bool
	// storeDecideFirstOff has the kernel hand a store call whose answer
	// comes after another event to the general path's events, its decision
	// too, even when the decision comes first (topo_store_kernel.go,
	// decidesFirst).
	storeDecideFirstOff bool
	// storeRunsOff adds each store round trip to the fleet's latency
	// histogram on its own, never a run of equal ones at once
	// (topo_store_runs.go, runHistogram).
	storeRunsOff bool
	// warmAlways warms the state an arrival goes on to touch (fast_direct.go,
	// warm and warmAhead) however small the world: what it reads must change
	// nothing.
	warmAlways bool
	// countedFairOff splits the fair shares through the parties' order,
	// never from the counts of their asks (measure_fairsplit.go).
	countedFairOff bool
	// hotColumnOff finds each counted attempt's column by its time, never
	// by the column last counted in (world_columns.go, ColumnRing.count).
	hotColumnOff bool
	// tallyOff adds each kernel request to its client's tally at once,
	// never through the buffer of deferred tallies (fast_tallies.go).
	tallyOff bool
)

// fastPathSwitch is one switch of a fast path: its name, for test names and
// messages, and the flag.
type fastPathSwitch struct {
	name string
	flag *bool
}

// fastPathSwitches is every switch above, the one list tests read.
var fastPathSwitches = []fastPathSwitch{
	{"kernel_off", &kernelOff},
	{"delay_kernel_off", &delayKernelOff},
	{"conc_kernel_off", &concKernelOff},
	{"throttle_kernel_off", &throttleKernelOff},
	{"batch_off", &batchOff},
	{"shared_off", &sharedOff},
	{"shared_always", &sharedAlways},
	{"given_off", &givenOff},
	{"quick_off", &quickOff},
	{"direct_off", &directOff},
	{"inline_check_off", &inlineCheckOff},
	{"recent_off", &recentOff},
	{"inline_add_off", &inlineAddOff},
	{"one_shot_off", &oneShotOff},
	{"parallel_off", &parallelOff},
	{"one_limiter_off", &oneLimiterOff},
	{"fleet_kernel_off", &fleetKernelOff},
	{"twin_verdict_off", &twinVerdictOff},
	{"twin_answer_off", &twinAnswerOff},
	{"twin_batch_off", &twinBatchOff},
	{"same_peaks_off", &samePeaksOff},
	{"store_line_off", &storeLineOff},
	{"sync_line_off", &syncLineOff},
	{"store_quick_off", &storeQuickOff},
	{"store_kernel_off", &storeKernelOff},
	{"store_decide_first_off", &storeDecideFirstOff},
	{"store_runs_off", &storeRunsOff},
	{"warm_always", &warmAlways},
	{"counted_fair_off", &countedFairOff},
	{"tally_off", &tallyOff},
	{"hot_column_off", &hotColumnOff},
}

// laneFast is what fast paths a rate-limiter lane's algorithm takes, as its
// registry row declares them: the registry is the one place that says which
// algorithm takes which, and TestLaneFastPaths holds each declaration to what
// the algorithm's table does.
type laneFast uint8

const (
	// fastNone declares that the algorithm takes no fast path: every
	// request is decided by Decide through the decider interface.
	fastNone laneFast = 1 << iota
	// fastDirect: sim calls the algorithm's table directly (directPath).
	fastDirect
	// fastAdmits: its verdict alone decides an admission at once
	// (algorithms.Admitter), so it may take the quick path and the kernel.
	fastAdmits
	// fastAnswers: it tells a refusal and its Retry-After without a Decision
	// (algorithms.Answerer), which the kernel asks once headers are kept.
	fastAnswers
	// fastDelays: it may delay a request, and gives its verdict and delay
	// alone (a Queue, as algorithms.LeakyBucket's): the direct path asks
	// that, and the kernel, where it also admits (Traefik), hands a delay
	// to the general path.
	fastDelays
)

// shares reports whether lanes of the algorithm may share requests (run_shared.go):
// sim calls it directly and its verdict alone decides, so a request is never
// delayed.
func (f laneFast) shares() bool {
	return f&(fastDirect|fastAdmits|fastDelays) == fastDirect|fastAdmits
}
