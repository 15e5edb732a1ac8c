package replay

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The times a replay reads, as ns since the epoch: [readFrom, readTo).
var (
	readFrom = time.Date(1678, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()
	readTo   = time.Date(2262, 1, 1, 0, 0, 0, 0, time.UTC)
)

// FuzzParsers feeds arbitrary lines to every parser and key: no panic, a
// parsed line's time lies within the years replay reads (never a wrapped
// around one), a parsed combined line's parts lie inside the line, and a
// limit or --where that parses holds numbers a replay can use.
func FuzzParsers(f *testing.F) {
	f.Add([]byte(`192.0.2.1 - alice [01/Mar/2026:10:00:00 +0200] "GET /users/42?x=1 HTTP/1.1" 200 1 "-" "x"`))
	f.Add([]byte(`{"time":"2026-03-01T08:00:00Z","ip":"192.0.2.1","method":"GET","path":"/u/1"}`))
	f.Add([]byte(`2026-03-01T10:00:00+02:00,192.0.2.1,GET,/users/42?x=1,alice`))
	f.Add([]byte(`{"time":1772352000.5,"ip":"2001:db8::1"}`))
	for _, ts := range []string{"01/Mar/0001:09:00:00 +0000", "01/Mar/1000:09:00:00 +0000", "21/Sep/1677:00:12:44 +0000",
		"01/Jan/1678:00:30:00 +0100", "11/Apr/2262:23:47:16 +0000", "12/Apr/2262:00:00:00 +0000", "31/Dec/9999:23:59:59 -2359"} {
		f.Add([]byte(`192.0.2.1 - - [` + ts + `] "GET / HTTP/1.1" 200 1 "-" "x"`))
	}
	for _, ts := range []string{`"0001-01-01T00:00:00Z"`, `"1000-03-01 09:00:00"`, `"1677-09-21T00:12:43.145224191Z"`, `"2262-04-11T23:47:16.854775808Z"`,
		`"9999-12-31T23:59:59.999999999-23:59"`, `9183110399.999999999`, `9223372036`, `99999999999999999999`, `-1`} {
		f.Add([]byte(`{"time":` + ts + `,"ip":"192.0.2.1"}`))
	}
	f.Add([]byte(`key=ip limit=9223372036854775807/1ns burst=9223372036854775807`))
	f.Add([]byte(`key=ip limit=1/2562047h47m16.854775807s`))
	f.Add([]byte(`refused_share <= NaN%`))
	f.Add([]byte(`lane gcra refused <= +Inf`))
	spec, _ := ParseKey("ip+ip/24+endpoint+user+field:api_key+global")
	f.Fuzz(func(t *testing.T, line []byte) {
		csvp := &csvLines{fields: DefaultFields, loc: time.UTC, header: []string{"time", "ip", "method", "path", "user"}}
		for _, p := range []parser{&combined{}, &jsonLines{fields: DefaultFields, loc: time.UTC}, csvp} {
			var r Record
			if p.parse(line, &r) == nil {
				if r.At < readFrom || r.At >= readTo.UnixNano() {
					t.Errorf("%T: %q read at %d ns, outside the years replay reads", p, line, r.At)
				}
				spec.appendKey(nil, &r)
			}
		}
		AppendPath(nil, line)
		if l, err := ParseLimit(string(line)); err == nil {
			if l.Policy.Validate() != nil || l.Policy.Window > MaxSpan {
				t.Errorf("ParseLimit(%q) = %+v: not a policy a replay can use", line, l.Policy)
			}
			if l.Check(nil) == nil && retireAfter(l.Policy) < l.Policy.Window {
				t.Errorf("ParseLimit(%q): retirement after %v, before the window %v", line, retireAfter(l.Policy), l.Policy.Window)
			}
		}
		if w, err := ParseWhere(string(line), LaneNames); err == nil {
			if !(w.Want >= 0) || math.IsInf(w.Want, 0) || w.Metric == "refused_share" && w.Want > 1 {
				t.Errorf("ParseWhere(%q) = %+v: not a threshold", line, w)
			}
		}
	})
}

// FuzzTimes writes one instant, of any year, offset and nanosecond, in every
// layout replay reads: each either reads it exactly or is a bad line, and it
// is a bad line exactly when its UTC year is outside 1678 to 2261.
func FuzzTimes(f *testing.F) {
	for _, y := range []int{1, 1000, 1677, 1678, 1969, 1970, 2026, 2261, 2262, 2300, 9999} {
		f.Add(int16(y), uint8(2), uint8(0), int32(9*3600), int32(0), int16(0)) // 1 March, 09:00
	}
	f.Add(int16(1678), uint8(0), uint8(0), int32(1800), int32(0), int16(60))            // 1677 UTC
	f.Add(int16(2261), uint8(11), uint8(27), int32(86399), int32(999999999), int16(-1)) // 28 Dec
	f.Add(int16(1677), uint8(8), uint8(20), int32(763), int32(145224192), int16(0))     // int64's first ns
	// month and day count from 0 (day%28: every month has it).
	f.Fuzz(func(t *testing.T, year int16, month, day uint8, second, nano int32, offsetMin int16) {
		zone := time.FixedZone("", int(offsetMin%(24*60))*60)
		at := time.Date(int(year), time.Month(month%12+1), int(day%28+1), 0, 0, int(second%86400), int(nano%1e9), zone)
		if nano < 0 || second < 0 {
			return // time.Date normalises them: the same instants as positive ones
		}
		utcYear := at.UTC().Year()
		inside := utcYear >= 1678 && utcYear <= 2261
		for _, layout := range []struct {
			format string
			line   string
			want   time.Time // at as written: to the second in combined
		}{
			{"combined", lineAt("combined", at, "192.0.2.1"), at.Truncate(time.Second)},
			{"json", lineAt("json", at, "192.0.2.1"), at},
			{"json-local", lineAt("json-local", at, "192.0.2.1"), at},
			{"csv", lineAt("csv", at, "192.0.2.1"), at},
		} {
			var p parser
			switch layout.format {
			case "combined":
				p = &combined{}
			case "json", "json-local":
				p = &jsonLines{fields: DefaultFields, loc: time.UTC}
			case "csv":
				p = &csvLines{fields: DefaultFields, loc: time.UTC, header: strings.Split(csvHeader, ",")}
			}
			var r Record
			err := p.parse([]byte(layout.line), &r)
			switch {
			case err == nil && !inside:
				t.Errorf("%s %q: read at %v, a year outside 1678 to 2261", layout.format, layout.line, time.Unix(0, r.At).UTC())
			case err == nil && r.At != layout.want.UnixNano():
				t.Errorf("%s %q: read at %v, want %v", layout.format, layout.line, time.Unix(0, r.At).UTC(), layout.want.UTC())
			case err != nil && inside && year >= 0 && year <= 9999 && at.Year() >= 0 && at.Year() <= 9999:
				t.Errorf("%s %q: %v, want %v", layout.format, layout.line, err, layout.want.UTC())
			case err != nil && !inside && at.Year() >= 0 && at.Year() <= 9999 && !strings.Contains(err.Error(), fmt.Sprintf("year %d UTC is outside", utcYear)):
				t.Errorf("%s %q: %v, want it to name the year %d", layout.format, layout.line, err, utcYear)
			}
		}
	})
}

// FuzzReplayTimes replays lines at arbitrary times (any int64 ns, or pushed
// centuries out), in any order, with any --late and a reorder buffer of 8:
// no panic, every line counted once (replayed, bad, too late or behind the
// full buffer), the buffer within its bound, the replayed times in order and
// within MaxSpan.
func FuzzReplayTimes(f *testing.F) {
	rec := func(at int64, key, shift byte) []byte {
		b := binary.LittleEndian.AppendUint64(nil, uint64(at))
		return append(b, key, shift)
	}
	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC).UnixNano()
	var seed []byte
	for i := range 20 {
		seed = append(seed, rec(t0+int64(i%5)*int64(time.Second), byte(i%3), 0)...)
	}
	f.Add(seed, int64(5*time.Second))
	f.Add(append(rec(t0, 1, 0), rec(t0, 1, 0)...), int64(0))
	decades := append(rec(time.Date(1970, 3, 1, 9, 0, 0, 0, time.UTC).UnixNano(), 1, 0), rec(time.Date(2069, 3, 1, 9, 0, 0, 0, time.UTC).UnixNano(), 1, 0)...)
	decades = append(decades, rec(time.Date(2000, 3, 1, 9, 0, 0, 0, time.UTC).UnixNano(), 2, 0)...)
	f.Add(decades, int64(math.MaxInt64))
	f.Add(append(rec(math.MinInt64, 0, 0), rec(math.MaxInt64, 0, 0)...), int64(math.MaxInt64))
	f.Add(append(rec(t0, 0, 3), rec(t0, 0, 200)...), int64(time.Hour))
	f.Fuzz(func(t *testing.T, data []byte, late int64) {
		if late < 0 {
			late = -(late + 1)
		}
		var log bytes.Buffer
		lines := int64(0)
		for ; len(data) >= 10 && lines < 200; data = data[10:] {
			at := time.Unix(0, int64(binary.LittleEndian.Uint64(data))).UTC()
			at = at.AddDate(100*int(int8(data[9])/8), 0, 0) // now and then centuries out
			fmt.Fprintf(&log, `{"time":%q,"ip":"192.0.2.%d"}`+"\n", at.Format(time.RFC3339Nano), data[8]%4)
			lines++
		}
		run := func(max int) *Result {
			res, err := Replay(context.Background(), []Input{{Name: "fuzz", R: bytes.NewReader(log.Bytes())}}, Options{
				Limits: []Limit{mustLimit(t, "key=ip limit=2/1s burst=2"), mustLimit(t, "key=global limit=5/1h")},
				Format: "json", Late: time.Duration(late), reorderMax: max, Verdicts: true})
			var none *NoneParsedError
			if errors.As(err, &none) && none.Bad == lines && lines > 0 {
				return nil // every line bad: an error, not a table of zeros
			}
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		res := run(8)
		if res == nil {
			return
		}
		if res.BehindFull == 0 { // the bound let no line go unreplayed: nothing else differs either
			if got, want := shown(res), shown(run(1<<30)); !reflect.DeepEqual(got, want) {
				t.Errorf("with a bound of 8 and none behind it:\n%+v\nwithout:\n%+v", got, want)
			}
		}
		if res.Lines != lines || res.Requests+res.Bad+res.TooLate+res.BehindFull != lines {
			t.Errorf("%d lines: %d replayed, %d bad, %d too late, %d behind the full buffer", lines, res.Requests, res.Bad, res.TooLate, res.BehindFull)
		}
		if res.reorderHigh > 8 {
			t.Errorf("the reorder buffer held %d, more than its 8", res.reorderHigh)
		}
		if res.Requests > 0 && (res.Last.Before(res.Origin) || res.Last.Sub(res.Origin) > MaxSpan) {
			t.Errorf("replayed from %v to %v: out of order or more than %v", res.Origin, res.Last, MaxSpan)
		}
		for _, l := range res.Limits {
			for _, lane := range l.Lanes {
				if int64(len(lane.Verdicts)) != res.Requests || lane.Refused > res.Requests {
					t.Errorf("%s: %d verdicts, %d refused, of %d requests", lane.Lane, len(lane.Verdicts), lane.Refused, res.Requests)
				}
			}
		}
	})
}

// shown is what a replay shows (every figure, and each request's verdicts),
// without its workings: key ids, which retirements may give out in another order.
func shown(r *Result) Result {
	c := *r
	c.names, c.lanes, c.deciders, c.traffic, c.reorderHigh = nil, nil, nil, nil, 0
	return c
}
