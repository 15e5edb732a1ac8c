package replay

import (
	"strings"
	"testing"
	"time"
)

// A part --fields renames is read from the field of that name; a line
// without that field is an error naming it, never a part read as empty.
func TestRenamedPartMissingFromALineIsAnError(t *testing.T) {
	line := []byte(sampleLines(t, "formats-haproxy.log")[0])
	for _, c := range []struct {
		fields Fields
		field  string
	}{
		{Fields{Time: "time", IP: "no_such_ip", Method: "method", Path: "path", User: "user"}, "no_such_ip"},
		{Fields{Time: "time", IP: "ip", Method: "method", Path: "path", User: "who"}, "who"},
		{Fields{Time: "time", IP: "ip", Method: "verb", Path: "path", User: "user"}, "verb"},
		{Fields{Time: "time", IP: "ip", Method: "method", Path: "uri", User: "user"}, "uri"},
		{Fields{Time: "when", IP: "ip", Method: "method", Path: "path", User: "user"}, "when"},
	} {
		var r Record
		err := newHAProxy(c.fields, time.UTC).parse(line, &r)
		if err == nil || !strings.Contains(err.Error(), `no "`+c.field+`" field`) {
			t.Errorf("fields %+v: %v, want an error naming %q", c.fields, err, c.field)
		}
	}
	// Renamed to a field the line has: read from it.
	var r Record
	f := Fields{Time: "time", IP: "hdr0", Method: "method", Path: "path", User: "server_name"}
	if err := newHAProxy(f, time.UTC).parse(line, &r); err != nil || string(r.IP) != "1wt.eu" || string(r.User) != "srv1" {
		t.Errorf("renamed to hdr0 and server_name: ip %q user %q, %v; want 1wt.eu, srv1", r.IP, r.User, err)
	}
}
