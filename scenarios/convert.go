package scenarios

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// Defaults a scenario file may leave out.
const (
	DefaultDuration = 10 * time.Second
	DefaultSeed     = 1
	defaultLimit    = 10
	defaultWindow   = time.Second
	defaultBase     = 100 * time.Millisecond
	defaultCap      = 10 * time.Second
	contentionBase  = 5 * time.Millisecond
	contentionCap   = 2 * time.Second
)

// builder turns a decoded file into a scenario, filling defaults and reporting
// the problems of the format a single field's tags cannot see: fields that the
// chosen kind, state or section does not use, and entries naming what the file
// does not hold. Every rule between values is sim's (simValidate).
type builder struct {
	rulePaths []string // the file path of each of the config's Rules, for sim's errors
	added     []string // the paths addf reported, in order
	// overridePaths are the file paths of the config's Overrides, the overrides
	// section's and then those a lane's limits wrote, for sim's errors
	overridePaths []string
	errs          *errorList
	lines         map[string]int
	bad           map[string]bool // paths the decoder already reported
}

// addf reports a problem at path, on the line of path or of its nearest written
// parent, unless path or a parent is already reported.
func (b *builder) addf(path, format string, args ...any) {
	for p := path; p != ""; p = parent(p) {
		if b.bad[p] {
			return
		}
	}
	b.errs.add(b.line(path), path, fmt.Sprintf(format, args...))
	b.added = append(b.added, path)
}

func parent(path string) string {
	if i := strings.LastIndexAny(path, ".["); i >= 0 {
		return path[:i]
	}
	return ""
}

func (b *builder) line(path string) int {
	for ; path != ""; path = parent(path) {
		if l, ok := b.lines[path]; ok {
			return l
		}
	}
	return 0
}

func (b *builder) has(path string) bool { _, ok := b.lines[path]; return ok }

// reported is whether the decoder reported a problem at path or below it.
func (b *builder) reported(path string) bool {
	for p := range b.bad {
		if p == path || strings.HasPrefix(p, path+".") || strings.HasPrefix(p, path+"[") {
			return true
		}
	}
	return false
}

func (b *builder) build(f *fileSpec, s *Scenario) {
	s.Description = f.Description
	seed := uint64(DefaultSeed)
	if f.Seed != nil {
		seed = *f.Seed
	}
	if f.Contention != nil {
		for _, p := range []string{"duration", "drain", "bucket", "limits", "header_style", "chain", "lanes", "aimd", "throttle", "vegas", "gradient2", "partitions", "clients", "backend", "checks", "topology"} {
			if b.has(p) {
				b.addf(p, "not used by a contention study (the file has a contention section)")
			}
		}
		s.Contention = b.contention(f.Contention, seed)
		return
	}
	if b.has("contention") {
		// A contention section in error: its errors are reported, no clients are
		// missing. One written empty (null) has none yet.
		if !b.reported("contention") {
			b.addf("contention", "the section is empty: give at least clients (or leave contention out)")
		}
		return
	}
	c := &sim.Config{Name: s.Name, Duration: DefaultDuration, Seed: seed}
	if f.Duration != nil {
		c.Duration = time.Duration(*f.Duration)
	}
	c.Drain = durOr(f.Drain, 0)
	c.Bucket = durOr(f.Bucket, 0)
	if f.Start != "" {
		c.Start, _ = time.Parse(time.RFC3339Nano, string(f.Start)) // parseScalar accepted it
	}
	c.Limits = b.limits(f.Limits)
	c.Rules = b.rules(f.Limits, c.Limits)
	if f.HeaderStyle != "" {
		c.HeaderStyle, _ = sim.ParseHeaderStyle(f.HeaderStyle)
	}
	if f.Chain != "" {
		c.Chain, _ = sim.ParseChain(f.Chain)
	}
	laneSettings(f, c)
	c.ConcurrencyPartitions = partitions(f.Partitions)
	b.lanes(f.Lanes, c)
	c.Overrides = append(b.overrides(f.Overrides, c), c.Overrides...)
	for i := range f.Clients {
		c.Clients = append(c.Clients, b.client(&f.Clients[i], fmt.Sprintf("clients[%d]", i), i))
	}
	if f.Backend != nil {
		c.Backend = backend(f.Backend)
	}
	c.Topology = b.topology(f.Topology, f.Limits, c.Limits)
	b.laneSetups(f, c)
	s.Checks = b.checks(f.Checks, c)
	s.Config = c
}

