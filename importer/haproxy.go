package importer

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// HAProxy 2.6's configuration (doc/configuration.txt at tag v2.6.0; held to
// the Debian 2.6.12 binary by haproxy -c): sections (2.1, 4), words with
// quoting and escapes (2.2), times (2.5), and the rate-limit parts:
// stick-table (4.2 "stick-table type"), http-request track-sc0/1/2 (4.2
// "http-request track-sc0"), the sc_http_req_rate, scN_http_req_rate and
// src_http_req_rate fetches (7.3.3), ACLs (7.1, 7.4), and the actions deny
// [deny_status], tarpit, return [status] and silent-drop (4.2 "http-request").
func init() {
	register(product{name: "haproxy", detect: detectHAProxy, read: readHAProxy})
}

var haproxySection = regexp.MustCompile(`(?m)^[ \t]*(frontend|backend|listen|defaults)([ \t]|$)`)

// detectHAProxy: a proxy section and a stick table or a tracking rule.
func detectHAProxy(path string, data []byte) bool {
	return containsAny(data, "stick-table", "track-sc") && haproxySection.Match(data)
}

// haproxySections are the section keywords of configuration.txt 2.6 (3, 4
// and the sections of 3.x); only the proxies hold rate limits.
var haproxySections = map[string]bool{
	"global": true, "defaults": true, "frontend": true, "backend": true, "listen": true,
	"userlist": true, "peers": true, "resolvers": true, "mailers": true, "program": true,
	"http-errors": true, "ring": true, "cache": true, "log-forward": true, "fcgi-app": true,
}

type hxLine struct {
	line  int
	words []string
}

type hxProxy struct {
	kind, name string
	line       int
	lines      []hxLine
	table      *hxTable
	acls       map[string][]hxLine // each definition's words after the name
}

type hxTable struct {
	name      string
	line      int
	size      int64
	expire    time.Duration
	period    time.Duration // http_req_rate(<period>); 0: not stored
	tracked   *hxTrack      // the first rule tracking into it
	sizeWords string
}

type hxTrack struct {
	sc       int
	line     int
	key      string // rlsim's kind
	expr     string // HAProxy's sample expression
	table    *hxTable
	endpoint string
	prefix   bool
	other    []string // the track's other conditions
}

type haproxyReader struct {
	file        string
	m           *Model
	proxies     []*hxProxy
	tables      map[string]*hxTable
	errs        []Problem
	names       map[string]int
	statuses    []hxStatus
	limitTables []*hxTable // the tables of the limits, in order
}

type hxStatus struct {
	code int64
	at   Origin
}

func readHAProxy(src Source) (*Model, error) {
	h := &haproxyReader{file: src.Path, m: &Model{}, tables: map[string]*hxTable{}, names: map[string]int{}}
	h.parse(src.Data)
	if len(h.errs) > 0 {
		return nil, &SyntaxError{Product: "haproxy", Problems: h.errs}
	}
	for _, p := range h.proxies {
		h.tablesOf(p)
	}
	for _, p := range h.proxies {
		h.rules(p)
	}
	if len(h.m.Limits) > 0 {
		h.lane()
	}
	return h.m, nil
}

func (h *haproxyReader) at(line int) Origin { return Origin{File: h.file, Line: line} }

// parse cuts the file into sections of lines of words.
func (h *haproxyReader) parse(data []byte) {
	var cur *hxProxy
	for i, raw := range bytes.Split(data, []byte("\n")) {
		n := i + 1
		words, err := haproxyWords(string(raw))
		if err != nil {
			h.errs = append(h.errs, Problem{At: h.at(n), Message: err.Error()})
			continue
		}
		if len(words) == 0 {
			continue
		}
		if haproxySections[words[0]] {
			cur = &hxProxy{kind: words[0], line: n, acls: map[string][]hxLine{}}
			if len(words) > 1 {
				cur.name = words[1]
			}
			if (cur.kind == "frontend" || cur.kind == "backend" || cur.kind == "listen") && cur.name == "" {
				h.errs = append(h.errs, Problem{At: h.at(n), Message: cur.kind + " wants a name"})
			}
			h.proxies = append(h.proxies, cur)
			continue
		}
		if cur == nil {
			h.errs = append(h.errs, Problem{At: h.at(n), Message: fmt.Sprintf("%s: a keyword outside any section (global, defaults, frontend, backend, listen …)", words[0])})
			continue
		}
		cur.lines = append(cur.lines, hxLine{n, words})
	}
}

