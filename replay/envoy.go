package replay

import (
	"fmt"
	"strings"
	"time"
)

// EnvoyDefaultFormat is Envoy's default access-log format string (Envoy 1.7
// to 1.3x: "Default Format String" in the access-logging docs,
// https://www.envoyproxy.io/docs/envoy/latest/configuration/observability/access_log/usage#default-format-string,
// and AccessLogFormatUtils::DEFAULT_FORMAT in
// source/common/access_log/access_log_formatter.cc), without its final newline.
const EnvoyDefaultFormat = `[%START_TIME%] "%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%" ` +
	`%RESPONSE_CODE% %RESPONSE_FLAGS% %BYTES_RECEIVED% %BYTES_SENT% %DURATION% ` +
	`%RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)% "%REQ(X-FORWARDED-FOR)%" "%REQ(USER-AGENT)%" "%REQ(X-REQUEST-ID)%" ` +
	`"%REQ(:AUTHORITY)%" "%UPSTREAM_HOST%"`

// envoyDefault is EnvoyDefaultFormat compiled.
var envoyDefault = mustEnvoy(EnvoyDefaultFormat)

func mustEnvoy(s string) *LogFormat {
	f, err := EnvoyFormat(s)
	if err != nil {
		panic("replay: EnvoyFormat(default): " + err.Error())
	}
	return f
}

// EnvoyFormat compiles an Envoy access-log format string (text_format, of
// %COMMAND%, %COMMAND(ARG)% and %COMMAND(ARG):LEN% operators between literal
// text; Envoy's access-log "Command Operators" docs) into a LogFormat. A
// field is named for its operator, in lower case: %REQ(H)% is "req.h"
// (%REQ(X-API-KEY)% is field:req.x-api-key), %RESP(H)% "resp.h", %TRAILER(H)%
// "trailer.h" (of alternatives "A?B", the first names it:
// %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% is "req.x-envoy-original-path"), any
// other operator its command, with its argument if it has one other than
// START_TIME's: "start_time", "upstream_host", "response_code",
// "dynamic_metadata(ns:key)". A final newline (or the two characters \n, as
// YAML writes it) is dropped.
//
// A request's parts are read from: the time from START_TIME (its default,
// "2026-03-01T09:00:00.250Z"; a custom START_TIME(...) is read as RFC 3339 or
// Unix seconds); the address from X-FORWARDED-FOR's first address, else
// DOWNSTREAM_REMOTE_ADDRESS (its port dropped), else
// DOWNSTREAM_DIRECT_REMOTE_ADDRESS; the method from REQ(:METHOD); the path from
// REQ(X-ENVOY-ORIGINAL-PATH?:PATH) or REQ(:PATH). Envoy writes "-" for a value
// it does not have: an X-FORWARDED-FOR of "-" is no address (key by
// field:upstream_host or log DOWNSTREAM_REMOTE_ADDRESS).
func EnvoyFormat(format string) (*LogFormat, error) {
	text := format
	format = strings.TrimSuffix(format, "\n")
	format = strings.TrimSuffix(format, `\n`)
	b := formatBuilder{f: &LogFormat{product: "envoy", text: text}}
	for i := 0; i < len(format); {
		if format[i] != '%' {
			b.lit = append(b.lit, format[i])
			i++
			continue
		}
		end := operatorEnd(format, i+1)
		if end < 0 {
			return nil, fmt.Errorf("envoy format: %q: the operator at byte %d has no closing %%", format, i)
		}
		op := format[i+1 : end]
		i = end + 1
		name, err := envoyField(op)
		if err != nil {
			return nil, fmt.Errorf("envoy format: %w", err)
		}
		if err := b.field(name, 0); err != nil {
			return nil, fmt.Errorf("envoy format: %w", err)
		}
	}
	f, err := b.done()
	if err != nil {
		return nil, fmt.Errorf("envoy format: %w", err)
	}
	f.roles = roles{time: f.index("start_time"), timeKind: timeAny, ip: f.index("req.x-forwarded-for"),
		user: -1, method: f.index("req.:method"), request: -1, path: f.index("req.x-envoy-original-path")}
	if f.roles.ip < 0 {
		if f.roles.ip = f.index("downstream_remote_address"); f.roles.ip < 0 {
			f.roles.ip = f.index("downstream_direct_remote_address")
		}
	}
	if f.roles.path < 0 {
		f.roles.path = f.index("req.:path")
	}
	return f, nil
}

