package replay

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"time"
)

// csvLines parses CSV whose first line is a header naming the fields. Quoted
// fields may not span lines (each line is one request).
type csvLines struct {
	fields Fields
	loc    *time.Location
	header []string
}

func (p *csvLines) parse(line []byte, r *Record) error {
	r.reset()
	cr := csv.NewReader(bytes.NewReader(line))
	cr.FieldsPerRecord = -1
	row, err := cr.Read()
	if err != nil {
		return fmt.Errorf("not CSV: %v", err)
	}
	if p.header == nil {
		p.header = row
		return errHeader
	}
	if len(row) != len(p.header) {
		return fmt.Errorf("%d fields, the header has %d", len(row), len(p.header))
	}
	for i, v := range row {
		r.names = append(r.names, p.header[i])
		r.values = append(r.values, []byte(v))
	}
	return r.fill(p.fields, p.loc)
}
