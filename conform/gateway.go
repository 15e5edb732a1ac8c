package conform

import (
	"cmp"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/sim"
)

// GatewayOptions say how CheckGateway sends a lane's traffic to a gateway and
// compares its answers with the lane's rule. The zero value sends GET / with
// the key in X-Key, compares at tolerance 0 on the instants the requests were
// sent, and keeps no difference in full.
type GatewayOptions struct {
	// Path is appended to the base URL; "" is "/".
	Path string
	// KeyHeader carries each request's key (the scenario's first limit's, after
	// KeyPrefix); "" is X-Key.
	KeyHeader string
	// KeyPrefix starts every key sent, so that a run meets no state an earlier
	// run left in the gateway; IDPrefix starts every X-Request-Id (then the
	// request's index in the schedule).
	KeyPrefix, IDPrefix string
	// Tolerance is the clock skew allowed: a verdict the lane gives the request
	// at its instant ± Tolerance is within it. Zero demands the same verdicts.
	Tolerance time.Duration
	// Shown is how many differences are kept in full.
	Shown int
	// RefusalStatus is the status the lane refuses with (sim.Config.RefusalStatus);
	// 429 and 503 are refusals too.
	RefusalStatus int
	// AccessLog, when set, is the gateway's access log (the format of
	// ReadAccessLog): the arrivals it logs are the instants the lane decides at.
	// Only lines written after CheckGateway starts are read.
	AccessLog string
	// Align, when positive, starts the schedule at the next multiple of it on the
	// Unix clock, so that windows and ms clocks aligned to the epoch align with
	// the lane's, aligned to t=0.
	Align time.Duration
	// Timeout bounds each request; 0 is 10 s.
	Timeout time.Duration
}

// Gateway verdicts and how one request compares.
const (
	// GatewayAgreed: the gateway's verdict is the lane's at the request's instant.
	GatewayAgreed = "agreed"
	// GatewayWithin: the lane gives the gateway's verdict at the request's
	// instant ± the tolerance.
	GatewayWithin = "within tolerance"
	// GatewayDiffered: the lane gives the other verdict throughout the tolerance.
	GatewayDiffered = "differed"
	// GatewayNoDecision: the gateway answered with a status that is neither an
	// admission nor a refusal, or did not answer.
	GatewayNoDecision = "no decision"
)

// GatewayCheck is one lane held to a gateway, request by request.
type GatewayCheck struct {
	Lane    string `json:"lane"`
	Product string `json:"product"` // the lane's product and version; "" for a textbook algorithm
	// RefusalStatus is the lane's refusal status (429 and 503 are refusals too).
	RefusalStatus int `json:"refusal_status"`
	// Clock is where the instants the lane decides at come from: "access log"
	// (the arrivals the gateway logged) or "send" (when the driver sent each).
	Clock string `json:"clock"`
	// StartUnixNS is the schedule's start on the Unix clock, the lane's t=0.
	StartUnixNS int64         `json:"start_unix_ns"`
	ToleranceNS time.Duration `json:"tolerance_ns"`

	Sent       int `json:"sent"`
	Agreed     int `json:"agreed"`
	Within     int `json:"within_tolerance"`
	Differed   int `json:"differed"`
	NoDecision int `json:"no_decision"`
	// LaneAdmitted and GatewayAdmitted count admissions among the requests
	// with a decision.
	LaneAdmitted    int `json:"lane_admitted"`
	GatewayAdmitted int `json:"gateway_admitted"`
	// NotLogged counts requests answered but missing from the access log: their
	// instant is the send's.
	NotLogged int `json:"not_logged"`
	// MaxSkewNS is the largest gap between a request's scheduled instant and
	// the one the lane decided it at.
	MaxSkewNS time.Duration `json:"max_skew_ns"`
	// LaneDelayed and MaxLaneDelayNS are the admissions the lane delays (nginx
	// without nodelay); AnswerP50NS and AnswerMaxNS the time the gateway took to
	// answer the admitted requests (Answered − Sent): informative only.
	LaneDelayed    int           `json:"lane_delayed"`
	MaxLaneDelayNS time.Duration `json:"max_lane_delay_ns"`
	AnswerP50NS    time.Duration `json:"answer_p50_ns"`
	AnswerMaxNS    time.Duration `json:"answer_max_ns"`

	Diffs []GatewayDiff `json:"differences"` // the first GatewayOptions.Shown, in schedule order
}

