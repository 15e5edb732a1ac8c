package importer

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Traefik's dynamic configuration, as the file provider reads it (Traefik
// v3.7.9, github.com/traefik/traefik at v3.7.9-28-gfd5a576df2):
//
//   - http.middlewares.NAME.rateLimit (pkg/config/dynamic/middlewares.go,
//     type RateLimit; docs/content/reference/routing-configuration/http/
//     middlewares/ratelimit.md): average (0: no limit), period (default 1s;
//     a duration string or whole seconds, paerser's types.Duration), burst
//     (default 1, and pkg/middlewares/ratelimiter/rate_limiter.go takes
//     max(burst, 1)), sourceCriterion (ipStrategy, requestHeaderName or
//     requestHost, at most one: pkg/middlewares/extractor.go refuses two;
//     none: the request's remote address), redis (Traefik ≥ 3.4.0).
//   - http.middlewares.NAME.chain.middlewares: a list of middleware names.
//   - http.routers.NAME: rule, middlewares (names, NAME@provider too).
//
// Traefik builds every router's middlewares anew (one limiter per router
// and middleware), so each (router, rateLimit) pair is one limit.
func init() {
	register(product{name: "traefik", detect: detectTraefik, read: readTraefik})
}

// detectTraefik: a YAML or TOML file holding middlewares and a rateLimit.
func detectTraefik(path string, data []byte) bool {
	switch ext(path) {
	case "yaml", "yml", "toml", "":
	default:
		return false
	}
	return bytes.Contains(data, []byte("middlewares")) &&
		containsAny(data, "rateLimit", "ratelimit", "RateLimit")
}

func readTraefik(src Source) (*Model, error) {
	root, errs := traefikTree(src)
	if len(errs) > 0 {
		return nil, &SyntaxError{Product: "traefik", Problems: errs}
	}
	t := &traefikReader{file: src.Path, m: &Model{}, mws: map[string]*traefikMW{}, used: map[string]bool{}}
	t.read(root)
	return t.m, nil
}

// traefikTree reads src as TOML (a .toml file, or one whose first line
// that says something opens a [table]) or YAML.
func traefikTree(src Source) (*cnode, []Problem) {
	if ext(src.Path) == "toml" || ext(src.Path) != "yaml" && ext(src.Path) != "yml" && looksTOML(src.Data) {
		return parseTOML(src.Path, src.Data)
	}
	return parseYAMLTree(src.Path, src.Data)
}

func looksTOML(data []byte) bool {
	for _, l := range bytes.Split(data, []byte("\n")) {
		l = bytes.TrimSpace(l)
		if len(l) == 0 || l[0] == '#' {
			continue
		}
		return l[0] == '[' || bytes.Contains(l, []byte(" = "))
	}
	return false
}

var yamlErrLine = regexp.MustCompile(`line (\d+): (.*)`)

// yamlMaxNodes bounds the nodes a YAML document may expand to through its
// aliases (a "billion laughs" document is refused, not expanded).
const yamlMaxNodes = 1 << 20

// parseYAMLTree reads data with yaml.v3's Node, for its line numbers.
func parseYAMLTree(file string, data []byte) (*cnode, []Problem) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		var errs []Problem
		for _, l := range strings.Split(strings.TrimPrefix(err.Error(), "yaml: "), "\n") {
			l = strings.TrimSpace(strings.TrimPrefix(l, "unmarshal errors:"))
			if l == "" {
				continue
			}
			line := 0
			if m := yamlErrLine.FindStringSubmatch(l); m != nil {
				line, _ = strconv.Atoi(m[1])
				l = m[2]
			}
			errs = append(errs, Problem{At: Origin{File: file, Line: line}, Message: "YAML: " + l})
		}
		if len(errs) == 0 {
			errs = []Problem{{At: Origin{File: file}, Message: "YAML: " + err.Error()}}
		}
		return nil, errs
	}
	if len(doc.Content) == 0 {
		return &cnode{line: 1, kind: cMap}, nil
	}
	c := yamlConverter{file: file}
	n := c.convert(doc.Content[0], 0)
	if c.err != nil {
		return nil, []Problem{*c.err}
	}
	if len(c.dups) > 0 {
		return nil, c.dups
	}
	return n, nil
}

