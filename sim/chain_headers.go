package sim

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// Headers are the response header values a real server would send with one
// answer. The three named values are the draft's fields (empty when the style is
// legacy or the limit sends none); Lines holds every header line as sent, in
// either style, Retry-After included.
type Headers struct {
	RateLimit       string // e.g. `"global";r=0;t=1`
	RateLimitPolicy string // e.g. `"global";q=10;w=1`
	RetryAfter      string // delay-seconds, rounded up
	Lines           []string
}

// ResponseHeaders renders the headers a server sends with an answer: the quota
// headers, in style, of limits[quota] (−1 for none), which has remaining cost
// units left and is whole again after reset, and Retry-After when retryAfter is
// positive (and not algorithms.Never). Limits with NoHeaders, and shadow
// limits, are left out of every quota header. Times are whole seconds, rounded up (the draft has no
// sub-second precision). It is the one place rlsim writes headers: results,
// trace tooltips and clients that pace themselves all read what it writes.
func ResponseHeaders(style HeaderStyle, limits []Limit, quota int, remaining int64, reset, retryAfter time.Duration) Headers {
	var h Headers
	visible := quota >= 0 && quota < len(limits) && limits[quota].sendsHeaders()
	switch style {
	case HeadersDraft:
		var policies []string
		for _, l := range limits {
			if l.sendsHeaders() {
				policies = append(policies, fmt.Sprintf("%s;q=%d;w=%d", sfString(l.Name), l.Policy.Limit, ceilSeconds(l.Policy.Window)))
			}
		}
		h.RateLimitPolicy = strings.Join(policies, ", ")
		if h.RateLimitPolicy != "" {
			h.Lines = append(h.Lines, "RateLimit-Policy: "+h.RateLimitPolicy)
		}
		if visible {
			h.RateLimit = fmt.Sprintf("%s;r=%d;t=%d", sfString(limits[quota].Name), max(remaining, 0), ceilSeconds(reset))
			h.Lines = append(h.Lines, "RateLimit: "+h.RateLimit)
		}
	case HeadersLegacy:
		if visible {
			h.Lines = append(h.Lines, "X-RateLimit-Limit: "+strconv.FormatInt(limits[quota].Policy.Limit, 10),
				"X-RateLimit-Remaining: "+strconv.FormatInt(max(remaining, 0), 10),
				"X-RateLimit-Reset: "+strconv.FormatInt(ceilSeconds(reset), 10))
		}
	}
	if retryAfter > 0 && retryAfter != algorithms.Never {
		h.RetryAfter = strconv.FormatInt(ceilSeconds(retryAfter), 10)
		h.Lines = append(h.Lines, "Retry-After: "+h.RetryAfter)
	}
	return h
}

// sfString is s as a Structured Field String (RFC 8941 §3.3.3): quoted, with
// backslash and double quote escaped; characters outside printable ASCII,
// which a String cannot hold, become '?'.
func sfString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r > 0x7e:
			b.WriteByte('?')
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// sendsHeaders reports whether the limit appears in the quota headers: not when
// told not to, nor while it is a shadow the client never meets.
func (l Limit) sendsHeaders() bool { return !l.NoHeaders && !l.Shadow }
