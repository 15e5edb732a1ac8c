package scenarios

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Set is one "--set path=value" of a command line: it replaces, or adds, the
// field at Path (the file's own field names, e.g. "clients[1].retry.kind")
// before the file is decoded, so the value passes every check a written one does.
type Set struct {
	Path  string
	Value string // YAML: 20, exponential, [token_bucket, gcra]
	steps []step
	doc   string // a ConfigSet's value, YAML in any style
	label string // a ConfigSet's name in problems
}

// ConfigSet replaces the top-level field (limits, lanes, chain, topology,
// overrides) with value, YAML in any style, as "--config FILE" writes what a
// product's config says in place of the scenario's own; label names it in
// problems ("--config nginx.conf"). An empty value removes the field.
func ConfigSet(field, value, label string) Set {
	return Set{Path: field, steps: []step{{field: field}}, doc: value, label: label}
}

// step is one hop of a path: a field name, or an index into a list.
type step struct {
	field string
	index int // with field "": the list index
}

// ParseSet reads arg, written path=value.
func ParseSet(arg string) (Set, error) {
	path, value, ok := strings.Cut(arg, "=")
	if !ok {
		return Set{}, fmt.Errorf("--set %s: want path=value, e.g. limits[0].limit=20", arg)
	}
	steps, err := parsePath(path)
	if err != nil {
		return Set{}, fmt.Errorf("--set %s: %v", arg, err)
	}
	return Set{Path: path, Value: value, steps: steps}, nil
}

// flag is how an error names the set: the flag as the user wrote it.
func (s Set) flag() string {
	if s.label != "" {
		return s.label
	}
	return "--set " + s.Path + "=" + s.Value
}

// where names a problem of the set s on the scenario file: the file, then the
// flag, as "demo.yaml (--set limits[0].limit=0)", so that with several files
// the user sees which one the set does not fit.
func (s Set) where(file string) string { return file + " (" + s.flag() + ")" }

// parsePath reads a path such as limits[0].limit into its steps.
func parsePath(path string) ([]step, error) {
	if path == "" {
		return nil, fmt.Errorf("the path is empty")
	}
	var steps []step
	rest := path
	for rest != "" {
		i := strings.IndexAny(rest, ".[")
		name := rest
		if i >= 0 {
			name = rest[:i]
		}
		if name == "" {
			return nil, fmt.Errorf("path %q: a field name is missing before %q", path, rest)
		}
		steps = append(steps, step{field: name})
		rest = rest[len(name):]
		for strings.HasPrefix(rest, "[") {
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return nil, fmt.Errorf("path %q: [ without ]", path)
			}
			n, err := strconv.Atoi(rest[1:end])
			if err != nil || n < 0 || strconv.Itoa(n) != rest[1:end] {
				return nil, fmt.Errorf("path %q: index %q is not a whole number from 0", path, rest[1:end])
			}
			steps = append(steps, step{index: n})
			rest = rest[end+1:]
		}
		if rest == "" {
			break
		}
		if rest[0] != '.' || len(rest) == 1 {
			return nil, fmt.Errorf("path %q: want .field or [index] at %q", path, rest)
		}
		rest = rest[1:]
	}
	return steps, nil
}

// applySets writes every set into the document doc (a mapping, or null for an
// empty file), walking the schema beside it so that an unknown field is refused
// with the fields there are. It returns the paths each set wrote or created,
// whose later problems are the set's, not the file's.
func applySets(file string, doc *yaml.Node, sets []Set, errs *errorList) map[string]Set {
	owned := map[string]Set{}
	for _, s := range sets {
		if err := s.apply(doc, owned); err != "" {
			errs.errs = append(errs.errs, &FieldError{File: s.where(file), Msg: err})
		}
	}
	return owned
}

