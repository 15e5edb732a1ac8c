package importer

// Envoy's HTTP local rate limit filter (envoy.filters.http.local_ratelimit),
// read from a bootstrap's static_resources or a listener, its per-route and
// per-virtual-host typed_per_filter_config included. The rules, from Envoy's
// source as read at 1.36 (VERSION.txt 1.36.6):
//
//   - api/envoy/extensions/filters/http/local_ratelimit/v3/local_rate_limit.proto:
//     the fields (stat_prefix, status, token_bucket, filter_enabled,
//     filter_enforced, descriptors, stage, local_rate_limit_per_downstream_connection,
//     always_consume_default_token_bucket, rate_limits, vh_rate_limits,
//     max_dynamic_descriptors); the per-route config replaces the filter's
//     for that route ("the bucket becomes unique to that route").
//   - source/extensions/filters/http/local_ratelimit/filter_config.cc:
//     filter_enabled and filter_enforced default to 0% (an unset
//     filter_enabled runs nothing, an unset filter_enforced only counts),
//     tokens_per_fill defaults to 1, always_consume_default_token_bucket to
//     true, max_dynamic_descriptors to 20; a per-route config without a
//     token bucket is rejected.
//   - source/extensions/filters/common/local_ratelimit/local_ratelimit_impl.cc
//     LocalRateLimiterImpl::requestAllowed: the request's matched descriptors
//     are sorted by fill rate (tokens_per_fill / fill_interval, ascending)
//     and each consumes a token in that order; the first without one refuses
//     and the tokens already taken stay taken (no roll back: the chain is
//     charge_until_refused). The default bucket is consumed last, when no
//     descriptor matched or always_consume_default_token_bucket is true.
//     The constructor rejects a fill_interval below 50ms.
//   - dynamic_descriptor.cc: a descriptor entry with an empty value matches
//     any value and makes a bucket per value, at most max_dynamic_descriptors
//     of them, the least recently used evicted (the lane option keys with
//     when_full: evict).
//   - The token bucket is continuous (AtomicTokenBucket) from Envoy 1.32
//     (PR #35207); 1.31 and earlier refilled stepwise on a timer.