type yamlConverter struct {
	file  string
	nodes int
	err   *Problem
	dups  []Problem
}

func (c *yamlConverter) convert(y *yaml.Node, depth int) *cnode {
	c.nodes++
	if c.err != nil {
		return &cnode{}
	}
	if c.nodes > yamlMaxNodes || depth > 200 {
		c.err = &Problem{At: Origin{File: c.file, Line: y.Line}, Message: "YAML: the document expands to too many nodes (aliases)"}
		return &cnode{}
	}
	n := &cnode{line: y.Line}
	switch y.Kind {
	case yaml.AliasNode:
		if y.Alias == nil {
			return n
		}
		a := c.convert(y.Alias, depth+1)
		cp := *a
		cp.line = y.Line
		return &cp
	case yaml.MappingNode:
		n.kind = cMap
		merged := map[string]bool{} // keys a merge gave, which the mapping's own keys override
		for i := 0; i+1 < len(y.Content); i += 2 {
			k, v := y.Content[i], y.Content[i+1]
			if k.Value == "<<" && k.Tag == "!!merge" {
				m := c.convert(v, depth+1)
				for j, mk := range m.keys {
					if n.exact(mk) == nil {
						n.set(mk, m.vals[j])
						merged[mk] = true
					}
				}
				continue
			}
			cv := c.convert(v, depth+1)
			cv.line = k.Line // a value's line is its key's, where the reader looks
			if merged[k.Value] {
				delete(merged, k.Value)
				n.vals[slices.Index(n.keys, k.Value)] = cv
				continue
			}
			if n.exact(k.Value) != nil {
				// As yaml.v3 refuses when it decodes into a map, as Traefik does.
				c.dups = append(c.dups, Problem{At: Origin{File: c.file, Line: k.Line}, Message: fmt.Sprintf("YAML: mapping key %q already defined", k.Value)})
				continue
			}
			n.set(k.Value, cv)
		}
	case yaml.SequenceNode:
		n.kind = cList
		for _, it := range y.Content {
			n.items = append(n.items, c.convert(it, depth+1))
		}
	case yaml.ScalarNode:
		n.val = y.Value
		switch y.ShortTag() {
		case "!!int":
			if v, err := strconv.ParseInt(strings.ReplaceAll(y.Value, "_", ""), 0, 64); err == nil {
				n.val = v
			}
		case "!!float":
			if v, err := strconv.ParseFloat(y.Value, 64); err == nil {
				n.val = v
			}
		case "!!bool":
			var b bool
			if y.Decode(&b) == nil {
				n.val = b
			}
		case "!!null":
			n.val = nil
		}
	}
	return n
}

// traefikMW is one rateLimit middleware as read.
type traefikMW struct {
	name    string
	line    int
	average int64
	period  time.Duration
	burst   int64
	key     string
	keyNote string
	redis   bool
	chain   []traefikRef // a chain middleware's members
	isChain bool
	skip    bool // Traefik would refuse it, or it does not limit: a Problem says so
}

type traefikRef struct {
	name string
	line int
}

type traefikReader struct {
	file  string
	m     *Model
	mws   map[string]*traefikMW
	order []string
	used  map[string]bool
	known map[string]bool // every middleware the file defines, of any kind
}

func (t *traefikReader) at(line int) Origin { return Origin{File: t.file, Line: line} }