// apply writes s into the document n. On a problem it leaves n as it was, so
// that the fields it would have added raise no problems of their own.
func (s Set) apply(n *yaml.Node, owned map[string]Set) string {
	var undo []func()
	msg := s.walk(n, owned, &undo)
	if msg != "" {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
	return msg
}

func (s Set) walk(n *yaml.Node, owned map[string]Set, undo *[]func()) string {
	v, bad := s.valueNode()
	if bad != "" {
		return bad
	}
	t := reflect.TypeFor[fileSpec]()
	path := ""
	created := map[string]bool{}
	for i, st := range s.steps {
		for n.Kind == yaml.AliasNode && n.Alias != nil {
			n = n.Alias
		}
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		last := i == len(s.steps)-1
		var child **yaml.Node
		if st.field != "" {
			if t.Kind() != reflect.Struct || isScalarType(t) {
				return fmt.Sprintf("%s holds a value, not fields; %s is not there", orTop(path), st.field)
			}
			f, ok := fieldByName(t, st.field)
			path = join(path, st.field)
			if !ok {
				msg := fmt.Sprintf("%s: unknown field", path)
				if m := closest(st.field, fieldNames(t)); m != "" {
					msg += fmt.Sprintf("; did you mean %q?", m)
				}
				return msg + " (fields here: " + strings.Join(fieldNames(t), ", ") + ")"
			}
			t = f.Type
			if child = mappingValue(n, st.field, undo); child == nil {
				if parent(path) == "" {
					return fmt.Sprintf("the file is %s, not a mapping of fields", describe(n))
				}
				return fmt.Sprintf("%s: the file writes %s here, not a mapping of fields", parent(path), describe(n))
			}
		} else {
			path = fmt.Sprintf("%s[%d]", path, st.index)
			if t.Kind() != reflect.Slice {
				return fmt.Sprintf("%s: not a list, so it has no [%d]", parent(path), st.index)
			}
			t = t.Elem()
			if n.Kind != yaml.SequenceNode || st.index >= len(n.Content) {
				have := 0
				if n.Kind == yaml.SequenceNode {
					have = len(n.Content)
				}
				return fmt.Sprintf("%s: no such entry: the list has %d", path, have)
			}
			child = &n.Content[st.index]
		}
		if last && st.field != "" && s.Value == "" && strings.TrimSpace(s.doc) == "" {
			// Empty means absent: the key goes, as if the file never wrote it
			// (a null section would read as an empty one, which is an error).
			removeKey(n, st.field, undo)
			owned[path] = s
			return ""
		}
		if last {
			*child = v
			for p := path; p != ""; p = parent(p) {
				if _, ok := owned[p]; !ok && created[p] {
					owned[p] = s
				}
			}
			owned[path] = s
			return ""
		}
		if *child != nil && (*child).Kind == yaml.ScalarNode && (*child).ShortTag() == "!!null" {
			created[path] = true // a field the file left out or empty, made by s
		}
		n = *child
	}
	return ""
}

func orTop(path string) string {
	if path == "" {
		return "the file"
	}
	return path
}

// isScalarType reports whether t is written as one string (a Duration, a Rate).
func isScalarType(t reflect.Type) bool { return reflect.PointerTo(t).Implements(scalarParserType) }

// mappingValue is the value node of key in n, added (empty) when absent; a null
// n becomes a mapping first, and n written as anything else gives nil. Each
// change appends its reversal to undo.
func mappingValue(n *yaml.Node, key string, undo *[]func()) **yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
		was := *n
		*n = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: was.Line, Column: was.Column}
		*undo = append(*undo, func() { *n = was })
	}
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return &n.Content[i+1]
		}
	}
	before := len(n.Content)
	*undo = append(*undo, func() { n.Content = n.Content[:before] })
	n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key},
		&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null"})
	return &n.Content[len(n.Content)-1]
}

// removeKey takes key and its value out of the mapping n, appending the reversal to undo.
func removeKey(n *yaml.Node, key string, undo *[]func()) {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			was := n.Content
			n.Content = append(append([]*yaml.Node(nil), was[:i]...), was[i+2:]...)
			*undo = append(*undo, func() { n.Content = was })
			return
		}
	}
}

