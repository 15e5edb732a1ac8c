package importer

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// cnode is one value of a structured config (a TOML document, or a YAML one
// read through yaml.v3's Node) with the line it starts on: a mapping (keys
// in order), a list, or a scalar (string, int64, float64, bool; nil for
// YAML's null).
type cnode struct {
	line  int
	kind  cnodeKind
	keys  []string // a mapping's keys, in order
	vals  []*cnode // a mapping's values, by keys' index
	items []*cnode // a list's items
	val   any      // a scalar's value

	// TOML's rules for what may be added to a table later: a table named by
	// a [header] cannot be named again, an inline table or a static array is
	// closed, an implicit table (made by a dotted key or a deeper header)
	// may still get its own header.
	header, closed, implicit, tableArray bool
}

type cnodeKind uint8

const (
	cScalar cnodeKind = iota
	cMap
	cList
)

// get is the mapping's value for key, matched without regard to case (as
// Traefik's configuration loader, paerser, matches field names), or nil.
func (n *cnode) get(key string) *cnode {
	if n == nil || n.kind != cMap {
		return nil
	}
	for i, k := range n.keys {
		if strings.EqualFold(k, key) {
			return n.vals[i]
		}
	}
	return nil
}

// exact is the mapping's value for key, matched exactly, or nil.
func (n *cnode) exact(key string) *cnode {
	if n == nil || n.kind != cMap {
		return nil
	}
	for i, k := range n.keys {
		if k == key {
			return n.vals[i]
		}
	}
	return nil
}

func (n *cnode) set(key string, v *cnode) {
	n.keys = append(n.keys, key)
	n.vals = append(n.vals, v)
}

// tomlMaxDepth bounds nested arrays and inline tables, so that a hostile
// document cannot exhaust the stack.
const tomlMaxDepth = 64

// parseTOML reads the subset of TOML v1.0.0 (https://toml.io/en/v1.0.0)
// that Traefik's dynamic configuration uses: [tables] and [[arrays of
// tables]] with dotted and quoted keys, key = value with dotted keys, basic
// and literal strings (one line and multi-line), integers (decimal, 0x, 0o,
// 0b, with _), floats (with inf and nan), booleans, arrays and inline tables,
// and # comments. Dates and times are refused (no Traefik field is one).
// Every error is reported, each at file:line; after an error the parser
// resumes at the next line.
func parseTOML(file string, data []byte) (*cnode, []Problem) {
	p := &tomlParser{file: file, s: string(data), line: 1}
	root := &cnode{line: 1, kind: cMap, header: true}
	cur := root
	for {
		p.skipBlank()
		if p.eof() {
			break
		}
		start := p.line
		var err error
		switch {
		case strings.HasPrefix(p.s[p.i:], "[["):
			p.i += 2
			var t *cnode
			t, err = p.tableArray(root)
			if err == nil {
				err = p.expect("]]")
			}
			if err == nil {
				cur = t
			}
		case p.s[p.i] == '[':
			p.i++
			var t *cnode
			t, err = p.table(root, start)
			if err == nil {
				err = p.expect("]")
			}
			if err == nil {
				cur = t
			}
		default:
			err = p.keyValue(cur, 0)
		}
		if err == nil {
			err = p.endOfLine()
		}
		if err != nil {
			p.errs = append(p.errs, Problem{At: Origin{File: file, Line: p.errLine}, Message: err.Error()})
			p.skipLine()
		}
	}
	return root, p.errs
}

type tomlParser struct {
	file    string
	s       string
	i       int
	line    int
	errLine int
	errs    []Problem
}

func (p *tomlParser) eof() bool { return p.i >= len(p.s) }

func (p *tomlParser) errorf(format string, args ...any) error {
	p.errLine = p.line
	return fmt.Errorf(format, args...)
}