func (t *traefikReader) read(root *cnode) {
	http := root.get("http")
	if mws := http.get("middlewares"); mws != nil && mws.kind == cMap {
		t.known = map[string]bool{}
		for i, name := range mws.keys {
			t.known[name] = true
			t.middleware(name, mws.vals[i])
		}
	}
	if routers := http.get("routers"); routers != nil && routers.kind == cMap {
		for i, name := range routers.keys {
			t.router(name, routers.vals[i])
		}
	}
	for _, name := range t.order {
		if mw := t.mws[name]; !t.used[name] && !mw.isChain && !mw.skip {
			t.m.problemf(t.at(mw.line), "middleware %s (rateLimit) is defined, not used by any router of this file: not imported", name)
		}
	}
	if len(t.m.Limits) > 0 {
		t.overlaps()
		t.lane()
	}
}

// overlaps says what rlsim's scopes cannot: a router without a path takes
// only the requests no more specific router takes (Traefik orders routers
// by rule length), while a limit without an endpoint counts every request.
// And several limits on one router are charged in order, as Traefik's
// middlewares run one after the other.
func (t *traefikReader) overlaps() {
	scoped := false
	for _, l := range t.m.Limits {
		scoped = scoped || l.Endpoint != ""
	}
	perRouter := map[string]int{}
	for _, l := range t.m.Limits {
		router, _, _ := strings.Cut(l.Name, "/")
		perRouter[router]++
		if l.Endpoint == "" && scoped {
			t.m.problemf(l.At[1], "limit %s: router %s takes only the requests no router with a path takes; rlsim's limit without an endpoint counts every request, those to the other routers' endpoints too", l.Name, router)
		}
	}
	for _, n := range perRouter {
		if n > 1 {
			t.m.Chain = "charge_until_refused"
			t.m.Notes = append(t.m.Notes, "A router's middlewares run in order, each taking its token before the next decides: a request the second refuses has spent the first's (chain: charge_until_refused).")
			return
		}
	}
}

func (t *traefikReader) middleware(name string, n *cnode) {
	if n == nil || n.kind != cMap {
		return
	}
	if f := n.get("inFlightReq"); f != nil {
		t.m.problemf(t.at(f.line), "middleware %s: inFlightReq limits requests in flight, not a rate: not imported", name)
	}
	if c := n.get("chain"); c != nil {
		mw := &traefikMW{name: name, line: c.line, isChain: true}
		for _, it := range listOf(c.get("middlewares")) {
			if s, ok := it.val.(string); ok {
				mw.chain = append(mw.chain, traefikRef{s, it.line})
			}
		}
		t.add(mw)
		return
	}
	rl := n.get("rateLimit")
	if rl == nil {
		return
	}
	mw := &traefikMW{name: name, line: rl.line, period: time.Second, burst: 1, key: "ip"}
	t.add(mw)
	if rl.kind != cMap {
		t.m.problemf(t.at(rl.line), "middleware %s: rateLimit is not a mapping: not imported", name)
		mw.skip = true
		return
	}
	if a := rl.get("average"); a != nil {
		v, ok := a.val.(int64)
		switch {
		case !ok:
			t.m.problemf(t.at(a.line), "middleware %s: average %v is not an integer: Traefik refuses it; not imported", name, a.val)
			mw.skip = true
		case v > math.MaxInt64/int64(time.Second):
			t.m.problemf(t.at(a.line), "middleware %s: average %d × 1e9 overflows Traefik's int64 arithmetic: not imported", name, v)
			mw.skip = true
		default:
			mw.average = v
		}
	}
	if p := rl.get("period"); p != nil {
		d, err := traefikDuration(p)
		switch {
		case err != nil:
			t.m.problemf(t.at(p.line), "middleware %s: period: %v; Traefik refuses it; not imported", name, err)
			mw.skip = true
		case d < 0:
			t.m.problemf(t.at(p.line), "middleware %s: period %v is negative: Traefik refuses it; not imported", name, d)
			mw.skip = true
		case d > 0:
			mw.period = d
		}
	}
	if b := rl.get("burst"); b != nil {
		v, ok := b.val.(int64)
		if !ok {
			t.m.problemf(t.at(b.line), "middleware %s: burst %v is not an integer: Traefik refuses it; not imported", name, b.val)
			mw.skip = true
		}
		mw.burst = max(v, 1) // rate_limiter.go: burst := max(config.Burst, 1)
	}
	if !mw.skip && mw.average <= 0 {
		t.m.problemf(t.at(rl.line), "middleware %s: average %d: Traefik does not limit (rate.Inf): not imported", name, mw.average)
		mw.skip = true
	}
	if r := rl.get("redis"); r != nil {
		mw.redis = true
		t.m.problemf(t.at(r.line), "middleware %s: redis (Traefik ≥ 3.4): one bucket per source in Redis, decided by Traefik's Lua token bucket (pkg/middlewares/ratelimiter/lua.go), not the in-memory x/time/rate the traefik lane decides by; imported as state: shared, on_store_error: closed (a Redis error answers 500); the fleet and the store's latency are rlsim's example", name)
	}
	t.source(mw, rl.get("sourceCriterion"))
}

