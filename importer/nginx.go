package importer

// The nginx reader: limit_req_zone, limit_req and their settings, with the
// maps, geos and sets that build a zone's key, from an nginx 1.22.1 config.
// Every rule cites nginx 1.22.1's source at tag release-1.22.1 or its
// documentation:
//   - src/http/modules/ngx_http_limit_req_module.c (the directives' syntax,
//     lines 833–960 and 964–1064; their inheritance, lines 808–830),
//     https://nginx.org/en/docs/http/ngx_http_limit_req_module.html;
//   - src/http/ngx_http_core_module.c ngx_http_core_location (location
//     modifiers), https://nginx.org/en/docs/http/ngx_http_core_module.html#location;
//   - src/http/modules/ngx_http_map_module.c, ngx_http_geo_module.c,
//     https://nginx.org/en/docs/http/ngx_http_map_module.html;
//   - src/http/modules/ngx_http_log_module.c (log_format).

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

func init() { register(product{name: "nginx", detect: detectNginx, read: readNginx}) }

// ngxDetect is a line only an nginx config has: one of nginx's block or
// limit directives at the start of a line, ended by ";" or "{".
var ngxDetect = regexp.MustCompile(`(?m)^[ \t]*(?:limit_req_zone|limit_req|http|server|location|events|upstream|map|geo)(?:[ \t][^\n]*)?[;{][ \t]*(?:#[^\n]*)?\r?$`)

func detectNginx(path string, data []byte) bool {
	return ngxDetect.Match(data)
}

// ngxZoneKeys is how many states a limit_req zone of size bytes named name
// holds on a 64-bit platform with 4096-byte pages, for keys of at most 48
// bytes ($binary_remote_addr, $remote_addr, most API keys). The docs say
// "One megabyte zone can keep about 16 thousand 64-byte states or about 8
// thousand 128-byte states" (ngx_http_limit_req_module.html, limit_req_zone);
// exactly, from src/core/ngx_slab.c ngx_slab_init and ngx_slab_alloc:
//   - the pool's header, 9 slots and 9 stats take 200+9×24+9×32 = 704 bytes;
//     pages = ⌊(size−704)/(4096+24)⌋, less those the page-aligned start
//     leaves no room for;
//   - a state is 32+48+len(key) bytes (ngx_http_limit_req_lookup: the
//     rbtree node to color and the node to data), a 128-byte slot, 32 a page;
//   - the zone's shctx (80 bytes) takes one 128-byte slot, and its log_ctx
//     (22 bytes and the name, ngx_http_limit_req_init_zone) a slot of the
//     next power of two, a page of its own unless that is 128.
//
// Measured on Debian's nginx 1.22.1 (TestNginxZoneKeysAreRealNginx): 32k
// holds 191 states, 64k 447, 1m 8095, 2m 16223, as this says.
func ngxZoneKeys(size int64, name string) int64 {
	const page, header, pageDesc = 4096, 704, 24
	if size < header+page+pageDesc {
		return 0
	}
	pages := (size - header) / (page + pageDesc)
	start := (header + pages*pageDesc + page - 1) / page * page
	pages = min(pages, (size-start)/page)
	slots, logSlot := pages*32-1, int64(8)
	for logSlot < int64(22+len(name)) {
		logSlot *= 2
	}
	switch {
	case logSlot == 128:
		slots--
	case logSlot <= page/2:
		slots -= 32
	default:
		slots -= 32 * ((logSlot + page - 1) / page)
	}
	return max(slots, 0)
}

// ngxSyncInterval is NGINX Plus's zone_sync_interval default (1s), the
// interval a zone with sync is synchronized at
// (https://nginx.org/en/docs/stream/ngx_stream_zone_sync_module.html).
const ngxSyncInterval = time.Second

// ngxDefaultStatus is limit_req_status's default, 503
// (ngx_http_limit_req_merge_conf: NGX_HTTP_SERVICE_UNAVAILABLE).
const ngxDefaultStatus = 503

// ngxMaxPerSecond is the highest rate=Nr/s imported (see limitReqZone).
const ngxMaxPerSecond = 600_000_000

