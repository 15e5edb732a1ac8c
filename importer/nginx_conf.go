package importer

// The nginx configuration syntax, as nginx 1.22.1 reads it
// (src/core/ngx_conf_file.c at tag release-1.22.1: ngx_conf_read_token,
// ngx_conf_parse, ngx_conf_include): directives of whitespace-separated
// words ended by ";" or by a "{ … }" block; "#" begins a comment where a word
// could begin; a word may be quoted with "…" or '…'; a backslash keeps the
// next character from ending a word, and \" \' \\ \t \r \n are unescaped
// in every word, quoted or not; "${" does not open a block; `include`
// splices the files it names (a glob, sorted) where it stands, in any
// context, paths relative to the prefix (the main file's directory).

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// ngxDirective is one directive: its name, its arguments unquoted and
// unescaped, and its block when it has one.
type ngxDirective struct {
	name  string
	args  []string
	block []*ngxDirective // nil without a block
	brace bool            // ended by "{": has a block, maybe empty
	at    Origin
}

// ngxBlockDirectives are the directives this reader reads, true for those
// that take a block (their ngx_command_t has NGX_CONF_BLOCK).
var ngxBlockDirectives = map[string]bool{
	"http": true, "server": true, "location": true, "events": true, "map": true, "geo": true, "if": true,
	"limit_except": true, "upstream": true,
	"limit_req_zone": false, "limit_req": false, "limit_req_status": false, "limit_req_dry_run": false,
	"limit_req_log_level": false, "set": false, "log_format": false, "server_name": false, "return": false,
	"include": false,
}

// ngxConfBuffer is NGX_CONF_BUFFER (ngx_conf_file.c line 11): a word of this
// many bytes or more is "too long parameter".
const ngxConfBuffer = 4096

// ngxToken is what ngxScanner.next found.
type ngxToken int

const (
	ngxStatement  ngxToken = iota // words ended by ";" (NGX_OK)
	ngxBlockStart                 // words ended by "{" (NGX_CONF_BLOCK_START)
	ngxBlockDone                  // "}" (NGX_CONF_BLOCK_DONE)
	ngxFileDone                   // the end of the file (NGX_CONF_FILE_DONE)
)

// ngxScanner is ngx_conf_read_token over one file's bytes.
type ngxScanner struct {
	file string
	data []byte
	pos  int
	line int
}