func (t *traefikReader) add(mw *traefikMW) {
	if _, dup := t.mws[mw.name]; !dup {
		t.order = append(t.order, mw.name)
	}
	t.mws[mw.name] = mw
}

// source reads the sourceCriterion: what the limit counts by.
func (t *traefikReader) source(mw *traefikMW, sc *cnode) {
	if sc == nil || sc.kind != cMap || len(sc.keys) == 0 {
		mw.keyNote = "by the client's address (no sourceCriterion: the request's remote address)"
		return
	}
	ips, hdr, host := sc.get("ipStrategy"), sc.get("requestHeaderName"), sc.get("requestHost")
	hostOn := host != nil && host.val == true
	hdrName, _ := hdr.scalarString()
	set := 0
	for _, b := range []bool{ips != nil, hdrName != "", hostOn} {
		if b {
			set++
		}
	}
	if set > 1 {
		t.m.problemf(t.at(sc.line), "middleware %s: sourceCriterion sets more than one of ipStrategy, requestHeaderName and requestHost: Traefik refuses it (pkg/middlewares/extractor.go); not imported", mw.name)
		mw.skip = true
		return
	}
	switch {
	case hdrName != "":
		mw.key, mw.keyNote = traefikHeaderKey(hdrName)
		if mw.key == "" {
			mw.key = nearestHeaderKind(hdrName)
			t.m.problemf(t.at(hdr.line), "middleware %s: requestHeaderName %s: rlsim has no key for this header; imported as %s", mw.name, hdrName, mw.key)
			mw.keyNote = "by the request header " + hdrName
		}
	case hostOn:
		mw.key, mw.keyNote = "global", "by the request's Host (requestHost): one host is one budget, so global"
		t.m.Notes = append(t.m.Notes, fmt.Sprintf("Middleware %s counts by the request's Host (requestHost): imported as global, one budget for the host the scenario's clients share.", mw.name))
	default:
		mw.keyNote = "by the client's address (ipStrategy)"
		if ips != nil {
			if d := ips.get("depth"); d != nil {
				if v, ok := d.val.(int64); ok && v > 0 {
					mw.keyNote = fmt.Sprintf("by the address %d from the right of X-Forwarded-For (ipStrategy.depth %d)", v, v)
				}
			}
			if e := ips.get("excludedIPs"); e != nil && mw.keyNote == "by the client's address (ipStrategy)" {
				mw.keyNote = "by the first X-Forwarded-For address not in ipStrategy.excludedIPs"
			}
			if s := ips.get("ipv6Subnet"); s != nil {
				t.m.problemf(t.at(s.line), "middleware %s: ipStrategy.ipv6Subnet %v counts a whole IPv6 subnet as one source; rlsim's ip counts each client's address", mw.name, s.val)
			}
		}
	}
}

func (n *cnode) scalarString() (string, bool) {
	if n == nil {
		return "", false
	}
	s, ok := n.val.(string)
	return s, ok
}

