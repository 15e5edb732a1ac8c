package replay

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// TestEveryListedFormatIsRead: each format --log-format's error lists is
// one --log-format takes and the reader reads (nginx given its log_format),
// and formatsRead describes each but auto, in order, by its own name; a name
// not listed (another list's, a near miss) is refused by both.
func TestEveryListedFormatIsRead(t *testing.T) {
	custom, err := NginxFormat(`$remote_addr [$time_local] "$request" $status`)
	if err != nil {
		t.Fatal(err)
	}
	var described []string
	for _, d := range formatsRead {
		name, _, _ := strings.Cut(d, " ")
		described = append(described, name)
	}
	if !slices.Equal(described, Formats[1:]) || Formats[0] != "auto" {
		t.Errorf("formats %v, described %v: want auto, then each described in order", Formats, described)
	}
	candidates := append(slices.Clone(Formats), append(sim.RoutingNames(), "Combined", "nginx-json", "apache", "")...)
	for _, f := range candidates {
		listed := slices.Contains(Formats, f)
		var c *LogFormat
		if f == "nginx" || f == "auto" {
			c = custom
		}
		_, err := newParser(f, Fields{}, time.UTC, c, []byte(`1.2.3.4 [01/Jan/2026:00:00:00 +0000] "GET / HTTP/1.1" 200`))
		if unknown := err != nil && strings.Contains(err.Error(), "unknown format"); unknown == listed {
			t.Errorf("format %q: listed %v, the reader says %v", f, listed, err)
		}
		_, err = Flags{LogFormat: f, Format: "text"}.Options()
		if unknown := err != nil && strings.Contains(err.Error(), "--log-format: unknown"); unknown == listed {
			t.Errorf("format %q: listed %v, --log-format says %v", f, listed, err)
		}
	}
}

// TestEveryListedLaneIsReplayable: each lane an unknown lane's error lists
// is one a replay takes, and every rate-limiter lane sim has is listed (no
// other kind of lane, no near miss, is taken).
func TestEveryListedLaneIsReplayable(t *testing.T) {
	var o Options
	_, err := o.spec("no-such-lane")
	if err == nil {
		t.Fatal("a lane named no-such-lane was taken")
	}
	listed := ReplayableLanes()
	if !strings.Contains(err.Error(), strings.Join(listed, ", ")) {
		t.Errorf("the error %q does not list %v", err, listed)
	}
	for _, name := range append(slices.Clone(sim.LaneNames()), "Token_bucket", "aimd-x") {
		k, ok := sim.ParseLane(name)
		limiter := ok && k.Info().Class == sim.RateLimiter
		_, err := o.spec(name)
		if taken := err == nil; taken != limiter || taken != slices.Contains(listed, name) {
			t.Errorf("lane %q: taken %v (%v), a rate limiter %v, listed %v", name, taken, err, limiter, slices.Contains(listed, name))
		}
	}
}