// next reads the next directive's words, as ngx_conf_read_token (lines
// 503–817), with the line of its first word.
func (s *ngxScanner) next() (words []string, line int, tok ngxToken, err error) {
	var (
		needSpace, sharpComment, variable, quoted, sQuoted, dQuoted bool
		lastSpace                                                   = true
		start                                                       = s.pos
		startLine                                                   = s.line
	)
	line = s.line
	for {
		if s.pos >= len(s.data) {
			if len(words) > 0 || !lastSpace {
				return nil, s.line, 0, s.errorf(`unexpected end of file, expecting ";" or "}"`)
			}
			return nil, s.line, ngxFileDone, nil
		}
		if !lastSpace && s.pos-start >= ngxConfBuffer {
			s.line = startLine
			if dQuoted || sQuoted {
				return nil, startLine, 0, s.errorf("too long parameter, probably missing terminating quote character")
			}
			return nil, startLine, 0, s.errorf("too long parameter %q... started", string(s.data[start:start+10]))
		}
		ch := s.data[s.pos]
		s.pos++
		if ch == '\n' {
			s.line++
			sharpComment = false
		}
		if sharpComment {
			continue
		}
		if quoted {
			quoted = false
			continue
		}
		if needSpace {
			switch ch {
			case ' ', '\t', '\r', '\n':
				lastSpace, needSpace = true, false
				continue
			case ';':
				return words, line, ngxStatement, nil
			case '{':
				return words, line, ngxBlockStart, nil
			case ')':
				lastSpace, needSpace = true, false
			default:
				return nil, s.line, 0, s.errorf("unexpected %q", string(ch))
			}
		}
		if lastSpace {
			start, startLine = s.pos-1, s.line
			switch ch {
			case ' ', '\t', '\r', '\n':
				continue
			case ';', '{':
				if len(words) == 0 {
					return nil, s.line, 0, s.errorf("unexpected %q", string(ch))
				}
				if ch == '{' {
					return words, line, ngxBlockStart, nil
				}
				return words, line, ngxStatement, nil
			case '}':
				if len(words) != 0 {
					return nil, s.line, 0, s.errorf(`unexpected "}"`)
				}
				return nil, s.line, ngxBlockDone, nil
			case '#':
				sharpComment = true
				continue
			case '\\':
				quoted, lastSpace = true, false
			case '"':
				start++
				dQuoted, lastSpace = true, false
			case '\'':
				start++
				sQuoted, lastSpace = true, false
			case '$':
				variable, lastSpace = true, false
			default:
				lastSpace = false
			}
			if len(words) == 0 {
				line = s.line
			}
			continue
		}
		if ch == '{' && variable {
			continue
		}
		variable = false
		if ch == '\\' {
			quoted = true
			continue
		}
		if ch == '$' {
			variable = true
			continue
		}
		found := false
		switch {
		case dQuoted:
			if ch == '"' {
				dQuoted, needSpace, found = false, true, true
			}
		case sQuoted:
			if ch == '\'' {
				sQuoted, needSpace, found = false, true, true
			}
		case ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == ';' || ch == '{':
			lastSpace, found = true, true
		}
		if !found {
			continue
		}
		words = append(words, ngxUnescape(s.data[start:s.pos-1]))
		switch ch {
		case ';':
			return words, line, ngxStatement, nil
		case '{':
			return words, line, ngxBlockStart, nil
		}
	}
}

// ngxUnescape copies a word as ngx_conf_read_token does (lines 770–805):
// \" \' \\ lose the backslash, \t \r \n become the control characters, any
// other backslash stays.
func ngxUnescape(b []byte) string {
	if !slices.Contains(b, '\\') {
		return string(b)
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] == '\\' && i+1 < len(b) {
			switch b[i+1] {
			case '"', '\'', '\\':
				i++
			case 't':
				out = append(out, '\t')
				i++
				continue
			case 'r':
				out = append(out, '\r')
				i++
				continue
			case 'n':
				out = append(out, '\n')
				i++
				continue
			}
		}
		out = append(out, b[i])
	}
	return string(out)
}

func (s *ngxScanner) errorf(format string, args ...any) error {
	return &SyntaxError{Product: "nginx", Problems: []Problem{{At: Origin{File: s.file, Line: s.line}, Message: fmt.Sprintf(format, args...)}}}
}

// ngxConf reads a config and the files it includes.
type ngxConf struct {
	src   Source
	files []string // every file read, the main one first
	bytes int      // read in all
	open  []string // the files being read, for include cycles
	// context is the block an include being read stands in.
	context string
	// includeProblems are includes that could not be read without a
	// reader (Source.Read nil): Problems, not errors.
	problems []Problem
}

// parseNginx reads src's file and its includes into directives.
func parseNginx(src Source) ([]*ngxDirective, *ngxConf, error) {
	c := &ngxConf{src: src, files: []string{src.Path}, bytes: len(src.Data)}
	ds, err := c.parseFile(src.Path, src.Data)
	return ds, c, err
}

// parseFile parses one whole file: a "}" without its "{" is an error, as is
// a block the file does not close (ngx_conf_parse, lines 258–276).
func (c *ngxConf) parseFile(name string, data []byte) ([]*ngxDirective, error) {
	c.open = append(c.open, filepath.Clean(name))
	defer func() { c.open = c.open[:len(c.open)-1] }()
	s := &ngxScanner{file: name, data: data, line: 1}
	return c.parseBlock(s, false, c.context)
}

