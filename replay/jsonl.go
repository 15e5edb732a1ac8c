package replay

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// jsonLines parses one JSON object per line; its string, number and boolean
// fields are the record's fields, those of a nested object named by their
// path: {"request":{"ip":"192.0.2.1"}} has the field request.ip (arrays are
// skipped).
type jsonLines struct {
	fields Fields
	loc    *time.Location
	obj    map[string]json.RawMessage
	names  jsonNames // interned by scan
	keys   [][]byte  // scan's
}

func (p *jsonLines) parse(line []byte, r *Record) error {
	if err := p.read(line, r); err != nil {
		return err
	}
	return r.fill(p.fields, p.loc)
}

// read sets r's fields from the object on line, without its parts: by scan,
// or encoding/json for the lines scan leaves to it.
func (p *jsonLines) read(line []byte, r *Record) error {
	if p.scan(line, r) {
		return nil
	}
	r.reset()
	clear(p.obj)
	if p.obj == nil {
		p.obj = make(map[string]json.RawMessage)
	}
	if err := json.Unmarshal(line, &p.obj); err != nil {
		return fmt.Errorf("not a JSON object: %v", err)
	}
	addFields(r, "", p.obj, 0)
	return nil
}

// maxNesting is how deep nested objects' fields are read.
const maxNesting = 8

// addFields adds obj's scalar fields to r, their names after prefix.
func addFields(r *Record, prefix string, obj map[string]json.RawMessage, depth int) {
	for name, raw := range obj {
		if prefix != "" {
			name = prefix + "." + name
		}
		if len(raw) > 0 && raw[0] == '{' && depth < maxNesting {
			var sub map[string]json.RawMessage
			if json.Unmarshal(raw, &sub) == nil {
				addFields(r, name, sub, depth+1)
			}
			continue
		}
		if v, ok := scalar(raw); ok {
			r.names = append(r.names, name)
			r.values = append(r.values, v)
		}
	}
}

// scalar is a JSON string's text or a number's or boolean's literal.
func scalar(raw json.RawMessage) ([]byte, bool) {
	if len(raw) == 0 {
		return nil, false
	}
	switch raw[0] {
	case '"':
		s, err := strconv.Unquote(string(raw))
		if err != nil {
			var u string
			if json.Unmarshal(raw, &u) != nil {
				return nil, false
			}
			s = u
		}
		return []byte(s), true
	case '{', '[', 'n':
		return nil, false
	}
	return raw, true
}