// skipBlank skips whitespace, newlines and comments.
func (p *tomlParser) skipBlank() {
	for !p.eof() {
		switch c := p.s[p.i]; {
		case c == ' ' || c == '\t' || c == '\r':
			p.i++
		case c == '\n':
			p.i++
			p.line++
		case c == '#':
			p.skipComment()
		default:
			return
		}
	}
}

func (p *tomlParser) skipSpace() {
	for !p.eof() && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *tomlParser) skipComment() {
	for !p.eof() && p.s[p.i] != '\n' {
		p.i++
	}
}

func (p *tomlParser) skipLine() {
	p.skipComment()
}

func (p *tomlParser) endOfLine() error {
	p.skipSpace()
	if p.eof() {
		return nil
	}
	switch p.s[p.i] {
	case '#':
		p.skipComment()
		return nil
	case '\r', '\n':
		return nil
	}
	return p.errorf("unexpected %q after the value: one key = value a line", p.rest())
}

// rest is what follows on the current line, for an error message.
func (p *tomlParser) rest() string {
	end := strings.IndexByte(p.s[p.i:], '\n')
	r := p.s[p.i:]
	if end >= 0 {
		r = r[:end]
	}
	if len(r) > 20 {
		r = r[:20] + "…"
	}
	return r
}

func (p *tomlParser) expect(tok string) error {
	p.skipSpace()
	if !strings.HasPrefix(p.s[p.i:], tok) {
		return p.errorf("want %q, found %q", tok, p.rest())
	}
	p.i += len(tok)
	return nil
}

// key reads a dotted key: bare or quoted parts separated by dots.
func (p *tomlParser) key() ([]string, error) {
	var parts []string
	for {
		p.skipSpace()
		if p.eof() {
			return nil, p.errorf("a key ends the file")
		}
		switch c := p.s[p.i]; {
		case c == '"':
			s, err := p.basicString()
			if err != nil {
				return nil, err
			}
			parts = append(parts, s)
		case c == '\'':
			s, err := p.literalString()
			if err != nil {
				return nil, err
			}
			parts = append(parts, s)
		case isBareKey(c):
			j := p.i
			for j < len(p.s) && isBareKey(p.s[j]) {
				j++
			}
			parts = append(parts, p.s[p.i:j])
			p.i = j
		default:
			return nil, p.errorf("want a key, found %q", p.rest())
		}
		p.skipSpace()
		if p.eof() || p.s[p.i] != '.' {
			return parts, nil
		}
		p.i++
	}
}