type ngxZone struct {
	name   string
	key    string
	size   int64
	n      int64         // rate=N…
	window time.Duration // r/s: 1s, r/m: 1m
	sync   bool
	at     Origin
	uses   int
	usedAt []string // where each limit_req of the zone is
	params []string // each one's burst and delay
	kind   string   // the key's kind, once read
	keyed  bool
}

// ngxLimitReq is one limit_req directive.
type ngxLimitReq struct {
	zone    string
	burst   int64
	delay   int64
	nodelay bool
	at      Origin
	text    string
}

// ngxLevel is the http block, a server or a location: where limit_req and its
// settings are written and inherited from.
type ngxLevel struct {
	kind     string // http, server, location
	uri      string // a location's name (the modifier cut off)
	modifier string // "", "=", "^~", "~", "~*" or "@"
	parent   *ngxLevel
	children []*ngxLevel
	at       Origin

	limits     []ngxLimitReq
	status     int64
	statusAt   Origin
	dryRun     int // -1 unset, 0 off, 1 on
	returnAt   *Origin
	serverName string
}

// ngxVar is a variable a map, a geo or a set gives a value.
type ngxVar struct {
	kind    string // map, geo, set
	src     string // the map's or geo's source
	entries []ngxEntry
	def     *ngxEntry
	at      Origin
}

type ngxEntry struct {
	from, value string
	at          Origin
}

type ngxReader struct {
	m       *Model
	zones   map[string]*ngxZone
	order   []string // zone names as defined
	vars    map[string]*ngxVar
	http    *ngxLevel
	servers []*ngxLevel
}

func readNginx(src Source) (*Model, error) {
	ds, conf, err := parseNginx(src)
	if err != nil {
		return nil, err
	}
	r := &ngxReader{m: &Model{Files: conf.files}, zones: map[string]*ngxZone{}, vars: map[string]*ngxVar{}}
	r.m.Problems = append(r.m.Problems, conf.problems...)
	r.http = &ngxLevel{kind: "http", dryRun: -1}
	var http []*ngxDirective
	found := false
	for _, d := range ds {
		if d.name == "http" && d.brace {
			found = true
			r.http.at = d.at
			http = append(http, d.block...)
		}
	}
	if !found {
		// A file of server blocks, as conf.d/*.conf: read as the inside of http.
		http = ds
		r.http.at = Origin{File: src.Path}
		if len(ds) > 0 {
			r.m.Notes = append(r.m.Notes, "No http block: the file is read as the inside of one (as nginx.conf's include of it inside http would).")
		}
	}
	r.walk(http, r.http)
	r.build()
	// Problems in the order of the files and their lines, as a reader meets them.
	file := func(f string) int { return slices.Index(r.m.Files, f) }
	slices.SortStableFunc(r.m.Problems, func(a, b Problem) int {
		if fa, fb := file(a.At.File), file(b.At.File); fa != fb {
			return fa - fb
		}
		return a.At.Line - b.At.Line
	})
	return r.m, nil
}