func (b *builder) limits(specs []limitSpec) []sim.Limit {
	if len(specs) == 0 {
		return []sim.Limit{{Name: sim.KeyGlobal.String(), Key: sim.KeyGlobal,
			Policy: algorithms.Policy{Limit: defaultLimit, Window: defaultWindow}}}
	}
	var limits []sim.Limit
	for _, l := range specs {
		key := sim.KeyGlobal
		if l.Key != "" {
			key, _ = sim.ParseKey(l.Key)
		}
		name := l.Name
		if name == "" {
			name = key.String()
		}
		window := defaultWindow
		if l.Concurrency != 0 {
			window = 0 // a concurrency limit has no rate: a window given is sim's error
		}
		limits = append(limits, sim.Limit{Name: name, Key: key, Policy: algorithms.Policy{
			Limit: l.Limit, Window: durOr(l.Window, window), Burst: l.Burst}, NoHeaders: l.Headers == "none",
			Shadow: l.Enforce != nil && !*l.Enforce, Endpoint: l.Endpoint, Concurrency: l.Concurrency})
	}
	return limits
}

func (b *builder) client(cs *clientSpec, path string, index int) sim.ClientGroup {
	g := sim.ClientGroup{Name: cs.Name, Count: 1, Cost: 1, Pace: cs.Pace}
	if g.Name == "" {
		g.Name = fmt.Sprintf("group%d", index)
	}
	if cs.Count != nil {
		g.Count = *cs.Count
	}
	if cs.Cost != 0 {
		g.Cost = cs.Cost
	}
	if id := cs.Identity; id != nil {
		g.Identity = sim.Identity{User: id.User, IP: id.IP, APIKey: id.APIKey, Tenant: id.Tenant, Endpoint: id.Endpoint}
	}
	for i := range cs.Arrivals {
		g.Arrivals = append(g.Arrivals, b.arrival(&cs.Arrivals[i], fmt.Sprintf("%s.arrivals[%d]", path, i)))
	}
	if cs.Retry != nil {
		g.Retry = b.retry(cs.Retry, path+".retry")
	}
	g.Criticality, _ = sim.ParseCriticality(cmp.Or(cs.Criticality, sim.Critical.String()))
	g.Deadline = durOr(cs.Deadline, 0)
	g.Timeout = durOr(cs.Timeout, 0)
	if cs.ServiceFactor != nil {
		g.ServiceFactor = *cs.ServiceFactor
	}
	if cs.RTT != nil {
		g.RTT = durOr(cs.RTT.Mean, 0)
		g.RTTKind, _ = sim.ParseService(cs.RTT.Distribution)
	}
	return g
}

// arrivalFields lists the fields each arrival kind uses; the first ones listed
// after a "!" are required.
var arrivalFields = map[sim.ArrivalKind][]string{
	sim.ArrivalBurst:         {"!count", "at", "spread"},
	sim.ArrivalConstant:      {"!rate", "start", "stop"},
	sim.ArrivalPoisson:       {"!rate", "start", "stop"},
	sim.ArrivalOnOff:         {"!rate", "!on", "!off", "start", "stop"},
	sim.ArrivalIdleThenBurst: {"!idle", "!count", "spread", "start", "stop"},
}

func (b *builder) arrival(a *arrivalSpec, path string) sim.Arrival {
	kind, ok := sim.ParseArrival(a.Kind)
	if !ok {
		return sim.Arrival{} // already reported
	}
	b.kindFields(path, "kind "+a.Kind, arrivalFields[kind],
		[]string{"start", "stop", "rate", "at", "count", "spread", "on", "off", "idle"})
	r := sim.Arrival{
		Kind: kind, Start: durOr(a.Start, 0), Stop: durOr(a.Stop, 0), At: durOr(a.At, 0),
		Count: a.Count, Spread: durOr(a.Spread, 0), On: durOr(a.On, 0), Off: durOr(a.Off, 0), Idle: durOr(a.Idle, 0),
	}
	if a.Rate != nil {
		r.Rate = sim.Rate(*a.Rate)
	}
	return r
}

