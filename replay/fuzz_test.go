package replay

import (
	"testing"
	"time"
)

// FuzzParsers feeds arbitrary lines to every parser and key: no panic, and a
// parsed combined line's parts lie inside the line.
func FuzzParsers(f *testing.F) {
	f.Add([]byte(`192.0.2.1 - alice [01/Mar/2026:10:00:00 +0200] "GET /users/42?x=1 HTTP/1.1" 200 1 "-" "x"`))
	f.Add([]byte(`{"time":"2026-03-01T08:00:00Z","ip":"192.0.2.1","method":"GET","path":"/u/1"}`))
	f.Add([]byte(`2026-03-01T10:00:00+02:00,192.0.2.1,GET,/users/42?x=1,alice`))
	f.Add([]byte(`{"time":1772352000.5,"ip":"2001:db8::1"}`))
	spec, _ := ParseKey("ip+ip/24+endpoint+user+field:api_key+global")
	f.Fuzz(func(t *testing.T, line []byte) {
		csvp := &csvLines{fields: DefaultFields, loc: time.UTC, header: []string{"time", "ip", "method", "path", "user"}}
		for _, p := range []parser{&combined{}, &jsonLines{fields: DefaultFields, loc: time.UTC}, csvp} {
			var r Record
			if p.parse(line, &r) == nil {
				spec.appendKey(nil, &r)
			}
		}
		AppendPath(nil, line)
		ParseLimit(string(line))
	})
}
