package replay

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// jsonLines parses one JSON object per line; its string, number and boolean
// fields are the record's fields (nested objects are skipped).
type jsonLines struct {
	fields Fields
	loc    *time.Location
	obj    map[string]json.RawMessage
}

func (p *jsonLines) parse(line []byte, r *Record) error {
	r.reset()
	clear(p.obj)
	if p.obj == nil {
		p.obj = make(map[string]json.RawMessage)
	}
	if err := json.Unmarshal(line, &p.obj); err != nil {
		return fmt.Errorf("not a JSON object: %v", err)
	}
	for name, raw := range p.obj {
		v, ok := scalar(raw)
		if ok {
			r.names = append(r.names, name)
			r.values = append(r.values, v)
		}
	}
	return r.fill(p.fields, p.loc)
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
