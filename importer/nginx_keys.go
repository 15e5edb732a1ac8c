package importer

// A limit_req_zone's key, a complex value (ngx_http_compile_complex_value:
// text and $variables or ${variables}), mapped onto rlsim's key kinds.
// nginx does not limit a request whose key is empty ("Requests with an empty
// key value are not accounted", ngx_http_limit_req_module.html, limit_req_zone;
// ngx_http_limit_req_handler skips a limit whose key is empty, lines
// 232–234): such requests are a Problem, since rlsim limits every request.

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// ngxVarKinds are the variables rlsim has a key kind for; every other
// variable is the nearest kind and a Problem (ngxGuessKind). Sources:
// https://nginx.org/en/docs/http/ngx_http_core_module.html#variables.
var ngxVarKinds = []struct {
	name, kind, problem string
}{
	{"binary_remote_addr", "ip", ""},
	{"remote_addr", "ip", ""},
	{"realip_remote_addr", "ip", ""},
	{"http_x_forwarded_for", "ip", "the X-Forwarded-For header, which the client (or a proxy) writes and may list several addresses"},
	{"http_x_real_ip", "ip", "the X-Real-IP header, which a proxy writes"},
	{"remote_user", "user", ""},
	{"http_authorization", "user", ""},
	{"http_x_api_key", "api_key", ""},
	{"http_apikey", "api_key", ""},
	{"http_api_key", "api_key", ""},
	{"http_x_apikey", "api_key", ""},
	{"arg_apikey", "api_key", ""},
	{"arg_api_key", "api_key", ""},
	{"uri", "endpoint", ""},
	{"document_uri", "endpoint", ""},
	{"request_uri", "endpoint", "the request URI with its query string, so each query is its own key"},
	{"server_name", "global", ""},
	{"host", "global", "the Host header: one count per host name, and rlsim has no host"},
	{"http_host", "global", "the Host header: one count per host name, and rlsim has no host"},
}

// ngxVarRef is one variable of a complex value.
var ngxVarRef = regexp.MustCompile(`\$(?:\{([A-Za-z0-9_]+)\}|([A-Za-z0-9_]+))`)

// ngxKey is what a key expression counts by.
type ngxKey struct {
	kind     string
	problems []string // what rlsim counts differently, sentences
	empty    []string // who nginx does not limit (an empty key), phrases
	always   bool     // the key is always empty
}

// zoneKind is zone z's key kind, its Problems recorded at the zone's line
// once.
func (r *ngxReader) zoneKind(z *ngxZone) string {
	if z.keyed {
		return z.kind
	}
	z.keyed = true
	k := r.keyOf(z.key, 0, nil)
	z.kind = k.kind
	for _, p := range k.problems {
		r.m.problemf(z.at, "zone %s's key %s: %s", z.name, z.key, p)
	}
	switch {
	case k.always:
		r.m.problemf(z.at, "zone %s's key %s is always empty, and nginx limits no request whose key is empty; rlsim's limit counts every request", z.name, z.key)
	case len(k.empty) > 0:
		r.m.problemf(z.at, "zone %s's key %s is empty for %s, and nginx does not limit a request whose key is empty; rlsim's limit counts every request", z.name, z.key, strings.Join(k.empty, "; and for "))
	}
	return z.kind
}

// keyOf reads expr: its variables, each by the table, a map, a geo or a set.
func (r *ngxReader) keyOf(expr string, depth int, seen []string) ngxKey {
	refs := ngxVarRef.FindAllStringSubmatch(expr, -1)
	if len(refs) == 0 {
		if expr == "" {
			return ngxKey{kind: "global", always: true}
		}
		return ngxKey{kind: "global"}
	}
	var keys []ngxKey
	var names []string
	for _, m := range refs {
		name := m[1] + m[2]
		names = append(names, "$"+name)
		keys = append(keys, r.varKind(name, depth, seen))
	}
	if len(keys) == 1 {
		return keys[0]
	}
	// Several variables: the key is empty only when all are (and no text).
	out := ngxKey{kind: keys[0].kind}
	for _, k := range keys {
		if k.kind != "global" && k.kind != "endpoint" {
			out.kind = k.kind
			break
		}
	}
	for _, k := range keys {
		out.problems = append(out.problems, k.problems...)
	}
	out.problems = append(out.problems, fmt.Sprintf("it combines %s; rlsim counts by one kind, %s", strings.Join(names, ", "), out.kind))
	if ngxVarRef.ReplaceAllString(expr, "") == "" {
		allAlways := true
		for _, k := range keys {
			allAlways = allAlways && k.always
		}
		out.always = allAlways
	}
	return out
}

// varKind is what variable name counts by.
func (r *ngxReader) varKind(name string, depth int, seen []string) ngxKey {
	if v := r.vars[name]; v != nil && depth < 8 && !slices.Contains(seen, name) {
		return r.definedKind(name, v, depth+1, append(seen, name))
	}
	if strings.HasPrefix(name, "http_x_tenant") {
		return ngxKey{kind: "tenant"} // X-Tenant, X-Tenant-Id, …
	}
	for _, k := range ngxVarKinds {
		if k.name == name {
			out := ngxKey{kind: k.kind}
			if k.problem != "" {
				out.problems = []string{fmt.Sprintf("$%s is %s; rlsim counts by %s", name, k.problem, k.kind)}
			}
			return out
		}
	}
	kind, what := ngxGuessKind(name)
	return ngxKey{kind: kind, problems: []string{fmt.Sprintf("rlsim has no key kind for $%s (%s); counted by %s, the nearest", name, what, kind)}}
}