// haproxyWords cuts a line into words as configuration.txt 2.2 says:
// backslash escapes, "weak" and 'strong' quotes, # comments. Environment
// variables in double quotes are kept as written.
func haproxyWords(line string) ([]string, error) {
	var words []string
	var b strings.Builder
	in := false // a word is open
	quote := byte(0)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				b.WriteByte(c)
			}
		case c == '\\' && quote != '\'':
			if i+1 >= len(line) {
				return nil, fmt.Errorf("a backslash ends the line")
			}
			i++
			switch e := line[i]; e {
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'x':
				if i+2 >= len(line) {
					return nil, fmt.Errorf(`\x wants two hex digits`)
				}
				v, err := strconv.ParseUint(line[i+1:i+3], 16, 8)
				if err != nil {
					return nil, fmt.Errorf(`\x%s is not two hex digits`, line[i+1:i+3])
				}
				b.WriteByte(byte(v))
				i += 2
			default:
				b.WriteByte(e)
			}
			in = true
		case quote == '"':
			if c == '"' {
				quote = 0
			} else {
				b.WriteByte(c)
			}
		case c == '"' || c == '\'':
			quote, in = c, true
		case c == '#':
			i = len(line)
		case c == ' ' || c == '\t' || c == '\r':
			if in {
				words = append(words, b.String())
				b.Reset()
				in = false
			}
		default:
			b.WriteByte(c)
			in = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("a %c quote is not closed on its line", quote)
	}
	if in {
		words = append(words, b.String())
	}
	return words, nil
}

// haproxyTime reads a time of configuration.txt 2.5: a number with an
// optional unit (us, ms, s, m, h, d), ms by default.
func haproxyTime(s string) (time.Duration, bool) {
	units := []struct {
		suffix string
		d      time.Duration
	}{{"us", time.Microsecond}, {"ms", time.Millisecond}, {"s", time.Second}, {"m", time.Minute}, {"h", time.Hour}, {"d", 24 * time.Hour}}
	unit := time.Millisecond
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			s, unit = strings.TrimSuffix(s, u.suffix), u.d
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > int64(365*24*time.Hour/unit) {
		return 0, false
	}
	return time.Duration(n) * unit, true
}