// walk reads the directives of level l.
func (r *ngxReader) walk(ds []*ngxDirective, l *ngxLevel) {
	for _, d := range ds {
		switch d.name {
		case "server":
			if l.kind == "http" && d.brace {
				s := &ngxLevel{kind: "server", parent: l, at: d.at, dryRun: -1}
				l.children = append(l.children, s)
				r.servers = append(r.servers, s)
				r.walk(d.block, s)
			}
		case "location":
			if (l.kind == "server" || l.kind == "location") && d.brace {
				r.location(d, l)
			}
		case "limit_req_zone":
			r.limitReqZone(d, l)
		case "limit_req":
			if lr, ok := r.limitReq(d); ok {
				l.limits = append(l.limits, lr)
			}
		case "limit_req_status":
			if len(d.args) == 1 {
				n, err := strconv.ParseInt(d.args[0], 10, 64)
				if err != nil || n < 400 || n > 599 {
					r.m.problemf(d.at, "limit_req_status %s: nginx takes 400 to 599; ignored", d.args[0])
					continue
				}
				l.status, l.statusAt = n, d.at
			}
		case "limit_req_dry_run":
			if len(d.args) == 1 && (d.args[0] == "on" || d.args[0] == "off") {
				l.dryRun = 0
				if d.args[0] == "on" {
					l.dryRun = 1
				}
			}
		case "map":
			r.mapBlock(d, l)
		case "geo":
			r.geoBlock(d, l)
		case "set":
			if len(d.args) == 2 {
				r.setVar(d.args[0], ngxEntry{value: d.args[1], at: d.at})
			}
		case "log_format":
			r.logFormat(d, l)
		case "server_name":
			if l.kind == "server" {
				l.serverName = strings.Join(d.args, " ")
			}
		case "return":
			if l.kind != "http" && l.returnAt == nil {
				at := d.at
				l.returnAt = &at
			}
		case "if":
			r.m.problemf(d.at, "if %s: rlsim has no conditions; the limits are imported as if the if block were absent (an if that returns, rewrites or sets the key changes what nginx limits)", strings.Join(d.args, " "))
			r.walkIf(d.block)
		case "limit_except":
			r.m.problemf(d.at, "limit_except %s: rlsim has no request methods; the block is ignored", strings.Join(d.args, " "))
		}
	}
}

// walkIf reads an if block: set gives its variable a value; limit_req is
// not allowed there (its context is http, server and location).
func (r *ngxReader) walkIf(ds []*ngxDirective) {
	for _, d := range ds {
		switch d.name {
		case "set":
			if len(d.args) == 2 {
				r.setVar(d.args[0], ngxEntry{value: d.args[1], at: d.at})
			}
		case "limit_req", "limit_req_status", "limit_req_dry_run":
			r.m.problemf(d.at, "%s is not allowed inside if (nginx -t refuses it); ignored", d.name)
		}
	}
}

// location reads a location block (ngx_http_core_location): "=" exact,
// "^~" prefix without regexes, "~" and "~*" regexes, "@" named, a bare
// name a prefix; the modifier may be written joined to the name.
func (r *ngxReader) location(d *ngxDirective, parent *ngxLevel) {
	l := &ngxLevel{kind: "location", parent: parent, at: d.at, dryRun: -1}
	switch len(d.args) {
	case 2:
		l.modifier, l.uri = d.args[0], d.args[1]
	case 1:
		name := d.args[0]
		switch {
		case strings.HasPrefix(name, "="):
			l.modifier, l.uri = "=", name[1:]
		case strings.HasPrefix(name, "^~"):
			l.modifier, l.uri = "^~", name[2:]
		case strings.HasPrefix(name, "~*"):
			l.modifier, l.uri = "~*", name[2:]
		case strings.HasPrefix(name, "~"):
			l.modifier, l.uri = "~", name[1:]
		case strings.HasPrefix(name, "@"):
			l.modifier, l.uri = "@", name
		default:
			l.uri = name
		}
	default:
		r.m.problemf(d.at, "location with %d arguments: nginx takes a name, or a modifier and a name; ignored", len(d.args))
		return
	}
	switch l.modifier {
	case "", "=", "^~", "~", "~*", "@":
		if l.uri == "" || l.uri == "@" {
			r.m.problemf(d.at, "location without a name; ignored")
			return
		}
	default:
		r.m.problemf(d.at, "invalid location modifier %q (nginx -t refuses it); ignored", l.modifier)
		return
	}
	parent.children = append(parent.children, l)
	r.walk(d.block, l)
}