func isBareKey(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// descend walks from t along path, making implicit tables; through an array
// of tables it goes to the array's last table.
func (p *tomlParser) descend(t *cnode, path []string) (*cnode, error) {
	for _, k := range path {
		next := t.exact(k)
		switch {
		case next == nil:
			next = &cnode{line: p.line, kind: cMap, implicit: true}
			t.set(k, next)
		case next.kind == cList && next.tableArray:
			next = next.items[len(next.items)-1]
		case next.kind != cMap:
			return nil, p.errorf("key %q is already a value, not a table", k)
		case next.closed:
			return nil, p.errorf("table %q is an inline table: it cannot be extended", k)
		}
		t = next
	}
	return t, nil
}

// table reads a [header] and returns the table it names.
func (p *tomlParser) table(root *cnode, line int) (*cnode, error) {
	path, err := p.key()
	if err != nil {
		return nil, err
	}
	parent, err := p.descend(root, path[:len(path)-1])
	if err != nil {
		return nil, err
	}
	k := path[len(path)-1]
	t := parent.exact(k)
	switch {
	case t == nil:
		t = &cnode{line: line, kind: cMap, header: true}
		parent.set(k, t)
	case t.kind != cMap || t.closed:
		return nil, p.errorf("[%s] redefines a key already set", strings.Join(path, "."))
	case t.header:
		return nil, p.errorf("table [%s] is defined twice", strings.Join(path, "."))
	case !t.implicit:
		return nil, p.errorf("[%s] redefines a table made by dotted keys", strings.Join(path, "."))
	default:
		t.header, t.implicit, t.line = true, false, line
	}
	return t, nil
}

// tableArray reads a [[header]] and returns the new table it appends.
func (p *tomlParser) tableArray(root *cnode) (*cnode, error) {
	path, err := p.key()
	if err != nil {
		return nil, err
	}
	parent, err := p.descend(root, path[:len(path)-1])
	if err != nil {
		return nil, err
	}
	k := path[len(path)-1]
	arr := parent.exact(k)
	switch {
	case arr == nil:
		arr = &cnode{line: p.line, kind: cList, tableArray: true}
		parent.set(k, arr)
	case arr.kind != cList || !arr.tableArray:
		return nil, p.errorf("[[%s]] names a key that is not an array of tables", strings.Join(path, "."))
	}
	t := &cnode{line: p.line, kind: cMap, header: true}
	arr.items = append(arr.items, t)
	return t, nil
}

// keyValue reads key = value into t.
func (p *tomlParser) keyValue(t *cnode, depth int) error {
	line := p.line
	path, err := p.key()
	if err != nil {
		return err
	}
	if err := p.expect("="); err != nil {
		return err
	}
	p.skipSpace()
	v, err := p.value(depth)
	if err != nil {
		return err
	}
	v.line = line
	parent := t
	for _, k := range path[:len(path)-1] {
		next := parent.exact(k)
		switch {
		case next == nil:
			next = &cnode{line: line, kind: cMap} // made by dotted keys: no [header] may name it
			parent.set(k, next)
		case next.kind != cMap || next.closed || next.header && next != t:
			return p.errorf("key %q is already defined", k)
		}
		parent = next
	}
	k := path[len(path)-1]
	if parent.exact(k) != nil {
		p.errLine = line
		return fmt.Errorf("key %q is defined twice", strings.Join(path, "."))
	}
	parent.set(k, v)
	return nil
}

// value reads one value.
func (p *tomlParser) value(depth int) (*cnode, error) {
	if depth > tomlMaxDepth {
		return nil, p.errorf("values nested deeper than %d", tomlMaxDepth)
	}
	line := p.line
	if p.eof() {
		return nil, p.errorf("a value is missing")
	}
	scalar := func(v any) *cnode { return &cnode{line: line, val: v} }
	switch c := p.s[p.i]; {
	case strings.HasPrefix(p.s[p.i:], `"""`):
		s, err := p.multiBasic()
		return scalar(s), err
	case strings.HasPrefix(p.s[p.i:], "'''"):
		s, err := p.multiLiteral()
		return scalar(s), err
	case c == '"':
		s, err := p.basicString()
		return scalar(s), err
	case c == '\'':
		s, err := p.literalString()
		return scalar(s), err
	case c == '[':
		return p.array(depth)
	case c == '{':
		return p.inlineTable(depth)
	}
	j := p.i
	for j < len(p.s) && !strings.ContainsRune(" \t\r\n,]}#", rune(p.s[j])) {
		j++
	}
	word := p.s[p.i:j]
	p.i = j
	switch word {
	case "true":
		return scalar(true), nil
	case "false":
		return scalar(false), nil
	case "inf", "+inf":
		return scalar(math.Inf(1)), nil
	case "-inf":
		return scalar(math.Inf(-1)), nil
	case "nan", "+nan", "-nan":
		return scalar(math.NaN()), nil
	case "":
		return nil, p.errorf("a value is missing")
	}
	if n, ok := tomlInt(word); ok {
		return scalar(n), nil
	}
	if f, ok := tomlFloat(word); ok {
		return scalar(f), nil
	}
	if len(word) >= 10 && word[4] == '-' && word[7] == '-' || len(word) >= 8 && word[2] == ':' {
		return nil, p.errorf("%q: dates and times are not read (no Traefik field is one)", word)
	}
	return nil, p.errorf("%q is not a TOML value (a string needs quotes)", word)
}

// tomlInt reads a TOML integer: decimal (no leading zero) or 0x, 0o, 0b,
// with underscores between digits.
func tomlInt(w string) (int64, bool) {
	if !underscoresOK(w) {
		return 0, false
	}
	s := strings.ReplaceAll(w, "_", "")
	base := 10
	switch {
	case strings.HasPrefix(s, "0x"):
		base, s = 16, s[2:]
	case strings.HasPrefix(s, "0o"):
		base, s = 8, s[2:]
	case strings.HasPrefix(s, "0b"):
		base, s = 2, s[2:]
	default:
		digits := strings.TrimLeft(s, "+-")
		if len(digits) > 1 && digits[0] == '0' {
			return 0, false
		}
	}
	if base != 10 && (s == "" || s[0] == '+' || s[0] == '-') {
		return 0, false
	}
	n, err := strconv.ParseInt(s, base, 64)
	return n, err == nil
}

func tomlFloat(w string) (float64, bool) {
	if !underscoresOK(w) || !strings.ContainsAny(w, ".eE") {
		return 0, false
	}
	s := strings.ReplaceAll(w, "_", "")
	// TOML wants digits on both sides of the dot.
	if i := strings.IndexByte(s, '.'); i >= 0 && (i == 0 || i+1 >= len(s) || !isDigit(s[i-1]) || !isDigit(s[i+1])) {
		return 0, false
	}
	for _, c := range s {
		if !strings.ContainsRune("0123456789+-.eE", c) {
			return 0, false
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// underscoresOK: every underscore stands between two digits.
func underscoresOK(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] == '_' && (i == 0 || i == len(w)-1 || !isHex(w[i-1]) || !isHex(w[i+1])) {
			return false
		}
	}
	return true
}

func isHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func (p *tomlParser) array(depth int) (*cnode, error) {
	n := &cnode{line: p.line, kind: cList, closed: true}
	p.i++ // [
	for {
		p.skipBlank()
		if p.eof() {
			return nil, p.errorf("an array is not closed with ]")
		}
		if p.s[p.i] == ']' {
			p.i++
			return n, nil
		}
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		n.items = append(n.items, v)
		p.skipBlank()
		if p.eof() {
			return nil, p.errorf("an array is not closed with ]")
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case ']':
		default:
			return nil, p.errorf("want , or ] in an array, found %q", p.rest())
		}
	}
}

func (p *tomlParser) inlineTable(depth int) (*cnode, error) {
	n := &cnode{line: p.line, kind: cMap}
	p.i++ // {
	p.skipSpace()
	if !p.eof() && p.s[p.i] == '}' {
		p.i++
		n.closed = true
		return n, nil
	}
	for {
		if err := p.keyValue(n, depth+1); err != nil {
			return nil, err
		}
		p.skipSpace()
		if p.eof() {
			return nil, p.errorf("an inline table is not closed with }")
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			closeAll(n)
			return n, nil
		default:
			return nil, p.errorf("want , or } in an inline table (it is one line), found %q", p.rest())
		}
	}
}

// closeAll closes an inline table and the tables its dotted keys made.
func closeAll(n *cnode) {
	n.closed = true
	for _, v := range n.vals {
		if v.kind == cMap && !v.closed {
			closeAll(v)
		}
	}
}

func (p *tomlParser) basicString() (string, error) {
	p.i++ // "
	var b strings.Builder
	for {
		if p.eof() || p.s[p.i] == '\n' {
			return "", p.errorf("a string is not closed with \" on its line")
		}
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), nil
		case c == '\\':
			if err := p.escape(&b); err != nil {
				return "", err
			}
		case c < 0x20 && c != '\t' || c == 0x7f:
			return "", p.errorf("a control character in a string")
		default:
			b.WriteByte(c)
			p.i++
		}
	}
}

