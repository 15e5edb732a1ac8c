package scenarios

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// scalarParser is a field type written as one string, like Duration and Rate.
type scalarParser interface {
	parseScalar(s string) error
}

var scalarParserType = reflect.TypeFor[scalarParser]()

// shortForm is a mapping that may also be written as one value alone, which
// then fills the field of that name (a lane written as its algorithm's name).
type shortForm interface {
	shortField() string
}

var shortFormType = reflect.TypeFor[shortForm]()

// short is the field a value alone fills when t, a struct, has a short form.
func short(t reflect.Type) (reflect.StructField, bool) {
	if !t.Implements(shortFormType) {
		return reflect.StructField{}, false
	}
	return fieldByName(t, reflect.Zero(t).Interface().(shortForm).shortField())
}

// maxNodes bounds the nodes a decode visits, so that aliases of aliases cannot make
// a small file expand into an enormous one.
const maxNodes = 100_000

// decoder fills a fileSpec from a yaml.Node tree, checking each field against the
// schema tags and collecting every problem with its line.
type decoder struct {
	errs  *errorList
	lines map[string]int // field path -> line, for later checks
	nodes int
}

func (d *decoder) decode(n *yaml.Node, v reflect.Value, path string, tag reflect.StructTag) {
	if d.nodes++; d.nodes > maxNodes {
		if d.nodes == maxNodes+1 {
			d.errs.add(n.Line, path, "the file expands to too many values (aliases?)")
		}
		return
	}
	for n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n.Style&yaml.TaggedStyle != 0 {
		d.errs.add(n.Line, path, fmt.Sprintf("YAML tags like %s are not part of the scenario format; write the value plainly", n.Tag))
		return
	}
	if _, ok := d.lines[path]; !ok {
		d.lines[path] = n.Line
	}
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
		return // written but empty: the same as absent
	}
	if reflect.PointerTo(v.Type()).Implements(scalarParserType) {
		s, ok := d.scalar(n, path, "a string")
		if !ok {
			return
		}
		if err := v.Addr().Interface().(scalarParser).parseScalar(s); err != nil {
			d.errs.add(n.Line, path, err.Error())
			return
		}
		d.check(n, v, path, tag)
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		// A value in error stays absent, so later checks see the default, not a zero.
		before := d.errs.count()
		e := reflect.New(v.Type().Elem())
		d.decode(n, e.Elem(), path, tag)
		if d.errs.count() == before {
			v.Set(e)
		}
	case reflect.Struct:
		if f, ok := short(v.Type()); ok && n.Kind == yaml.ScalarNode {
			d.decode(n, v.FieldByIndex(f.Index), path, f.Tag)
			return
		}
		d.decodeStruct(n, v, path)
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			d.errs.add(n.Line, path, "want a list, got "+describe(n))
			return
		}
		s := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
		for i, c := range n.Content {
			d.decode(c, s.Index(i), fmt.Sprintf("%s[%d]", path, i), tag)
		}
		v.Set(s)
	case reflect.String:
		s, ok := d.scalar(n, path, "a string")
		if !ok {
			return
		}
		if e := tag.Get("enum"); e != "" {
			valid := enums[e]()
			if !contains(valid, s) {
				d.errs.add(n.Line, path, unknownName(s, valid))
				return
			}
		}
		v.SetString(s)
	case reflect.Int, reflect.Int64:
		if _, ok := d.scalar(n, path, "a whole number"); !ok {
			return
		}
		var i int64
		if n.ShortTag() != "!!int" || n.Decode(&i) != nil || v.OverflowInt(i) {
			d.errs.add(n.Line, path, "want a whole number, got "+describe(n))
			return
		}
		v.SetInt(i)
		if !d.check(n, v, path, tag) {
			v.SetZero() // absent, as a pointer field in error stays: later rules see the default
		}
	case reflect.Uint64:
		if _, ok := d.scalar(n, path, "a whole number"); !ok {
			return
		}
		var i uint64
		if n.ShortTag() != "!!int" || n.Decode(&i) != nil {
			d.errs.add(n.Line, path, "want a whole number from 0 to 18446744073709551615, got "+describe(n))
			return
		}
		v.SetUint(i)
	case reflect.Float64:
		if _, ok := d.scalar(n, path, "a number"); !ok {
			return
		}
		var f float64
		if t := n.ShortTag(); (t != "!!int" && t != "!!float") || n.Decode(&f) != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			d.errs.add(n.Line, path, "want a number, got "+describe(n))
			return
		}
		v.SetFloat(f)
		if !d.check(n, v, path, tag) {
			v.SetZero()
		}
	case reflect.Bool:
		if _, ok := d.scalar(n, path, "true or false"); !ok {
			return
		}
		var b bool
		if n.ShortTag() != "!!bool" || n.Decode(&b) != nil {
			d.errs.add(n.Line, path, "want true or false, got "+describe(n))
			return
		}
		v.SetBool(b)
	default:
		panic(fmt.Sprintf("scenarios.decode: no decoding for %v", v.Type()))
	}
}