// limitReqZone reads `limit_req_zone key zone=name:size [rate=rate] [sync]`
// (ngx_http_limit_req_zone, lines 833–960): zone= is required and its size
// at least 8 pages; rate= is Nr/s, Nr/m or a bare N (r/s), 1r/s when
// absent; the last of a repeated parameter wins.
func (r *ngxReader) limitReqZone(d *ngxDirective, l *ngxLevel) {
	if l.kind != "http" {
		r.m.problemf(d.at, "limit_req_zone is allowed only in http (nginx -t refuses it in %s); ignored", l.kind)
		return
	}
	if len(d.args) < 2 {
		r.m.problemf(d.at, "limit_req_zone needs a key and zone=; ignored")
		return
	}
	z := &ngxZone{key: d.args[0], n: 1, window: time.Second, at: d.at}
	for _, a := range d.args[1:] {
		switch {
		case strings.HasPrefix(a, "zone="):
			name, size, ok := strings.Cut(a[5:], ":")
			n, okSize := ngxParseSize(size)
			if !ok || !okSize {
				r.m.problemf(d.at, "invalid zone size %q; ignored", a)
				return
			}
			if n < 8*4096 {
				r.m.problemf(d.at, "zone %q is too small (nginx takes 8 pages, 32k, at least); ignored", a)
				return
			}
			z.name, z.size = name, n
		case strings.HasPrefix(a, "rate="):
			v := a[5:]
			num, window := v, time.Second
			if s, ok := strings.CutSuffix(v, "r/s"); ok {
				num = s
			} else if s, ok := strings.CutSuffix(v, "r/m"); ok {
				num, window = s, time.Minute
			}
			n, ok := ngxAtoi(num)
			if !ok || n <= 0 {
				r.m.problemf(d.at, "invalid rate %q; ignored", a)
				return
			}
			// The lane takes N up to 10⁹ (algorithms.ParseNginxRate); a run's
			// clients send at most one a nanosecond, and the example clients
			// 1.5 times the limit, so 6×10⁸ a second is the most a scenario
			// can show.
			if max := map[time.Duration]int64{time.Second: ngxMaxPerSecond, time.Minute: 1_000_000_000}[window]; n > max {
				r.m.problemf(d.at, "rate %q: more than %d a %s, more than a run can send; ignored", a, max, map[time.Duration]string{time.Second: "second", time.Minute: "minute"}[window])
				return
			}
			z.n, z.window = n, window
		case a == "sync":
			z.sync = true
		default:
			r.m.problemf(d.at, "limit_req_zone: invalid parameter %q; ignored", a)
			return
		}
	}
	if z.name == "" {
		r.m.problemf(d.at, "limit_req_zone must have the zone parameter; ignored")
		return
	}
	if prev, dup := r.zones[z.name]; dup {
		r.m.problemf(d.at, "limit_req_zone %q is already bound to key %q (%s): nginx -t refuses it; ignored", z.name, prev.key, prev.at)
		return
	}
	r.zones[z.name] = z
	r.order = append(r.order, z.name)
}

// limitReq reads `limit_req zone=name [burst=N] [nodelay | delay=N]`
// (ngx_http_limit_req, lines 964–1064): burst and delay positive integers;
// nodelay is delay=∞ (line 1021), so the last of nodelay and delay= wins.
func (r *ngxReader) limitReq(d *ngxDirective) (ngxLimitReq, bool) {
	lr := ngxLimitReq{at: d.at, text: "limit_req " + strings.Join(d.args, " ")}
	for _, a := range d.args {
		switch {
		case strings.HasPrefix(a, "zone="):
			lr.zone = a[5:]
		case strings.HasPrefix(a, "burst="), strings.HasPrefix(a, "delay="):
			n, ok := ngxAtoi(a[6:])
			if !ok || n <= 0 {
				r.m.problemf(d.at, "invalid %s value %q; ignored", a[:5], a)
				return lr, false
			}
			if n > 1<<40 {
				r.m.problemf(d.at, "%s: more than rlsim's nginx lane takes (%d); ignored", a, int64(1<<40))
				return lr, false
			}
			if a[0] == 'b' {
				lr.burst = n
			} else {
				lr.delay, lr.nodelay = n, false
			}
		case a == "nodelay":
			lr.delay, lr.nodelay = 0, true
		default:
			r.m.problemf(d.at, "limit_req: invalid parameter %q; ignored", a)
			return lr, false
		}
	}
	if lr.zone == "" {
		r.m.problemf(d.at, "limit_req must have the zone parameter; ignored")
		return lr, false
	}
	return lr, true
}