// operatorEnd is the index of the "%" that closes the operator starting at
// s[i:] (after its "%"): past an argument in parentheses, which may hold "%"
// (START_TIME(%s.%3f)); -1 if there is none.
func operatorEnd(s string, i int) int {
	for i < len(s) && s[i] != '%' && s[i] != '(' {
		i++
	}
	if i < len(s) && s[i] == '(' {
		close := strings.IndexByte(s[i:], ')')
		if close < 0 {
			return -1
		}
		i += close
	}
	if j := strings.IndexByte(s[i:], '%'); j >= 0 {
		return i + j
	}
	return -1
}

// envoyField names an operator's field: "REQ(USER-AGENT):10" is "req.user-agent".
func envoyField(op string) (string, error) {
	cmd, arg, hasArg := strings.Cut(op, "(")
	if hasArg {
		close := strings.LastIndexByte(arg, ')')
		if close < 0 {
			return "", fmt.Errorf("%%%s%%: no closing )", op)
		}
		arg = arg[:close]
	} else if c, _, ok := strings.Cut(cmd, ":"); ok {
		cmd = c // %COMMAND:LEN%
	}
	if cmd == "" || strings.IndexFunc(cmd, func(r rune) bool { return !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') }) >= 0 {
		return "", fmt.Errorf("%%%s%%: not a command operator (want %%COMMAND%%, %%COMMAND(ARG)%% or %%COMMAND(ARG):LEN%%)", op)
	}
	lower := strings.ToLower(cmd)
	switch cmd {
	case "REQ", "RESP", "TRAILER":
		if !hasArg || arg == "" {
			return "", fmt.Errorf("%%%s%%: %s needs a header, %s(NAME)", op, cmd, cmd)
		}
		first, _, _ := strings.Cut(arg, "?")
		return lower + "." + strings.ToLower(first), nil
	case "START_TIME":
		return lower, nil
	}
	if hasArg {
		return lower + "(" + arg + ")", nil
	}
	return lower, nil
}

// envoyJSON reads Envoy's json_format logs: JSON lines whose parts are read,
// unless --fields renames them, from the keys Envoy's and its users'
// documented json_format examples write (Istio's, Envoy Gateway's, Kuma's):
// time start_time; address x_forwarded_for or x-forwarded-for (first
// address), else downstream_remote_address (its port dropped); method method;
// path path or x-envoy-origin-path (Envoy Gateway's) or x-envoy-original-path;
// a line that has a part's default key (time, ip, method, path) reads it, as
// --log-format json would (sniff reads any JSON line with "start_time" so).
type envoyJSON struct {
	json jsonLines
	user Fields // as given: a part differing from DefaultFields is the user's
}

var envoyJSONNames = struct{ time, ip, method, path []string }{
	time:   []string{"start_time"},
	ip:     []string{"x_forwarded_for", "x-forwarded-for", "downstream_remote_address"},
	method: []string{"method", ":method"},
	path:   []string{"path", "x-envoy-origin-path", "x-envoy-original-path", ":path"},
}

func newEnvoyJSON(fields Fields, loc *time.Location) *envoyJSON {
	return &envoyJSON{json: jsonLines{fields: fields, loc: loc}, user: fields}
}

func (p *envoyJSON) parse(line []byte, r *Record) error {
	if err := p.json.read(line, r); err != nil {
		return err
	}
	f := p.user
	pick := func(given, def string, names []string) string {
		if given != def {
			return given
		}
		if _, ok := r.field(def); ok { // a line with "time" reads as any JSON line
			return def
		}
		for _, n := range names {
			if _, ok := r.field(n); ok {
				return n
			}
		}
		return def
	}
	f.Time = pick(f.Time, DefaultFields.Time, envoyJSONNames.time)
	f.IP = pick(f.IP, DefaultFields.IP, envoyJSONNames.ip)
	f.Method = pick(f.Method, DefaultFields.Method, envoyJSONNames.method)
	f.Path = pick(f.Path, DefaultFields.Path, envoyJSONNames.path)
	if err := r.fill(f, p.json.loc); err != nil {
		return err
	}
	r.IP = firstAddr(r.IP)
	return nil
}
