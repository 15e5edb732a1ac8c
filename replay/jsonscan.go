package replay

import "unicode/utf8"

// jsonScan reads the JSON object on line into r's fields as jsonLines.read
// does with encoding/json, without allocating once its field names are known:
// values point into the line. It reads only what it can read exactly; ok is
// false (r then holds nothing worth keeping) for a line it leaves to
// encoding/json: anything not valid JSON, a string with an escape or invalid
// UTF-8, a key given twice (encoding/json keeps the last).
func (p *jsonLines) scan(line []byte, r *Record) (ok bool) {
	r.reset()
	p.names.n = 0
	s := jsonScanner{b: line, names: &p.names, keys: p.keys[:0]}
	s.space()
	ok = s.object(r, "", 0)
	p.keys = s.keys[:0]
	if s.space(); !ok || s.i != len(line) {
		return false
	}
	if s.nested { // {"a":{"b":1},"a.b":2} names two fields a.b
		for i, n := range r.names {
			for _, m := range r.names[i+1:] {
				if n == m {
					return false
				}
			}
		}
	}
	return true
}

// jsonNames interns field names, so that a line's names cost nothing once
// seen; at most maxNames are kept (a log of ever-new keys allocates them).
type jsonNames struct {
	m   map[string]string
	buf []byte
	// last are the names of the line before, in order, and n how many of this
	// line's have been asked for: lines of a log share their keys' order, so
	// a name is most often the one at the same place in the line before.
	last []string
	n    int
}

const maxNames = 4096

// maxScanned is the most keys jsonScan holds at once (checking for a key
// given twice takes time growing with their square), maxSkipped the deepest
// it skips arrays and objects: encoding/json reads bigger lines.
const maxScanned, maxSkipped = 64, 1000

// name is prefix.key (key alone without a prefix), interned.
func (n *jsonNames) name(prefix string, key []byte) string {
	i := n.n
	n.n++
	if i < len(n.last) {
		if s := n.last[i]; isName(s, prefix, key) {
			return s
		}
	}
	s := n.intern(prefix, key)
	if i < len(n.last) {
		n.last[i] = s
	} else if i == len(n.last) && i < maxScanned {
		n.last = append(n.last, s)
	}
	return s
}

// isName reports whether s is prefix.key (key alone without a prefix).
func isName(s, prefix string, key []byte) bool {
	if prefix == "" {
		return s == string(key)
	}
	return len(s) == len(prefix)+1+len(key) && s[:len(prefix)] == prefix && s[len(prefix)] == '.' && s[len(prefix)+1:] == string(key)
}

func (n *jsonNames) intern(prefix string, key []byte) string {
	b := n.buf[:0]
	if prefix != "" {
		b = append(append(b, prefix...), '.')
	}
	b = append(b, key...)
	n.buf = b
	if s, ok := n.m[string(b)]; ok {
		return s
	}
	s := string(b)
	if n.m == nil {
		n.m = make(map[string]string)
	}
	if len(n.m) < maxNames {
		n.m[s] = s
	}
	return s
}

type jsonScanner struct {
	b     []byte
	i     int
	names *jsonNames
	keys  [][]byte // the keys of the objects being read, to find one given twice
	// nested: a nested object's fields were read (their names may repeat another's)
	nested bool
}

func (s *jsonScanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *jsonScanner) peek() byte {
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// object reads {...} at s.i, adding its scalar fields (and those of objects
// nested up to maxNesting deep, as addFields does) to r after prefix.
func (s *jsonScanner) object(r *Record, prefix string, depth int) bool {
	if s.peek() != '{' {
		return false
	}
	s.i++
	s.space()
	if s.peek() == '}' {
		s.i++
		return true
	}
	level := len(s.keys)
	defer func() { s.keys = s.keys[:level] }()
	for {
		s.space()
		key, ok := s.str()
		if !ok || len(s.keys) >= maxScanned {
			return false
		}
		for _, k := range s.keys[level:] {
			if string(k) == string(key) {
				return false // encoding/json keeps the last: leave it to it
			}
		}
		s.keys = append(s.keys, key)
		s.space()
		if s.peek() != ':' {
			return false
		}
		s.i++
		s.space()
		switch c := s.peek(); {
		case c == '"':
			v, ok := s.str()
			if !ok {
				return false
			}
			r.names = append(r.names, s.names.name(prefix, key))
			r.values = append(r.values, v)
		case c == '{' && depth < maxNesting:
			s.nested = true
			if !s.object(r, s.names.name(prefix, key), depth+1) {
				return false
			}
		case c == '{' || c == '[':
			if !s.skip(0) {
				return false
			}
		case c == 'n':
			if !s.literal("null") {
				return false
			}
		case c == 't' || c == 'f':
			start := s.i
			if !s.literal("true") && !s.literal("false") {
				return false
			}
			r.names = append(r.names, s.names.name(prefix, key))
			r.values = append(r.values, s.b[start:s.i])
		default:
			start := s.i
			if !s.number() {
				return false
			}
			r.names = append(r.names, s.names.name(prefix, key))
			r.values = append(r.values, s.b[start:s.i])
		}
		s.space()
		switch s.peek() {
		case ',':
			s.i++
		case '}':
			s.i++
			return true
		default:
			return false
		}
	}
}

// str reads a string without escapes at s.i: its text.
func (s *jsonScanner) str() ([]byte, bool) {
	if s.peek() != '"' {
		return nil, false
	}
	start := s.i + 1
	ascii := true
	for j := start; j < len(s.b); j++ {
		switch c := s.b[j]; {
		case c == '"':
			v := s.b[start:j]
			if !ascii && !utf8.Valid(v) {
				return nil, false
			}
			s.i = j + 1
			return v, true
		case c == '\\' || c < 0x20:
			return nil, false
		case c >= 0x80:
			ascii = false
		}
	}
	return nil, false
}

func (s *jsonScanner) literal(lit string) bool {
	if len(s.b)-s.i >= len(lit) && string(s.b[s.i:s.i+len(lit)]) == lit {
		s.i += len(lit)
		return true
	}
	return false
}

// number reads a JSON number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *jsonScanner) number() bool {
	b, i := s.b, s.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
			n++
		}
		return n
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	s.i = i
	return true
}

// skip reads any value at s.i without keeping it (arrays, objects nested too deep).
func (s *jsonScanner) skip(depth int) bool {
	if depth > maxSkipped {
		return false
	}
	s.space()
	switch c := s.peek(); {
	case c == '"':
		_, ok := s.str()
		return ok
	case c == '{' || c == '[':
		end := byte('}')
		if c == '[' {
			end = ']'
		}
		s.i++
		s.space()
		if s.peek() == end {
			s.i++
			return true
		}
		for {
			if c == '{' {
				s.space()
				if _, ok := s.str(); !ok {
					return false
				}
				s.space()
				if s.peek() != ':' {
					return false
				}
				s.i++
			}
			if !s.skip(depth + 1) {
				return false
			}
			s.space()
			switch s.peek() {
			case ',':
				s.i++
			case end:
				s.i++
				return true
			default:
				return false
			}
		}
	case c == 'n':
		return s.literal("null")
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	}
	return s.number()
}