// mapBlock reads `map $src $var { source value; … }` (ngx_http_map_module.c
// ngx_http_map_block, ngx_http_map): default, hostnames, volatile and
// include are its parameters; a source beginning with "\" loses it; without
// default the result is the empty string.
func (r *ngxReader) mapBlock(d *ngxDirective, l *ngxLevel) {
	if l.kind != "http" || len(d.args) != 2 || !d.brace {
		return
	}
	v := &ngxVar{kind: "map", src: d.args[0], at: d.at}
	for _, e := range d.block {
		if len(e.args) == 0 && (e.name == "hostnames" || e.name == "volatile") {
			continue
		}
		if len(e.args) != 1 {
			continue
		}
		if e.name == "default" {
			v.def = &ngxEntry{from: "default", value: e.args[0], at: e.at}
			continue
		}
		v.entries = append(v.entries, ngxEntry{from: strings.TrimPrefix(e.name, `\`), value: e.args[0], at: e.at})
	}
	r.vars[strings.TrimPrefix(d.args[1], "$")] = v
}

// geoBlock reads `geo [$address] $var { network value; … }`
// (ngx_http_geo_module.c): default, delete, include, proxy, proxy_recursive
// and ranges are its parameters; without default the result is empty.
func (r *ngxReader) geoBlock(d *ngxDirective, l *ngxLevel) {
	if l.kind != "http" || len(d.args) < 1 || len(d.args) > 2 || !d.brace {
		return
	}
	v := &ngxVar{kind: "geo", src: "$remote_addr", at: d.at}
	name := d.args[0]
	if len(d.args) == 2 {
		v.src, name = d.args[0], d.args[1]
	}
	for _, e := range d.block {
		switch e.name {
		case "ranges", "proxy_recursive", "proxy", "delete":
			continue
		case "default":
			if len(e.args) == 1 {
				v.def = &ngxEntry{from: "default", value: e.args[0], at: e.at}
			}
			continue
		}
		if len(e.args) == 1 {
			v.entries = append(v.entries, ngxEntry{from: e.name, value: e.args[0], at: e.at})
		}
	}
	r.vars[strings.TrimPrefix(name, "$")] = v
}

func (r *ngxReader) setVar(name string, e ngxEntry) {
	name = strings.TrimPrefix(name, "$")
	v := r.vars[name]
	if v == nil || v.kind != "set" {
		v = &ngxVar{kind: "set", at: e.at}
		r.vars[name] = v
	}
	v.entries = append(v.entries, e)
}

// logFormat reads `log_format name [escape=default|json|none] string …`
// (ngx_http_log_module.c ngx_http_log_set_format, ngx_http_log_compile):
// the strings are joined as written, with nothing between them.
func (r *ngxReader) logFormat(d *ngxDirective, l *ngxLevel) {
	if l.kind != "http" || len(d.args) < 2 {
		return
	}
	name, parts := d.args[0], d.args[1:]
	escape := ""
	if e, ok := strings.CutPrefix(parts[0], "escape="); ok {
		escape, parts = e, parts[1:]
	}
	if r.m.LogFormats == nil {
		r.m.LogFormats = map[string]string{}
	}
	r.m.LogFormats[name] = strings.Join(parts, "")
	n := fmt.Sprintf("log_format %s (%s) is kept for replay", name, d.at)
	if escape != "" {
		n += " (escape=" + escape + ": variables' values are escaped as " + escape + ")"
	}
	r.m.Notes = append(r.m.Notes, n+".")
}

// ngxParseSize is ngx_parse_size (src/core/ngx_parse.c): a number with an
// optional k/K or m/M; 1.22.1 takes no g.
func ngxParseSize(s string) (int64, bool) {
	scale := int64(1)
	if s != "" {
		switch s[len(s)-1] {
		case 'k', 'K':
			scale, s = 1<<10, s[:len(s)-1]
		case 'm', 'M':
			scale, s = 1<<20, s[:len(s)-1]
		}
	}
	n, ok := ngxAtoi(s)
	if !ok || n > (1<<62)/scale {
		return 0, false
	}
	return n * scale, true
}

// ngxAtoi is ngx_atoi (src/core/ngx_string.c): decimal digits only.
func ngxAtoi(s string) (int64, bool) {
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// endpoint is what a location's requests are named in rlsim: its name, with
// a Problem where nginx matches more than that name.
func (r *ngxReader) endpoint(l *ngxLevel) string {
	switch l.modifier {
	case "", "^~":
		r.m.problemf(l.at, "nginx matches location %s%s by prefix; rlsim's endpoint is exact: clients must name %s", ngxMod(l.modifier), l.uri, l.uri)
	case "~", "~*":
		r.m.problemf(l.at, "location %s %s is a regular expression; rlsim's endpoint is a name, not a pattern: clients must name %q itself", l.modifier, l.uri, l.uri)
	case "@":
		r.m.problemf(l.at, "location %s is a named location, reached only by an internal redirect (try_files, error_page); clients must name %s", l.uri, l.uri)
	}
	return l.uri
}

func ngxMod(m string) string {
	if m == "" {
		return ""
	}
	return m + " "
}

// where names a level for messages.
func (l *ngxLevel) where() string {
	switch l.kind {
	case "location":
		return "location " + ngxMod(l.modifier) + l.uri
	case "server":
		if l.serverName != "" {
			return "server " + l.serverName
		}
		return "server at " + l.at.String()
	}
	return "http"
}

func (l *ngxLevel) server() *ngxLevel {
	for p := l; p != nil; p = p.parent {
		if p.kind == "server" {
			return p
		}
	}
	return nil
}

// effective walks up to the level whose limit_req directives apply at l:
// "These directives are inherited from the previous configuration level if
// and only if there are no limit_req directives defined on the current
// level" (ngx_http_limit_req_merge_conf: conf->limits = prev->limits when
// the location has none).
func (l *ngxLevel) effective() *ngxLevel {
	for p := l; p != nil; p = p.parent {
		if len(p.limits) > 0 {
			return p
		}
	}
	return nil
}

// effStatus and effDryRun are the merged limit_req_status (default 503) and
// limit_req_dry_run (default off) at l (ngx_conf_merge_uint_value,
// ngx_conf_merge_value: the nearest level that sets it).
func (l *ngxLevel) effStatus() (int64, Origin) {
	for p := l; p != nil; p = p.parent {
		if p.status != 0 {
			return p.status, p.statusAt
		}
	}
	return ngxDefaultStatus, Origin{}
}

func (l *ngxLevel) effDryRun() bool {
	for p := l; p != nil; p = p.parent {
		if p.dryRun >= 0 {
			return p.dryRun == 1
		}
	}
	return false
}

// unreached is where a return answers every request before limit_req runs
// (return is the rewrite module's, in the server rewrite or rewrite phase,
// before the preaccess phase of limit_req).
func (l *ngxLevel) unreached() *Origin {
	for p := l; p != nil; p = p.parent {
		if p.returnAt != nil {
			return p.returnAt
		}
	}
	return nil
}

// levels lists l and every level below it, depth first.
func (l *ngxLevel) levels() []*ngxLevel {
	out := []*ngxLevel{l}
	for _, c := range l.children {
		out = append(out, c.levels()...)
	}
	return out
}

// build makes the chain: one limit per limit_req directive, in the order of
// the config, each scoped to its location (or every request, for http and
// server), and the nginx lane whose zones are those directives.
func (r *ngxReader) build() {
	var (
		zones    []Fields
		laneAt   []Origin
		status   int64
		statusOf *ngxLevel
		keys     int64
		keysZone *ngxZone
		servers  []*ngxLevel
		names    = map[string]bool{}
	)
	all := r.http.levels()
	for _, l := range all {
		if len(l.limits) == 0 {
			continue
		}
		if at := l.unreached(); at != nil {
			r.m.Notes = append(r.m.Notes, fmt.Sprintf("%s (%s) answers every request with return (%s), which runs before limit_req: nginx never limits them, so its limit_req is not imported.", l.where(), l.at, *at))
			continue
		}
		endpoint := ""
		if l.kind == "location" {
			endpoint = r.endpoint(l)
		}
		if s := l.server(); s != nil && !slices.Contains(servers, s) {
			servers = append(servers, s)
		}
		r.inheritors(l)
		dry := l.effDryRun()
		st, stAt := l.effStatus()
		if statusOf == nil {
			status, statusOf = st, l
		} else if st != status {
			r.m.problemf(statusOrigin(stAt, l.at), "limit_req_status %d at %s: the nginx lane refuses with one status, %d (%s's)", st, l.where(), status, statusOf.where())
		}
		for _, lr := range l.limits {
			z := r.zones[lr.zone]
			if z == nil {
				r.m.problemf(lr.at, "limit_req zone=%s: no limit_req_zone defines %s (nginx -t refuses it); ignored", lr.zone, lr.zone)
				continue
			}
			z.uses++
			z.usedAt = append(z.usedAt, fmt.Sprintf("%s at %s", l.where(), lr.at))
			z.params = append(z.params, fmt.Sprintf("burst=%d delay=%d nodelay=%v", lr.burst, lr.delay, lr.nodelay))
			kind := r.zoneKind(z)
			name := ngxUniqueName(names, z.name, l)
			if zk := ngxZoneKeys(z.size, z.name); keysZone == nil {
				keys, keysZone = zk, z
			} else if zk != keys && z.uses == 1 {
				r.m.problemf(z.at, "zone %s holds %d keys, zone %s %d: the nginx lane's key table has one size, %d (zone %s's)", z.name, zk, keysZone.name, keys, keys, keysZone.name)
			}
			lim := Limit{Name: name, Key: kind, Limit: z.n, Window: z.window, Burst: lr.burst + 1, Endpoint: endpoint, DryRun: dry,
				At:   []Origin{lr.at, z.at},
				Note: fmt.Sprintf("%s in %s; limit_req_zone %s zone=%s:%s rate=%s (nginx burst=%d admits %d at once)", lr.text, l.where(), z.key, z.name, ngxSize(z.size), ngxRate(z), lr.burst, lr.burst+1)}
			if dry {
				lim.Note += "; limit_req_dry_run on"
			}
			if z.sync {
				lim.State, lim.SyncInterval = "synced", ngxSyncInterval
				r.m.problemf(z.at, "zone %s has sync, NGINX Plus's zone synchronization (nginx 1.22.1 refuses it): imported as a synced limit every %v (zone_sync_interval's default) on an example fleet", z.name, ngxSyncInterval)
			}
			r.m.Limits = append(r.m.Limits, lim)
			zf := Fields{{"rate", ngxRate(z)}}
			if lr.burst > 0 {
				zf = append(zf, Field{"burst", lr.burst})
			}
			if lr.nodelay {
				zf = append(zf, Field{"nodelay", true})
			} else if lr.delay > 0 {
				zf = append(zf, Field{"delay", lr.delay})
			}
			zones = append(zones, zf)
			laneAt = append(laneAt, lr.at)
		}
	}
	for _, name := range r.order {
		if z := r.zones[name]; z.uses > 1 {
			same := ""
			if len(slices.Compact(slices.Clone(z.params))) == 1 {
				same = "; the limits are alike but for where they apply"
			}
			r.m.problemf(z.at, "zone %s is used by %d limit_req (%s): nginx keeps one state per key for all of them, rlsim one per limit, so a key's requests at one are not counted at the others%s", z.name, z.uses, strings.Join(z.usedAt, "; "), same)
		}
	}
	for _, name := range r.order {
		if z := r.zones[name]; z.uses == 0 {
			r.m.Notes = append(r.m.Notes, fmt.Sprintf("zone %s (%s) is defined but no limit_req uses it.", name, z.at))
		}
	}
	if len(servers) > 1 {
		for _, s := range servers[1:] {
			r.m.problemf(s.at, "%s also limits requests: rlsim has no host or port, so the limits of every server apply to every request to their endpoints, whichever server it reaches", s.where())
		}
	}
	for _, s := range r.servers {
		if s.serverName != "" {
			r.m.Notes = append(r.m.Notes, fmt.Sprintf("server %s at %s.", s.serverName, s.at))
		}
	}
	if len(zones) == 0 {
		return
	}
	lane := Lane{Name: "nginx", Algorithm: "nginx", At: laneAt,
		Note:    "nginx 1.22.1 limit_req: the limit_req directives of a location are checked in order, the first refusal stops and charges none (zones[i] is limit i's)",
		Section: Fields{{"zones", zones}}}
	if statusOf != nil && status != ngxDefaultStatus {
		lane.Options = append(lane.Options, Field{"status", status})
	}
	synced := slices.ContainsFunc(r.m.Limits, func(l Limit) bool { return l.State != "" })
	if keys > 0 && !synced {
		lane.Options = append(lane.Options, Field{"keys", keys}, Field{"when_full", "evict"})
		r.m.Notes = append(r.m.Notes, fmt.Sprintf("keys %d: the states zone %s's %s holds on a 64-bit nginx (keys of at most 48 bytes, as $binary_remote_addr); a full zone removes the least recently used state (when_full: evict).", keys, keysZone.name, ngxSize(keysZone.size)))
	}
	r.m.Lanes = append(r.m.Lanes, lane)
}

// statusOrigin is the origin a status problem is told at: where the status is
// written, else the level.
func statusOrigin(at, level Origin) Origin {
	if at.File != "" {
		return at
	}
	return level
}

// inheritors reports the levels below l that nginx treats apart from l's
// limit_req where rlsim cannot: for http and server, the ones with their
// own limit_req (nginx applies l's there not at all, rlsim's unscoped limit
// counts them); for a location, the nested locations that inherit its
// limit_req (rlsim's limit counts only its own endpoint); and those whose
// limit_req_dry_run differs from l's.
func (r *ngxReader) inheritors(l *ngxLevel) {
	dry := l.effDryRun()
	status, _ := l.effStatus()
	var walk func(c *ngxLevel)
	walk = func(c *ngxLevel) {
		if len(c.limits) > 0 {
			if l.kind != "location" {
				r.m.problemf(c.at, "%s has its own limit_req, so nginx applies none of %s's (%s) there; rlsim's limits from %s count every request, these too", c.where(), l.where(), l.limits[0].at, l.where())
			}
			return
		}
		if l.kind == "location" && c.kind == "location" {
			r.m.problemf(c.at, "%s (inside %s) inherits its limit_req; rlsim's limit counts only endpoint %s, not this one", c.where(), l.where(), l.uri)
		}
		if st, at := c.effStatus(); c.status != 0 && st != status {
			r.m.problemf(at, "limit_req_status %d at %s, for the limit_req it inherits from %s: the nginx lane refuses with one status, %d", st, c.where(), l.where(), status)
		}
		if c.effDryRun() != dry {
			r.m.problemf(c.at, "%s sets limit_req_dry_run %s for the limit_req it inherits from %s; rlsim's limit has one setting, %s's", c.where(), onOff(c.effDryRun()), l.where(), l.where())
		}
		for _, cc := range c.children {
			walk(cc)
		}
	}
	for _, c := range l.children {
		walk(c)
	}
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// ngxUniqueName is a limit's name: its zone's, and for a zone used again,
// the zone's and where it is used.
func ngxUniqueName(names map[string]bool, zone string, l *ngxLevel) string {
	name := zone
	if names[name] {
		switch l.kind {
		case "location":
			name = zone + "@" + l.uri
		case "server":
			name = zone + "@" + cmpString(strings.Fields(l.serverName), "server")
		}
	}
	base := name
	for i := 2; names[name]; i++ {
		name = base + "-" + strconv.Itoa(i)
	}
	names[name] = true
	return name
}

func cmpString(fields []string, def string) string {
	if len(fields) > 0 {
		return fields[0]
	}
	return def
}

// ngxRate writes a zone's rate as nginx reads it: Nr/s or Nr/m.
func ngxRate(z *ngxZone) string {
	if z.window == time.Minute {
		return strconv.FormatInt(z.n, 10) + "r/m"
	}
	return strconv.FormatInt(z.n, 10) + "r/s"
}

func ngxSize(n int64) string {
	switch {
	case n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + "m"
	case n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + "k"
	}
	return strconv.FormatInt(n, 10)
}
