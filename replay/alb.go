package replay

import (
	"fmt"
	"time"
)

// albFields are the fields of an Application Load Balancer access-log entry,
// in order, named as AWS names them ("Access log entries", Elastic Load
// Balancing User Guide for Application Load Balancers,
// https://docs.aws.amazon.com/elasticloadbalancing/latest/application/load-balancer-access-logs.html,
// as of 2024: conn_trace_id is the last added). Entries are space-separated,
// some fields quoted; AWS may add fields at the end, which are read as
// field_31, field_32, ….
var albFields = []string{"type", "time", "elb", "client:port", "target:port",
	"request_processing_time", "target_processing_time", "response_processing_time",
	"elb_status_code", "target_status_code", "received_bytes", "sent_bytes",
	"request", "user_agent", "ssl_cipher", "ssl_protocol", "target_group_arn",
	"trace_id", "domain_name", "chosen_cert_arn", "matched_rule_priority",
	"request_creation_time", "actions_executed", "redirect_url", "error_reason",
	"target:port_list", "target_status_code_list", "classification",
	"classification_reason", "conn_trace_id"}

// elbFields are a Classic Load Balancer's access-log fields, named as AWS
// names them ("Access log files", User Guide for Classic Load Balancers,
// https://docs.aws.amazon.com/elasticloadbalancing/latest/classic/access-log-collection.html).
var elbFields = []string{"time", "elb", "client:port", "backend:port",
	"request_processing_time", "backend_processing_time", "response_processing_time",
	"elb_status_code", "backend_status_code", "received_bytes", "sent_bytes",
	"request", "user_agent", "ssl_cipher", "ssl_protocol"}

var albExtra = numberedFrom("field_", len(albFields)+1, 16)

func numberedFrom(prefix string, from, n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("%s%d", prefix, from+i)
	}
	return names
}

// awsLog parses AWS load-balancer access logs: an ALB's (--log-format alb)
//
//	http 2018-07-02T22:23:00.186641Z app/my-loadbalancer/50dc6c495c0c9188 192.168.131.39:2817 10.0.0.1:80 0.000 0.001 0.000 200 200 34 366 "GET http://www.example.com:80/ HTTP/1.1" "curl/7.46.0" - - arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/my-targets/73e2d6bc24d8a067 "Root=1-58337262-36d228ad5d99923122bbe354" "-" "-" 0 2018-07-02T22:22:48.364000Z "forward" "-" "-" "10.0.0.1:80" "200" "-" "-" TID_1234abcd5678ef90
//
// or a Classic Load Balancer's (--log-format elb)
//
//	2015-05-13T23:39:43.945958Z my-loadbalancer 192.168.131.39:2817 10.0.0.1:80 0.000073 0.001048 0.000057 200 200 0 29 "GET http://www.example.com:80/ HTTP/1.1" "curl/7.38.0" - -
//
// (the example entries of those pages). A quoted field's value is what is
// between its quotes. The time is the ALB's request_creation_time (when the
// load balancer received the request: a limiter's moment; "time" is when it
// answered) and the Classic's time; the address client:port's, without the
// port; the method and path from request (a full URL, whose path is read).
type awsLog struct {
	product string // "alb" or "elb"
	names   []string
	time    int // index of the time field
	fields  Fields
	renamed bool
	loc     *time.Location
	clock   stampCache
}

func newAWS(product string, fields Fields, loc *time.Location) *awsLog {
	p := &awsLog{product: product, fields: fields, renamed: fields != DefaultFields, loc: loc}
	if product == "alb" {
		p.names, p.time = albFields, 21
	} else {
		p.names, p.time = elbFields, 0
	}
	return p
}

func (p *awsLog) parse(line []byte, r *Record) error {
	r.reset()
	i := 0
	for n := 0; i < len(line); n++ {
		var v []byte
		if line[i] == '"' {
			end := indexByte(line[i+1:], '"')
			if end < 0 {
				return fmt.Errorf("not an %s access log: field %d's quote not closed", p.product, n+1)
			}
			v = line[i+1 : i+1+end]
			i += end + 2
		} else {
			end := indexByte(line[i:], ' ')
			if end < 0 {
				end = len(line) - i
			}
			v = line[i : i+end]
			i += end
		}
		if i < len(line) {
			if line[i] != ' ' {
				return fmt.Errorf("not an %s access log: no space after field %d", p.product, n+1)
			}
			i++
		}
		switch {
		case n < len(p.names):
			r.names = append(r.names, p.names[n])
		case p.product == "alb" && n-len(p.names) < len(albExtra):
			r.names = append(r.names, albExtra[n-len(p.names)])
		default:
			continue
		}
		r.values = append(r.values, v)
	}
	if len(r.values) < len(p.names) && (p.product == "elb" || len(r.values) < 22) {
		return fmt.Errorf("not an %s access log: %d fields, want %d", p.product, len(r.values), len(p.names))
	}
	v := r.values
	at, err := p.clock.read(v[p.time], timeISO, p.loc)
	if err != nil {
		return fmt.Errorf("%s: %w", p.names[p.time], err)
	}
	r.At = at
	r.IP = stripPort(v[2+p.time0()])
	r.Method, r.Path = splitRequest(v[11+p.time0()])
	if len(r.Method) == 1 && r.Method[0] == '-' {
		r.Method = nil
	}
	if p.renamed {
		return renameParts(r, p.fields, p.loc, &p.clock)
	}
	return nil
}

// time0 is where the Classic fields start in p's: 1 for an ALB (after type).
func (p *awsLog) time0() int {
	if p.product == "alb" {
		return 1
	}
	return 0
}