// haproxySize reads a stick table's size: k, m and g are 2^10, 2^20, 2^30.
func haproxySize(s string) (int64, bool) {
	mul := int64(1)
	switch {
	case strings.HasSuffix(s, "k"), strings.HasSuffix(s, "K"):
		mul, s = 1<<10, s[:len(s)-1]
	case strings.HasSuffix(s, "m"), strings.HasSuffix(s, "M"):
		mul, s = 1<<20, s[:len(s)-1]
	case strings.HasSuffix(s, "g"), strings.HasSuffix(s, "G"):
		mul, s = 1<<30, s[:len(s)-1]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > (1<<31-1)/mul {
		return 0, false
	}
	return n * mul, true
}

// hxMaxTime is HAProxy's longest timer, 2^31-1 ms (the ticks of
// include/haproxy/ticks.h are 32-bit ms).
const hxMaxTime = (1<<31 - 1) * time.Millisecond

var hxRateStore = regexp.MustCompile(`^http_req_rate\(([^)]*)\)$`)

// tablesOf reads the proxy's stick-table, its ACLs, and timeout tarpit.
func (h *haproxyReader) tablesOf(p *hxProxy) {
	for _, l := range p.lines {
		w := l.words
		switch {
		case w[0] == "stick-table" && p.name != "":
			h.stickTable(p, l)
		case w[0] == "acl" && len(w) >= 3:
			p.acls[w[1]] = append(p.acls[w[1]], hxLine{l.line, w[2:]})
		case w[0] == "timeout" && len(w) >= 2 && w[1] == "tarpit":
			h.m.problemf(h.at(l.line), "timeout tarpit: HAProxy holds a tarpitted request this long before answering; rlsim refuses at once")
		}
	}
}

func (h *haproxyReader) stickTable(p *hxProxy, l hxLine) {
	t := &hxTable{name: p.name, line: l.line}
	w := l.words
	for i := 1; i < len(w); i++ {
		arg := func() string {
			if i+1 < len(w) {
				i++
				return w[i]
			}
			return ""
		}
		switch w[i] {
		case "type":
			typ := arg()
			if typ == "string" || typ == "binary" {
				if i+1 < len(w) && w[i+1] == "len" {
					i += 2
				}
			}
		case "size":
			s := arg()
			n, ok := haproxySize(s)
			if !ok {
				h.m.problemf(h.at(l.line), "stick-table size %q is not a size HAProxy reads", s)
			}
			t.size, t.sizeWords = n, s
		case "expire":
			s := arg()
			d, ok := haproxyTime(s)
			if !ok || d > hxMaxTime {
				h.m.problemf(h.at(l.line), "stick-table expire %q is not a time up to 2^31-1 ms, HAProxy's longest", s)
				d = 0
			}
			t.expire = d
		case "peers":
			s := arg()
			h.m.problemf(h.at(l.line), "stick-table peers %s: the table is replicated to peers, which push their counts to each other; rlsim counts on this HAProxy alone", s)
		case "store":
			for _, item := range strings.Split(arg(), ",") {
				if m := hxRateStore.FindStringSubmatch(item); m != nil {
					d, ok := haproxyTime(m[1])
					if !ok || d%time.Millisecond != 0 || d < 2*time.Millisecond || 2*d > hxMaxTime {
						h.m.problemf(h.at(l.line), "http_req_rate(%s): rlsim's haproxy lane reads a period of whole ms from 2ms to 2^30 ms", m[1])
						continue
					}
					t.period = d
				}
			}
		}
	}
	if p.table != nil {
		h.m.problemf(h.at(l.line), "%s %s has a second stick-table: HAProxy refuses it", p.kind, p.name)
		return
	}
	p.table = t
	h.tables[p.name] = t
}

// hxCond is a condition: terms ANDed (the rate-limit rules rlsim reads
// have no ||).
type hxTerm struct {
	neg   bool
	name  string   // a named ACL
	words []string // an anonymous ACL { … }
	line  int
}

// condition reads the words after if/unless; ok is false for || (or), which
// rlsim does not read.
func condition(w []string, line int) (terms []hxTerm, ok bool) {
	neg := false
	for i := 0; i < len(w); i++ {
		switch w[i] {
		case "||", "or":
			return nil, false
		case "!":
			neg = !neg
			continue
		case "{":
			j := slices.Index(w[i+1:], "}")
			if j < 0 {
				return nil, false
			}
			terms = append(terms, hxTerm{neg: neg, words: w[i+1 : i+1+j], line: line})
			i += j + 1
		default:
			name := w[i]
			n := false
			if strings.HasPrefix(name, "!") {
				name, n = name[1:], true
			}
			terms = append(terms, hxTerm{neg: neg != n, name: name, line: line})
		}
		neg = false
	}
	return terms, true
}

// splitCond cuts an action's words at if/unless.
func splitCond(w []string) (action []string, kw string, cond []string) {
	for i, x := range w {
		if x == "if" || x == "unless" {
			return w[:i], x, w[i+1:]
		}
	}
	return w, "", nil
}

var (
	hxScRate  = regexp.MustCompile(`^sc_http_req_rate\((\d+)(?:,([^)]*))?\)$`)
	hxScNRate = regexp.MustCompile(`^sc([0-2])_http_req_rate(?:\(([^)]*)\))?$`)
	hxSrcRate = regexp.MustCompile(`^src_http_req_rate(?:\(([^)]*)\))?$`)
	hxTrackSc = regexp.MustCompile(`^track-sc([0-2])$`)
)

// hxExpr is one ACL expression read: a rate comparison, a path match, or
// something else rlsim does not say.
type hxExpr struct {
	rate      bool
	sc        int    // the rate's counter (sc forms), -1 for src_http_req_rate
	table     string // the rate's table argument, if any
	limit     int64  // requests per period that pass
	limitOK   bool
	path      string
	prefix    bool
	text      string
	operators string
}

// expr reads an ACL expression: criterion [-m method] [-i] [operator] values.
func expr(w []string) hxExpr {
	e := hxExpr{text: strings.Join(w, " "), sc: -2}
	if len(w) == 0 {
		return e
	}
	crit := w[0]
	rest := w[1:]
	method := ""
	for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
		if rest[0] == "-m" && len(rest) > 1 {
			method = rest[1]
			rest = rest[2:]
			continue
		}
		if rest[0] == "--" {
			rest = rest[1:]
			break
		}
		rest = rest[1:]
	}
	switch {
	case hxScRate.MatchString(crit):
		m := hxScRate.FindStringSubmatch(crit)
		e.rate, e.table = true, m[2]
		e.sc, _ = strconv.Atoi(m[1])
	case hxScNRate.MatchString(crit):
		m := hxScNRate.FindStringSubmatch(crit)
		e.rate, e.table = true, m[2]
		e.sc, _ = strconv.Atoi(m[1])
	case hxSrcRate.MatchString(crit):
		m := hxSrcRate.FindStringSubmatch(crit)
		e.rate, e.table, e.sc = true, m[1], -1
	case crit == "path_beg" || crit == "path" && method == "beg":
		if len(rest) == 1 {
			e.path, e.prefix = rest[0], true
		}
		return e
	case crit == "path" && (method == "" || method == "str"):
		if len(rest) == 1 {
			e.path = rest[0]
		}
		return e
	default:
		return e
	}
	if len(rest) == 2 {
		n, err := strconv.ParseInt(rest[1], 10, 64)
		if err == nil {
			e.operators = rest[0]
			switch rest[0] {
			case "gt": // denied when the rate is greater than N: N pass
				e.limit, e.limitOK = n, true
			case "ge": // denied from N on: N−1 pass
				e.limit, e.limitOK = n-1, true
			}
		}
	}
	return e
}

