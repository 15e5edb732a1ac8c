package importer

// Kong's declarative config (deck / DB-less kong.yml, _format_version
// "3.0"): services with their routes, consumers, and the rate-limiting and
// rate-limiting-advanced plugins at the top level or nested under a
// service, route or consumer. The rules:
//
//   - rate-limiting, Kong 3.9.3 kong/plugins/rate-limiting/schema.lua:
//     config.second … config.year (numbers above 0, at least one, a longer
//     period's limit not below a shorter one's), limit_by (consumer,
//     credential, ip, service, header with header_name, path with path;
//     default consumer), policy (local, cluster, redis; default local),
//     fault_tolerant (default true), hide_client_headers (default false),
//     error_code (default 429), error_message, sync_rate (default -1; other
//     values only with redis, at least 0.02).
//   - handler.lua get_identifier: consumer falls back to the credential,
//     then, as every limit_by does when its value is missing, to the
//     client's forwarded IP; path counts requests to config.path in one
//     counter and every other request by IP. get_usage checks every
//     configured period and refuses when one is used up; the increment
//     comes after (a refused request is not counted, except by the redis
//     policy's INCR in usage, policies/init.lua).
//   - policies/init.lua get_local_key: the counter key holds the plugin's
//     route_id and service_id, so a service's plugin keeps one counter per
//     identifier for all the service's routes.
//   - Kong's plugin precedence (docs "Plugin precedence"): one instance of a
//     plugin runs per request, the most specific (route over service over
//     global; a consumer's over those).
//   - rate-limiting-advanced (Kong Enterprise, its documentation at
//     developer.konghq.com/plugins/rate-limiting-advanced; its source is not
//     public): config.limit[] and config.window_size[] (seconds) pairwise,
//     window_type sliding (default) or fixed, identifier (consumer default,
//     ip, credential, service, header, path, consumer-group), strategy
//     (local, cluster, redis), sync_rate (-1 node memory only, 0
//     synchronous, N seconds between syncs), disable_penalty (default
//     false: refused requests count).
//
// Topology: policy local is state local (each node counts alone); cluster,
// and redis with sync_rate -1, are state shared (one count in the store);
// sync_rate N > 0 is state synced every N seconds; fault_tolerant true (the
// default) is on_store_error open, false closed.