// traefikHeaderKey maps a requestHeaderName onto rlsim's key kinds, or ""
// when rlsim has no kind for it.
func traefikHeaderKey(h string) (string, string) {
	switch strings.ToLower(h) {
	case "x-api-key", "apikey", "x-apikey", "api-key":
		return "api_key", "by the API key in the " + h + " header"
	case "authorization":
		return "user", "by the Authorization header: one credential, one user"
	}
	if strings.HasPrefix(strings.ToLower(h), "x-tenant") {
		return "tenant", "by the tenant in the " + h + " header"
	}
	return "", ""
}

// nearestHeaderKind is the key kind nearest a header rlsim has none for.
func nearestHeaderKind(h string) string {
	l := strings.ToLower(h)
	switch {
	case strings.Contains(l, "tenant") || strings.Contains(l, "org"):
		return "tenant"
	case strings.Contains(l, "user") || strings.Contains(l, "auth"):
		return "user"
	case strings.Contains(l, "ip") || strings.Contains(l, "forwarded"):
		return "ip"
	}
	return "api_key"
}

// traefikDuration reads a paerser types.Duration: an integer is seconds, a
// string whole seconds or a Go duration.
func traefikDuration(n *cnode) (time.Duration, error) {
	switch v := n.val.(type) {
	case int64:
		if v > int64(math.MaxInt64/time.Second) || v < -int64(math.MaxInt64/time.Second) {
			return 0, fmt.Errorf("%d seconds is out of range", v)
		}
		return time.Duration(v) * time.Second, nil
	case string:
		if s, err := strconv.ParseInt(v, 10, 64); err == nil {
			return traefikDuration(&cnode{val: s})
		}
		d, err := time.ParseDuration(v)
		if err != nil {
			return 0, fmt.Errorf("%q is not a duration", v)
		}
		return d, nil
	}
	return 0, fmt.Errorf("%v is not a duration", n.val)
}

func listOf(n *cnode) []*cnode {
	if n == nil {
		return nil
	}
	if n.kind == cList {
		return n.items
	}
	if n.kind == cScalar && n.val != nil {
		return []*cnode{n}
	}
	return nil
}

// router makes one limit of each rateLimit middleware the router uses.
func (t *traefikReader) router(name string, n *cnode) {
	if n == nil || n.kind != cMap {
		return
	}
	var refs []traefikRef
	for _, it := range listOf(n.get("middlewares")) {
		if s, ok := it.val.(string); ok {
			refs = append(refs, traefikRef{s, it.line})
		}
	}
	var mws []*traefikMW
	seen := map[string]bool{}
	for _, r := range refs {
		t.expand(name, r, 0, seen, &mws)
	}
	if len(mws) == 0 {
		return
	}
	rule := n.get("rule")
	ruleText, _ := rule.scalarString()
	ruleLine := n.line
	if rule != nil {
		ruleLine = rule.line
	}
	endpoint := t.ruleEndpoint(name, ruleText, ruleLine)
	for _, mw := range mws {
		at := []Origin{t.at(mw.line), t.at(n.line)}
		l := Limit{
			Name: name + "/" + mw.name, Key: mw.key, Limit: mw.average, Window: mw.period, Burst: mw.burst,
			Endpoint: endpoint, At: at,
			Note: fmt.Sprintf("router %s, middleware %s: rateLimit average %d per %s, burst %d, %s",
				name, mw.name, mw.average, formatDuration(mw.period), mw.burst, mw.keyNote),
		}
		if mw.redis {
			l.State, l.OnStoreError = "shared", "closed"
		}
		if why := unstatable(l); why != "" {
			t.m.problemf(at[0], "router %s, middleware %s: %s, beyond what a scenario states: not imported", name, mw.name, why)
			continue
		}
		t.m.Limits = append(t.m.Limits, l)
	}
}