// GatewayDiff is one request the gateway and the lane decided differently, or
// that got no decision, in full.
type GatewayDiff struct {
	Outcome string        `json:"outcome"`
	ID      string        `json:"request_id"`
	Key     string        `json:"key"`   // as the scenario names it, without GatewayOptions.KeyPrefix
	AtNS    time.Duration `json:"at_ns"` // scheduled
	// InstantNS is the instant the lane decided the request at.
	InstantNS time.Duration `json:"instant_ns"`
	Status    int           `json:"gateway_status"` // 0: no answer
	// GatewayRetryAfter is the Retry-After header as the gateway sent it.
	GatewayRetryAfter string `json:"gateway_retry_after,omitempty"`
	Error             string `json:"error,omitempty"`
	LaneAdmitted      bool   `json:"lane_admitted"`
	// LaneRetryAfterNS is the lane's Retry-After on a refusal, -1 for never
	// (algorithms.Never in Go).
	LaneRetryAfterNS time.Duration `json:"lane_retry_after_ns"`
}

// CheckGateway sends attempts (one lane's traffic, every cost 1) to the gateway
// at base, each at its instant after the schedule's start, and compares the
// gateway's verdicts with rule's, one state per key, fed the instants the
// requests reached the gateway (the access log's arrivals, else the sends),
// key by key in the order of those instants (at one instant, the gateway's
// admissions first: at one instant a limit's state only tightens).
//
// A disagreement is within the tolerance when the lane gives the gateway's
// verdict with the request at its instant ± the tolerance (not before the key's
// previous instant); the lane's state then takes that instant, so that the
// skew does not compound. Beyond it the states part: later differences of the
// key may follow from the first.
//
// It fails with an *run.InputError for a bad base, cost or access log, and
// with an *run.UnfinishedError when the gateway cannot be reached (a TCP dial,
// before any request) or has gone away (requests without an answer, and a
// request after the run gets none either). It writes nothing.
func CheckGateway(ctx context.Context, base string, attempts []Attempt, rule sim.KeyRule, opts GatewayOptions) (GatewayCheck, error) {
	u, err := gatewayURL(base)
	if err != nil {
		return GatewayCheck{}, run.BadInput(err)
	}
	for _, a := range attempts {
		if a.Cost != 1 {
			return GatewayCheck{}, run.BadInputf("a gateway counts requests: every cost must be 1, got %d (client %d, request %d)", a.Cost, a.Client, a.Request)
		}
	}
	if opts.Tolerance < 0 {
		return GatewayCheck{}, run.BadInputf("tolerance must not be negative, got %v", opts.Tolerance)
	}
	var logFrom int64
	if opts.AccessLog != "" {
		if logFrom, err = logSize(opts.AccessLog); err != nil {
			return GatewayCheck{}, run.BadInput(err)
		}
	}
	if err := dial(ctx, u); err != nil {
		return GatewayCheck{}, run.CouldNotFinish(fmt.Errorf("conform: the gateway at %s cannot be reached: %w", base, err))
	}
	path := cmp.Or(opts.Path, "/")
	reqs := make([]HTTPRequest, len(attempts))
	var last time.Duration
	for i, a := range attempts {
		reqs[i] = HTTPRequest{At: a.At, Key: opts.KeyPrefix + a.Key, Path: path, ID: opts.IDPrefix + strconv.Itoa(i)}
		last = max(last, a.At)
	}
	timeout := cmp.Or(opts.Timeout, 10*time.Second)
	client, closeClient := gatewayClient(cmp.Or(opts.KeyHeader, "X-Key"), len(reqs))
	defer closeClient()
	start, err := alignedStart(ctx, opts.Align)
	if err != nil {
		return GatewayCheck{}, err
	}
	results, err := HTTPDriver{Client: client, Timeout: timeout}.Send(ctx, strings.TrimSuffix(base, "/"), reqs)
	if err != nil {
		return GatewayCheck{}, run.BadInput(err)
	}
	if err := ctx.Err(); err != nil {
		return GatewayCheck{}, err
	}
	if err := gone(ctx, client, base, path, opts.KeyPrefix, results); err != nil {
		return GatewayCheck{}, err
	}
	c := GatewayCheck{RefusalStatus: opts.RefusalStatus, Clock: "send", StartUnixNS: start.UnixNano(), ToleranceNS: opts.Tolerance}
	arrivals := map[string]time.Time{}
	if opts.AccessLog != "" {
		c.Clock = "access log"
		if arrivals, err = readArrivals(ctx, opts, logFrom, reqs, results); err != nil {
			if ctx.Err() != nil {
				return GatewayCheck{}, ctx.Err()
			}
			return GatewayCheck{}, run.BadInput(err)
		}
		if len(arrivals) == 0 && len(reqs) > 0 {
			return GatewayCheck{}, run.BadInputf("--access-log: %s logged none of the %d requests' ids (want lines with rid=%s<n> t=<unix seconds>; see docs/conform.md)",
				opts.AccessLog, len(reqs), opts.IDPrefix)
		}
	}
	compareGateway(&c, attempts, reqs, results, arrivals, start, rule, opts)
	return c, nil
}