// trackKey maps a track-sc key expression onto rlsim's key kinds.
func trackKey(k string) (kind string, exact bool) {
	l := strings.ToLower(k)
	switch l {
	case "src":
		return "ip", true
	case "req.hdr(x-api-key)", "hdr(x-api-key)", "req.hdr(apikey)", "hdr(apikey)", "url_param(apikey)", "urlp(apikey)", "url_param(api_key)":
		return "api_key", true
	case "req.hdr(authorization)", "hdr(authorization)", "http_auth_user":
		return "user", true
	case "path", "base":
		return "endpoint", true
	}
	switch {
	case strings.HasPrefix(l, "src,") || strings.HasPrefix(l, "req.hdr(x-forwarded-for") || strings.HasPrefix(l, "hdr(x-forwarded-for") || strings.HasPrefix(l, "hdr_ip("):
		return "ip", false
	case strings.Contains(l, "tenant"):
		return "tenant", strings.HasPrefix(l, "req.hdr(x-tenant") || strings.HasPrefix(l, "hdr(x-tenant")
	case strings.Contains(l, "user") || strings.Contains(l, "auth") || strings.Contains(l, "cook"):
		return "user", false
	case strings.Contains(l, "hdr(") || strings.Contains(l, "url_param(") || strings.Contains(l, "urlp("):
		return "api_key", false
	case strings.Contains(l, "path") || strings.Contains(l, "url"):
		return "endpoint", false
	}
	return "ip", false
}

// rules reads the proxy's http-request rules: tracking, then the rules
// that refuse on a rate.
func (h *haproxyReader) rules(p *hxProxy) {
	var tracks [3]*hxTrack
	for _, l := range p.lines {
		w := l.words
		if len(w) < 2 || w[0] != "http-request" && w[0] != "tcp-request" {
			continue
		}
		args := w[1:]
		if w[0] == "tcp-request" && len(args) > 1 {
			args = args[1:] // tcp-request connection|content|session <action>
		}
		action, kw, cond := splitCond(args)
		if len(action) == 0 {
			continue
		}
		if m := hxTrackSc.FindStringSubmatch(action[0]); m != nil {
			tracks[action[0][8]-'0'] = h.track(p, l, action, kw, cond)
			continue
		}
		if strings.Contains(action[0], "gpc") {
			h.m.problemf(h.at(l.line), "%s %s: general purpose counters are not modelled", w[0], action[0])
			continue
		}
		switch action[0] {
		case "deny", "tarpit", "return", "silent-drop", "reject":
			h.refusal(p, l, w[0], action, kw, cond, tracks)
		}
	}
}

