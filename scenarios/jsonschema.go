package scenarios

import (
	"encoding/json"
	"reflect"
	"strings"
)

// JSONSchema describes the scenario file format as a JSON Schema (draft 2020-12),
// for editors' completion and checking. It is generated from the same field
// definitions the loader uses. Rules that span fields (which arrival kinds use
// which fields, cap at least base, ...) are only in the loader.
func JSONSchema() []byte {
	s := schemaOf(reflect.TypeFor[fileSpec](), "")
	s["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	s["$id"] = "https://github.com/rlsim/rlsim/scenario.schema.json"
	s["title"] = "rlsim scenario"
	out, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		panic("scenarios.JSONSchema: " + err.Error())
	}
	return append(out, '\n')
}

const (
	durationPattern = `^(0|([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|ms|s|m|h))+$`
	ratePattern     = `^\s*[0-9]+\s*(/|\sper\s)\s*(([0-9]+(\.[0-9]*)?|\.[0-9]+)?(ns|us|µs|ms|s|m|h))+\s*$`
)

func schemaOf(t reflect.Type, tag reflect.StructTag) map[string]any {
	s := map[string]any{}
	if doc := tag.Get("doc"); doc != "" {
		s["description"] = doc
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	check := tag.Get("check")
	switch t {
	case reflect.TypeFor[Duration]():
		s["type"] = "string"
		s["pattern"] = durationPattern
		s["examples"] = []string{"250ms", "1.5s", "2m"}
		return s
	case reflect.TypeFor[threshold]():
		s["type"] = []string{"number", "string"}
		s["examples"] = []any{"99%", "2/s", "250ms", 1.2}
		return s
	case reflect.TypeFor[Rate]():
		s["type"] = "string"
		s["pattern"] = ratePattern
		s["examples"] = []string{"10/s", "100/1m", "5 per 2s"}
		return s
	}
	if f, ok := short(t); ok {
		s["anyOf"] = []any{schemaOf(f.Type, f.Tag), objectSchema(t, map[string]any{})}
		return s
	}
	switch t.Kind() {
	case reflect.Struct:
		objectSchema(t, s)
	case reflect.Slice:
		s["type"] = "array"
		// The element carries the enum and check, not the description.
		elemTag := reflect.StructTag(strings.TrimSpace(`enum:"` + tag.Get("enum") + `" check:"` + check + `"`))
		s["items"] = schemaOf(t.Elem(), elemTag)
	case reflect.String:
		s["type"] = "string"
		if e := tag.Get("enum"); e != "" {
			s["enum"] = enums[e]()
		}
	case reflect.Int, reflect.Int64, reflect.Uint64:
		s["type"] = "integer"
		switch {
		case check == "positive":
			s["minimum"] = 1
		case check == "nonneg" || t.Kind() == reflect.Uint64:
			s["minimum"] = 0
		}
	case reflect.Float64:
		s["type"] = "number"
		switch check {
		case "positive":
			s["exclusiveMinimum"] = 0
		case "nonneg":
			s["minimum"] = 0
		}
	case reflect.Bool:
		s["type"] = "boolean"
	}
	return s
}

// objectSchema describes struct t in s, as an object of its fields, and returns s.
func objectSchema(t reflect.Type, s map[string]any) map[string]any {
	s["type"] = "object"
	s["additionalProperties"] = false
	props := map[string]any{}
	var required []string
	for i := range t.NumField() {
		f := t.Field(i)
		props[yamlName(f)] = schemaOf(f.Type, f.Tag)
		if f.Tag.Get("required") == "true" {
			required = append(required, yamlName(f))
		}
	}
	s["properties"] = props
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}
