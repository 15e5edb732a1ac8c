package scenarios

import (
	"errors"
	"fmt"
	"regexp"
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
// the problems a single field's tags cannot see: contradictions between fields
// and fields that the chosen kind does not use.
type builder struct {
	rulePaths []string // the file path of each of the config's Rules, for sim's errors
	// overridePaths are the file paths of the config's Overrides that a lane's
	// limits wrote, the last of them, for sim's errors
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
		for _, p := range []string{"duration", "drain", "bucket", "limits", "header_style", "chain", "lanes", "aimd", "throttle", "vegas", "clients", "backend", "checks", "topology"} {
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
	if f.Bucket != nil {
		c.Bucket = time.Duration(*f.Bucket)
		if c.Bucket > c.Duration && c.Duration > 0 {
			b.addf("bucket", "%v is longer than the duration %v", c.Bucket, c.Duration)
		}
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
	b.lanes(f.Lanes, c)
	c.Overrides = append(b.overrides(f.Overrides, c), c.Overrides...)
	if len(f.Clients) == 0 && !b.has("contention") { // a contention section in error is reported already
		b.addf("clients", "at least one client group is needed (or a contention section)")
	}
	names := map[string]int{}
	for i := range f.Clients {
		g := b.client(&f.Clients[i], fmt.Sprintf("clients[%d]", i), i, c)
		if j, dup := names[g.Name]; dup {
			b.addf(fmt.Sprintf("clients[%d].name", i), "%q is also the name of clients[%d]", g.Name, j)
		}
		names[g.Name] = i
		c.Clients = append(c.Clients, g)
	}
	if f.Backend != nil {
		c.Backend = b.backend(f.Backend, c.Duration)
	}
	c.Topology = b.topology(f.Topology, f.Limits, c.Limits)
	s.Checks = b.checks(f.Checks, c)
	s.Config = c
}

func (b *builder) limits(specs []limitSpec) []sim.Limit {
	if len(specs) == 0 {
		return []sim.Limit{{Name: sim.KeyGlobal.String(), Key: sim.KeyGlobal,
			Policy: algorithms.Policy{Limit: defaultLimit, Window: defaultWindow}}}
	}
	var limits []sim.Limit
	names := map[string]int{}
	for i, l := range specs {
		path := fmt.Sprintf("limits[%d]", i)
		key := sim.KeyGlobal
		if l.Key != "" {
			key, _ = sim.ParseKey(l.Key)
		}
		name := l.Name
		if name == "" {
			name = key.String()
		}
		if j, dup := names[name]; dup {
			b.addf(path+".name", "%q also names limits[%d]; give each limit its own name", name, j)
		}
		names[name] = i
		limits = append(limits, sim.Limit{Name: name, Key: key, Policy: algorithms.Policy{
			Limit: l.Limit, Window: durOr(l.Window, defaultWindow), Burst: l.Burst}, NoHeaders: l.Headers == "none",
			Shadow: l.Enforce != nil && !*l.Enforce, Endpoint: l.Endpoint})
	}
	return limits
}

var placeholder = regexp.MustCompile(`\{[^}]*\}`)

func (b *builder) client(cs *clientSpec, path string, index int, c *sim.Config) sim.ClientGroup {
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
	for i, l := range c.Limits {
		if burst := l.Policy.EffectiveBurst(); g.Cost > burst && l.Policy.Limit > 0 {
			b.addf(path+".cost", "%d is more than the burst %d of limits[%d] (%s): no request could ever be admitted", g.Cost, burst, i, l.Name)
			break
		}
	}
	if id := cs.Identity; id != nil {
		g.Identity = sim.Identity{User: id.User, IP: id.IP, APIKey: id.APIKey, Tenant: id.Tenant, Endpoint: id.Endpoint}
		for _, f := range []struct{ name, tmpl string }{
			{"user", id.User}, {"ip", id.IP}, {"api_key", id.APIKey}, {"tenant", id.Tenant}, {"endpoint", id.Endpoint},
		} {
			for _, p := range placeholder.FindAllString(f.tmpl, -1) {
				if p != "{i}" && p != "{g}" {
					b.addf(path+".identity."+f.name, "unknown placeholder %s (want {i}, the client's index, or {g}, the group name)", p)
				}
			}
		}
	}
	for i := range cs.Arrivals {
		g.Arrivals = append(g.Arrivals, b.arrival(&cs.Arrivals[i], fmt.Sprintf("%s.arrivals[%d]", path, i), c.Duration))
	}
	if b.has(path+".arrivals") && len(cs.Arrivals) == 0 {
		b.addf(path+".arrivals", "at least one arrival process is needed")
	}
	if cs.Retry != nil {
		g.Retry = b.retry(cs.Retry, path+".retry")
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

func (b *builder) arrival(a *arrivalSpec, path string, duration time.Duration) sim.Arrival {
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
	if r.Start >= duration && b.has(path+".start") {
		b.addf(path+".start", "%v is not before the scenario's duration %v", r.Start, duration)
	}
	if r.Stop != 0 && r.Stop <= r.Start {
		b.addf(path+".stop", "%v is not after start %v", r.Stop, r.Start)
	}
	if r.Stop > duration {
		b.addf(path+".stop", "%v is after the scenario's duration %v", r.Stop, duration)
	}
	if kind == sim.ArrivalBurst && r.At >= duration {
		b.addf(path+".at", "%v is not before the scenario's duration %v", r.At, duration)
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
	sim.RetryImmediate:   {"!max_attempts", "honor_retry_after", "retry_after_jitter", "retry_after"},
	sim.RetryFixed:       {"!delay", "max_attempts", "honor_retry_after", "retry_after_jitter", "retry_after"},
	sim.RetryExponential: {"base", "cap", "jitter", "max_attempts", "honor_retry_after", "retry_after_jitter", "retry_after"},
}

func (b *builder) retry(rs *retrySpec, path string) sim.Retry {
	kind, ok := sim.ParseRetry(rs.Kind)
	if !ok {
		return sim.Retry{}
	}
	b.kindFields(path, "kind "+rs.Kind, retryFields[kind],
		[]string{"delay", "base", "cap", "jitter", "max_attempts", "honor_retry_after", "retry_after_jitter", "retry_after"})
	r := sim.Retry{Kind: kind, Delay: durOr(rs.Delay, 0), MaxAttempts: rs.MaxAttempts,
		HonorRetryAfter: rs.HonorRetryAfter, RetryAfterJitter: durOr(rs.RetryAfterJitter, 0)}
	if kind == sim.RetryExponential {
		r.Base, r.Cap = durOr(rs.Base, defaultBase), durOr(rs.Cap, defaultCap)
		if r.Cap < r.Base {
			b.addf(path+".cap", "%v is below base %v", r.Cap, r.Base)
		}
		if rs.Jitter != "" {
			r.Jitter, _ = sim.ParseJitter(rs.Jitter)
		}
	}
	if kind == sim.RetryImmediate && rs.MaxAttempts == 0 && b.has(path+".max_attempts") {
		b.addf(path+".max_attempts", "must be positive for immediate retries: a refused client would retry forever at the same instant")
	}
	if r.RetryAfterJitter > 0 && !r.HonorRetryAfter {
		b.addf(path+".retry_after_jitter", "needs honor_retry_after: true")
	}
	if rs.RetryAfter != "" {
		r.RetryAfter, _ = sim.ParseRetryAfter(rs.RetryAfter)
		if !r.HonorRetryAfter {
			b.addf(path+".retry_after", "needs honor_retry_after: true")
		}
	}
	return r
}

func (b *builder) backend(bs *backendSpec, duration time.Duration) *sim.Backend {
	be := &sim.Backend{Capacity: 1, QueueSize: bs.Queue, RetryAfter: durOr(bs.RetryAfter, 0)}
	if bs.Capacity != nil {
		be.Capacity = *bs.Capacity
	}
	if bs.Service != nil {
		be.Service = service(bs.Service)
	}
	var last time.Duration
	for i, ch := range bs.Changes {
		path := fmt.Sprintf("backend.changes[%d]", i)
		c := sim.BackendChange{At: durOr(ch.At, 0)}
		if ch.Capacity != nil {
			c.Capacity = *ch.Capacity
		}
		if ch.Service != nil {
			c.Service = service(ch.Service)
		}
		if i > 0 && c.At <= last {
			b.addf(path+".at", "%v is not after the previous change at %v", c.At, last)
		}
		if c.At >= duration {
			b.addf(path+".at", "%v is not before the scenario's duration %v", c.At, duration)
		}
		last = c.At
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

// simValidate maps the problems sim.Config.Validate finds onto the file's lines:
// sim owns the defaults and the semantic checks, this package only the format.
func (b *builder) simValidate(c *sim.Config, err error) {
	if err == nil {
		return
	}
	var fes sim.FieldErrors
	if !errors.As(err, &fes) {
		b.errs.add(0, "", err.Error())
		return
	}
	for _, fe := range fes {
		b.addf(b.filePath(fe.Field, c), "%s", fe.Problem)
	}
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
func (b *builder) filePath(field string, c *sim.Config) string {
	field = topologyPath(field)
	for i, p := range b.rulePaths {
		if prefix := fmt.Sprintf("rules[%d]", i); strings.HasPrefix(field, prefix+".") || field == prefix {
			return p + strings.TrimPrefix(field, prefix)
		}
	}
	first := 0
	if c != nil {
		first = len(c.Overrides) - len(b.overridePaths)
	}
	for i, p := range b.overridePaths {
		if prefix := fmt.Sprintf("overrides[%d]", first+i); strings.HasPrefix(field, prefix+".") || field == prefix {
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