func (h *haproxyReader) track(p *hxProxy, l hxLine, action []string, kw string, cond []string) *hxTrack {
	if len(action) < 2 {
		h.m.problemf(h.at(l.line), "%s without a key", action[0])
		return nil
	}
	t := &hxTrack{line: l.line, expr: action[1]}
	t.sc = int(action[0][8] - '0')
	var exact bool
	t.key, exact = trackKey(action[1])
	if !exact {
		h.m.problemf(h.at(l.line), "%s %s: rlsim has no key for this sample; imported as %s", action[0], action[1], t.key)
	}
	tableName := p.name
	if len(action) >= 4 && action[2] == "table" {
		tableName = action[3]
	}
	t.table = h.tables[tableName]
	if t.table == nil {
		h.m.problemf(h.at(l.line), "%s tracks into table %s, which this file does not define", action[0], tableName)
		return nil
	}
	if kw == "unless" {
		h.m.problemf(h.at(l.line), "%s ... unless: rlsim reads only if conditions; tracked as every request", action[0])
	} else if kw == "if" {
		terms, ok := condition(cond, l.line)
		if !ok {
			h.m.problemf(h.at(l.line), "%s: a condition with || : tracked as every request", action[0])
		}
		for _, term := range terms {
			for _, e := range h.resolve(p, term) {
				switch {
				case e.path != "" && !term.neg && t.endpoint == "":
					t.endpoint, t.prefix = e.path, e.prefix
				default:
					t.other = append(t.other, e.text)
				}
			}
		}
		if len(t.other) > 0 {
			h.m.problemf(h.at(l.line), "%s tracks only requests matching %s: rlsim's limit counts every request to its endpoint", action[0], strings.Join(t.other, " and "))
		}
	}
	if t.table.tracked == nil {
		t.table.tracked = t
	}
	return t
}

// hxPredefined are the predefined ACLs (configuration.txt 7.4).
var hxPredefined = map[string]bool{
	"FALSE": true, "HTTP": true, "HTTP_1.0": true, "HTTP_1.1": true, "HTTP_2.0": true, "HTTP_CONTENT": true,
	"HTTP_URL_ABS": true, "HTTP_URL_SLASH": true, "HTTP_URL_STAR": true, "LOCALHOST": true, "METH_CONNECT": true,
	"METH_DELETE": true, "METH_GET": true, "METH_HEAD": true, "METH_OPTIONS": true, "METH_POST": true,
	"METH_PUT": true, "METH_TRACE": true, "RDP_COOKIE": true, "REQ_CONTENT": true, "TRUE": true, "WAIT_END": true,
}

// resolve is the expressions a term stands for: its own, or a named ACL's
// (several definitions of one name are ORed: read only when there is one).
func (h *haproxyReader) resolve(p *hxProxy, term hxTerm) []hxExpr {
	if term.words != nil {
		e := expr(term.words)
		if term.neg {
			e.text = "!" + e.text
		}
		return []hxExpr{e}
	}
	defs := p.acls[term.name]
	switch len(defs) {
	case 0:
		if hxPredefined[term.name] {
			return []hxExpr{{text: "the predefined ACL " + term.name}}
		}
		return []hxExpr{{text: term.name + " (an ACL this proxy does not define)"}}
	case 1:
		e := expr(defs[0].words)
		e.text = term.name + " (" + e.text + ")"
		if term.neg {
			e.text = "!" + e.text
			e.rate, e.path = false, ""
		}
		return []hxExpr{e}
	}
	return []hxExpr{{text: term.name + " (defined " + strconv.Itoa(len(defs)) + " times: ORed)"}}
}