// kindFields reports the required fields of a kind that are missing and the
// written fields it does not use.
func (b *builder) kindFields(path, kind string, uses, all []string) {
	var used []string
	for _, u := range uses {
		name := strings.TrimPrefix(u, "!")
		used = append(used, name)
		if u[0] == '!' && !b.has(path+"."+name) {
			b.addf(path, "missing field %s, which %s needs", name, kind)
		}
	}
	for _, f := range all {
		if b.has(path+"."+f) && !contains(used, f) {
			b.addf(path+"."+f, "not used by %s (it uses %s)", kind, strings.Join(used, ", "))
		}
	}
}

var retryFields = map[sim.RetryKind][]string{
	sim.RetryNone:        {},
	sim.RetryImmediate:   {"max_attempts", "honor_retry_after", "retry_after_jitter", "retry_after", "on", "budget"},
	sim.RetryFixed:       {"!delay", "max_attempts", "honor_retry_after", "retry_after_jitter", "retry_after", "on", "budget"},
	sim.RetryExponential: {"base", "cap", "jitter", "max_attempts", "honor_retry_after", "retry_after_jitter", "retry_after", "on", "budget"},
}

// Finagle's RetryBudget.apply() defaults: ttl 10s, minRetriesPerSec 10,
// percentCanRetry 0.2.
const (
	defaultBudgetRatio  = 0.2
	defaultBudgetPerSec = 10
)

func budget(bs *budgetSpec) *sim.RetryBudget {
	if bs == nil {
		return nil
	}
	b := &sim.RetryBudget{Ratio: defaultBudgetRatio, MinPerSecond: defaultBudgetPerSec, TTL: durOr(bs.TTL, 0)}
	if bs.Ratio != nil {
		b.Ratio = *bs.Ratio
	}
	if bs.MinPerSecond != nil {
		b.MinPerSecond = *bs.MinPerSecond
	}
	return b
}

func (b *builder) retry(rs *retrySpec, path string) sim.Retry {
	kind, ok := sim.ParseRetry(rs.Kind)
	if !ok {
		return sim.Retry{}
	}
	b.kindFields(path, "kind "+rs.Kind, retryFields[kind],
		[]string{"delay", "base", "cap", "jitter", "max_attempts", "honor_retry_after", "retry_after_jitter", "retry_after", "on", "budget"})
	r := sim.Retry{Kind: kind, Delay: durOr(rs.Delay, 0), MaxAttempts: rs.MaxAttempts,
		HonorRetryAfter: rs.HonorRetryAfter, RetryAfterJitter: durOr(rs.RetryAfterJitter, 0), On: rs.On}
	if kind != sim.RetryNone {
		r.Budget = budget(rs.Budget)
	}
	if kind == sim.RetryExponential {
		r.Base, r.Cap = durOr(rs.Base, defaultBase), durOr(rs.Cap, defaultCap)
		if rs.Jitter != "" {
			r.Jitter, _ = sim.ParseJitter(rs.Jitter)
		}
	}
	if rs.RetryAfter != "" {
		// A field the written choice does not use, as kindFields: sim cannot tell
		// the default header from one written without honor_retry_after.
		r.RetryAfter, _ = sim.ParseRetryAfter(rs.RetryAfter)
		if !r.HonorRetryAfter {
			b.addf(path+".retry_after", "needs honor_retry_after: true")
		}
	}
	return r
}

func backend(bs *backendSpec) *sim.Backend {
	be := &sim.Backend{Capacity: 1, QueueSize: bs.Queue, RetryAfter: durOr(bs.RetryAfter, 0)}
	if bs.Discipline != "" {
		be.Discipline, _ = sim.ParseDiscipline(bs.Discipline)
	}
	if q := bs.CoDel; q != nil {
		be.CoDel = &sim.CoDel{Target: durOr(q.Target, 0), Interval: durOr(q.Interval, 0)}
	}
	if bs.Capacity != nil {
		be.Capacity = *bs.Capacity
	}
	if bs.Service != nil {
		be.Service = service(bs.Service)
	}
	be.Shedding = shedding(bs.Shedding)
	for _, ch := range bs.Changes {
		c := sim.BackendChange{At: durOr(ch.At, 0)}
		if ch.Capacity != nil {
			c.Capacity = *ch.Capacity
		}
		if ch.Service != nil {
			c.Service = service(ch.Service)
		}
		be.Changes = append(be.Changes, c)
	}
	return be
}

