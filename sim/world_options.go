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
	// AlignFirst aligns a fixed window lane's windows to each key's first
	// request (as Redis INCR and EXPIRE scripts do) instead of to the start of
	// the run.
	AlignFirst bool
}

// None reports whether o changes nothing.
func (o LaneOptions) None() bool { return o == LaneOptions{} }