// escape reads one backslash escape at p.i into b.
func (p *tomlParser) escape(b *strings.Builder) error {
	if p.i+1 >= len(p.s) {
		return p.errorf("a string ends in a backslash")
	}
	c := p.s[p.i+1]
	p.i += 2
	switch c {
	case 'b':
		b.WriteByte('\b')
	case 't':
		b.WriteByte('\t')
	case 'n':
		b.WriteByte('\n')
	case 'f':
		b.WriteByte('\f')
	case 'r':
		b.WriteByte('\r')
	case 'e':
		b.WriteByte(0x1b)
	case '"':
		b.WriteByte('"')
	case '\\':
		b.WriteByte('\\')
	case 'u', 'U':
		n := 4
		if c == 'U' {
			n = 8
		}
		if p.i+n > len(p.s) {
			return p.errorf("\\%c wants %d hex digits", c, n)
		}
		v, err := strconv.ParseUint(p.s[p.i:p.i+n], 16, 32)
		if err != nil || !utf8.ValidRune(rune(v)) {
			return p.errorf("\\%c%s is not a Unicode scalar value", c, p.s[p.i:p.i+n])
		}
		b.WriteRune(rune(v))
		p.i += n
	default:
		return p.errorf("\\%c is not a TOML escape", c)
	}
	return nil
}