// logWait is how long CheckGateway waits for the access log to have every
// answered request: a gateway may log a request after its answer is read.
const logWait = time.Second

// readArrivals reads the access log until it has every request answered, or
// for logWait.
func readArrivals(ctx context.Context, opts GatewayOptions, from int64, reqs []HTTPRequest, results []HTTPResult) (map[string]time.Time, error) {
	deadline := time.Now().Add(logWait)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		arrivals, err := ReadAccessLog(opts.AccessLog, from, opts.IDPrefix)
		if err != nil {
			return nil, err
		}
		missing := false
		for i, r := range results {
			if _, ok := arrivals[reqs[i].ID]; !ok && r.Status != 0 {
				missing = true
				break
			}
		}
		if !missing || time.Now().After(deadline) {
			return arrivals, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-tick.C:
		}
	}
}

// gatewayURL checks base is an absolute http(s) URL with a host.
func gatewayURL(base string) (*url.URL, error) {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("--http: %q is not an absolute http:// or https:// URL without a query (the path goes in --path)", base)
	}
	return u, nil
}

// dial opens and closes one TCP connection to u's host: whether the gateway
// listens, without a request its limit would count.
func dial(ctx context.Context, u *url.URL) error {
	host := u.Host
	if u.Port() == "" {
		host = net.JoinHostPort(u.Hostname(), map[string]string{"http": "80", "https": "443"}[u.Scheme])
	}
	dctx, cancel := context.WithTimeout(ctx, CallTimeout)
	defer cancel()
	conn, err := (&net.Dialer{}).DialContext(dctx, "tcp", host)
	if err != nil {
		return err
	}
	return conn.Close()
}

// gatewayClient is a client of its own, reaching the gateway directly with as
// many connections as the schedule has requests, that sends each request's key
// in header.
func gatewayClient(header string, n int) (*http.Client, func()) {
	tr := &http.Transport{
		Proxy:               nil,
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		MaxIdleConnsPerHost: max(n, 2),
		IdleConnTimeout:     30 * time.Second,
		DisableCompression:  true,
	}
	var rt http.RoundTripper = tr
	if http.CanonicalHeaderKey(header) != "X-Key" {
		rt = keyHeader{header, tr}
	}
	return &http.Client{Transport: rt}, tr.CloseIdleConnections
}

// keyHeader moves the key HTTPDriver sends in X-Key to another header.
type keyHeader struct {
	name string
	next http.RoundTripper
}

func (k keyHeader) RoundTrip(r *http.Request) (*http.Response, error) {
	key, ok := r.Header["X-Key"]
	if !ok {
		return k.next.RoundTrip(r)
	}
	r = r.Clone(r.Context())
	r.Header.Del("X-Key")
	r.Header[http.CanonicalHeaderKey(k.name)] = key
	return k.next.RoundTrip(r)
}