func service(s *serviceSpec) sim.Service {
	v := sim.Service{Mean: durOr(s.Mean, 0)}
	if s.Distribution != "" {
		v.Kind, _ = sim.ParseService(s.Distribution)
	}
	return v
}

// simValidate maps the problems sim.Config.ValidateScenario finds onto the file's lines:
// sim owns the defaults and the semantic checks, this package only the format.
// It runs even when the file has problems of its own, so that every problem is
// reported at once, leaving out what is a consequence of those (see consequence).
func (b *builder) simValidate(err error) {
	if err == nil {
		return
	}
	var fes sim.FieldErrors
	if !errors.As(err, &fes) {
		if b.errs.count() == 0 {
			b.errs.add(0, "", err.Error())
		}
		return
	}
	format := slices.Clone(b.added)
	for _, fe := range fes {
		if path := b.filePath(fe.Field); !b.consequence(path, format) {
			b.addf(path, "%s", fe.Problem)
		}
	}
}

// consequence reports whether sim's problem at path may follow from a problem
// the file has already been reported with, at format (the builder's) or in
// b.bad (the decoder's): one at path or a parent of it (a missing field, a
// state or kind in error), or, from the decoder, at a field beside path or
// beside a parent, whose value in error was left out for its default (a kind
// in error leaves its arrival's other fields checked against the wrong kind).
// A top-level field, a list's entry or an unknown field in error spoils
// nothing beside it.
func (b *builder) consequence(path string, format []string) bool {
	under := func(p, q string) bool {
		return p == q || strings.HasPrefix(p, q+".") || strings.HasPrefix(p, q+"[")
	}
	for _, q := range format {
		if under(path, q) {
			return true
		}
	}
	for q := range b.bad {
		if q == "" {
			continue
		}
		if under(path, q) {
			return true
		}
		// A field of the format (not an unknown one) beside path, in error.
		if p := parent(q); p != "" && strings.HasPrefix(q, p+".") && b.has(q) && under(path, p) {
			return true
		}
	}
	return false
}

// rules turns every limit's changes into the config's rule pushes, each change
// filling what it leaves out from the limit's rule before it.
func (b *builder) rules(specs []limitSpec, limits []sim.Limit) []sim.RuleChange {
	var out []sim.RuleChange
	for i, l := range specs {
		if i >= len(limits) {
			break
		}
		rule := limits[i]
		var last time.Duration
		for k, ch := range l.Changes {
			path := fmt.Sprintf("limits[%d].changes[%d]", i, k)
			at := durOr(ch.At, 0)
			if k > 0 && at < last {
				b.addf(path+".at", "%v is before changes[%d].at %v; list the changes in time order", at, k-1, last)
			}
			last = at
			rc := sim.RuleChange{At: at, Limit: i, Shadow: rule.Shadow}
			if ch.Limit != 0 || ch.Window != nil || ch.Burst != nil {
				if ch.Limit != 0 {
					rule.Policy.Limit = ch.Limit
				}
				rule.Policy.Window = durOr(ch.Window, rule.Policy.Window)
				if ch.Burst != nil {
					rule.Policy.Burst = *ch.Burst
				}
				rc.Policy = rule.Policy
			}
			if ch.Enforce != nil {
				rule.Shadow, rc.Shadow = !*ch.Enforce, !*ch.Enforce
			}
			out = append(out, rc)
			b.rulePaths = append(b.rulePaths, path)
		}
	}
	return out
}

// filePath is the file's path for a field of sim's Config: a rule push is
// written as a change of its limit, a variant and its own policies in its lane.
func (b *builder) filePath(field string) string {
	field = topologyPath(field)
	for i, p := range b.rulePaths {
		if prefix := fmt.Sprintf("rules[%d]", i); strings.HasPrefix(field, prefix+".") || field == prefix {
			return p + strings.TrimPrefix(field, prefix)
		}
	}
	for i, p := range b.overridePaths {
		if prefix := fmt.Sprintf("overrides[%d]", i); strings.HasPrefix(field, prefix+".") || field == prefix {
			return p + strings.TrimPrefix(field, prefix)
		}
	}
	if rest, ok := strings.CutPrefix(field, "variants["); ok {
		return "lanes[" + rest
	}
	return field
}

func durOr(d *Duration, def time.Duration) time.Duration {
	if d == nil {
		return def
	}
	return time.Duration(*d)
}

var errNoConfig = errors.New("scenarios: scenario has neither a simulation nor a contention config")