// ngxChecked are the contexts whose directives ngxBlockDirectives names
// (an upstream's server takes no block; a map's or geo's entries are not
// directives at all).
var ngxChecked = map[string]bool{"": true, "http": true, "server": true, "location": true, "if": true, "limit_except": true}

func (c *ngxConf) parseBlock(s *ngxScanner, inBlock bool, context string) ([]*ngxDirective, error) {
	var out []*ngxDirective
	for {
		words, line, tok, err := s.next()
		if err != nil {
			return nil, err
		}
		switch tok {
		case ngxBlockDone:
			if !inBlock {
				return nil, s.errorf(`unexpected "}"`)
			}
			return out, nil
		case ngxFileDone:
			if inBlock {
				return nil, s.errorf(`unexpected end of file, expecting "}"`)
			}
			return out, nil
		}
		d := &ngxDirective{name: words[0], args: words[1:], at: Origin{File: s.file, Line: line}}
		// ngx_conf_handler (lines 397–410) checks a directive's ending before
		// it runs, at the line of its ";" or "{": for the directives read here.
		if block, known := ngxBlockDirectives[d.name]; known && ngxChecked[context] && block != (tok == ngxBlockStart) {
			if block {
				return nil, s.errorf(`directive %q has no opening "{"`, d.name)
			}
			return nil, s.errorf(`directive %q is not terminated by ";"`, d.name)
		}
		if tok == ngxBlockStart {
			d.brace = true
			if d.block, err = c.parseBlock(s, true, d.name); err != nil {
				return nil, err
			}
			if d.block == nil {
				d.block = []*ngxDirective{}
			}
		}
		if d.name == "include" && !d.brace && len(d.args) == 1 {
			saved := c.context
			c.context = context
			inc, err := c.include(d)
			c.context = saved
			if err != nil {
				return nil, err
			}
			out = append(out, inc...)
			continue
		}
		out = append(out, d)
	}
}

// include reads the files an include names (ngx_conf_include, lines
// 821–883): a name with *, ? or [ is a glob, its matches read in order,
// none an empty include; any other name must be read. Relative names are
// the prefix's: the directory of the main file (nginx -c sets the prefix of
// the configuration there, src/core/nginx.c ngx_process_options).
func (c *ngxConf) include(d *ngxDirective) ([]*ngxDirective, error) {
	name := d.args[0]
	if c.src.Read == nil {
		c.problems = append(c.problems, Problem{At: d.at, Message: fmt.Sprintf("include %s is not read (no files beside this config): its directives are missing", name)})
		return nil, nil
	}
	path := resolve(c.src.Path, name)
	names := []string{path}
	if strings.ContainsAny(name, "*?[") {
		m, err := filepath.Glob(path)
		if err != nil {
			return nil, ngxErrorAt(d.at, "include %s: %v", name, err)
		}
		slices.Sort(m)
		names = m
	}
	var out []*ngxDirective
	for _, p := range names {
		if slices.Contains(c.open, filepath.Clean(p)) {
			return nil, ngxErrorAt(d.at, "include %s: %s includes itself", name, p)
		}
		if len(c.files) >= MaxIncludes {
			return nil, ngxErrorAt(d.at, "include %s: more than %d files in one config", name, MaxIncludes)
		}
		data, err := c.src.Read(p)
		if err != nil {
			return nil, ngxErrorAt(d.at, "include %s: %v", name, err)
		}
		c.bytes += len(data)
		if c.bytes > MaxConfigSize {
			return nil, ngxErrorAt(d.at, "include %s: the config and its includes are larger than %d MB together", name, MaxConfigSize>>20)
		}
		if !slices.Contains(c.files, p) {
			c.files = append(c.files, p)
		}
		ds, err := c.parseFile(p, data)
		if err != nil {
			return nil, err
		}
		out = append(out, ds...)
	}
	return out, nil
}

func ngxErrorAt(at Origin, format string, args ...any) error {
	return &SyntaxError{Product: "nginx", Problems: []Problem{{At: at, Message: fmt.Sprintf(format, args...)}}}
}
