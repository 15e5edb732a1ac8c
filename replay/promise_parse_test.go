package replay

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// combined.parse: every part of the documented example line, read exactly.
func TestPromiseCombinedParts(t *testing.T) {
	var c combined
	var r Record
	line := `203.0.113.7 - alice [10/Oct/2026:13:55:36 -0700] "GET /users/42 HTTP/1.1" 200 2326 "-" "curl/8.5"`
	if err := c.parse([]byte(line), &r); err != nil {
		t.Fatal(err)
	}
	want := time.Date(2026, 10, 10, 20, 55, 36, 0, time.UTC).UnixNano() // -0700 is 7h behind UTC
	if r.At != want || string(r.IP) != "203.0.113.7" || string(r.User) != "alice" ||
		string(r.Method) != "GET" || string(r.Path) != "/users/42" {
		t.Errorf("parse(example) = at %d ip %q user %q method %q path %q; want at %d, 203.0.113.7, alice, GET, /users/42",
			r.At, r.IP, r.User, r.Method, r.Path, want)
	}
	for _, tc := range []struct {
		name, line         string
		user, method, path string
		userNil            bool
	}{
		{"user -", `192.0.2.1 - - [01/Mar/2026:10:00:00 +0000] "POST /login HTTP/2" 401 1 "-" "x"`, "", "POST", "/login", true},
		{"request -", `192.0.2.1 - bob [01/Mar/2026:10:00:00 +0000] "-" 400 0 "-" "x"`, "bob", "", "-", false},
		{"no protocol", `192.0.2.1 - - [01/Mar/2026:10:00:00 +0000] "GET /x" 200 1`, "", "GET", "/x", true},
		{"space in path", `192.0.2.1 - - [01/Mar/2026:10:00:00 +0000] "GET /a b HTTP/1.1" 200 1`, "", "GET", "/a b", true},
		{"two spaces", `192.0.2.1 - - [01/Mar/2026:10:00:00 +0000] "GET  HTTP/1.1" 200 1`, "", "GET", "", true},
		{"common format", `192.0.2.1 - u1 [01/Mar/2026:10:00:00 +0000] "DELETE /k/1 HTTP/1.0" 204 0`, "u1", "DELETE", "/k/1", false},
	} {
		if err := c.parse([]byte(tc.line), &r); err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if string(r.User) != tc.user || (r.User == nil) != tc.userNil || string(r.Method) != tc.method || string(r.Path) != tc.path {
			t.Errorf("%s: user %q (nil %v) method %q path %q; want %q (nil %v) %q %q", tc.name, r.User, r.User == nil, r.Method, r.Path,
				tc.user, tc.userNil, tc.method, tc.path)
		}
		if want := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC).UnixNano(); r.At != want {
			t.Errorf("%s: at %d, want %d", tc.name, r.At, want)
		}
	}
}

// The cached time of the previous line is used only for the same stamp: the
// next line's new stamp is parsed anew, and its offset read.
func TestPromiseCombinedStampCache(t *testing.T) {
	var c combined
	var r Record
	base := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	for i, tc := range []struct {
		stamp string
		want  time.Time
	}{
		{"01/Mar/2026:10:00:00 +0000", base},
		{"01/Mar/2026:10:00:00 +0000", base},
		{"01/Mar/2026:10:00:01 +0000", base.Add(time.Second)},
		{"01/Mar/2026:10:00:01 +0100", base.Add(time.Second - time.Hour)},
		{"01/Mar/2026:10:00:00 +0000", base},
	} {
		line := `192.0.2.1 - - [` + tc.stamp + `] "GET / HTTP/1.1" 200 1`
		if err := c.parse([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		if r.At != tc.want.UnixNano() {
			t.Errorf("line %d [%s]: at %v, want %v", i+1, tc.stamp, time.Unix(0, r.At).UTC(), tc.want)
		}
	}
}

// Each malformed part names itself.
func TestPromiseCombinedErrors(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{` - - [01/Mar/2026:10:00:00 +0000] "GET / HTTP/1.1"`, "no client address"},
		{`192.0.2.1`, "no client address"},
		{`192.0.2.1 -`, "no user"},
		{`192.0.2.1 - bob`, "no time"},
		{`192.0.2.1 - - [01/Mar/2026:10:00:00 +0000 "GET /"`, "time not"},
		{`192.0.2.1 - - 01/Mar/2026:10:00:00 +0000] "GET /"`, "time not"},
		{`192.0.2.1 - - [01/Mar/2026:10:00:00 +0000]`, "no request"},
		{`192.0.2.1 - - [01/Mar/2026:10:00:00 +0000] GET`, "no request"},
		{`192.0.2.1 - - [01/Mar/2026:10:00:00 +0000] "GET /`, "request not closed"},
		{`192.0.2.1 - - [01/Xyz/2026:10:00:00 +0000] "GET / HTTP/1.1"`, "time \"01/Xyz"},
	} {
		var c combined
		var r Record
		err := c.parse([]byte(tc.line), &r)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "not combined log format") {
			t.Errorf("parse(%q) = %v, want an error with %q", tc.line, err, tc.want)
		}
	}
}