// expand resolves a middleware reference (through chains) into the
// rateLimit middlewares it applies, in order.
func (t *traefikReader) expand(router string, r traefikRef, depth int, seen map[string]bool, out *[]*traefikMW) {
	name := r.name
	if i := strings.LastIndexByte(name, '@'); i >= 0 {
		if provider := name[i+1:]; provider != "file" {
			t.m.problemf(t.at(r.line), "router %s: middleware %s is defined by the %s provider, not in this file: not imported", router, name, provider)
			return
		}
		name = name[:i]
	}
	mw := t.mws[name]
	if mw == nil {
		if !t.known[name] {
			t.m.problemf(t.at(r.line), "router %s: middleware %s is not defined in this file (another file of the provider's directory?): if it limits, it is not imported", router, name)
		}
		return // a middleware of another kind: no rate limit here
	}
	t.used[name] = true
	if seen[name] {
		if !mw.isChain {
			t.m.problemf(t.at(r.line), "router %s: middleware %s is applied twice; imported once", router, name)
		}
		return
	}
	seen[name] = true
	if mw.isChain {
		if depth > 16 {
			t.m.problemf(t.at(r.line), "router %s: chain %s nests deeper than 16: not imported", router, name)
			return
		}
		for _, c := range mw.chain {
			t.expand(router, c, depth+1, seen, out)
		}
		return
	}
	if !mw.skip {
		*out = append(*out, mw)
	}
}

// traefikMatcher is one matcher call of a rule: Name(`arg`, …).
var traefikMatcher = regexp.MustCompile("^\\s*!?\\s*([A-Za-z]+)\\(\\s*((?:`[^`]*`|\"(?:[^\"\\\\]|\\\\.)*\")(?:\\s*,\\s*(?:`[^`]*`|\"(?:[^\"\\\\]|\\\\.)*\"))*)?\\s*\\)\\s*$")

var traefikArg = regexp.MustCompile("`[^`]*`|\"(?:[^\"\\\\]|\\\\.)*\"")

// ruleEndpoint reads a router's rule (Traefik v3 rule syntax,
// docs/content/reference/routing-configuration/http/routing/rules-and-priority.md):
// the path of a Path or PathPrefix matcher, ANDed with Host matchers, is
// the limit's endpoint; anything else is a Problem.
func (t *traefikReader) ruleEndpoint(router, rule string, line int) string {
	at := t.at(line)
	if strings.TrimSpace(rule) == "" {
		t.m.problemf(at, "router %s has no rule: Traefik refuses it; its limits are imported for every request", router)
		return ""
	}
	terms, ok := splitAnd(rule)
	if !ok {
		t.m.problemf(at, "router %s: rule %s uses || or ! or parentheses: rlsim reads only matchers joined by &&; its limits are imported for every request", router, rule)
		return ""
	}
	endpoint, paths := "", 0
	for _, term := range terms {
		m := traefikMatcher.FindStringSubmatch(term)
		if m == nil {
			t.m.problemf(at, "router %s: rule term %s is not a matcher rlsim reads; its limits are imported for every request", router, strings.TrimSpace(term))
			return ""
		}
		args := traefikArg.FindAllString(m[2], -1)
		for i, a := range args {
			if a[0] == '"' {
				args[i], _ = strconv.Unquote(a)
			} else {
				args[i] = a[1 : len(a)-1]
			}
		}
		switch m[1] {
		case "Host", "HostRegexp", "HostSNI":
			// The scenario's clients all reach the router's hosts.
		case "Path", "PathPrefix":
			paths++
			if len(args) != 1 {
				t.m.problemf(at, "router %s: %s with %d paths (Traefik v3 takes one): the first is the endpoint", router, m[1], len(args))
			}
			if len(args) == 0 {
				continue
			}
			if paths > 1 {
				t.m.problemf(at, "router %s: rule has more than one path matcher: the first is the endpoint", router)
				continue
			}
			endpoint = args[0]
			if m[1] == "PathPrefix" {
				if endpoint == "/" {
					endpoint = ""
					continue
				}
				t.m.problemf(at, "router %s: PathPrefix(`%s`) matches every path under it; rlsim's endpoint is exact: clients must name %s", router, args[0], args[0])
			}
		default:
			t.m.problemf(at, "router %s: the rule's %s matcher narrows which requests the limits count; rlsim counts every request to the endpoint", router, m[1])
		}
	}
	return endpoint
}