import (
	"cmp"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

func init() {
	register(product{name: "envoy", detect: detectEnvoy, read: readEnvoy})
}

var (
	envoyServiceDomain      = regexp.MustCompile(`(?m)^domain\s*:`)
	envoyServiceDescriptors = regexp.MustCompile(`(?m)^descriptors\s*:`)
)

// detectEnvoy: the local rate limit filter's name or type, an HTTP
// connection manager in a bootstrap, or an envoyproxy/ratelimit config (a
// top-level domain and descriptors).
func detectEnvoy(_ string, data []byte) bool {
	if containsAny(data, "envoy.filters.http.local_ratelimit", "local_ratelimit.v3.LocalRateLimit") {
		return true
	}
	if containsAny(data, "static_resources:") && containsAny(data, "http_connection_manager") {
		return true
	}
	return envoyServiceDomain.Match(data) && envoyServiceDescriptors.Match(data)
}

func readEnvoy(src Source) (*Model, error) {
	root, err := readYAMLNode("envoy", src.Path, src.Data)
	if err != nil {
		return nil, err
	}
	m := &Model{}
	f := &nodeFile{name: src.Path, m: m}
	if root.Kind != yaml.MappingNode {
		return nil, &SyntaxError{Product: "envoy", Problems: []Problem{{At: f.at(root), Message: "an Envoy config is a YAML mapping"}}}
	}
	if f.get(root, "domain") != nil && f.get(root, "descriptors") != nil && f.get(root, "static_resources") == nil {
		readRateLimitService(f, root)
		return m, nil
	}
	r := &envoyReader{f: f, m: m}
	r.walk(root, 0)
	r.finish()
	return m, nil
}

// envoyReader collects the local rate limit buckets of every HTTP
// connection manager in the document.
type envoyReader struct {
	f        *nodeFile
	m        *Model
	hcms     int
	buckets  []envoyBucket
	statuses []envoyStatus
	dynamic  int64 // max_dynamic_descriptors of configs with wildcard descriptors (0: none)
	perConn  bool
	global   bool // a global rate limit filter was seen
}

type envoyStatus struct {
	code int64
	at   Origin
}

// envoyBucket is one token bucket, a limit of the chain.
type envoyBucket struct {
	Limit
	rate float64 // tokens_per_fill / fill_interval in seconds, Envoy's fillRate()
}

// envoyRoute is one route of a route_config, with what decides which local
// rate limit config and descriptors apply to it.
type envoyRoute struct {
	node       *yaml.Node
	vhost      *yaml.Node
	endpoint   string // "" for a catch-all prefix "/"
	name       string // for messages: the match as written
	tpfc       *yaml.Node
	vhTpfc     *yaml.Node
	rateLimits []*yaml.Node // route.rate_limits
	vhLimits   []*yaml.Node // the virtual host's rate_limits
	cluster    string
}

// walk finds every mapping with http_filters (an HTTP connection manager's
// typed_config), wherever the document nests it.
func (r *envoyReader) walk(n *yaml.Node, depth int) {
	n = r.f.deref(n)
	if n == nil || depth > 64 {
		return
	}
	switch n.Kind {
	case yaml.MappingNode:
		if hf := r.f.get(n, "http_filters"); hf != nil && hf.Kind == yaml.SequenceNode {
			r.hcm(n)
			return
		}
		for _, kv := range r.f.pairs(n) {
			r.walk(kv[1], depth+1)
		}
	case yaml.SequenceNode:
		for _, it := range r.f.items(n) {
			r.walk(it, depth+1)
		}
	}
}

func (r *envoyReader) hcm(hcm *yaml.Node) {
	f := r.f
	r.hcms++
	routes := r.routes(hcm)
	for _, filter := range f.items(f.get(hcm, "http_filters")) {
		name := f.str(f.get(filter, "name"))
		tc := f.get(filter, "typed_config")
		typ := f.str(f.get(tc, "@type"))
		switch {
		case name == "envoy.filters.http.local_ratelimit" || strings.HasSuffix(typ, "envoy.extensions.filters.http.local_ratelimit.v3.LocalRateLimit"):
			if f.boolean(f.get(filter, "disabled"), "disabled", false) {
				r.m.problemf(f.at(filter), "the local rate limit filter %s is disabled unless a route enables it; rlsim imports its configs as written", name)
			}
			r.filter(name, tc, routes)
		case name == "envoy.filters.http.ratelimit" || strings.HasSuffix(typ, "envoy.extensions.filters.http.ratelimit.v3.RateLimit"):
			r.global = true
			r.m.problemf(f.at(filter), "the global rate limit filter asks the ratelimit service (domain %q) for each request: its limits are in the service's config; import that file (envoyproxy/ratelimit's YAML) for them",
				f.str(f.get(tc, "domain")))
		}
	}
}

// routes lists the route_config's routes, each with its endpoint.
func (r *envoyReader) routes(hcm *yaml.Node) []*envoyRoute {
	f := r.f
	rc := f.get(hcm, "route_config")
	if rc == nil {
		if rds := f.get(hcm, "rds"); rds != nil {
			r.m.problemf(f.at(rds), "the routes come from RDS (%s): rlsim reads only an inline route_config, so per-route limits are not imported", f.str(f.get(rds, "route_config_name")))
		}
		return nil
	}
	var out []*envoyRoute
	vhosts := f.items(f.get(rc, "virtual_hosts"))
	if len(vhosts) > 1 {
		r.m.problemf(f.at(rc), "%d virtual hosts: rlsim has no host in a request, so their routes are told apart by path alone", len(vhosts))
	}
	for _, vh := range vhosts {
		for _, rt := range f.items(f.get(vh, "routes")) {
			er := &envoyRoute{node: rt, vhost: vh, tpfc: f.get(rt, "typed_per_filter_config"), vhTpfc: f.get(vh, "typed_per_filter_config"),
				vhLimits: f.items(f.get(vh, "rate_limits"))}
			action := f.get(rt, "route")
			er.rateLimits = f.items(f.get(action, "rate_limits"))
			er.cluster = f.str(f.get(action, "cluster"))
			r.routeMatch(er, f.get(rt, "match"))
			out = append(out, er)
		}
	}
	return out
}

// routeMatch sets a route's endpoint from its match: path is exact, as
// rlsim's endpoint is; a prefix is taken as that path alone (a Problem),
// "/" as every request.
func (r *envoyReader) routeMatch(er *envoyRoute, match *yaml.Node) {
	f := r.f
	switch {
	case f.get(match, "path") != nil:
		er.endpoint = f.str(f.get(match, "path"))
		er.name = "path " + er.endpoint
	case f.get(match, "prefix") != nil || f.get(match, "path_separated_prefix") != nil:
		p := cmp.Or(f.str(f.get(match, "prefix")), f.str(f.get(match, "path_separated_prefix")))
		er.name = "prefix " + p
		if p == "/" || p == "" {
			er.endpoint = ""
			break
		}
		er.endpoint = p
	case f.get(match, "safe_regex") != nil:
		re := f.str(f.get(f.get(match, "safe_regex"), "regex"))
		er.endpoint, er.name = re, "safe_regex "+re
		r.m.problemf(f.at(match), "route matches the regex %q: rlsim's endpoint is one exact path, named %s here", re, re)
	default:
		er.name = "a match rlsim cannot read"
		r.m.problemf(f.at(match), "route match without path, prefix or safe_regex: taken as every request")
	}
	if hs := f.items(f.get(match, "headers")); len(hs) > 0 {
		r.m.problemf(f.at(match), "route %s also matches %d request headers: rlsim's endpoint is the path alone", er.name, len(hs))
	}
	if qs := f.items(f.get(match, "query_parameters")); len(qs) > 0 {
		r.m.problemf(f.at(match), "route %s also matches query parameters: rlsim's endpoint is the path alone", er.name)
	}
}

// perFilter is the local rate limit config a typed_per_filter_config gives
// the filter name, unwrapping envoy.config.route.v3.FilterConfig;
// disabled reports a FilterConfig that turns the filter off.
func (r *envoyReader) perFilter(tpfc *yaml.Node, name string) (cfg *yaml.Node, disabled bool) {
	f := r.f
	v := f.get(tpfc, name)
	if v == nil {
		return nil, false
	}
	if strings.HasSuffix(f.str(f.get(v, "@type")), "envoy.config.route.v3.FilterConfig") {
		if f.boolean(f.get(v, "disabled"), "disabled", false) {
			return nil, true
		}
		v = f.get(v, "config")
	}
	return v, false
}

// filter imports one local rate limit filter: the config each route runs
// (its own, else its virtual host's, else the filter's), each with its
// buckets.
func (r *envoyReader) filter(name string, top *yaml.Node, routes []*envoyRoute) {
	type use struct {
		cfg    *yaml.Node
		level  string
		routes []*envoyRoute
	}
	var uses []*use
	add := func(cfg *yaml.Node, level string, rt *envoyRoute) {
		for _, u := range uses {
			if u.cfg == cfg {
				if rt != nil {
					u.routes = append(u.routes, rt)
				}
				return
			}
		}
		u := &use{cfg: cfg, level: level}
		if rt != nil {
			u.routes = append(u.routes, rt)
		}
		uses = append(uses, u)
	}
	var applied []*envoyRoute // routes a local rate limit config runs on
	for _, rt := range routes {
		if cfg, off := r.perFilter(rt.tpfc, name); cfg != nil || off {
			if cfg != nil {
				add(cfg, "route", rt)
				applied = append(applied, rt)
			}
			continue
		}
		if cfg, off := r.perFilter(rt.vhTpfc, name); cfg != nil || off {
			if cfg != nil {
				add(cfg, "virtual host", rt)
				applied = append(applied, rt)
			}
			continue
		}
		if top != nil {
			add(top, "filter", rt)
			applied = append(applied, rt)
		}
	}
	if len(routes) == 0 && top != nil {
		add(top, "filter", nil)
	}
	slices.SortStableFunc(uses, func(a, b *use) int { return a.cfg.Line - b.cfg.Line })
	for _, u := range uses {
		r.config(name, u.cfg, u.level, u.routes, routes)
	}
}

// envoyHTTPStatus is envoy/type/v3/http_status.proto's StatusCode names, the
// 4xx and 5xx a rate limit answers with.
var envoyHTTPStatus = map[string]int64{
	"BadRequest": 400, "Unauthorized": 401, "PaymentRequired": 402, "Forbidden": 403, "NotFound": 404,
	"MethodNotAllowed": 405, "NotAcceptable": 406, "ProxyAuthenticationRequired": 407, "RequestTimeout": 408,
	"Conflict": 409, "Gone": 410, "LengthRequired": 411, "PreconditionFailed": 412, "PayloadTooLarge": 413,
	"URITooLong": 414, "UnsupportedMediaType": 415, "RangeNotSatisfiable": 416, "ExpectationFailed": 417,
	"MisdirectedRequest": 421, "UnprocessableEntity": 422, "Locked": 423, "FailedDependency": 424,
	"UpgradeRequired": 426, "PreconditionRequired": 428, "TooManyRequests": 429, "RequestHeaderFieldsTooLarge": 431,
	"InternalServerError": 500, "NotImplemented": 501, "BadGateway": 502, "ServiceUnavailable": 503,
	"GatewayTimeout": 504, "HTTPVersionNotSupported": 505, "VariantAlsoNegotiates": 506, "InsufficientStorage": 507,
	"LoopDetected": 508, "NotExtended": 510, "NetworkAuthenticationRequired": 511,
}

// percent reads a RuntimeFractionalPercent (or a bare FractionalPercent) as
// all (100%), none (0%, also when absent) or partial.
func (r *envoyReader) percent(n *yaml.Node, field string) (all, none bool) {
	f := r.f
	if n == nil {
		return false, true
	}
	dv := f.get(n, "default_value")
	if dv == nil {
		dv = n
	}
	num := int64(0)
	if v, ok := f.number(f.get(dv, "numerator"), field+".numerator"); ok {
		num = int64(v)
	}
	den := int64(100)
	switch d := f.str(f.get(dv, "denominator")); d {
	case "", "HUNDRED", "0":
	case "TEN_THOUSAND", "1":
		den = 10000
	case "MILLION", "2":
		den = 1000000
	default:
		r.m.problemf(f.at(dv), "%s.denominator: %q is not HUNDRED, TEN_THOUSAND or MILLION", field, d)
	}
	// A runtime_key may change it at run time; default_value is what a fresh Envoy runs.
	return num >= den, num <= 0
}

// config imports one LocalRateLimit config, which runs on routes (of all
// the connection manager's routes).
func (r *envoyReader) config(filterName string, cfg *yaml.Node, level string, routes, all []*envoyRoute) {
	f, m := r.f, r.m
	at := f.at(cfg)
	f.unknownKeys(cfg, "local rate limit", "@type", "stat_prefix", "status", "token_bucket", "filter_enabled", "filter_enforced",
		"request_headers_to_add_when_not_enforced", "response_headers_to_add", "descriptors", "stage",
		"local_rate_limit_per_downstream_connection", "enable_x_ratelimit_headers", "vh_rate_limits",
		"always_consume_default_token_bucket", "rate_limited_as_resource_exhausted", "rate_limits",
		"local_cluster_rate_limit", "max_dynamic_descriptors")
	prefix := cmp.Or(f.str(f.get(cfg, "stat_prefix")), filterName)
	where := level + " " + prefix
	if f.get(cfg, "token_bucket") == nil && len(f.items(f.get(cfg, "descriptors"))) == 0 {
		if level != "filter" {
			m.problemf(at, "%s has no token_bucket: Envoy rejects a per-route config without one (filter_config.cc)", where)
		}
		return // no bucket: the filter is installed here and limits on the routes' configs
	}
	dry, shadow := false, false
	if all, none := r.percent(f.get(cfg, "filter_enabled"), "filter_enabled"); none {
		dry = true
		m.problemf(at, "%s: filter_enabled is 0%% (its default when unset): Envoy runs none of its buckets; imported as shadow limits (enforce: false)", where)
	} else if !all {
		m.problemf(f.at(f.get(cfg, "filter_enabled")), "%s: filter_enabled runs the limit on a fraction of requests; rlsim's limit decides every request", where)
	}
	if !dry {
		if all, none := r.percent(f.get(cfg, "filter_enforced"), "filter_enforced"); none {
			dry, shadow = true, true
		} else if !all {
			m.problemf(f.at(f.get(cfg, "filter_enforced")), "%s: filter_enforced enforces a fraction of requests; rlsim's limit enforces every one", where)
		}
	}
	// local_rate_limit.proto: status defaults to 429, and below 400 is 429.
	status := envoyStatus{code: 429, at: at}
	if st := f.get(cfg, "status"); st != nil {
		c := f.str(f.get(st, "code"))
		code, ok := envoyHTTPStatus[c]
		if !ok {
			if n, err := strconv.ParseInt(c, 10, 64); err == nil && n >= 100 && n <= 599 {
				code, ok = n, true
			}
		}
		if !ok {
			m.problemf(f.at(st), "status.code %q is not an HTTP status rlsim knows: 429 here", c)
		} else if code >= 400 {
			status = envoyStatus{code: code, at: f.at(st)}
		}
	}
	perConn := f.boolean(f.get(cfg, "local_rate_limit_per_downstream_connection"), "local_rate_limit_per_downstream_connection", false)
	if perConn {
		r.perConn = true
		m.problemf(f.at(f.get(cfg, "local_rate_limit_per_downstream_connection")),
			"%s: local_rate_limit_per_downstream_connection gives each downstream connection its own buckets; rlsim's clients are one connection each, so a per-connection bucket is a per-client key (ip here): a client that opens several connections gets several buckets in Envoy", where)
	}
	if lc := f.get(cfg, "local_cluster_rate_limit"); lc != nil {
		m.problemf(f.at(lc), "%s: local_cluster_rate_limit divides each bucket's tokens among the local cluster's Envoys; rlsim's lane is one Envoy with the whole bucket", where)
	}
	always := f.boolean(f.get(cfg, "always_consume_default_token_bucket"), "always_consume_default_token_bucket", true)
	stage := int64(0)
	if v, ok := f.number(f.get(cfg, "stage"), "stage"); ok {
		stage = int64(v)
	}
	maxDyn := int64(20)
	if v, ok := f.count(f.get(cfg, "max_dynamic_descriptors"), "max_dynamic_descriptors"); ok {
		maxDyn = v
	}
	ep, epProblem := envoyEndpoint(routes, all)
	if epProblem != "" {
		m.problemf(at, "%s's buckets %s", where, epProblem)
	}

	var descs []envoyBucket
	dynamic := false
	for i, d := range f.items(f.get(cfg, "descriptors")) {
		b, ok, wild := r.descriptor(cfg, d, i, prefix, stage, routes, all, ep, perConn)
		if !ok {
			continue
		}
		dynamic = dynamic || wild
		b.DryRun = dry
		descs = append(descs, b)
	}
	if dynamic {
		r.dynamic = max(r.dynamic, maxDyn)
	}
	// LocalRateLimiterImpl::requestAllowed sorts the matched descriptors by
	// fillRate() with std::sort (ties in no set order; here config order).
	slices.SortStableFunc(descs, func(a, b envoyBucket) int { return cmp.Compare(a.rate, b.rate) })

	tb := f.get(cfg, "token_bucket")
	if tb == nil {
		if level != "filter" {
			m.problemf(at, "%s has no token_bucket: Envoy rejects a per-route config without one (filter_config.cc)", where)
		}
	} else if b, ok := r.bucket(tb, prefix, "token_bucket"); ok {
		b.Name = prefix
		b.Key = "global"
		if perConn {
			b.Key = "ip"
		}
		b.Endpoint = ep
		b.DryRun = dry
		b.At = []Origin{f.at(tb), at}
		b.Note = fmt.Sprintf("%s's default bucket, max_tokens %d, tokens_per_fill %d, fill_interval %s (%s)", prefix, b.Burst, b.Limit.Limit, formatDuration(b.Window), level+" config")
		if len(descs) > 0 && !always {
			m.problemf(f.at(f.get(cfg, "always_consume_default_token_bucket")),
				"%s: always_consume_default_token_bucket false: Envoy takes a token from the default bucket only for requests no descriptor matched; rlsim's limit %s counts every request", where, prefix)
		}
		descs = append(descs, b)
	}
	if len(descs) > 0 {
		r.statuses = append(r.statuses, status)
	}
	if shadow && len(descs) > 0 {
		m.Notes = append(m.Notes, fmt.Sprintf("%s is enabled but not enforced (filter_enforced 0%%, its default when unset): its limits are shadows (enforce: false), counted, never refusing.", where))
	}
	r.buckets = append(r.buckets, descs...)
}

// envoyEndpoint is the endpoint a bucket shared by routes (of all) counts:
// every request when the routes are all of them or a catch-all; the one
// route's path; else every request, with a problem naming the difference.
func envoyEndpoint(routes, all []*envoyRoute) (string, string) {
	if len(all) == 0 || len(routes) == len(all) {
		return "", ""
	}
	if len(routes) == 1 {
		rt := routes[0]
		if rt.endpoint == "" {
			return "", fmt.Sprintf("count requests to the catch-all route (%s) only, not those of the other %d routes (each with its own config or none); rlsim's limit counts every request", rt.name, len(all)-1)
		}
		if strings.HasPrefix(rt.name, "prefix ") {
			return rt.endpoint, fmt.Sprintf("count the route matching by %s: every path under it; rlsim's endpoint is exact, so clients must name %s", rt.name, rt.endpoint)
		}
		return rt.endpoint, ""
	}
	names := make([]string, len(routes))
	for i, rt := range routes {
		names[i] = rt.name
	}
	return "", fmt.Sprintf("are shared by %d routes (%s) and count none of the other %d; rlsim's limit counts every request", len(routes), strings.Join(names, ", "), len(all)-len(routes))
}

// bucket reads a token_bucket: max_tokens, tokens_per_fill (default 1),
// fill_interval (whole ms, at least 50ms).
func (r *envoyReader) bucket(tb *yaml.Node, name, field string) (envoyBucket, bool) {
	f := r.f
	maxTokens, ok1 := f.count(f.get(tb, "max_tokens"), field+".max_tokens")
	if f.get(tb, "max_tokens") == nil {
		r.m.problemf(f.at(tb), "%s: %s.max_tokens is required", name, field)
	}
	perFill := int64(1)
	if n := f.get(tb, "tokens_per_fill"); n != nil {
		if v, ok := f.count(n, field+".tokens_per_fill"); ok {
			perFill = v
		}
	}
	fill, ok2 := f.protoDuration(f.get(tb, "fill_interval"), field+".fill_interval")
	if f.get(tb, "fill_interval") == nil {
		r.m.problemf(f.at(tb), "%s: %s.fill_interval is required", name, field)
	}
	if !ok1 || !ok2 {
		return envoyBucket{}, false
	}
	if fill%time.Millisecond != 0 {
		r.m.problemf(f.at(f.get(tb, "fill_interval")), "%s: fill_interval %s is read in whole ms by Envoy: %s", name, fill, fill.Truncate(time.Millisecond))
		fill = fill.Truncate(time.Millisecond)
	}
	if fill < 50*time.Millisecond {
		r.m.problemf(f.at(f.get(tb, "fill_interval")), "%s: fill_interval %s: Envoy rejects a fill timer below 50ms; not imported", name, fill)
		return envoyBucket{}, false
	}
	if maxTokens > math.MaxUint32 || perFill > math.MaxUint32 {
		r.m.problemf(f.at(tb), "%s: max_tokens and tokens_per_fill are uint32 in Envoy's token_bucket: Envoy rejects %d", name, max(maxTokens, perFill))
		return envoyBucket{}, false
	}
	if tooFastToRun(r.m, f.at(tb), name, perFill, fill) {
		return envoyBucket{}, false
	}
	b := envoyBucket{rate: float64(perFill) / fill.Seconds()}
	b.Limit = Limit{Limit: perFill, Window: fill, Burst: maxTokens}
	return b, true
}

// envoyEntry is what one rate_limits action puts into a request's descriptor.
type envoyEntry struct {
	key      string
	constant bool   // the value is fixed by the config (generic_key, header_value_match, destination_cluster, …)
	value    string // that value ("" when unknown: source_cluster)
	kind     string // a variable value's key kind: ip, api_key, …
	exact    bool   // kind is the value's usual meaning
	what     string // for messages: the action as written
	cond     string // a condition the action adds (header_value_match), for a problem
}

// entries is what a rate_limits item's actions produce, or ok false when
// an action is one rlsim cannot read.
func (r *envoyReader) entries(rl *yaml.Node, rt *envoyRoute) ([]envoyEntry, bool) {
	f := r.f
	var out []envoyEntry
	for _, a := range f.items(f.get(rl, "actions")) {
		pairs := f.pairs(a)
		if len(pairs) != 1 {
			return nil, false
		}
		kind, v := pairs[0][0].Value, pairs[0][1]
		dk := f.str(f.get(v, "descriptor_key"))
		var e envoyEntry
		switch kind {
		case "remote_address":
			e = envoyEntry{key: "remote_address", kind: "ip", exact: true, what: "remote_address"}
		case "masked_remote_address":
			e = envoyEntry{key: "masked_remote_address", kind: "ip", what: "masked_remote_address (a bucket per masked subnet)"}
		case "request_headers":
			h := f.str(f.get(v, "header_name"))
			k, exact := gatewayHeaderKind(h)
			e = envoyEntry{key: dk, kind: k, exact: exact, what: "request header " + h}
		case "query_parameters":
			q := f.str(f.get(v, "query_parameter_name"))
			k, exact := gatewayHeaderKind(q)
			e = envoyEntry{key: dk, kind: k, exact: exact, what: "query parameter " + q}
		case "generic_key":
			e = envoyEntry{key: cmp.Or(dk, "generic_key"), constant: true, value: f.str(f.get(v, "descriptor_value")), what: "generic_key"}
		case "header_value_match":
			e = envoyEntry{key: cmp.Or(dk, "header_match"), constant: true, value: f.str(f.get(v, "descriptor_value")), what: "header_value_match",
				cond: fmt.Sprintf("requests whose headers match its %d header matchers", len(f.items(f.get(v, "headers"))))}
		case "query_parameter_value_match":
			e = envoyEntry{key: cmp.Or(dk, "query_match"), constant: true, value: f.str(f.get(v, "descriptor_value")), what: "query_parameter_value_match",
				cond: "requests whose query parameters match"}
		case "destination_cluster":
			e = envoyEntry{key: "destination_cluster", constant: true, value: rt.cluster, what: "destination_cluster"}
		case "source_cluster":
			e = envoyEntry{key: "source_cluster", constant: true, what: "source_cluster"}
		case "metadata", "dynamic_metadata":
			e = envoyEntry{key: dk, kind: "user", what: kind}
		default:
			return nil, false
		}
		out = append(out, e)
	}
	return out, len(out) > 0
}

// envoyMatch is a descriptor read through the action that produces it.
type envoyMatch struct {
	key      string
	endpoint string
	problems []string
	wildcard bool
}

// match reports whether the actions' entries produce descriptor d's
// (entries ents, as key and value), and what the bucket then counts by.
func matchEnvoyDescriptor(produced []envoyEntry, keys, values []string) (envoyMatch, bool) {
	if len(produced) != len(keys) {
		return envoyMatch{}, false
	}
	var mt envoyMatch
	var kinds []string
	for i, e := range produced {
		if e.key != keys[i] {
			return envoyMatch{}, false
		}
		v := values[i]
		if e.constant {
			if v != "" && e.value != "" && v != e.value {
				return envoyMatch{}, false
			}
			if e.cond != "" {
				mt.problems = append(mt.problems, fmt.Sprintf("counts only %s (%s); rlsim's limit counts every request", e.cond, e.what))
			}
			continue
		}
		if v == "" {
			mt.wildcard = true
			if e.kind == "endpoint" {
				kinds = append(kinds, "endpoint")
			} else {
				kinds = append(kinds, e.kind)
			}
			if !e.exact {
				mt.problems = append(mt.problems, fmt.Sprintf("counts by %s, which rlsim has no key for: counted by %s here", e.what, e.kind))
			}
			continue
		}
		if e.kind == "endpoint" {
			mt.endpoint = v
			continue
		}
		mt.problems = append(mt.problems, fmt.Sprintf("counts only requests whose %s is %q, in one bucket; rlsim cannot scope a limit to one value: it counts every request", e.what, v))
	}
	kinds = slices.Compact(kinds)
	switch len(kinds) {
	case 0:
		mt.key = "global"
	case 1:
		mt.key = kinds[0]
	default:
		mt.key = kinds[0]
		mt.problems = append(mt.problems, fmt.Sprintf("counts by %s together; rlsim's key is one kind: counted by %s alone", strings.Join(kinds, " and "), kinds[0]))
	}
	return mt, true
}

// descriptor imports one entry of descriptors: the routes whose rate_limits
// actions produce it (the config's own rate_limits, else each route's,
// with its virtual host's as vh_rate_limits says) decide its key and scope.
func (r *envoyReader) descriptor(cfg, d *yaml.Node, i int, prefix string, stage int64, routes, all []*envoyRoute, ep string, perConn bool) (envoyBucket, bool, bool) {
	f, m := r.f, r.m
	var keys, values, kv []string
	for _, e := range f.items(f.get(d, "entries")) {
		k, v := f.str(f.get(e, "key")), f.str(f.get(e, "value"))
		keys, values = append(keys, k), append(values, v)
		if v == "" {
			kv = append(kv, k)
		} else {
			kv = append(kv, k+"="+v)
		}
	}
	name := fmt.Sprintf("%s[%s]", prefix, strings.Join(kv, ","))
	if len(keys) == 0 {
		m.problemf(f.at(d), "%s descriptors[%d] has no entries: it matches no request", prefix, i)
		return envoyBucket{}, false, false
	}
	b, ok := r.bucket(f.get(d, "token_bucket"), name, fmt.Sprintf("descriptors[%d].token_bucket", i))
	if !ok {
		return envoyBucket{}, false, false
	}
	own := f.items(f.get(cfg, "rate_limits"))
	vhMode := f.str(f.get(cfg, "vh_rate_limits"))
	var matched []*envoyRoute
	var found *envoyMatch
	try := func(rls []*yaml.Node, rt *envoyRoute, checkStage bool) bool {
		for _, rl := range rls {
			if checkStage {
				st := int64(0)
				if v, ok := f.number(f.get(rl, "stage"), "stage"); ok {
					st = int64(v)
				}
				if st != stage {
					continue
				}
			}
			ents, ok := r.entries(rl, rt)
			if !ok {
				continue
			}
			if mt, ok := matchEnvoyDescriptor(ents, keys, values); ok {
				if found == nil {
					found = &mt
				}
				return true
			}
		}
		return false
	}
	if len(routes) == 0 {
		if try(own, &envoyRoute{}, false) {
			matched = append(matched, nil)
		}
	}
	for _, rt := range routes {
		var rls []*yaml.Node
		switch {
		case len(own) > 0:
			rls = own
		case vhMode == "INCLUDE":
			rls = append(slices.Clone(rt.rateLimits), rt.vhLimits...)
		case vhMode == "IGNORE":
			rls = rt.rateLimits
		default: // OVERRIDE: the virtual host's only when the route has none
			rls = rt.rateLimits
			if len(rls) == 0 {
				rls = rt.vhLimits
			}
		}
		if try(rls, rt, len(own) == 0) {
			matched = append(matched, rt)
		}
	}
	if found == nil {
		m.problemf(f.at(d), "%s: no rate_limits action on the routes it runs on produces this descriptor, so Envoy never charges it; not imported", name)
		return envoyBucket{}, false, false
	}
	b.Name, b.Key = name, found.key
	if perConn {
		b.Key = "ip"
	}
	b.Endpoint = ep
	if len(routes) > 0 && len(matched) == 1 && len(routes) > 1 {
		// Only one of the config's routes produces it: it counts that route's requests.
		e, p := envoyEndpoint(matched, all)
		b.Endpoint = e
		if p != "" {
			m.problemf(f.at(d), "%s: its routes %s", name, p)
		}
	}
	if found.endpoint != "" {
		b.Endpoint = found.endpoint
	}
	for _, p := range found.problems {
		m.problemf(f.at(d), "%s %s", name, p)
	}
	b.At = []Origin{f.at(d), f.at(cfg)}
	b.Note = fmt.Sprintf("descriptor %s: max_tokens %d, tokens_per_fill %d, fill_interval %s", strings.Join(kv, ", "), b.Burst, b.Limit.Limit, formatDuration(b.Window))
	return b, true, found.wildcard
}

// finish writes the chain and the one envoy_local lane.
func (r *envoyReader) finish() {
	m := r.m
	if r.hcms == 0 {
		m.problemf(Origin{File: r.f.name}, "no HTTP connection manager (http_filters) in this Envoy config")
	}
	seen := map[string]int{}
	for _, b := range r.buckets {
		l := b.Limit
		if n := seen[l.Name]; n > 0 {
			l.Name = fmt.Sprintf("%s#%d", l.Name, n+1)
		}
		seen[b.Name]++
		m.Limits = append(m.Limits, l)
	}
	if len(m.Limits) == 0 {
		return
	}
	if len(m.Limits) > 1 {
		m.Chain = "charge_until_refused"
	}
	first := m.Limits[0]
	lane := Lane{Name: "envoy", Algorithm: "envoy_local", At: first.At[:1],
		Note:    "Envoy's local rate limit token buckets, refilled continuously as Envoy 1.32 and later do (refill: stepwise for 1.31 and earlier)",
		Section: Fields{{"max_tokens", first.Burst}, {"tokens_per_fill", first.Limit}, {"fill_interval", first.Window}, {"refill", "continuous"}}}
	if len(r.statuses) > 0 {
		code := r.statuses[0].code
		for _, s := range r.statuses[1:] {
			if s.code != code {
				m.problemf(s.at, "refusals answer %d here but %d at %s: rlsim's lane answers every refusal with one status (%d)", s.code, code, r.statuses[0].at, code)
			}
		}
		if code != 429 {
			lane.Options = append(lane.Options, Field{"status", code})
		}
	}
	if r.dynamic > 0 && !r.perConn {
		lane.Options = append(lane.Options, Field{"keys", r.dynamic}, Field{"when_full", "evict"})
		lane.Note += fmt.Sprintf("; a wildcard descriptor holds at most %d values (max_dynamic_descriptors), the least recently used evicted", r.dynamic)
	}
	m.Lanes = append(m.Lanes, lane)
	m.Notes = append(m.Notes, "Envoy HTTP local rate limit (envoy.filters.http.local_ratelimit), as Envoy 1.36's source decides: each Envoy counts alone, descriptors by fill rate before the default bucket.")
	if len(m.Limits) > 1 {
		m.Notes = append(m.Notes, "chain: charge_until_refused, because Envoy takes each matched bucket's token in turn and does not give back the tokens of the buckets before the one that refuses (local_ratelimit_impl.cc requestAllowed).")
	}
}