// alignedStart waits for the next multiple of align on the Unix clock (now,
// when align is 0) and returns that instant, with the monotonic clock's reading.
func alignedStart(ctx context.Context, align time.Duration) (time.Time, error) {
	now := time.Now()
	if align <= 0 {
		return now, nil
	}
	wait := align - time.Duration(now.UnixNano()%int64(align))
	start := now.Add(wait)
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return time.Time{}, ctx.Err()
	case <-t.C:
	}
	return start, nil
}

// gone reports, as an *run.UnfinishedError, a gateway that went away: some
// requests got no answer, and one sent after the run (it can no longer change
// a verdict compared) gets none either.
func gone(ctx context.Context, client *http.Client, base, path, keyPrefix string, results []HTTPResult) error {
	failed, lastErr := 0, error(nil)
	for _, r := range results {
		if r.Status == 0 {
			failed, lastErr = failed+1, r.Err
		}
	}
	if failed == 0 {
		return nil
	}
	pctx, cancel := context.WithTimeout(ctx, CallTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(pctx, http.MethodGet, strings.TrimSuffix(base, "/")+path, nil)
	if err != nil {
		return run.BadInput(err)
	}
	req.Header.Set("X-Key", keyPrefix+"rlsim-probe")
	resp, err := client.Do(req)
	if err == nil {
		resp.Body.Close()
		return nil
	}
	return run.CouldNotFinish(fmt.Errorf("conform: the gateway at %s went away: %d of %d requests got no answer (the last: %v), nor did a request after the run (%v)",
		base, failed, len(results), lastErr, err))
}

// gatewayVerdict is how the gateway decided: admitted (2xx), refused (the
// lane's refusal status, 429 or 503), or neither.
func gatewayVerdict(status, refusal int) (admitted, decided bool) {
	switch {
	case status >= 200 && status <= 299:
		return true, true
	case status == refusal || status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable:
		return false, true
	}
	return false, false
}

// fed is one request as the lane's rule is fed it: moved when it was moved
// before requests of its key the gateway refused, to the first one's instant.
type fed struct {
	i                        int
	instant                  time.Duration
	admitted, decided, moved bool
}

// admittedWithin are the requests after seq[j] the gateway admitted, up to
// the first with no decision and within tol of seq[j]'s instant.
func admittedWithin(seq []fed, j int, tol time.Duration) []int {
	var out []int
	for m := j + 1; m < len(seq) && seq[m].instant-seq[j].instant <= tol && seq[m].decided; m++ {
		if seq[m].admitted {
			out = append(out, m)
		}
	}
	return out
}

// moveBefore moves the requests at positions ms (ascending, after j) to j on,
// in their order, at instant t, marked moved; the others keep their order.
func moveBefore(seq []fed, j int, ms []int, t time.Duration) {
	moved := make([]fed, 0, len(ms))
	rest := make([]fed, 0, ms[len(ms)-1]+1-j)
	next := 0
	for p := j; p <= ms[len(ms)-1]; p++ {
		if next < len(ms) && p == ms[next] {
			f := seq[p]
			f.instant, f.moved = t, true
			moved = append(moved, f)
			next++
			continue
		}
		rest = append(rest, seq[p])
	}
	copy(seq[j:], moved)
	copy(seq[j+len(moved):], rest)
}

// keyHistory is one key's state and the instants it was fed since it was
// last idle, to decide a request again at another instant.
type keyHistory struct {
	state   sim.KeyState
	fed     []time.Duration
	last    time.Duration
	started bool
}

// replay is a fresh state fed h's instants.
func (h *keyHistory) replay(rule sim.KeyRule) sim.KeyState {
	s := rule.NewState()
	for _, at := range h.fed {
		s.Decide(at, 1)
	}
	return s
}

// leavesNone is the fewest n up to most such that h's replay admits n
// requests at t and then refuses one more: how many of the gateway's
// admissions taken first leave the lane none for the request it refused; 0
// when no n does.
func (h *keyHistory) leavesNone(rule sim.KeyRule, t time.Duration, most int) int {
	for n := 1; n <= most; n++ {
		s := h.replay(rule)
		for range n {
			if !s.Decide(t, 1).Admitted() {
				return 0
			}
		}
		if !s.Decide(t, 1).Admitted() {
			return n
		}
	}
	return 0
}

// replayAt is the decision of h's replay on one more request at t, and that
// state.
func (h *keyHistory) replayAt(rule sim.KeyRule, t time.Duration) (algorithms.Decision, sim.KeyState) {
	s := h.replay(rule)
	return s.Decide(t, 1), s
}

func compareGateway(c *GatewayCheck, attempts []Attempt, reqs []HTTPRequest, results []HTTPResult, arrivals map[string]time.Time,
	start time.Time, rule sim.KeyRule, opts GatewayOptions) {
	c.Sent = len(reqs)
	order := make([]fed, 0, len(reqs))
	diffs := map[int]GatewayDiff{}
	var answers []time.Duration
	for i, r := range results {
		f := fed{i: i}
		f.admitted, f.decided = gatewayVerdict(r.Status, opts.RefusalStatus)
		at, logged := arrivals[reqs[i].ID]
		switch {
		case logged:
			f.instant = at.Sub(start)
		case r.Status != 0:
			f.instant = r.Sent.Sub(start)
			if opts.AccessLog != "" {
				c.NotLogged++
			}
		default: // the gateway saw it nowhere we know of: not fed
			c.NoDecision++
			diffs[i] = gatewayDiff(GatewayNoDecision, attempts[i], reqs[i], r, r.Sent.Sub(start), algorithms.Decision{})
			continue
		}
		f.instant = max(f.instant, 0)
		c.MaxSkewNS = max(c.MaxSkewNS, absDuration(f.instant-attempts[i].At))
		order = append(order, f)
		if f.admitted && f.decided {
			answers = append(answers, r.Answered.Sub(r.Sent))
		}
	}
	slices.SortStableFunc(order, func(a, b fed) int {
		if c := cmp.Compare(a.instant, b.instant); c != 0 {
			return c
		}
		if a.admitted != b.admitted {
			if a.admitted {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.i, b.i)
	})
	var keyOrder []string
	byKey := map[string][]fed{}
	for _, f := range order {
		k := attempts[f.i].Key
		if _, ok := byKey[k]; !ok {
			keyOrder = append(keyOrder, k)
		}
		byKey[k] = append(byKey[k], f)
	}
	for _, k := range keyOrder {
		seq := byKey[k]
		h := &keyHistory{state: rule.NewState()}
		for j := 0; j < len(seq); j++ {
			f := seq[j]
			t := f.instant
			if h.started {
				t = max(t, h.last)
			}
			earliest := t - opts.Tolerance
			if h.started {
				earliest = max(earliest, h.last)
			}
			if h.state.Idle(max(earliest, 0)) {
				h.state, h.fed = rule.NewState(), h.fed[:0]
			}
			d := h.state.Decide(t, 1)
			if f.decided && !f.admitted && d.Admitted() {
				// Which of the requests that reach a gateway within the clock's
				// skew of each other it takes first, nobody knows: the one it
				// admitted may have come first, and left none for this one.
				if later := admittedWithin(seq, j, opts.Tolerance); len(later) > 0 {
					if n := h.leavesNone(rule, t, len(later)); n > 0 {
						h.state = h.replay(rule)
						moveBefore(seq, j, later[:n], t)
						j--
						continue
					}
				}
			}
			outcome := GatewayAgreed
			switch {
			case !f.decided:
				outcome = GatewayNoDecision
			case d.Admitted() == f.admitted && f.moved:
				outcome = GatewayWithin
			case d.Admitted() != f.admitted:
				outcome = GatewayDiffered
				later := t + opts.Tolerance
				if !d.Admitted() && d.RetryAfter <= opts.Tolerance {
					later = t + d.RetryAfter // the first instant it admits, when exact
				}
				for _, shifted := range []time.Duration{earliest, later, t + opts.Tolerance} {
					if shifted == t || shifted < 0 {
						continue
					}
					if d2, s2 := h.replayAt(rule, shifted); d2.Admitted() == f.admitted {
						outcome, d, t, h.state = GatewayWithin, d2, shifted, s2
						break
					}
				}
			}
			h.fed, h.last, h.started = append(h.fed, t), t, true
			if d.Admitted() && f.decided {
				c.LaneAdmitted++
				if d.Verdict == algorithms.Delay {
					c.LaneDelayed++
					c.MaxLaneDelayNS = max(c.MaxLaneDelayNS, d.Delay)
				}
			}
			if f.admitted && f.decided {
				c.GatewayAdmitted++
			}
			switch outcome {
			case GatewayAgreed:
				c.Agreed++
				continue
			case GatewayWithin:
				c.Within++
				continue
			case GatewayDiffered:
				c.Differed++
			case GatewayNoDecision:
				c.NoDecision++
			}
			diffs[f.i] = gatewayDiff(outcome, attempts[f.i], reqs[f.i], results[f.i], t, d)
		}
	}
	c.Diffs = []GatewayDiff{}
	for i := range reqs {
		if d, ok := diffs[i]; ok && len(c.Diffs) < opts.Shown {
			c.Diffs = append(c.Diffs, d)
		}
	}
	if len(answers) > 0 {
		slices.Sort(answers)
		c.AnswerP50NS, c.AnswerMaxNS = answers[(len(answers)-1)/2], answers[len(answers)-1]
	}
}

func gatewayDiff(outcome string, a Attempt, req HTTPRequest, r HTTPResult, instant time.Duration, d algorithms.Decision) GatewayDiff {
	g := GatewayDiff{Outcome: outcome, ID: req.ID, Key: a.Key, AtNS: a.At, InstantNS: instant, Status: r.Status,
		GatewayRetryAfter: r.RetryAfter, LaneAdmitted: d.Admitted()}
	if !d.Admitted() {
		g.LaneRetryAfterNS = d.RetryAfter
	}
	if r.Err != nil {
		g.Error = r.Err.Error()
	}
	return g
}

func absDuration(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

// GatewayTraffic simulates cfg without its topology, with lane i alone (its
// variant and overrides kept), and returns the attempts it decided (admitted,
// delayed or refused), in the order decided, and the lane's rule for the first
// limit. cfg must be Suitable.
func GatewayTraffic(ctx context.Context, cfg sim.Config, i int, maxEvents int64) ([]Attempt, sim.KeyRule, error) {
	lanes := cfg.LanesRun()
	if i < 0 || i >= len(lanes) {
		return nil, nil, fmt.Errorf("no lane %d", i)
	}
	name, kind := cfg.LaneName(i), lanes[i]
	if kind.Info().Class != sim.RateLimiter {
		return nil, nil, fmt.Errorf("lane %s is no rate limiter (a %v limits %s): a gateway's rate limit is held to one", name, kind,
			map[sim.LaneClass]string{sim.ConcurrencyLimiter: "requests in flight", sim.ClientGate: "in the client"}[kind.Info().Class])
	}
	cfg.Topology = nil
	cfg.Lanes = []sim.LaneKind{kind}
	if i < len(cfg.Variants) {
		cfg.Variants = cfg.Variants[i : i+1]
	} else {
		cfg.Variants = nil
	}
	var overrides []sim.LaneOverride
	for _, o := range cfg.Overrides {
		if o.Name == name || o.Name == "" && o.Lane.String() == name {
			overrides = append(overrides, o)
		}
	}
	cfg.Overrides = overrides
	cfg.Limits = slices.Clone(cfg.Limits)
	cfg.Limits[0].State = sim.StateLocal
	rule, err := cfg.LaneRule(0, 0)
	if err != nil {
		return nil, nil, err
	}
	sink := &laneCollector{}
	if _, err := sim.Run(ctx, cfg, sim.Options{Trace: sink, MaxEvents: maxEvents}); err != nil {
		return nil, nil, err
	}
	return sink.attempts, rule, nil
}

// laneCollector keeps one lane's decisions from the trace, delays included.
type laneCollector struct{ attempts []Attempt }

func (c *laneCollector) Record(r *sim.TraceRecord) error {
	if r.Event != sim.TraceAdmit && r.Event != sim.TraceDelay && r.Event != sim.TraceRefuse {
		return nil
	}
	a := Attempt{At: r.At, Key: r.Key, Cost: max(r.Cost, 1), Client: r.Client, Request: r.Request,
		Try: r.Attempt, Admitted: r.Event != sim.TraceRefuse}
	if !a.Admitted {
		a.RetryAfter = r.RetryAfter
	}
	c.attempts = append(c.attempts, a)
	return nil
}