func (p *tomlParser) literalString() (string, error) {
	p.i++ // '
	j := p.i
	for j < len(p.s) && p.s[j] != '\'' && p.s[j] != '\n' {
		j++
	}
	if j >= len(p.s) || p.s[j] != '\'' {
		return "", p.errorf("a literal string is not closed with ' on its line")
	}
	s := p.s[p.i:j]
	p.i = j + 1
	return s, nil
}

// multiBasic reads a """multi-line basic string""" (a newline right after
// the opening quotes is dropped; a backslash at a line's end joins lines).
func (p *tomlParser) multiBasic() (string, error) {
	p.i += 3
	p.newlineAfterOpening()
	var b strings.Builder
	for {
		if p.eof() {
			return "", p.errorf(`a """string""" is not closed`)
		}
		if strings.HasPrefix(p.s[p.i:], `"""`) {
			p.i += 3
			// Up to two quotes may end the content.
			for k := 0; k < 2 && !p.eof() && p.s[p.i] == '"'; k++ {
				b.WriteByte('"')
				p.i++
			}
			return b.String(), nil
		}
		c := p.s[p.i]
		switch {
		case c == '\\' && p.lineEndingBackslash():
		case c == '\\':
			if err := p.escape(&b); err != nil {
				return "", err
			}
		case c == '\n':
			b.WriteByte('\n')
			p.i++
			p.line++
		default:
			b.WriteByte(c)
			p.i++
		}
	}
}

// lineEndingBackslash skips a backslash that ends a line and the
// whitespace and newlines after it, reporting whether it did.
func (p *tomlParser) lineEndingBackslash() bool {
	j := p.i + 1
	for j < len(p.s) && (p.s[j] == ' ' || p.s[j] == '\t' || p.s[j] == '\r') {
		j++
	}
	if j >= len(p.s) || p.s[j] != '\n' {
		return false
	}
	p.i = j
	for !p.eof() && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		if p.s[p.i] == '\n' {
			p.line++
		}
		p.i++
	}
	return true
}

func (p *tomlParser) multiLiteral() (string, error) {
	p.i += 3
	p.newlineAfterOpening()
	rest := p.s[p.i:]
	end := strings.Index(rest, "'''")
	if end < 0 {
		return "", p.errorf("a '''string''' is not closed")
	}
	// Up to two quotes may end the content.
	for k := 0; k < 2 && end+3 < len(rest) && rest[end+3] == '\''; k++ {
		end++
	}
	s := rest[:end]
	p.line += strings.Count(s, "\n")
	p.i += end + 3
	return s, nil
}

func (p *tomlParser) newlineAfterOpening() {
	if strings.HasPrefix(p.s[p.i:], "\r\n") {
		p.i += 2
		p.line++
	} else if strings.HasPrefix(p.s[p.i:], "\n") {
		p.i++
		p.line++
	}
}
