package sim

import "time"

// LaneOptions change how a rate-limiter lane's per-key limiter decides, in
// every limit of its chain: the behaviours products add to the textbook
// algorithms (docs/scenarios.md, "Lane options"). The zero value changes
// nothing. A lane with options takes no fast path and shares no work with
// other lanes: its algorithm is wrapped, and only the general path runs it.
type LaneOptions struct {
	// Penalty counts refused requests against the limit (Charge), as HAProxy
	// tracking before deny, Envoy's global rate limit service and Kong's
	// rate-limiting-advanced with disable_penalty false do: a client that
	// keeps retrying stays locked out.
	Penalty bool
	// Ban, when positive, refuses a key for Ban after any refusal of its
	// limiter, whatever its rate (Cloudflare's mitigation timeout).
	Ban time.Duration
	// Clock, when positive, is the limiter's clock tick: it sees the time
	// truncated to a multiple of Clock (1ms: nginx, HAProxy; 1s: scripts on
	// Redis TIME seconds).
	Clock time.Duration
	// Wait, when positive, lets a request the token bucket or GCRA would
	// refuse wait up to Wait for its turn (x/time/rate's Reserve, Traefik,
	// Resilience4j's timeoutDuration): it is admitted late if its Retry-After
	// is at most Wait, else refused.
	Wait time.Duration
	// Start, when set, is a never-seen key's level in the token bucket or
	// GCRA, in cost units (0: empty); nil starts it full.
	Start *int64
	// Status, when set, is the HTTP status of the lane's refusals, 400 to 599
	// (nginx's limit_req_status); zero is the lane's own: 429, or its
	// product's default (nginx: 503).
	Status int
	// Keys, when positive, bounds each limit's key table to Keys keys
	// (nginx's zone, Traefik's maxSources, HAProxy's table size); WhenFull is
	// what a request of a key not in a full table meets (its zero value,
	// TableEvictIdle; a scenario file's nginx and traefik lanes default to
	// TableEvict, as those products do).
	Keys     int
	WhenFull TableFull
	// AlignFirst aligns a fixed window lane's windows to each key's first
	// request (as Redis INCR and EXPIRE scripts do) instead of to the start of
	// the run.
	AlignFirst bool
	// AlignCalendar aligns a fixed window lane's windows, or a stepwise token
	// bucket's steps, to the wall clock: to multiples of the window since the
	// Unix epoch, in the wall time of Config.Start (algorithms.AlignCalendar),
	// so a 1m window starts at each whole UTC minute and 24h at UTC midnight.
	AlignCalendar bool
	// Stepwise refills a token bucket lane's bucket in steps: its whole limit
	// at once at each window's end, up to the burst, instead of continuously
	// (algorithms.StepwiseBucket). The steps fall at multiples of the window
	// from t=0; from each key's first request with AlignFirst (Bucket4j's
	// refillIntervally); on the wall clock with AlignCalendar.
	Stepwise bool
}

// None reports whether o changes nothing.
func (o LaneOptions) None() bool { return o == LaneOptions{} }

// TableFull is what a request of a new key meets when its limit's key table
// is full (LaneOptions.Keys). The table keeps its keys least recently used
// last.
type TableFull uint8

const (
	// TableEvictIdle evicts the least recently used key if its state is idle
	// (decides as a never-seen key's: nothing is forgotten), else refuses the
	// request; a key used more recently is not looked at.
	TableEvictIdle TableFull = iota
	// TableEvict evicts the least recently used key whatever its state: what
	// it had counted is forgotten, so the limit under-counts (nginx evicts so
	// when a zone is full).
	TableEvict
	// TableRefuse refuses every request of a new key while the table is full.
	TableRefuse
	// TableAdmit lets a new key's requests through untracked while the table
	// is full (HAProxy: a full stick table tracks nothing more, so its deny
	// rule never matches them).
	TableAdmit
)

var tableFullEnum = enum[TableFull]{"TableFull", []string{"evict_idle", "evict", "refuse", "admit"}}

func (f TableFull) String() string { return tableFullEnum.name(f) }

// TableFullNames lists the valid names of TableFull, in order.
func TableFullNames() []string { return tableFullEnum.list() }

// ParseTableFull maps a name to its TableFull; ok is false for an unknown name.
func ParseTableFull(s string) (TableFull, bool) { return tableFullEnum.parse(s) }
