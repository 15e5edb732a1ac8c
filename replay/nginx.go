package replay

import (
	"errors"
	"fmt"
	"strings"
)

// NginxFormat compiles an nginx log_format string, such as
//
//	$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" "$http_x_api_key" $request_time
//
// into a LogFormat whose fields are its variables, named without the "$"
// (field:http_x_api_key, field:upstream_addr). Variables are written $name or
// ${name} (nginx 1.x, ngx_http_log_module's log_format and ngx_http_variables.c:
// a name is letters, digits and "_"). A leading "escape=default", "escape=json" or
// "escape=none" (log_format's escape parameter) is read too: with escape=json
// a quote in a value is written \" and is not taken for a separator; with the
// default escaping it is \x22, so values never hold a bare quote. The config
// importer hands a log_format it read from nginx.conf, its strings joined, here.
//
// A request's parts are read from: the time from $time_local (26 bytes,
// "01/Mar/2026:09:00:00 -0700"), $time_iso8601 (25 bytes,
// "2026-03-01T09:00:00-07:00") or $msec (Unix seconds, 3 decimals), the first
// present; the address from $remote_addr; the user from $remote_user; the
// method and path from $request ("GET /a?b HTTP/1.1"), else $request_method
// and $request_uri or $uri. --fields renames any of them (ip=http_x_forwarded_for
// reads that list's first address). $binary_remote_addr (4 or 16 raw bytes) is
// refused: a text log cannot be split around it.
func NginxFormat(format string) (*LogFormat, error) {
	text := format
	backslash := false
	if rest, ok := strings.CutPrefix(format, "escape="); ok {
		mode, after, _ := strings.Cut(rest, " ")
		switch mode {
		case "json":
			backslash = true
		case "default", "none":
		default:
			return nil, fmt.Errorf("nginx log_format: escape=%s: want default, json or none", mode)
		}
		format = strings.TrimLeft(after, " ")
	}
	b := formatBuilder{f: &LogFormat{product: "nginx", text: text, backslash: backslash}}
	for i := 0; i < len(format); {
		c := format[i]
		if c != '$' {
			b.lit = append(b.lit, c)
			i++
			continue
		}
		var name string
		if i+1 < len(format) && format[i+1] == '{' {
			end := strings.IndexByte(format[i:], '}')
			if end < 0 {
				return nil, fmt.Errorf("nginx log_format: %q: the variable at byte %d has no closing }", format, i)
			}
			name = format[i+2 : i+end]
			i += end + 1
		} else {
			j := i + 1
			for j < len(format) && isVarByte(format[j]) {
				j++
			}
			name = format[i+1 : j]
			i = j
		}
		if name == "" || strings.IndexFunc(name, func(r rune) bool { return r > 0x7f || !isVarByte(byte(r)) }) >= 0 {
			return nil, fmt.Errorf("nginx log_format: %q: invalid variable name %q at byte %d", format, name, i)
		}
		if name == "binary_remote_addr" {
			return nil, errors.New("nginx log_format: $binary_remote_addr is raw bytes: a text log cannot be split around it (log $remote_addr)")
		}
		width := 0
		switch name {
		case "time_local":
			width = len("01/Mar/2026:09:00:00 -0700")
		case "time_iso8601":
			width = len("2026-03-01T09:00:00-07:00")
		}
		if err := b.field(name, width); err != nil {
			return nil, fmt.Errorf("nginx log_format: %w", err)
		}
	}
	f, err := b.done()
	if err != nil {
		return nil, fmt.Errorf("nginx log_format: %w", err)
	}
	f.roles = roles{time: -1, ip: f.index("remote_addr"), user: f.index("remote_user"),
		method: f.index("request_method"), request: f.index("request"), path: -1}
	for _, t := range []struct {
		name string
		kind timeKind
	}{{"time_local", timeCLF}, {"time_iso8601", timeISO}, {"msec", timeUnix}} {
		if i := f.index(t.name); i >= 0 {
			f.roles.time, f.roles.timeKind = i, t.kind
			break
		}
	}
	if f.roles.request < 0 {
		if f.roles.path = f.index("request_uri"); f.roles.path < 0 {
			f.roles.path = f.index("uri")
		}
	}
	return f, nil
}

func isVarByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// formatBuilder assembles a LogFormat from literals and fields in order.
type formatBuilder struct {
	f   *LogFormat
	lit []byte
}

func (b *formatBuilder) field(name string, width int) error {
	f := b.f
	if n := len(f.names); n > 0 && len(b.lit) == 0 && f.widths[n-1] == 0 {
		return fmt.Errorf("%s and %s have nothing between them: where one ends cannot be told", f.names[n-1], name)
	}
	f.lits = append(f.lits, b.lit)
	b.lit = nil
	f.names = append(f.names, name)
	f.widths = append(f.widths, width)
	return nil
}

func (b *formatBuilder) done() (*LogFormat, error) {
	f := b.f
	if len(f.names) == 0 {
		return nil, fmt.Errorf("%q has no field", f.text)
	}
	f.lits = append(f.lits, b.lit)
	return f, nil
}
