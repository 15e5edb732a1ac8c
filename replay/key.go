package replay

import (
	"fmt"
	"net/netip"
	"strings"
)

// Part is one component of a key: what a limit counts by.
type Part struct {
	// Kind is "ip", "ip/24" (IPv4 /24, IPv6 /64 prefix), "method", "path",
	// "endpoint" (method and normalised path), "user", "global" or "field".
	Kind string
	// Field names the field when Kind is "field": a JSON or CSV field (or header
	// column), or a field of another format (nginx's http_x_api_key, ALB's client:port).
	Field string
}

// KeySpec is a key made of one or more parts joined by "+", e.g. "ip+endpoint".
type KeySpec []Part

// ParseKey parses "ip", "ip/24", "endpoint", "path", "method", "user", "global",
// "field:NAME" and combinations joined by "+".
func ParseKey(s string) (KeySpec, error) {
	var spec KeySpec
	for _, p := range strings.Split(s, "+") {
		switch {
		case p == "ip" || p == "ip/24" || p == "ip/64" || p == "method" || p == "path" ||
			p == "endpoint" || p == "user" || p == "global":
			if p == "ip/64" {
				p = "ip/24"
			}
			spec = append(spec, Part{Kind: p})
		case strings.HasPrefix(p, "field:") && len(p) > len("field:"):
			spec = append(spec, Part{Kind: "field", Field: p[len("field:"):]})
		default:
			return nil, fmt.Errorf("unknown key part %q (want ip, ip/24, method, path, endpoint, user, global, field:NAME, joined by +)", p)
		}
	}
	return spec, nil
}

// String is the spec as ParseKey reads it.
func (k KeySpec) String() string {
	parts := make([]string, len(k))
	for i, p := range k {
		parts[i] = p.Kind
		if p.Kind == "field" {
			parts[i] = "field:" + p.Field
		}
	}
	return strings.Join(parts, "+")
}

// appendKey appends rec's key under spec to dst; ok is false when a part the
// key needs is missing from the line (an IP that does not parse, a field not there).
func (k KeySpec) appendKey(dst []byte, rec *Record) ([]byte, bool) {
	for i, p := range k {
		if i > 0 {
			dst = append(dst, ' ')
		}
		switch p.Kind {
		case "ip":
			if len(rec.IP) == 0 {
				return dst, false
			}
			dst = append(dst, rec.IP...)
		case "ip/24":
			var ok bool
			if dst, ok = appendPrefix(dst, rec.IP); !ok {
				return dst, false
			}
		case "method":
			dst = append(dst, rec.Method...)
		case "path":
			dst = AppendPath(dst, rec.Path)
		case "endpoint":
			dst = append(dst, rec.Method...)
			dst = append(dst, ' ')
			dst = AppendPath(dst, rec.Path)
		case "user":
			dst = append(dst, rec.User...)
		case "global":
			dst = append(dst, '*')
		case "field":
			v, ok := rec.field(p.Field)
			if !ok {
				return dst, false
			}
			dst = append(dst, v...)
		}
	}
	return dst, true
}

// appendPrefix appends an IPv4 address's /24 or an IPv6 address's /64 prefix.
// An IPv4-mapped IPv6 address (::ffff:a.b.c.d, as a dual-stack server logs an
// IPv4 client) is its IPv4 address, keyed by the same /24; its zone is dropped.
func appendPrefix(dst, ip []byte) ([]byte, bool) {
	addr, err := netip.ParseAddr(string(ip))
	if err != nil {
		return dst, false
	}
	addr = addr.Unmap().WithZone("")
	bits := 24
	if addr.Is6() {
		bits = 64
	}
	pfx, err := addr.Prefix(bits)
	if err != nil {
		return dst, false
	}
	return pfx.AppendTo(dst), true
}

// AppendPath appends path normalised by these rules, in order: the query string
// and fragment are dropped; repeated slashes become one; a trailing slash is
// dropped (except the root); a segment that is all digits, a UUID, or 16 or more
// hex digits becomes ":id". So "/users/42/orders/?page=2" is "/users/:id/orders".
func AppendPath(dst, path []byte) []byte {
	if i := indexAny(path, '?', '#'); i >= 0 {
		path = path[:i]
	}
	start := len(dst)
	for len(path) > 0 {
		for len(path) > 0 && path[0] == '/' {
			path = path[1:]
		}
		if len(path) == 0 {
			break
		}
		end := 0
		for end < len(path) && path[end] != '/' {
			end++
		}
		seg := path[:end]
		path = path[end:]
		dst = append(dst, '/')
		if isID(seg) {
			dst = append(dst, ":id"...)
		} else {
			dst = append(dst, seg...)
		}
	}
	if len(dst) == start {
		dst = append(dst, '/')
	}
	return dst
}

func indexAny(b []byte, x, y byte) int {
	for i, c := range b {
		if c == x || c == y {
			return i
		}
	}
	return -1
}

// isID reports whether a path segment is an identifier: all digits, a UUID, or
// at least 16 hex digits.
func isID(seg []byte) bool {
	digits, hex, dashes := 0, 0, 0
	for _, c := range seg {
		switch {
		case c >= '0' && c <= '9':
			digits++
			hex++
		case c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F':
			hex++
		case c == '-':
			dashes++
		default:
			return false
		}
	}
	switch {
	case digits == len(seg):
		return true
	case dashes == 4 && hex == 32 && len(seg) == 36:
		return true
	}
	return dashes == 0 && hex >= 16
}