// splitAnd splits a rule at its top-level &&, refusing ||, ! and
// parentheses outside matcher arguments.
func splitAnd(rule string) ([]string, bool) {
	var terms []string
	depth, start := 0, 0
	for i := 0; i < len(rule); i++ {
		switch c := rule[i]; c {
		case '`':
			j := strings.IndexByte(rule[i+1:], '`')
			if j < 0 {
				return nil, false
			}
			i += j + 1
		case '"':
			j := i + 1
			for j < len(rule) && rule[j] != '"' {
				if rule[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(rule) {
				return nil, false
			}
			i = j
		case '(':
			depth++
			if depth > 1 || !precededByName(rule, i) {
				return nil, false
			}
		case ')':
			depth--
			if depth < 0 {
				return nil, false
			}
		case '|', '!':
			return nil, false
		case '&':
			if depth == 0 {
				if i+1 >= len(rule) || rule[i+1] != '&' {
					return nil, false
				}
				terms = append(terms, rule[start:i])
				i++
				start = i + 1
			}
		}
	}
	if depth != 0 {
		return nil, false
	}
	return append(terms, rule[start:]), true
}

func precededByName(s string, i int) bool {
	return i > 0 && (s[i-1] >= 'A' && s[i-1] <= 'Z' || s[i-1] >= 'a' && s[i-1] <= 'z')
}

// lane is the one traefik lane: its section is the first limit's
// rateLimit, in Traefik's words; the chain's other limits are translated
// by docs/products.md's rule (average = limit, period = window, burst).
func (t *traefikReader) lane() {
	first := t.m.Limits[0]
	var at []Origin
	for _, l := range t.m.Limits {
		at = append(at, l.At[0])
	}
	note := "Traefik 3.7.9 RateLimit: an x/time/rate reservation per source, waiting up to maxDelay, else 429 with Retry-After"
	if len(t.m.Limits) > 1 {
		note += "; the section is the first limit's, the others are read as average = limit, period = window"
	}
	t.m.Lanes = append(t.m.Lanes, Lane{
		Name: "traefik", Algorithm: "traefik",
		Section: Fields{{"average", first.Limit}, {"period", first.Window}, {"burst", first.Burst}},
		At:      dedupOrigins(at), Note: note,
	})
}

func dedupOrigins(at []Origin) []Origin {
	var out []Origin
	seen := map[Origin]bool{}
	for _, o := range at {
		if !seen[o] {
			seen[o] = true
			out = append(out, o)
		}
	}
	return out
}

// maxStatedWindow is the longest window a scenario states (100 years).
const maxStatedWindow = 876000 * time.Hour

// maxStatedLimit is the largest limit or burst a scenario's lanes hold
// (the sliding log's bound, algorithms/slidinglog.go).
const maxStatedLimit = 1 << 30

// unstatable says why a scenario cannot state l, or "": a limit or burst
// above 2^30, a window above 100 years, or a rate above one request every
// 2 ns (the example clients send half again as fast, and no arrival is
// faster than one a nanosecond).
func unstatable(l Limit) string {
	switch {
	case l.Limit < 1 || l.Limit > maxStatedLimit:
		return fmt.Sprintf("limit %d is outside 1 to 2^30", l.Limit)
	case l.Burst > maxStatedLimit:
		return fmt.Sprintf("burst %d is above 2^30", l.Burst)
	case l.Window <= 0 || l.Window > maxStatedWindow:
		return fmt.Sprintf("window %s is outside 1ns to 100 years", formatDuration(l.Window))
	case int64(l.Window) < 2*l.Limit:
		return fmt.Sprintf("%d per %s is faster than one request every 2ns", l.Limit, formatDuration(l.Window))
	}
	return ""
}