// refusal reads a deny, tarpit, return or silent-drop rule: a limit when its
// condition compares a tracked request rate.
func (h *haproxyReader) refusal(p *hxProxy, l hxLine, kind string, action []string, kw string, cond []string, tracks [3]*hxTrack) {
	if kw != "if" {
		if kw == "unless" && strings.Contains(strings.Join(cond, " "), "_rate") {
			h.m.problemf(h.at(l.line), "%s ... unless on a rate: rlsim reads only if conditions; not imported", action[0])
		}
		return
	}
	terms, ok := condition(cond, l.line)
	if !ok {
		if strings.Contains(strings.Join(cond, " "), "_rate") {
			h.m.problemf(h.at(l.line), "%s: a condition with || on a rate: not imported", action[0])
		}
		return
	}
	var rate *hxExpr
	endpoint, prefix := "", false
	var other []string
	for _, term := range terms {
		for _, e := range h.resolve(p, term) {
			switch {
			case e.rate && !term.neg && rate == nil:
				rate = &e
			case e.path != "" && !term.neg && endpoint == "":
				endpoint, prefix = e.path, e.prefix
			default:
				other = append(other, e.text)
			}
		}
	}
	if rate == nil {
		for _, o := range other {
			if strings.Contains(o, "_rate") || strings.Contains(o, "gpc") || strings.Contains(o, "conn_cur") {
				h.m.problemf(h.at(l.line), "%s if %s: rlsim reads a rule on sc_http_req_rate alone (not conn_rate, http_err_rate, gpc or conn_cur); not imported", action[0], strings.Join(cond, " "))
				return
			}
		}
		return
	}
	if !rate.limitOK {
		h.m.problemf(h.at(l.line), "%s: %s: rlsim reads a rate compared with gt N or ge N; not imported", action[0], rate.text)
		return
	}
	if rate.limit < 1 {
		h.m.problemf(h.at(l.line), "%s: %s denies every tracked request: not imported", action[0], rate.text)
		return
	}
	var tr *hxTrack
	if rate.sc >= len(tracks) {
		h.m.problemf(h.at(l.line), "%s: %s reads counter sc%d; HAProxy 2.6 tracks sc0 to sc2: not imported", action[0], rate.text, rate.sc)
		return
	}
	if rate.sc >= 0 {
		tr = tracks[rate.sc]
		if tr == nil {
			h.m.problemf(h.at(l.line), "%s: %s reads counter sc%d, which no earlier track-sc%d of %s sets: HAProxy never matches it; not imported", action[0], rate.text, rate.sc, rate.sc, p.name)
			return
		}
		if rate.table != "" && rate.table != tr.table.name {
			h.m.problemf(h.at(l.line), "%s: %s looks the tracked key up in table %s, not the one it is tracked in (%s): not imported", action[0], rate.text, rate.table, tr.table.name)
			return
		}
	} else {
		name := cmpOr(rate.table, p.name)
		t := h.tables[name]
		if t == nil || t.tracked == nil || t.tracked.key != "ip" {
			h.m.problemf(h.at(l.line), "%s: %s reads table %s by source address, which no track-sc src fills: not imported", action[0], rate.text, name)
			return
		}
		tr = t.tracked
	}
	t := tr.table
	if t.period == 0 {
		h.m.problemf(h.at(t.line), "stick-table of %s stores no http_req_rate(<period>): the rate %s reads is not counted; not imported", t.name, rate.text)
		return
	}
	if len(other) > 0 {
		h.m.problemf(h.at(l.line), "%s also depends on %s: rlsim's limit refuses on the rate alone", action[0], strings.Join(other, " and "))
	}
	switch {
	case endpoint != "" && tr.endpoint != "" && endpoint != tr.endpoint:
		h.m.problemf(h.at(l.line), "%s on %s reads a table tracked only on %s: imported for %s", action[0], endpoint, tr.endpoint, endpoint)
	case endpoint != "" && tr.endpoint == "":
		h.m.problemf(h.at(l.line), "%s applies on %s, but table %s counts every request tracked at line %d, not only %s's; rlsim's limit counts %s's alone", action[0], endpoint, t.name, tr.line, endpoint, endpoint)
	case endpoint == "":
		endpoint, prefix = tr.endpoint, tr.prefix
	}
	if prefix {
		h.m.problemf(h.at(l.line), "path_beg %s matches every path under it; rlsim's endpoint is exact: clients must name %s", endpoint, endpoint)
	}
	if why := unstatable(Limit{Limit: rate.limit, Window: t.period}); why != "" {
		h.m.problemf(h.at(l.line), "%s: %s, beyond what a scenario states: not imported", action[0], why)
		return
	}
	status := h.status(l, kind, action)
	name := t.name
	if h.names[name]++; h.names[name] > 1 {
		name = fmt.Sprintf("%s@%d", t.name, l.line)
	}
	h.m.Limits = append(h.m.Limits, Limit{
		Name: name, Key: tr.key, Limit: rate.limit, Window: t.period, Endpoint: endpoint,
		At: []Origin{h.at(l.line), h.at(t.line), h.at(tr.line)},
		Note: fmt.Sprintf("%s %s if %s (HAProxy refuses above %d per %s), tracked by %s in table %s",
			kind, action[0], rate.text, rate.limit, formatDuration(t.period), tr.expr, t.name),
	})
	h.statuses = append(h.statuses, status)
	h.limitTables = append(h.limitTables, t)
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// status is the HTTP status a refusal answers: deny 403 unless deny_status,
// tarpit 500 unless deny_status, return 200 unless status, silent-drop and
// reject none (the connection is closed).
func (h *haproxyReader) status(l hxLine, kind string, action []string) hxStatus {
	at := h.at(l.line)
	code := int64(403)
	find := func(kw string) (int64, bool) {
		for i := 1; i+1 < len(action); i++ {
			if action[i] == kw {
				n, err := strconv.ParseInt(action[i+1], 10, 64)
				return n, err == nil
			}
		}
		return 0, false
	}
	switch action[0] {
	case "deny":
		if n, ok := find("deny_status"); ok {
			code = n
		}
	case "tarpit":
		code = 500
		if n, ok := find("deny_status"); ok {
			code = n
		}
		h.m.problemf(at, "%s tarpit: HAProxy holds the request for timeout tarpit, then answers %d; rlsim refuses at once", kind, code)
	case "return":
		code = 200
		if n, ok := find("status"); ok {
			code = n
		}
	case "silent-drop", "reject":
		h.m.problemf(at, "%s %s closes the connection without an answer; rlsim refuses with a status (403)", kind, action[0])
	}
	if code < 400 || code > 599 {
		h.m.problemf(at, "%s %s answers %d, not a refusal status rlsim gives (400 to 599): the lane answers 403", kind, action[0], code)
		code = 403
	}
	return hxStatus{code, at}
}

// lane is the one haproxy lane: the section {period, limit, expire} is the
// first limit's, the table size is the lane option keys with when_full:
// admit (a full table tracks no new key, so its deny never matches them),
// and deny_status other than 403 is the lane option status.
func (h *haproxyReader) lane() {
	first, t := h.m.Limits[0], h.limitTables[0]
	sec := Fields{{"period", first.Window}, {"limit", first.Limit}}
	var opts Fields
	if st := h.statuses[0]; st.code != 403 {
		opts = append(opts, Field{"status", st.code})
	}
	for _, st := range h.statuses[1:] {
		if st.code != h.statuses[0].code {
			h.m.problemf(st.at, "answers %d where the first limit's rule answers %d: a lane has one status (%d)", st.code, h.statuses[0].code, h.statuses[0].code)
		}
	}
	if t.expire > 0 {
		sec = append(sec, Field{"expire", t.expire})
	} else {
		h.m.Notes = append(h.m.Notes, fmt.Sprintf("Table %s has no expire: HAProxy keeps an entry until the table is full; the lane forgets a key after two idle periods, when its rate is 0 in HAProxy too.", t.name))
	}
	if t.size > 0 {
		opts = append(opts, Field{"keys", int(t.size)}, Field{"when_full", "admit"})
	}
	at := []Origin{h.at(t.line)}
	for i, o := range h.limitTables[1:] {
		at = append(at, h.at(o.line))
		if o.size != t.size {
			h.m.problemf(h.at(o.line), "table %s: size %s, table %s: size %s; the lane option keys is one for every limit (%d)", o.name, o.sizeWords, t.name, t.sizeWords, t.size)
		}
		if o.expire != t.expire {
			h.m.problemf(h.at(o.line), "table %s: expire %s, table %s: expire %s; the lane has one expire for every limit (%s)", o.name, expireWords(o.expire), t.name, expireWords(t.expire), expireWords(t.expire))
		}
		_ = i
	}
	h.m.Lanes = append(h.m.Lanes, Lane{
		Name: "haproxy", Algorithm: "haproxy", Section: sec, Options: opts, At: dedupOrigins(at),
		Note: "HAProxy 2.6 stick table: every tracked request counted, refused ones too; the rate interpolates the previous period, rounded down",
	})
}

func expireWords(d time.Duration) string {
	if d == 0 {
		return "none"
	}
	return formatDuration(d)
}
