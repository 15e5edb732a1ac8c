package replay

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// albM12Line is the ALB example of alb.go's doc (AWS's page), 30 fields.
const albM12Line = `http 2018-07-02T22:23:00.186641Z app/my-loadbalancer/50dc6c495c0c9188 192.168.131.39:2817 10.0.0.1:80 0.000 0.001 0.000 200 200 34 366 "GET http://www.example.com:80/ HTTP/1.1" "curl/7.46.0" - - arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067 "Root=1-58337262-36d228ad5d99923122bbe354" "-" "-" 0 2018-07-02T22:22:48.364000Z "forward" "-" "-" "10.0.0.1:80" "200" "-" "-" TID_1234abcd5678ef90`

// splitAWSFields splits line into its fields, a quoted one with its quotes.
func splitAWSFields(line string) []string {
	var out []string
	for i := 0; i < len(line); {
		end := strings.IndexByte(line[i:], ' ')
		if line[i] == '"' {
			end = strings.IndexByte(line[i+1:], '"') + 2
		}
		if end < 0 {
			end = len(line) - i
		}
		out = append(out, line[i:i+end])
		i += end + 1
	}
	return out
}

// TestALBEntryFieldsDownToRequestCreationTime: docs/replay.md: an ALB entry
// written before the last fields were added has fewer, down to
// request_creation_time; one field short of it is refused, naming the count;
// fields past conn_trace_id are field_31 on. A Classic entry needs all of its.
func TestALBEntryFieldsDownToRequestCreationTime(t *testing.T) {
	fields := splitAWSFields(albM12Line)
	if len(fields) != len(albFields) {
		t.Fatalf("the example has %d fields, want %d", len(fields), len(albFields))
	}
	least := 0
	for i, name := range albFields {
		if name == "request_creation_time" {
			least = i + 1
		}
	}
	want := time.Date(2018, 7, 2, 22, 22, 48, 364000000, time.UTC)
	for n := least - 2; n <= len(fields)+2; n++ {
		var line string
		if n <= len(fields) {
			line = strings.Join(fields[:n], " ")
		} else {
			line = albM12Line
			for k := len(fields); k < n; k++ {
				line += fmt.Sprintf(" x%d", k+1)
			}
		}
		p := newAWS("alb", DefaultFields, time.UTC)
		var r Record
		err := p.parse([]byte(line), &r)
		if n < least {
			if wantErr := fmt.Sprintf("not an alb access log: %d fields, want %d", n, len(albFields)); err == nil || err.Error() != wantErr {
				t.Errorf("%d fields: err %v, want %q", n, err, wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%d fields: %v", n, err)
			continue
		}
		if got := time.Unix(0, r.At).UTC(); !got.Equal(want) || string(r.IP) != "192.168.131.39" || string(r.Path) != "/" {
			t.Errorf("%d fields: at %v, ip %s, path %s; want %v, 192.168.131.39, /", n, got, r.IP, r.Path, want)
		}
		if n > len(fields) {
			if v, ok := r.field(fmt.Sprintf("field_%d", n)); !ok || string(v) != fmt.Sprintf("x%d", n) {
				t.Errorf("%d fields: field_%d = %q, %v; want x%d", n, n, v, ok, n)
			}
		}
	}
	elb := `2015-05-13T23:39:43.945958Z my-loadbalancer 192.168.131.39:2817 10.0.0.1:80 0.000073 0.001048 0.000057 200 200 0 29 "GET http://www.example.com:80/ HTTP/1.1" "curl/7.38.0" - -`
	ef := splitAWSFields(elb)
	for n := len(ef) - 1; n <= len(ef); n++ {
		p := newAWS("elb", DefaultFields, time.UTC)
		var r Record
		err := p.parse([]byte(strings.Join(ef[:n], " ")), &r)
		if (err == nil) != (n == len(elbFields)) {
			t.Errorf("Classic entry of %d fields: err %v", n, err)
		}
	}
}