// ngxGuessKind is the nearest kind for a variable the table lacks: a header,
// argument or cookie by the words in its name (user, tenant, org, account,
// ip, forwarded), else api_key (an identity the client sends), a cookie
// user (a session); any other variable ip, nginx's usual key.
func ngxGuessKind(name string) (kind, what string) {
	for _, p := range []struct{ prefix, what, def string }{
		{"http_", "a request header", "api_key"}, {"arg_", "a query argument", "api_key"}, {"cookie_", "a cookie", "user"},
	} {
		if rest, ok := strings.CutPrefix(name, p.prefix); ok {
			switch {
			case strings.Contains(rest, "user"):
				return "user", p.what
			case strings.Contains(rest, "tenant"), strings.Contains(rest, "org"), strings.Contains(rest, "account"):
				return "tenant", p.what
			case strings.Contains(rest, "forwarded"), strings.HasSuffix(rest, "_ip"), rest == "ip":
				return "ip", p.what
			}
			return p.def, p.what
		}
	}
	if strings.HasPrefix(name, "jwt_claim_") {
		return "user", "a JWT claim, NGINX Plus's"
	}
	return "ip", "an nginx variable"
}

// definedKind reads a variable a map, geo or set gives its value: if every
// non-empty result counts by the same thing, that; else the default's (or
// the first result's) kind and a Problem naming the results. Empty results
// are who nginx does not limit.
func (r *ngxReader) definedKind(name string, v *ngxVar, depth int, seen []string) ngxKey {
	def := ngxEntry{from: "default", value: "", at: v.at}
	hasDef := v.def != nil
	if hasDef {
		def = *v.def
	}
	results := v.entries
	if v.kind != "set" {
		results = append(slices.Clone(v.entries), def)
	}
	var (
		out        ngxKey
		distinct   []string
		emptyFroms []string
		emptyOther bool
		emptySets  []string
		first      = -1
		defIndex   = -1
	)
	for i, e := range results {
		if e.value == "" {
			switch {
			case v.kind == "set":
				emptySets = append(emptySets, e.at.String())
			case e.from == "default":
				emptyOther = true
			default:
				emptyFroms = append(emptyFroms, e.from)
			}
			continue
		}
		if first < 0 {
			first = i
		}
		if e.from == "default" {
			defIndex = i
		}
		if !slices.Contains(distinct, e.value) {
			distinct = append(distinct, e.value)
		}
	}
	what := fmt.Sprintf("$%s (%s at %s)", name, v.kind, v.at)
	if v.kind != "set" {
		what = fmt.Sprintf("$%s (%s %s $%s at %s)", name, v.kind, v.src, name, v.at)
	}
	switch {
	case len(emptySets) > 0:
		out.empty = append(out.empty, fmt.Sprintf("requests where the set at %s makes %s empty", strings.Join(emptySets, ", "), what))
	case len(emptyFroms) > 0 || emptyOther:
		out.empty = append(out.empty, "requests "+r.whose(v, emptyFroms, emptyOther, hasDef)+" ("+v.kind+" "+v.src+" $"+name+" at "+v.at.String()+")")
	}
	if first < 0 {
		out.kind, out.always = "global", true
		return out
	}
	pick := first
	if defIndex >= 0 {
		pick = defIndex
	}
	chosen := r.keyOf(results[pick].value, depth, seen)
	out.kind = chosen.kind
	out.problems = append(out.problems, chosen.problems...)
	out.empty = append(out.empty, chosen.empty...)
	if len(distinct) > 1 {
		var parts []string
		for _, val := range ngxFirst(distinct, 4) {
			parts = append(parts, fmt.Sprintf("%s (%s)", val, r.keyOf(val, depth, seen).kind))
		}
		by := "the default's"
		if defIndex < 0 {
			by = "the first's"
		}
		if v.kind == "set" {
			by = "the first set's"
		}
		out.problems = append(out.problems, fmt.Sprintf("%s has several results, %s; rlsim counts every request by %s, %s", what, strings.Join(parts, ", "), out.kind, by))
	}
	return out
}

// ngxFirst is s's first n, then how many more.
func ngxFirst(s []string, n int) []string {
	if len(s) <= n {
		return s
	}
	return append(append([]string(nil), s[:n]...), fmt.Sprintf("and %d more", len(s)-n))
}

// whose says which requests a map or geo gives the results of froms (and,
// with other, every value it does not list): for a map of a geo's variable,
// by the geo's networks too.
func (r *ngxReader) whose(v *ngxVar, froms []string, other, hasDef bool) string {
	var quoted []string
	for _, f := range froms {
		quoted = append(quoted, strconv.Quote(f))
	}
	subject := v.src
	if v.kind == "geo" {
		subject = "address (" + v.src + ")"
	}
	var parts []string
	if len(quoted) > 0 {
		parts = append(parts, "whose "+subject+" is "+strings.Join(ngxFirst(quoted, 4), " or "))
	}
	if other {
		why := "the default is empty"
		if !hasDef {
			why = "there is no default"
		}
		parts = append(parts, "whose "+subject+" is any value not listed ("+why+")")
	}
	s := strings.Join(parts, ", and ")
	ref := ngxVarRef.FindStringSubmatch(v.src)
	if v.kind != "map" || ref == nil || ref[0] != v.src {
		return s
	}
	g := r.vars[ref[1]+ref[2]]
	if g == nil || g.kind != "geo" {
		return s
	}
	var nets []string
	for _, e := range g.entries {
		if slices.Contains(froms, e.value) {
			nets = append(nets, e.from)
		}
	}
	if g.def != nil && slices.Contains(froms, g.def.value) {
		nets = append(nets, "every address not listed")
	}
	if len(nets) == 0 {
		return s
	}
	return s + ": clients from " + strings.Join(ngxFirst(nets, 6), ", ") + " (geo " + v.src + " at " + g.at.String() + ")"
}