// sniff: "{" starts JSON (after blanks), " [" with "] \"" makes combined, before a comma's CSV.
func TestPromiseSniff(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{`{"time":1}`, "json"},
		{"{", "json"},
		{"  \t{\"a\":1}", "json"},
		{`{"a":" [x] \"", "b":1}`, "json"},
		{`1.2.3.4 - - [01/Mar/2026:10:00:00 +0000] "GET /a,b HTTP/1.1"`, "combined"},
		{`x [y] "z`, "combined"},
		{`x [y]"z`, ""},
		{`x[y] "z`, ""},
		{`time,ip`, "csv"},
		{`a [b] "c,d`, "combined"},
		{`a [b] c,d`, "csv"},
		{`plain text`, ""},
		{``, ""},
	} {
		if got := sniff([]byte(tc.line)); got != tc.want {
			t.Errorf("sniff(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
	if got := formatOf(&combined{}) + formatOf(&jsonLines{}) + formatOf(&csvLines{}) + formatOf(nil); got != "combinedjsoncsv" {
		t.Errorf("formatOf of combined, json, csv, nil = %q", got)
	}
}

// unsniffed names Envoy's default format and no other.
func TestPromiseUnsniffed(t *testing.T) {
	if got := unsniffed([]byte(`[2026-03-01T09:00:00Z] "GET / HTTP/1.1" 200`)); !strings.HasPrefix(got, "Envoy's default access-log format") {
		t.Errorf("unsniffed(envoy, no fraction) = %q", got)
	}
	if got := unsniffed([]byte(`[2026-03-01 09:00:00Z] "GET /"`)); got != "none" {
		t.Errorf("unsniffed(not envoy) = %q, want none", got)
	}
	e := &NoneParsedError{Bad: 3, Shown: []BadLine{{File: "a.log", Line: 2, Problem: "p"}}}
	if got := e.Error(); !strings.HasPrefix(got, "no line of the log parsed (3 bad lines); format detected: none;") || !strings.HasSuffix(got, "\n  a.log:2: p") {
		t.Errorf("NoneParsedError.Error() = %q", got)
	}
	if got := (BadLine{File: "x", Line: 12, Problem: "why"}).String(); got != "x:12: why" {
		t.Errorf("BadLine.String() = %q, want x:12: why", got)
	}
}

type gotLine struct {
	n    int64
	line string
	long bool
}

func collectLines(t *testing.T, in string, maxLine, bufSize int) []gotLine {
	t.Helper()
	var got []gotLine
	err := linesMax(context.Background(), strings.NewReader(in), maxLine, bufSize, func(n int64, line []byte, long bool) {
		got = append(got, gotLine{n, string(line), long})
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// linesMax: lines numbered from 1, "\n" and "\r\n" dropped, a BOM dropped
// before the first line only, a line of exactly maxLine bytes kept and one
// byte more passed as long (without its bytes), the lines after it read; a
// last line without "\n" read, a final "\n" making no empty line.
func TestPromiseLinesMax(t *testing.T) {
	const max = 20
	exact := strings.Repeat("a", max)
	over := strings.Repeat("b", max+1)
	huge := strings.Repeat("c", 3*max)
	in := "\xef\xbb\xbf" + exact + "\r\n" + "\xef\xbb\xbfx\n" + over + "\n" + "\n" + huge + "\r\n" + "mid\r\n" + "last"
	got := collectLines(t, in, max, 16)
	want := []gotLine{{1, exact, false}, {2, "\xef\xbb\xbfx", false}, {3, "", true}, {4, "", false}, {5, "", true}, {6, "mid", false}, {7, "last", false}}
	if len(got) != len(want) {
		t.Fatalf("lines = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d = %+v, want %+v", i+1, got[i], want[i])
		}
	}
	if got := collectLines(t, "a\nb\n", max, 16); len(got) != 2 || got[1] != (gotLine{2, "b", false}) {
		t.Errorf("a final newline: lines %+v, want 2", got)
	}
	// A line longer than the buffer but within maxLine is whole.
	mid := strings.Repeat("0123456789", 5)
	if got := collectLines(t, mid+"\nz", 60, 16); len(got) != 2 || got[0] != (gotLine{1, mid, false}) || got[1] != (gotLine{2, "z", false}) {
		t.Errorf("a 50-byte line through a 16-byte buffer: %+v", got)
	}
	if got := collectLines(t, strings.Repeat("x", 61)+"\nz", 60, 16); len(got) != 2 || !got[0].long || got[1] != (gotLine{2, "z", false}) {
		t.Errorf("a 61-byte line, max 60, through a 16-byte buffer: %+v, want long then z", got)
	}
}

// parseTime: RFC 3339 at its own offset, zoneless layouts in loc, Unix seconds.
func TestPromiseParseTime(t *testing.T) {
	plus3 := time.FixedZone("+3", 3*3600)
	utc := func(y int, mo time.Month, d, h, mi, s, ns int) int64 {
		return time.Date(y, mo, d, h, mi, s, ns, time.UTC).UnixNano()
	}
	for _, tc := range []struct {
		in   string
		loc  *time.Location
		want int64
	}{
		{"2026-03-01T09:00:00+02:00", plus3, utc(2026, 3, 1, 7, 0, 0, 0)},
		{"2026-03-01T09:00:00Z", plus3, utc(2026, 3, 1, 9, 0, 0, 0)},
		{"2026-03-01T09:00:00.25-01:30", time.UTC, utc(2026, 3, 1, 10, 30, 0, 250_000_000)},
		{"2026-03-01 09:00:00", plus3, utc(2026, 3, 1, 6, 0, 0, 0)},
		{"2026-03-01T09:00:00", plus3, utc(2026, 3, 1, 6, 0, 0, 0)},
		{"2026-03-01 09:00:00.000000007", time.UTC, utc(2026, 3, 1, 9, 0, 0, 7)},
		{"1700000000", plus3, 1_700_000_000_000_000_000},
		{"1700000000.000000001", time.UTC, 1_700_000_000_000_000_001},
		{"0", time.UTC, 0},
		{"12.05", time.UTC, 12_050_000_000},
	} {
		got, err := parseTime([]byte(tc.in), tc.loc)
		if err != nil || got != tc.want {
			t.Errorf("parseTime(%q, %v) = %d, %v; want %d", tc.in, tc.loc, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "1.x", "1.2.3", "yesterday", "2026-03-01", "12a"} {
		if got, err := parseTime([]byte(bad), time.UTC); err == nil {
			t.Errorf("parseTime(%q) = %d, want an error", bad, got)
		}
	}
}

// unixNano: the years 1678 to 2261 UTC, both ends included, and no others.
func TestPromiseYearsReadInclusive(t *testing.T) {
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{"1678-01-01T00:00:00Z", true},
		{"1677-12-31T23:59:59.999999999Z", false},
		{"1678-01-01T00:30:00+01:00", false}, // 1677 in UTC
		{"2261-12-31T23:59:59.999999999Z", true},
		{"2262-01-01T00:00:00Z", false},
		{"2261-12-31T23:30:00-01:00", false}, // 2262 in UTC
	} {
		got, err := parseTime([]byte(tc.in), time.UTC)
		if (err == nil) != tc.ok {
			t.Errorf("parseTime(%q) = %d, %v; want ok %v", tc.in, got, err, tc.ok)
			continue
		}
		if tc.ok {
			want, _ := time.Parse(time.RFC3339Nano, tc.in)
			if got != want.UnixNano() {
				t.Errorf("parseTime(%q) = %d, want %d", tc.in, got, want.UnixNano())
			}
		} else if !strings.Contains(err.Error(), "outside the years 1678 to 2261") {
			t.Errorf("parseTime(%q): %v, want the years named", tc.in, err)
		}
	}
}

// ParseFields renames the parts named, leaving the others at DefaultFields.
func TestPromiseParseFields(t *testing.T) {
	f, err := ParseFields("time=ts,ip=remote_addr")
	want := DefaultFields
	want.Time, want.IP = "ts", "remote_addr"
	if err != nil || f != want {
		t.Errorf("ParseFields(time=ts,ip=remote_addr) = %+v, %v; want %+v", f, err, want)
	}
	f, err = ParseFields("method=verb,path=uri,user=who")
	want = DefaultFields
	want.Method, want.Path, want.User = "verb", "uri", "who"
	if err != nil || f != want {
		t.Errorf("ParseFields(method,path,user) = %+v, %v; want %+v", f, err, want)
	}
	if f, err := ParseFields(""); err != nil || f != DefaultFields {
		t.Errorf("ParseFields(\"\") = %+v, %v; want the defaults", f, err)
	}
	for _, bad := range []string{"ip=", "ip", "host=h", "ip=a,,", "=x"} {
		if _, err := ParseFields(bad); err == nil {
			t.Errorf("ParseFields(%q): no error", bad)
		}
	}
}

// fill: a full URL's path is used; the parts come from their fields; a line
// without the time field is an error naming it.
func TestPromiseFill(t *testing.T) {
	f := Fields{Time: "ts", IP: "addr", Method: "m", Path: "p", User: "u"}
	p := &jsonLines{fields: f, loc: time.UTC}
	var r Record
	err := p.parse([]byte(`{"ts":"2026-03-01T09:00:00Z","addr":"192.0.2.9","m":"PUT","p":"https://api.example:8443/v1/x?q=1","u":"carol","n":{"a":1}}`), &r)
	if err != nil {
		t.Fatal(err)
	}
	if string(r.IP) != "192.0.2.9" || string(r.Method) != "PUT" || string(r.Path) != "/v1/x?q=1" || string(r.User) != "carol" ||
		r.At != time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC).UnixNano() {
		t.Errorf("fill = ip %q method %q path %q user %q at %d", r.IP, r.Method, r.Path, r.User, r.At)
	}
	if _, ok := r.field("n"); ok {
		t.Error("a nested object is a field, want it skipped")
	}
	if err := p.parse([]byte(`{"ts":"2026-03-01T09:00:00Z","p":"http://host"}`), &r); err != nil || string(r.Path) != "" {
		t.Errorf("a URL without a path: path %q, %v; want empty", r.Path, err)
	}
	if err := p.parse([]byte(`{"ts":"2026-03-01T09:00:00Z","p":"://h/q"}`), &r); err != nil || string(r.Path) != "/q" {
		t.Errorf("a path starting with ://: %q, %v; want /q", r.Path, err)
	}
	err = p.parse([]byte(`{"time":"2026-03-01T09:00:00Z"}`), &r)
	if err == nil || err.Error() != `no "ts" field` {
		t.Errorf("no ts field: %v, want no \"ts\" field", err)
	}
	err = p.parse([]byte(`{"ts":"soon"}`), &r)
	if err == nil || !strings.HasPrefix(err.Error(), "ts: time \"soon\"") {
		t.Errorf("a bad time: %v, want it prefixed by the field", err)
	}
}

// scalar: a string's text (escapes undone), a number's or boolean's literal;
// objects, arrays and null are none.
func TestPromiseScalar(t *testing.T) {
	for _, tc := range []struct {
		raw, want string
		ok        bool
	}{
		{`"a\u00e9\n"`, "aé\n", true},
		{`"x\/y"`, "x/y", true},
		{`12.5e3`, "12.5e3", true},
		{`true`, "true", true},
		{`false`, "false", true},
		{`null`, "", false},
		{`{"a":1}`, "", false},
		{`[1]`, "", false},
		{``, "", false},
	} {
		got, ok := scalar([]byte(tc.raw))
		if ok != tc.ok || string(got) != tc.want {
			t.Errorf("scalar(%s) = %q, %v; want %q, %v", tc.raw, got, ok, tc.want, tc.ok)
		}
	}
}

// csvLines: the first line is the header, each row's fields named by it; a
// row of another length is an error giving both counts.
func TestPromiseCSV(t *testing.T) {
	p := &csvLines{fields: DefaultFields, loc: time.UTC}
	var r Record
	if err := p.parse([]byte("path,ip,time"), &r); err != errHeader {
		t.Fatalf("header: %v, want errHeader", err)
	}
	if err := p.parse([]byte(`"/a,b",192.0.2.3,2026-03-01T09:00:00Z`), &r); err != nil {
		t.Fatal(err)
	}
	if string(r.Path) != "/a,b" || string(r.IP) != "192.0.2.3" || r.At != time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC).UnixNano() {
		t.Errorf("row: path %q ip %q at %d", r.Path, r.IP, r.At)
	}
	if err := p.parse([]byte(`/a,192.0.2.3`), &r); err == nil || err.Error() != "2 fields, the header has 3" {
		t.Errorf("short row: %v, want 2 fields, the header has 3", err)
	}
	if err := p.parse([]byte(`/a,192.0.2.3,2026-03-01T09:00:00Z,x`), &r); err == nil || err.Error() != "4 fields, the header has 3" {
		t.Errorf("long row: %v, want 4 fields, the header has 3", err)
	}
}

// Replay's counts: blank lines are lines, not bad; a CSV header is neither
// bad nor a request; Format is the format detected.
func TestPromiseLineCounts(t *testing.T) {
	log := "time,ip\n\n2026-03-01T09:00:00Z,192.0.2.1\nnot,a,row\n\n2026-03-01T09:00:01Z,192.0.2.2\n"
	res, err := replayString(t, "c.csv", log, Options{Lanes: []string{"gcra"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Lines != 6 || res.Requests != 2 || res.Bad != 1 || res.Format != "csv" || res.TooLate != 0 {
		t.Errorf("lines %d requests %d bad %d format %q; want 6, 2, 1, csv", res.Lines, res.Requests, res.Bad, res.Format)
	}
	if len(res.Shown) != 1 || res.Shown[0] != (BadLine{File: "c.csv", Line: 4, Problem: "3 fields, the header has 2"}) {
		t.Errorf("shown %+v, want c.csv:4", res.Shown)
	}
}

// The bad share counts too-late lines among the lines read: 1 bad of 10
// (8 replayed, 1 too late) is not more than 10%.
func TestPromiseBadShareCountsTooLate(t *testing.T) {
	var lines []string
	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	for i := range 8 {
		lines = append(lines, lineAt("json", t0.Add(time.Duration(10+i)*time.Second), "192.0.2.1"))
	}
	lines = append(lines, lineAt("json", t0, "192.0.2.1"), "{bad")
	res := replayLines(t, "json", lines, Options{Format: "json", Lanes: []string{"gcra"}})
	if res.TooLate != 1 || res.Bad != 1 || res.Requests != 8 {
		t.Fatalf("too late %d bad %d requests %d; want 1, 1, 8", res.TooLate, res.Bad, res.Requests)
	}
	if len(res.Warnings) != 0 {
		t.Errorf("1 bad of 10 read: warnings %q, want none", res.Warnings)
	}
	lines = append(lines, "{bad")
	res = replayLines(t, "json", lines, Options{Format: "json", Lanes: []string{"gcra"}})
	want := "2 of 11 lines (18.2%) did not parse, more than 10%: check --log-format and --fields"
	if len(res.Warnings) != 1 || res.Warnings[0] != want {
		t.Errorf("2 bad of 11 read: warnings %q, want %q", res.Warnings, want)
	}
}

// A line with a part missing for a key is a bad line naming the key and limit.
func TestPromiseMissingKeyPart(t *testing.T) {
	lim := mustLimit(t, "key=ip+field:tenant limit=5/1s name=per_tenant")
	res := replayLines(t, "json", []string{`{"time":"2026-03-01T09:00:00Z","ip":"192.0.2.1"}`,
		`{"time":"2026-03-01T09:00:00Z","ip":"192.0.2.1","tenant":"t1"}`}, Options{Format: "json", Limits: []Limit{lim}, Lanes: []string{"gcra"}})
	if res.Bad != 1 || res.Requests != 1 || len(res.Shown) != 1 || res.Shown[0].Problem != "no ip+field:tenant for key per_tenant" || res.Shown[0].Line != 1 {
		t.Errorf("bad %d requests %d shown %+v; want line 1: no ip+field:tenant for key per_tenant", res.Bad, res.Requests, res.Shown)
	}
	var b bytes.Buffer
	_ = WriteText(&b, res)
	if !strings.Contains(b.String(), "  bad line json.log:1: no ip+field:tenant for key per_tenant\n") {
		t.Errorf("text shows no bad line:\n%s", b.String())
	}
}

// decompressed: gunzipped only after gzip's two magic bytes; a broken gzip
// header is an error naming the input.
func TestPromiseDecompressed(t *testing.T) {
	for _, in := range []string{"", "\x1f", "\x1fx", "plain"} {
		r, err := decompressed(strings.NewReader(in))
		if err != nil {
			t.Errorf("decompressed(%q): %v", in, err)
			continue
		}
		var b bytes.Buffer
		b.ReadFrom(r)
		if b.String() != in {
			t.Errorf("decompressed(%q) = %q, want it as it is", in, b.String())
		}
	}
	_, err := Replay(context.Background(), []Input{{Name: "x.gz", R: strings.NewReader("\x1f\x8b\x00")}},
		Options{Limits: []Limit{mustLimit(t, "key=ip limit=1/1s")}, Lanes: []string{"gcra"}})
	if err == nil || !strings.HasPrefix(err.Error(), "x.gz: ") {
		t.Errorf("a broken gzip header: %v, want an error naming x.gz", err)
	}
}