func (d *decoder) decodeStruct(n *yaml.Node, v reflect.Value, path string) {
	if n.Kind != yaml.MappingNode {
		d.errs.add(n.Line, path, "want a mapping of fields, got "+describe(n))
		return
	}
	t := v.Type()
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		name := k.Value
		fpath := join(path, name)
		f, ok := fieldByName(t, name)
		if !ok {
			msg := "unknown field"
			if m := closest(name, fieldNames(t)); m != "" {
				msg += fmt.Sprintf("; did you mean %q?", m)
			}
			msg += " (fields here: " + strings.Join(fieldNames(t), ", ") + ")"
			d.errs.add(k.Line, fpath, msg)
			continue
		}
		if seen[name] {
			d.errs.add(k.Line, fpath, "given twice")
			continue
		}
		seen[name] = true
		d.lines[fpath] = k.Line
		if f.Tag.Get("required") == "true" && isNull(val) {
			d.errs.add(k.Line, fpath, fmt.Sprintf("is empty, and it is required (%s)", f.Tag.Get("doc")))
			continue
		}
		d.decode(val, v.FieldByIndex(f.Index), fpath, f.Tag)
	}
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Tag.Get("required") == "true" && !seen[yamlName(f)] {
			d.errs.add(n.Line, path, fmt.Sprintf("missing field %s (%s)", yamlName(f), f.Tag.Get("doc")))
		}
	}
}

// isNull reports whether n, through its aliases, is written but empty.
func isNull(n *yaml.Node) bool {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// scalar returns n's text, or reports that a scalar of the wanted kind was expected.
func (d *decoder) scalar(n *yaml.Node, path, want string) (string, bool) {
	if n.Kind != yaml.ScalarNode {
		d.errs.add(n.Line, path, "want "+want+", got "+describe(n))
		return "", false
	}
	return n.Value, true
}

// check applies the field's check tag to a decoded number or duration,
// reporting whether it passes.
func (d *decoder) check(n *yaml.Node, v reflect.Value, path string, tag reflect.StructTag) bool {
	c := tag.Get("check")
	if c == "" {
		return true
	}
	var neg, zero bool
	show := n.Value
	switch x := v.Interface().(type) {
	case Duration:
		neg, zero = x < 0, x == 0
	case int, int64:
		neg, zero = v.Int() < 0, v.Int() == 0
	case float64:
		neg, zero = x < 0, x == 0
	default:
		return true
	}
	switch {
	case c == "positive" && (neg || zero):
		d.errs.add(n.Line, path, "must be positive, got "+show)
	case c == "nonneg" && neg:
		d.errs.add(n.Line, path, "must not be negative, got "+show)
	default:
		return true
	}
	return false
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return strconv.Quote(n.Value)
	}
	return "something else"
}

func yamlName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	return name
}

func fieldByName(t reflect.Type, name string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		if f := t.Field(i); yamlName(f) == name {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

func fieldNames(t reflect.Type) []string {
	names := make([]string, t.NumField())
	for i := range names {
		names[i] = yamlName(t.Field(i))
	}
	return names
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
