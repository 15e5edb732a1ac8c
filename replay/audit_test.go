package replay

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// Options.Late: a line exactly Late behind the latest line read is replayed in
// its place; a nanosecond more is too late.
func TestAuditLateInclusive(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	line := func(at time.Time) string {
		return fmt.Sprintf(`{"time":%q,"ip":"192.0.2.1"}`, at.Format(time.RFC3339Nano))
	}
	for _, tc := range []struct {
		behind  time.Duration
		tooLate int64
	}{{5 * time.Second, 0}, {5*time.Second + 1, 1}} {
		// the first line, 1s after t0, is still buffered when the third arrives
		lines := []string{line(t0.Add(time.Second)), line(t0.Add(tc.behind)), line(t0)}
		res := replayLines(t, "json", lines, Options{Format: "json", Late: 5 * time.Second})
		if res.TooLate != tc.tooLate {
			t.Errorf("a line %v behind the latest with Late 5s: too late %d, want %d", tc.behind, res.TooLate, tc.tooLate)
		}
	}
}

// Options.Top defaults to 10 keys per lane and limit; a larger Top lists more.
func TestAuditTopDefaultTen(t *testing.T) {
	var lines []string
	for k := range 12 { // 12 keys, each refused: 2 in one second against 1/1m
		for range 2 {
			lines = append(lines, fmt.Sprintf(`{"time":"2026-03-01T09:00:00Z","ip":"192.0.2.%d"}`, k+1))
		}
	}
	lim := []Limit{mustLimit(t, "key=ip limit=1/1m burst=1")}
	for _, tc := range []struct{ top, want int }{{0, 10}, {11, 11}, {12, 12}, {13, 12}} {
		res := replayLines(t, "json", lines, Options{Format: "json", Limits: lim, Lanes: []string{"token_bucket"}, Top: tc.top})
		lane := res.Limits[0].Lanes[0]
		if lane.KeysRefused != 12 || len(lane.Top) != tc.want {
			t.Errorf("Top %d: keys refused %d, listed %d; want 12 and %d", tc.top, lane.KeysRefused, len(lane.Top), tc.want)
		}
	}
}

// ParseLimit: a count and a burst of at least 1, a window of at least 1ns and
// at most sim.MaxTime.
func TestAuditParseLimitEdges(t *testing.T) {
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{"key=ip limit=1/1ns", true},
		{"key=ip limit=0/1s", false},
		{"key=ip limit=1/0s", false},
		{"key=ip limit=1/" + sim.MaxTime.String(), true},
		{"key=ip limit=1/" + (sim.MaxTime + 1).String(), false},
		{"key=ip limit=1/s burst=1", true},
		{"key=ip limit=1/s burst=-1", false},
		{"key=ip limit=1/s endpoint=", false},
		{"limit=1/s", false},
		{"key=ip", false},
	} {
		if _, err := ParseLimit(tc.in); (err == nil) != tc.ok {
			t.Errorf("ParseLimit(%q) error %v, want ok %v", tc.in, err, tc.ok)
		}
	}
	l, err := ParseLimit("key=ip limit=7/s")
	if err != nil || l.Policy.Limit != 7 || l.Policy.Window != time.Second || l.Name != "ip" {
		t.Errorf("ParseLimit(key=ip limit=7/s) = %+v, %v; want 7 per 1s named ip", l, err)
	}
}

// Unix seconds take a fraction of up to 9 digits, exactly, and the last
// second of 2261 but not the first of 2262.
func TestAuditUnixSecondsEdges(t *testing.T) {
	last := time.Date(2262, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"1.123456789", 1_123_456_789, true},
		{"1.1234567891", 0, false},
		{"1.5", 1_500_000_000, true},
		{"1.", 1_000_000_000, true},
		{fmt.Sprint(last - 1), (last - 1) * 1e9, true},
		{fmt.Sprint(last), 0, false},
	} {
		got, err := parseTime([]byte(tc.in), time.UTC)
		if (err == nil) != tc.ok || tc.ok && got != tc.want {
			t.Errorf("parseTime(%q) = %d, %v; want %d, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
	if _, err := parseTime([]byte(fmt.Sprint(last)), time.UTC); err != nil && !strings.Contains(err.Error(), "a year after 2261") {
		t.Errorf("parseTime(first second of 2262) = %v, want a year after 2261", err)
	}
}

// AppendPath's identifier rule at its edges: all digits however short, a
// UUID only with its four dashes in 36 bytes, otherwise 16 or more hex digits
// and no dash.
func TestAuditAppendPathIDEdges(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"/v/1", "/v/:id"},
		{"/h/deadbeefdeadbee", "/h/deadbeefdeadbee"}, // 15 hex digits
		{"/h/DEADBEEFDEADBEEF", "/h/:id"},            // 16, upper case
		{"/h/deadbeef-deadbeef", "/h/deadbeef-deadbeef"},
		{"/o/123e4567-e89b-12d3-a456-42661417400", "/o/123e4567-e89b-12d3-a456-42661417400"},     // 35 bytes
		{"/o/123e4567-e89b-12d3-a456-4266141740000", "/o/123e4567-e89b-12d3-a456-4266141740000"}, // 37 bytes
		{"/u/42abc", "/u/42abc"},
		{"/a/b/#frag", "/a/b"},
		{"/a/b?x=1#f", "/a/b"},
	} {
		if got := string(AppendPath(nil, []byte(tc.in))); got != tc.want {
			t.Errorf("AppendPath(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// ParseKey: ip/64 is ip/24's alias; field: needs a name.
func TestAuditParseKeyEdges(t *testing.T) {
	k, err := ParseKey("ip/64+field:x")
	if err != nil || k.String() != "ip/24+field:x" {
		t.Errorf("ParseKey(ip/64+field:x) = %v, %v; want ip/24+field:x", k, err)
	}
	for _, bad := range []string{"field:", "ip/16", "", "ip+"} {
		if _, err := ParseKey(bad); err == nil {
			t.Errorf("ParseKey(%q) accepted", bad)
		}
	}
}
