package replay

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

func replayString(t *testing.T, name, log string, opts Options) (*Result, error) {
	t.Helper()
	if len(opts.Limits) == 0 {
		opts.Limits = []Limit{mustLimit(t, "key=ip limit=2/1s")}
	}
	return Replay(context.Background(), []Input{{Name: name, R: strings.NewReader(log)}}, opts)
}

// envoyLog is Envoy's default access-log format, which replay does not read.
const envoyLog = `[2026-03-01T09:00:00.000Z] "GET /login HTTP/1.1" 200 - 0 5000 3 2 "-" "curl/8.5" "5f3c" "api.example" "10.0.0.7:8080"
[2026-03-01T09:00:00.120Z] "POST /login HTTP/1.1" 401 - 40 12 2 1 "-" "curl/8.5" "5f3d" "api.example" "10.0.0.7:8080"
[2026-03-01T09:00:01.002Z] "GET /api/users/7 HTTP/1.1" 200 - 0 730 5 4 "-" "curl/8.5" "5f3e" "api.example" "10.0.0.8:8080"
`

// TestNoLineParsedIsAnError: a log none of whose lines parses is an error
// naming the format detected, the formats read and the first bad lines with
// file:line, never a table of zeros.
func TestNoLineParsedIsAnError(t *testing.T) {
	for _, tc := range []struct {
		name, log, format string
		want              []string
	}{
		{"envoy", envoyLog, "auto", []string{"Envoy's default access-log format", "envoy.log:1:", "envoy.log:3:"}},
		{"garbled combined", "192.0.2.1 - - [01/Mar/2026:09:00:00 +0000] \"GET /\n192.0.2.1 - - [bad] \"GET / HTTP/1.1\" 200 1\n", "auto",
			[]string{"format detected: combined", "garbled combined.log:1:", "garbled combined.log:2:"}},
		{"json given, combined read", "192.0.2.1 - - [01/Mar/2026:09:00:00 +0000] \"GET / HTTP/1.1\" 200 1 \"-\" \"x\"\n", "json",
			[]string{"format detected: json", "not a JSON object"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := replayString(t, tc.name+".log", tc.log, Options{Format: tc.format})
			var none *NoneParsedError
			if !errors.As(err, &none) {
				t.Fatalf("err %v (result %+v), want a NoneParsedError", err, res)
			}
			for _, w := range append(tc.want, "formats read: combined", "json", "csv") {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
	// No line at all, or a CSV header alone, is no bad line: a replay of nothing.
	for _, log := range []string{"", "\n\n", "time,ip\n"} {
		if res, err := replayString(t, "empty", log, Options{}); err != nil || res.Requests != 0 {
			t.Errorf("%q: %v, %+v; want an empty replay", log, err, res)
		}
	}
}

// TestBadShareWarns: more than BadShareWarn of the lines bad is a warning in
// the result and the text; at or below it, none.
func TestBadShareWarns(t *testing.T) {
	good := `{"time":"2026-03-01T09:00:0%dZ","ip":"192.0.2.1"}` + "\n"
	for _, tc := range []struct {
		good, bad int
		warn      bool
	}{{9, 1, false}, {8, 2, true}, {1, 9, true}, {20, 0, false}} {
		var log strings.Builder
		for i := range tc.good {
			fmt.Fprintf(&log, good, i%10)
		}
		for range tc.bad {
			log.WriteString("{oops\n")
		}
		res, err := replayString(t, "share", log.String(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := len(res.Warnings) > 0; got != tc.warn {
			t.Errorf("%d good, %d bad: warnings %q, want a warning %v", tc.good, tc.bad, res.Warnings, tc.warn)
		}
		var text bytes.Buffer
		WriteText(&text, res)
		if got := strings.Contains(text.String(), "warning: "); got != tc.warn {
			t.Errorf("%d good, %d bad: text warns %v, want %v:\n%s", tc.good, tc.bad, got, tc.warn, text.String())
		}
	}
}

// TestBOMBeforeCSVHeader: a UTF-8 byte-order mark before a CSV header is not
// part of the header's first name.
func TestBOMBeforeCSVHeader(t *testing.T) {
	log := "\ufefftime,ip,method,path\r\n2026-03-01T09:00:00Z,192.0.2.1,GET,/a\r\n2026-03-01T09:00:00Z,192.0.2.1,GET,/b\r\n2026-03-01T09:00:00Z,192.0.2.1,GET,/c\r\n"
	for _, format := range []string{"auto", "csv"} {
		res, err := replayString(t, "bom.csv", log, Options{Format: format})
		if err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		if res.Requests != 3 || res.Bad != 0 || res.Limits[0].Lanes[0].Refused != 1 {
			t.Errorf("%s: %d requests, %d bad (%v), %d refused; want 3, 0, 1", format, res.Requests, res.Bad, res.Shown, res.Limits[0].Lanes[0].Refused)
		}
	}
}

// TestLongLineIsOneBadLine: a line over MaxLine in the middle of a log is one
// bad line, and the lines after it are replayed; --strict stops at it.
func TestLongLineIsOneBadLine(t *testing.T) {
	var log strings.Builder
	line := `{"time":"2026-03-01T09:00:%02dZ","ip":"192.0.2.%d"}` + "\n"
	for i := range 5 {
		fmt.Fprintf(&log, line, i, i)
	}
	log.WriteString(`{"time":"2026-03-01T09:00:05Z","ip":"192.0.2.9","junk":"` + strings.Repeat("x", 2*MaxLine) + "\"}\n")
	log.WriteString(strings.Repeat("y", MaxLine+1) + "\n")
	log.WriteString(strings.Repeat("z", MaxLine) + "\n") // at the limit: read, and bad as JSON
	for i := range 7 {
		fmt.Fprintf(&log, line, 10+i, i)
	}
	fmt.Fprintf(&log, `{"time":"2026-03-01T09:00:59Z","ip":"192.0.2.1"}`) // no final newline
	res, err := replayString(t, "long.jsonl", log.String(), Options{Format: "json"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests != 13 || res.Bad != 3 || res.Lines != 16 {
		t.Fatalf("%d requests, %d bad, %d lines; want 13, 3, 16", res.Requests, res.Bad, res.Lines)
	}
	for i, want := range []string{"long.jsonl:6: longer than", "long.jsonl:7: longer than", "long.jsonl:8: not a JSON object"} {
		if got := res.Shown[i].String(); !strings.HasPrefix(got, want) {
			t.Errorf("bad line %d: %q, want %q…", i, got, want)
		}
	}
	_, err = replayString(t, "long.jsonl", log.String(), Options{Format: "json", Strict: true})
	if err == nil || !strings.HasPrefix(err.Error(), "long.jsonl:6: longer than") {
		t.Errorf("--strict: err %v, want long.jsonl:6: longer than …", err)
	}
}

// TestBadShareDocumented: docs/replay.md states BadShareWarn.
func TestBadShareDocumented(t *testing.T) {
	data, err := os.ReadFile("../docs/replay.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("more than %.0f%%", 100*BadShareWarn); !strings.Contains(string(data), want) {
		t.Errorf("docs/replay.md does not say %q", want)
	}
}

// FuzzLines: lines reads any input as a plain split on \n would, each line
// without its \r\n, the first without a byte-order mark, a line over maxLine
// flagged long and passed without its bytes, every line numbered in turn.
func FuzzLines(f *testing.F) {
	f.Add([]byte("a\r\nb\n\nc"), uint16(3))
	f.Add([]byte("\xef\xbb\xbftime,ip\r\n1,2\n"), uint16(100))
	f.Add([]byte("short\nlonger than five\nok\n"), uint16(5))
	f.Add([]byte("\n\n"), uint16(0))
	f.Fuzz(func(t *testing.T, data []byte, max uint16) {
		limit := int(max)
		type got struct {
			line string
			long bool
		}
		var gots []got
		err := linesMax(context.Background(), bytes.NewReader(data), limit, 16, func(n int64, line []byte, long bool) {
			if n != int64(len(gots))+1 {
				t.Fatalf("line %d after %d lines", n, len(gots))
			}
			gots = append(gots, got{string(line), long})
		})
		if err != nil {
			t.Fatal(err)
		}
		var want []got
		parts := strings.Split(string(data), "\n")
		if len(parts) > 0 && parts[len(parts)-1] == "" {
			parts = parts[:len(parts)-1]
		}
		for i, p := range parts {
			p = strings.TrimSuffix(p, "\r")
			if i == 0 {
				p = strings.TrimPrefix(p, "\ufeff")
			}
			if len(p) > limit {
				want = append(want, got{"", true})
			} else {
				want = append(want, got{p, false})
			}
		}
		if len(gots) != len(want) {
			t.Fatalf("%d lines, want %d", len(gots), len(want))
		}
		for i := range want {
			if gots[i] != want[i] {
				t.Fatalf("line %d: %+v, want %+v", i+1, gots[i], want[i])
			}
		}
	})
}