import (
	"cmp"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

func init() {
	register(product{name: "kong", detect: detectKong, read: readKong})
}

var kongFormatVersion = regexp.MustCompile(`(?m)^_format_version\s*:`)

// detectKong: a declarative config names its format version first thing.
func detectKong(_ string, data []byte) bool {
	return kongFormatVersion.Match(data) || containsAny(data, `"_format_version"`)
}

type kongService struct {
	name   string
	node   *yaml.Node
	routes []*kongRoute
}

type kongRoute struct {
	name    string
	node    *yaml.Node
	paths   []string
	service *kongService
}

type kongPlugin struct {
	name     string // rate-limiting or rate-limiting-advanced
	node     *yaml.Node
	config   *yaml.Node
	service  *kongService
	route    *kongRoute
	consumer string
	label    string
}

type kongReader struct {
	f        *nodeFile
	m        *Model
	services []*kongService
	byName   map[string]*kongService
	routes   []*kongRoute
	plugins  []*kongPlugin

	rl, rla   []kongLimitSet // the limits each plugin made
	prefixed  map[*kongRoute]bool
	consumers int
}

// kongLimitSet is one plugin's limits with what its lane needs.
type kongLimitSet struct {
	p        *kongPlugin
	limits   []Limit
	periods  Fields // rate-limiting: its periods, second to year, as configured
	policy   string
	status   int64
	window   string // rate-limiting-advanced: window_type
	penalty  bool   // rate-limiting-advanced: !disable_penalty
	monthly  bool
	statusAt Origin
}

func readKong(src Source) (*Model, error) {
	root, err := readYAMLNode("kong", src.Path, src.Data)
	if err != nil {
		return nil, err
	}
	m := &Model{}
	f := &nodeFile{name: src.Path, m: m}
	if root.Kind != yaml.MappingNode {
		return nil, &SyntaxError{Product: "kong", Problems: []Problem{{At: f.at(root), Message: "a Kong declarative config is a YAML mapping"}}}
	}
	r := &kongReader{f: f, m: m, byName: map[string]*kongService{}, prefixed: map[*kongRoute]bool{}}
	v := f.str(f.get(root, "_format_version"))
	switch v {
	case "3.0", "2.1", "1.1":
	case "":
		m.problemf(f.at(root), "no _format_version: Kong refuses a declarative config without one")
	default:
		m.problemf(f.at(f.get(root, "_format_version")), "_format_version %q: rlsim reads Kong's 3.0 format", v)
	}
	r.collect(root)
	r.precedence()
	for _, p := range r.plugins {
		switch p.name {
		case "rate-limiting":
			r.rateLimiting(p)
		case "rate-limiting-advanced":
			r.advanced(p)
		}
	}
	r.finish()
	return m, nil
}

// collect reads services, routes, consumers and every plugin, with the
// entity each plugin is nested under or names.
func (r *kongReader) collect(root *yaml.Node) {
	f := r.f
	for _, s := range f.items(f.get(root, "services")) {
		svc := &kongService{name: cmp.Or(f.str(f.get(s, "name")), f.str(f.get(s, "id")), fmt.Sprintf("service@%d", s.Line)), node: s}
		r.services = append(r.services, svc)
		r.byName[svc.name] = svc
		if id := f.str(f.get(s, "id")); id != "" {
			r.byName[id] = svc
		}
		for _, rt := range f.items(f.get(s, "routes")) {
			route := r.route(rt, svc)
			r.nestedPlugins(rt, &kongPlugin{route: route, service: svc})
		}
		r.nestedPlugins(s, &kongPlugin{service: svc})
	}
	for _, rt := range f.items(f.get(root, "routes")) {
		var svc *kongService
		if ref := r.ref(f.get(rt, "service")); ref != "" {
			if svc = r.byName[ref]; svc == nil {
				r.m.problemf(f.at(rt), "route's service %q is not in this file", ref)
			}
		}
		route := r.route(rt, svc)
		r.nestedPlugins(rt, &kongPlugin{route: route, service: svc})
	}
	for _, c := range f.items(f.get(root, "consumers")) {
		r.consumers++
		name := cmp.Or(f.str(f.get(c, "username")), f.str(f.get(c, "custom_id")), f.str(f.get(c, "id")))
		r.nestedPlugins(c, &kongPlugin{consumer: name})
	}
	for _, g := range f.items(f.get(root, "consumer_groups")) {
		for _, p := range f.items(f.get(g, "plugins")) {
			if n := f.str(f.get(p, "name")); strings.HasPrefix(n, "rate-limiting") {
				r.m.problemf(f.at(p), "a %s plugin of consumer group %q: rlsim cannot scope a limit to one group of users; not imported", n, f.str(f.get(g, "name")))
			}
		}
	}
	for _, p := range f.items(f.get(root, "plugins")) {
		scope := &kongPlugin{}
		if ref := r.ref(f.get(p, "service")); ref != "" {
			if scope.service = r.byName[ref]; scope.service == nil {
				r.m.problemf(f.at(p), "plugin's service %q is not in this file: taken as global", ref)
			}
		}
		if ref := r.ref(f.get(p, "route")); ref != "" {
			for _, rt := range r.routes {
				if rt.name == ref || f.str(f.get(rt.node, "id")) == ref {
					scope.route = rt
				}
			}
			if scope.route == nil {
				r.m.problemf(f.at(p), "plugin's route %q is not in this file: taken as global", ref)
			}
		}
		scope.consumer = r.ref(f.get(p, "consumer"))
		r.plugin(p, scope)
	}
}

// ref is an entity reference as declarative configs write it: a name or id,
// or a mapping with one.
func (r *kongReader) ref(n *yaml.Node) string {
	f := r.f
	if n == nil {
		return ""
	}
	if n.Kind == yaml.ScalarNode {
		return f.str(n)
	}
	return cmp.Or(f.str(f.get(n, "name")), f.str(f.get(n, "id")), f.str(f.get(n, "username")))
}

func (r *kongReader) route(rt *yaml.Node, svc *kongService) *kongRoute {
	f := r.f
	route := &kongRoute{name: cmp.Or(f.str(f.get(rt, "name")), f.str(f.get(rt, "id")), fmt.Sprintf("route@%d", rt.Line)), node: rt,
		paths: f.strs(f.get(rt, "paths")), service: svc}
	r.routes = append(r.routes, route)
	if svc != nil {
		svc.routes = append(svc.routes, route)
	}
	return route
}

func (r *kongReader) nestedPlugins(entity *yaml.Node, scope *kongPlugin) {
	for _, p := range r.f.items(r.f.get(entity, "plugins")) {
		s := *scope
		r.plugin(p, &s)
	}
}

// plugin records a rate limiting plugin; other plugins are not rlsim's.
func (r *kongReader) plugin(p *yaml.Node, scope *kongPlugin) {
	f := r.f
	name := f.str(f.get(p, "name"))
	if name != "rate-limiting" && name != "rate-limiting-advanced" {
		return
	}
	scope.name, scope.node, scope.config = name, p, f.get(p, "config")
	switch {
	case scope.consumer != "":
		scope.label = "consumer " + scope.consumer
	case scope.route != nil:
		scope.label = scope.route.name
	case scope.service != nil:
		scope.label = scope.service.name
	default:
		scope.label = "global"
	}
	if in := f.str(f.get(p, "instance_name")); in != "" {
		scope.label = in
	}
	if !f.boolean(f.get(p, "enabled"), "enabled", true) {
		r.m.Notes = append(r.m.Notes, fmt.Sprintf("The %s plugin at %s is disabled (enabled: false): not imported.", name, f.at(p)))
		return
	}
	for _, q := range r.plugins {
		if q.name == name && q.service == scope.service && q.route == scope.route && q.consumer == scope.consumer {
			r.m.problemf(f.at(p), "a second %s plugin on %s (the first at line %d): Kong accepts one per entity", name, scope.label, q.node.Line)
			return
		}
	}
	r.plugins = append(r.plugins, scope)
}

// precedence reports a global plugin that coexists with more specific ones
// of the same name: Kong runs only the most specific per request.
func (r *kongReader) precedence() {
	for _, p := range r.plugins {
		if p.service != nil || p.route != nil || p.consumer != "" {
			continue
		}
		var over []string
		for _, q := range r.plugins {
			if q.name == p.name && q != p && q.consumer == "" {
				over = append(over, q.label)
			}
		}
		if len(over) > 0 {
			r.m.problemf(r.f.at(p.node), "Kong runs one %s plugin per request, the most specific: requests to %s are counted by their own plugin alone, but rlsim's global limits count them too",
				p.name, strings.Join(over, ", "))
		}
	}
}

// endpoints are the endpoints a plugin's limits count: every request for a
// global plugin, else each path of its route, or of its service's routes
// that have no plugin of the same name of their own (one limit per path).
func (r *kongReader) endpoints(p *kongPlugin) []string {
	f, m := r.f, r.m
	var routes []*kongRoute
	switch {
	case p.route != nil:
		routes = []*kongRoute{p.route}
	case p.service != nil:
		for _, rt := range p.service.routes {
			if !slices.ContainsFunc(r.plugins, func(q *kongPlugin) bool { return q.name == p.name && q.route == rt && q.consumer == "" }) {
				routes = append(routes, rt)
			}
		}
		if len(routes) == 0 {
			m.problemf(f.at(p.node), "%s plugin of service %s: every route of the service has its own, so Kong never runs this one", p.name, p.service.name)
			return nil
		}
	default:
		return []string{""}
	}
	var eps, names []string
	for _, rt := range routes {
		if len(rt.paths) == 0 {
			m.problemf(f.at(rt.node), "route %s matches by hosts, methods or headers, not by path: its limits count every request here", rt.name)
			if !slices.Contains(eps, "") {
				eps, names = append(eps, ""), append(names, "every path (route "+rt.name+")")
			}
			continue
		}
		for _, path := range rt.paths {
			ep := path
			if strings.HasPrefix(path, "~") {
				ep = strings.TrimPrefix(path, "~")
				m.problemf(f.at(rt.node), "route %s matches the regex %s: rlsim's endpoint is one exact path, named %s here", rt.name, ep, ep)
			} else if !r.prefixed[rt] {
				r.prefixed[rt] = true
				m.problemf(f.at(rt.node), "route %s matches %s by prefix (Kong's paths are prefixes); rlsim's endpoint is exact: clients must name %s", rt.name, path, path)
			}
			if !slices.Contains(eps, ep) {
				eps, names = append(eps, ep), append(names, ep)
			}
		}
	}
	if len(eps) > 1 {
		m.problemf(f.at(p.node), "%s plugin of %s: Kong keeps one counter per identifier for its %d paths (%s); rlsim counts each path alone, so a client spreading over them gets up to %d times the limit",
			p.name, p.label, len(eps), strings.Join(names, ", "), len(eps))
	}
	return eps
}

// key maps limit_by (or identifier) onto rlsim's key, and limit_by path's
// one path onto the limit's endpoint.
func (r *kongReader) key(p *kongPlugin, by string, byNode *yaml.Node) (key, path string) {
	f, m, cfg := r.f, r.m, p.config
	at := f.at(cmp.Or(byNode, p.node))
	switch by {
	case "", "consumer", "credential":
		// get_identifier falls back to the forwarded IP when no consumer
		// (credential) is identified: with no consumers in the config, always.
		if r.consumers == 0 {
			return "ip", ""
		}
		if by == "credential" {
			return "api_key", ""
		}
		return "user", ""
	case "ip":
		return "ip", ""
	case "service":
		if p.service == nil && p.route == nil {
			m.problemf(at, "limit_by service on a global plugin counts each service apart: rlsim counts each endpoint apart (the same when every service has one path)")
			return "endpoint", ""
		}
		return "global", ""
	case "header":
		h := f.str(f.get(cfg, "header_name"))
		k, exact := gatewayHeaderKind(h)
		if h == "" {
			m.problemf(at, "limit_by header without header_name: Kong rejects the plugin")
		} else if !exact {
			m.problemf(at, "limit_by header %s, which rlsim has no key for: counted by %s here", h, k)
		}
		return k, ""
	case "path":
		path := f.str(f.get(cfg, "path"))
		if path == "" {
			m.problemf(at, "limit_by path without path: Kong rejects the plugin")
			return "global", ""
		}
		m.problemf(at, "limit_by path counts requests to %s in one counter, and every other request by client IP (handler.lua get_identifier); rlsim imports the first alone", path)
		return "global", path
	case "consumer-group":
		m.problemf(at, "identifier consumer-group counts each consumer group apart: counted by tenant here")
		return "tenant", ""
	}
	m.problemf(at, "limit_by %q is not one of Kong's (consumer, credential, ip, service, header, path): counted by user", by)
	return "user", ""
}

// topology maps a policy (strategy) and sync_rate onto a limit's state.
func (r *kongReader) topology(p *kongPlugin, policy string, sync float64, hasSync bool, faultTolerant bool) (state string, every time.Duration, onErr string) {
	f, m, cfg := r.f, r.m, p.config
	switch policy {
	case "", "local":
		if hasSync && sync != -1 && p.name == "rate-limiting" {
			m.problemf(f.at(f.get(cfg, "sync_rate")), "sync_rate can only be used with the redis policy: Kong rejects the plugin")
		}
		return "local", 0, ""
	case "cluster", "redis":
	default:
		field := "policy"
		if p.name == "rate-limiting-advanced" {
			field = "strategy"
		}
		m.problemf(f.at(f.get(cfg, field)), "%s %q is not local, cluster or redis: taken as local", field, policy)
		return "local", 0, ""
	}
	onErr = "open"
	if !faultTolerant {
		onErr = "closed"
	}
	if p.name == "rate-limiting" && policy == "cluster" && hasSync && sync != -1 {
		m.problemf(f.at(f.get(cfg, "sync_rate")), "sync_rate can only be used with the redis policy: Kong rejects the plugin")
	}
	switch {
	case !hasSync || sync == -1 && p.name == "rate-limiting" || sync == 0 && p.name == "rate-limiting-advanced":
		return "shared", 0, onErr
	case sync == -1:
		return "local", 0, ""
	case sync < 0.02:
		m.problemf(f.at(f.get(cfg, "sync_rate")), "sync_rate %v: Kong wants at least 0.02 (or -1): taken as shared", sync)
		return "shared", 0, onErr
	}
	every = time.Duration(math.Round(sync*1000)) * time.Millisecond
	if !faultTolerant {
		m.problemf(f.at(f.get(cfg, "fault_tolerant")), "fault_tolerant false answers 500 when Redis fails; rlsim's synced limit decides locally while the store is down (on_store_error is a shared limit's)")
	}
	return "synced", every, ""
}

var kongPeriods = []struct {
	name   string
	window time.Duration
}{{"second", time.Second}, {"minute", time.Minute}, {"hour", time.Hour}, {"day", 24 * time.Hour}, {"month", 0}, {"year", 0}}

// rateLimiting imports one rate-limiting plugin: a limit per configured
// period (second to day) and endpoint.
func (r *kongReader) rateLimiting(p *kongPlugin) {
	f, m, cfg := r.f, r.m, p.config
	f.unknownKeys(cfg, "rate-limiting config", "second", "minute", "hour", "day", "month", "year", "limit_by", "header_name", "path",
		"policy", "fault_tolerant", "redis", "hide_client_headers", "error_code", "error_message", "sync_rate",
		"redis_host", "redis_port", "redis_password", "redis_username", "redis_ssl", "redis_ssl_verify", "redis_server_name", "redis_timeout", "redis_database")
	set := kongLimitSet{p: p, policy: cmp.Or(f.str(f.get(cfg, "policy")), "local"), status: 429, statusAt: f.at(p.node)}
	type period struct {
		name   string
		n      int64
		window time.Duration
		node   *yaml.Node
	}
	var ps []period
	for _, per := range kongPeriods {
		node := f.get(cfg, per.name)
		if node == nil {
			continue
		}
		v, ok := f.number(node, "config."+per.name)
		if !ok {
			continue
		}
		if v <= 0 {
			m.problemf(f.at(node), "config.%s %v: Kong wants a number above 0", per.name, v)
			continue
		}
		n := int64(v)
		if float64(n) != v {
			m.problemf(f.at(node), "config.%s %v: Kong compares usage with a fractional limit; rlsim's limits are whole requests: %d here", per.name, v, max(n, 1))
			n = max(n, 1)
		}
		if per.window != 0 && tooFastToRun(m, f.at(node), p.label+"/"+per.name, n, per.window) {
			continue
		}
		lower := slices.IndexFunc(ps, func(q period) bool { return n < q.n })
		if lower >= 0 {
			m.problemf(f.at(node), "the limit for %s (%d) cannot be lower than the limit for %s (%d): Kong rejects the plugin; %s not imported", per.name, n, ps[lower].name, ps[lower].n, per.name)
			continue
		}
		ps = append(ps, period{per.name, n, per.window, node})
		set.periods = append(set.periods, Field{per.name, n})
	}
	if len(ps) == 0 {
		m.problemf(f.at(p.node), "rate-limiting plugin of %s without second, minute, hour, day, month or year: Kong rejects it", p.label)
		return
	}
	if code, ok := f.count(f.get(cfg, "error_code"), "error_code"); ok {
		set.status, set.statusAt = code, f.at(f.get(cfg, "error_code"))
	}
	hidden := f.boolean(f.get(cfg, "hide_client_headers"), "hide_client_headers", false)
	byNode := f.get(cfg, "limit_by")
	key, path := r.key(p, f.str(byNode), byNode)
	sync, hasSync := f.number(f.get(cfg, "sync_rate"), "sync_rate")
	state, every, onErr := r.topology(p, set.policy, sync, hasSync, f.boolean(f.get(cfg, "fault_tolerant"), "fault_tolerant", true))
	if p.consumer != "" {
		m.problemf(f.at(p.node), "a rate-limiting plugin of consumer %s limits that consumer alone: rlsim cannot scope a limit to one user, so it counts every user by this limit", p.consumer)
	}
	eps := []string{path}
	if path == "" {
		eps = r.endpoints(p)
	}
	for _, ep := range eps {
		for _, per := range ps {
			if per.window == 0 {
				set.monthly = true
				continue
			}
			name := p.label + "/" + per.name
			if len(eps) > 1 {
				name = p.label + ep + "/" + per.name
			}
			set.limits = append(set.limits, Limit{Name: name, Key: key, Limit: per.n, Window: per.window, Endpoint: ep,
				State: state, SyncInterval: every, OnStoreError: onErr, NoHeaders: hidden,
				At:   []Origin{f.at(per.node), f.at(p.node)},
				Note: fmt.Sprintf("rate-limiting on %s: config.%s %d, limit_by %s, policy %s", p.label, per.name, per.n, cmp.Or(f.str(byNode), "consumer"), set.policy)})
		}
	}
	if set.monthly && len(set.limits) == 0 && len(eps) > 0 {
		m.problemf(f.at(p.node), "rate-limiting plugin of %s has only month or year: rlsim's kong lane needs a period of a day or shorter beside them; not imported", p.label)
	}
	r.rl = append(r.rl, set)
}

// advanced imports one rate-limiting-advanced plugin: a limit per
// (limit, window_size) pair and endpoint.
func (r *kongReader) advanced(p *kongPlugin) {
	f, m, cfg := r.f, r.m, p.config
	f.unknownKeys(cfg, "rate-limiting-advanced config", "limit", "window_size", "window_type", "identifier", "header_name", "path",
		"dictionary_name", "sync_rate", "namespace", "strategy", "redis", "hide_client_headers", "retry_after_jitter_max",
		"enforce_consumer_groups", "consumer_groups", "disable_penalty", "error_code", "error_message", "lock_dictionary_name", "compound_identifier")
	limits, windows := f.items(f.get(cfg, "limit")), f.items(f.get(cfg, "window_size"))
	if len(limits) == 0 || len(limits) != len(windows) {
		m.problemf(f.at(cmp.Or(cfg, p.node)), "rate-limiting-advanced of %s: config.limit (%d) and config.window_size (%d) must be lists of one length", p.label, len(limits), len(windows))
		return
	}
	set := kongLimitSet{p: p, policy: cmp.Or(f.str(f.get(cfg, "strategy")), "local"), status: 429, statusAt: f.at(p.node),
		window: cmp.Or(f.str(f.get(cfg, "window_type")), "sliding"), penalty: !f.boolean(f.get(cfg, "disable_penalty"), "disable_penalty", false)}
	if set.window != "sliding" && set.window != "fixed" {
		m.problemf(f.at(f.get(cfg, "window_type")), "window_type %q is not sliding or fixed: taken as sliding", set.window)
		set.window = "sliding"
	}
	if code, ok := f.count(f.get(cfg, "error_code"), "error_code"); ok {
		set.status, set.statusAt = code, f.at(f.get(cfg, "error_code"))
	}
	hidden := f.boolean(f.get(cfg, "hide_client_headers"), "hide_client_headers", false)
	if v, ok := f.number(f.get(cfg, "retry_after_jitter_max"), "retry_after_jitter_max"); ok && v > 0 {
		m.problemf(f.at(f.get(cfg, "retry_after_jitter_max")), "retry_after_jitter_max %v adds a random delay to Retry-After: rlsim's is exact", v)
	}
	if f.boolean(f.get(cfg, "enforce_consumer_groups"), "enforce_consumer_groups", false) {
		m.problemf(f.at(f.get(cfg, "enforce_consumer_groups")), "enforce_consumer_groups gives consumer groups their own limits: rlsim imports the plugin's own alone")
	}
	byNode := f.get(cfg, "identifier")
	key, path := r.key(p, f.str(byNode), byNode)
	sync, hasSync := f.number(f.get(cfg, "sync_rate"), "sync_rate")
	if set.policy != "local" && !hasSync {
		m.problemf(f.at(cfg), "strategy %s without sync_rate: Kong requires one; taken as 0 (synchronous)", set.policy)
	}
	// rate-limiting-advanced has no fault_tolerant: on_store_error stays the default, open.
	state, every, _ := r.topology(p, set.policy, sync, hasSync, true)
	if p.consumer != "" {
		m.problemf(f.at(p.node), "a rate-limiting-advanced plugin of consumer %s limits that consumer alone: rlsim cannot scope a limit to one user, so it counts every user by this limit", p.consumer)
	}
	eps := []string{path}
	if path == "" {
		eps = r.endpoints(p)
	}
	for _, ep := range eps {
		for i := range limits {
			n, ok1 := f.count(limits[i], fmt.Sprintf("config.limit[%d]", i))
			ws, ok2 := f.count(windows[i], fmt.Sprintf("config.window_size[%d]", i))
			if !ok1 || !ok2 {
				continue
			}
			if ws > 366*86400 {
				m.problemf(f.at(windows[i]), "config.window_size[%d] %d: more than a year of seconds, longer than rlsim's kong_advanced lane keeps: not imported", i, ws)
				continue
			}
			if tooFastToRun(m, f.at(limits[i]), p.label, n, wholeSeconds(ws)) {
				continue
			}
			name := fmt.Sprintf("%s/%ds", p.label, ws)
			if len(eps) > 1 {
				name = fmt.Sprintf("%s%s/%ds", p.label, ep, ws)
			}
			set.limits = append(set.limits, Limit{Name: name, Key: key, Limit: n, Window: wholeSeconds(ws), Endpoint: ep, NoHeaders: hidden,
				State: state, SyncInterval: every,
				At:   []Origin{f.at(limits[i]), f.at(p.node)},
				Note: fmt.Sprintf("rate-limiting-advanced on %s: limit %d per window_size %d, %s window, identifier %s, strategy %s", p.label, n, ws, set.window, cmp.Or(f.str(byNode), "consumer"), set.policy)})
		}
	}
	r.rla = append(r.rla, set)
}

// kongWindows are the windows the kong lane decides (schema.lua's second
// to day); month and year are calendar units of its section.
func kongWindow(d time.Duration) bool {
	return d == time.Second || d == time.Minute || d == time.Hour || d == 24*time.Hour
}

// finish writes the chain and the lanes: a kong lane for rate-limiting, a
// kong_advanced lane for rate-limiting-advanced.
func (r *kongReader) finish() {
	m, f := r.m, r.f
	for _, s := range append(slices.Clone(r.rl), r.rla...) {
		m.Limits = append(m.Limits, s.limits...)
	}
	if len(m.Limits) == 0 {
		return
	}
	kongOK := len(r.rl) > 0
	if kongOK {
		for _, l := range m.Limits {
			if !kongWindow(l.Window) {
				kongOK = false
				m.problemf(l.At[0], "window %s of %s is not a Kong rate-limiting period (second to day), so the kong lane cannot decide this chain: rate-limiting's limits are decided by the kong_advanced lane alone", formatDuration(l.Window), l.Name)
				break
			}
		}
	}
	both := len(r.rl) > 0 && len(r.rla) > 0
	if both && kongOK {
		m.problemf(f.at(r.rl[0].p.node), "the config uses both rate-limiting and rate-limiting-advanced: each lane decides every limit of the chain by its own plugin's rule (the kong lane the advanced plugin's limits too, and the reverse)")
	}
	if !kongOK {
		for _, s := range r.rl {
			if s.monthly {
				m.problemf(f.at(s.p.node), "config.month or config.year of %s: calendar periods are the kong lane's, and this chain has none: not imported", s.p.label)
			}
		}
	}
	if kongOK {
		lane := Lane{Name: "kong", Algorithm: "kong", At: r.rl[0].limitsAt(), Note: "Kong 3.9.3's rate-limiting plugin: fixed windows on the calendar, whole-second clock"}
		if pol := r.rl[0].policy; pol == "redis" {
			lane.Section = append(lane.Section, Field{"policy", "redis"})
		}
		for _, s := range r.rl[1:] {
			if (s.policy == "redis") != (r.rl[0].policy == "redis") {
				m.problemf(f.at(s.p.node), "policy %s here, %s at %s: the kong lane counts refused requests (redis) or not for every limit alike", s.policy, r.rl[0].policy, f.at(r.rl[0].p.node))
			}
		}
		monthly := slices.ContainsFunc(r.rl, func(s kongLimitSet) bool { return s.monthly })
		if monthly {
			same := !both
			for _, s := range r.rl[1:] {
				same = same && slices.Equal(s.periods, r.rl[0].periods)
			}
			if same {
				lane.Section = append(r.rl[0].periods, lane.Section...)
			} else {
				for _, s := range r.rl {
					if s.monthly {
						m.problemf(f.at(s.p.node), "config.month or config.year of %s: the kong lane's section gives every limit the same calendar periods, and this chain's plugins differ; not imported", s.p.label)
					}
				}
			}
		}
		lane.Options = r.status(r.rl)
		m.Lanes = append(m.Lanes, lane)
	}
	if len(r.rla) > 0 {
		first := r.rla[0]
		lane := Lane{Name: "kong-advanced", Algorithm: "kong_advanced", At: first.limitsAt(), Note: "Kong Enterprise's rate-limiting-advanced plugin, from its documentation"}
		for _, s := range r.rla[1:] {
			if s.window != first.window || s.penalty != first.penalty {
				m.problemf(f.at(s.p.node), "window_type %s, disable_penalty %v here but %s, %v at %s: the kong_advanced lane decides every limit alike", s.window, !s.penalty, first.window, !first.penalty, f.at(first.p.node))
			}
		}
		lane.Section = Fields{{"window_type", first.window}}
		if !first.penalty {
			lane.Section = append(lane.Section, Field{"disable_penalty", true})
		}
		decided := r.rla
		if !kongOK {
			decided = append(slices.Clone(r.rla), r.rl...)
		}
		lane.Options = r.status(decided)
		m.Lanes = append(m.Lanes, lane)
	}
	m.Notes = append(m.Notes, "Kong declarative config: the rate limiting plugins of its services, routes and consumers; where each counter lives is the topology (policy local: state local, each node counts alone; cluster and redis: shared; sync_rate N: synced every N seconds).")
}

func (s kongLimitSet) limitsAt() []Origin {
	if len(s.limits) > 0 {
		return s.limits[0].At[1:]
	}
	return []Origin{s.statusAt}
}

// status is a lane's status option from its plugins' error_code (one for
// all; a difference is a problem).
func (r *kongReader) status(sets []kongLimitSet) Fields {
	code := sets[0].status
	for _, s := range sets[1:] {
		if s.status != code {
			r.m.problemf(s.statusAt, "error_code %d here, %d at %s: rlsim's lane answers every refusal with one status (%d)", s.status, code, sets[0].statusAt, code)
		}
	}
	if code == 429 {
		return nil
	}
	if code < 400 || code > 599 {
		r.m.problemf(sets[0].statusAt, "error_code %d: rlsim's refusals answer 400 to 599: 429 here", code)
		return nil
	}
	return Fields{{"status", code}}
}