// valueNode is the node s writes: a ConfigSet's document, or Value read by
// the package's valueNode.
func (s Set) valueNode() (*yaml.Node, string) {
	if strings.TrimSpace(s.doc) == "" {
		return valueNode(s.Value)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(s.doc), &doc); err != nil || len(doc.Content) == 0 {
		msg := "empty"
		if err != nil {
			msg = strings.TrimPrefix(err.Error(), "yaml: ")
		}
		return nil, "the value is not valid YAML: " + msg
	}
	v := doc.Content[0]
	zeroLines(v)
	return v, ""
}

// valueNode reads value: a [flow, list], a {flow: mapping} or a quoted string
// as YAML, anything else as the plain text it is (so >= is an op, not the start
// of a folded block), typed as YAML types plain text: 20 a number, true a bool;
// empty means absent, as an empty field in the file does.
func valueNode(value string) (*yaml.Node, string) {
	if value == "" {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null"}, ""
	}
	if !strings.ContainsAny(value[:1], "[{\"'") {
		return &yaml.Node{Kind: yaml.ScalarNode, Value: value}, ""
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(value), &doc); err != nil || len(doc.Content) == 0 {
		msg := "empty"
		if err != nil {
			msg = strings.TrimPrefix(err.Error(), "yaml: ")
		}
		return nil, "the value is not valid YAML: " + msg
	}
	v := doc.Content[0]
	zeroLines(v)
	return v, ""
}

// zeroLines clears the lines of a set's nodes: they are on no line of the file.
func zeroLines(n *yaml.Node) {
	n.Line, n.Column = 0, 0
	for _, c := range n.Content {
		zeroLines(c)
	}
}

// blame hands each problem under a path a set wrote to that set's flag on file.
// A problem elsewhere that a set's value is part of, on a field holding the
// set's (a limit whose burst it wrote) or one compared with it by name ("cap:
// 1s is below base 2s"), stays at its line and names the flags too.
func blame(file string, es Errors, owned map[string]Set) {
	var sets []Set
	for _, s := range owned {
		if !slices.ContainsFunc(sets, func(x Set) bool { return x.flag() == s.flag() }) {
			sets = append(sets, s)
		}
	}
	slices.SortFunc(sets, func(a, b Set) int { return strings.Compare(a.flag(), b.flag()) })
	for _, e := range es {
		var mine Set
		for p := e.Path; p != ""; p = parent(p) {
			if s, ok := owned[p]; ok {
				e.File, e.Line, mine = s.where(file), 0, s
				break
			}
		}
		var with []string
		for _, s := range sets {
			if s.flag() != mine.flag() && s.partOf(e) {
				with = append(with, s.flag())
			}
		}
		if len(with) > 0 {
			e.Msg += " (with " + strings.Join(with, ", ") + ")"
		}
	}
}

// partOf reports whether s's value takes part in the problem e: e is on a field
// holding s's, or names s's field and is beside it (or within it) or names
// what holds it.
func (s Set) partOf(e *FieldError) bool {
	switch {
	case e.Path == "":
		return false
	case strings.HasPrefix(s.Path, e.Path+".") || strings.HasPrefix(s.Path, e.Path+"["):
		return true
	}
	name := s.steps[len(s.steps)-1].field
	if name == "" { // a list entry: it is named by the list
		for i := len(s.steps) - 1; i >= 0 && name == ""; i-- {
			name = s.steps[i].field
		}
	}
	dir := parent(s.Path)
	near := dir == "" || e.Path == dir || strings.HasPrefix(e.Path, dir+".") || strings.HasPrefix(e.Path, dir+"[") ||
		strings.Contains(e.Msg, dir) // "the burst 1 of limits[0]"
	return near && containsWord(e.Msg, name)
}

// containsWord reports whether word appears in s with no letter, digit or _ on
// either side.
func containsWord(s, word string) bool {
	isWord := func(b byte) bool {
		return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
	}
	for i := 0; ; {
		j := strings.Index(s[i:], word)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(word)
		if (j == 0 || !isWord(s[j-1])) && (end == len(s) || !isWord(s[end])) {
			return true
		}
		i = j + 1
	}
}
